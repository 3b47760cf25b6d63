"""No Gaps (すきまなく): GAMES.md §3.3, decision D-FA-7.

Six dice are rolled (a chance node: one outcome per multiset). One die at a time, the
player draws an unused tile of its face in the grid (any orientation the data allows)
and crosses the tile off. Dice showing a blank face are set aside; a die whose face has
no tile left that fits leaves the game. Once no die is left in hand, the set-aside dice
are rerolled (a reroll box is ticked). Win by filling the grid; lose when no die can be
used and no reroll is left. Tiles are ASCII grids in rules.yaml; the grid is a bitmask.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Schema, Text
from pnpgen.content.yamlpos import where
from pnpgen.engine.collection import Variant
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome
from pnpgen.errors import BadMove, ContentError
from pnpgen.games.fast_alone.dice import roll, roll_multisets
from pnpgen.games.words import number

ROLL, PLAY, REROLL, OVER = "roll", "play", "reroll", "over"

WON, NO_REROLLS, NO_DICE = "ng_won", "ng_no_rerolls", "ng_no_dice"

ENDS = (WON, NO_REROLLS, NO_DICE)

SHAPE_SCHEMA: Schema = {"name": Text, "points": int, "shape": str}

RULES_SCHEMA: Schema = {
    "grid": {"rows": int, "columns": int},
    "dice": {"count": int, "faces": int},
    "rerolls": int,
    "blank_faces": [int],
    "transforms": Each({"name": Text, "matrix": [[int]]}, min=1),
    "shapes": {"*": SHAPE_SCHEMA},
    "sides": {"*": {"name": Text, "tiles": {"*": [str]}}},
    "solver": {"perimeter": float, "regions": float, "dead": float, "small_region": float,
               "tiles_kept": float, "usable_face": float, "lost_die": float},
    "difficulty": {"games": int, "bots": Each(str, min=1)},
}


@dataclass(frozen=True)
class Tile:
    """One line of the tile chart: a shape offered by a face, `count` times."""

    id: str  # the shape's id (unique per side)
    face: int
    count: int
    points: int
    size: int
    name: object  # Text
    cells: tuple[tuple[int, int], ...]  # the shape as drawn (row, column)
    masks: tuple[int, ...]  # every placement on the grid, one bit per cell


class Move(NamedTuple):
    kind: str  # "roll", "place" or "reroll"
    face: int = 0  # place: the die used
    tile: int = -1  # place: index in the side's tile list
    mask: int = 0  # place: the cells covered
    dice: tuple[int, ...] = ()  # roll: the faces rolled


class State(NamedTuple):
    filled: int  # bitmask of filled cells
    drawn: tuple[tuple[int, int], ...]  # (tile, mask) in drawing order
    left: tuple[int, ...]  # tiles not yet crossed off, per tile
    hand: tuple[int, ...]  # dice to use, sorted
    aside: int  # dice set aside (used, or blank), rolled next
    removed: int  # dice out of the game
    rerolls: int  # reroll boxes ticked
    phase: str
    end: str


def parse_shape(text: str, container: object, key: object) -> tuple[tuple[int, int], ...]:
    """'#' cells of an ASCII grid, as (row, column) from the top-left."""
    cells = []
    for r, line in enumerate(text.strip("\n").splitlines()):
        for c, ch in enumerate(line.strip()):
            if ch == "#":
                cells.append((r, c))
            elif ch not in ".":
                raise ContentError(f"shape: '{ch}' is not '#' (a cell) or '.' (no cell)",
                                   **where(container, key, value=True))
    if not cells:
        raise ContentError("shape: no '#' cell", **where(container, key, value=True))
    return tuple(cells)


def _normal(cells: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def connected(cells: tuple[tuple[int, int], ...]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    every = set(cells)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in every and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(every)


class NoGapsRules(Variant[State, Move]):
    """One board side of No Gaps."""

    ENDS = ENDS

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        super().__init__(content, key, data, side)
        self.rows = int(data["grid"]["rows"])
        self.cols = int(data["grid"]["columns"])
        self.size = self.rows * self.cols
        self.full = (1 << self.size) - 1
        self.count = int(data["dice"]["count"])
        self.faces = int(data["dice"]["faces"])
        self.max_rerolls = int(data["rerolls"])
        self.blank = frozenset(int(f) for f in data["blank_faces"])
        self._check_numbers(data)
        self.transforms = self._transforms(data)
        entry = data["sides"][side]
        self.tiles = self._tiles(data, entry["tiles"], side)
        self.by_id = {t.id: i for i, t in enumerate(self.tiles)}
        self.by_face: dict[int, tuple[int, ...]] = {
            f: tuple(i for i, t in enumerate(self.tiles) if t.face == f) for f in range(1, self.faces + 1)}
        self.mask_tile = {(i, m) for i, t in enumerate(self.tiles) for m in t.masks}
        solver = data["solver"]
        self.weights = {k: float(v) for k, v in solver.items()}
        self.neighbours = tuple(self._neighbour_mask(i) for i in range(self.size))
        self.max_steps = 4 * self.size + 4 * (self.max_rerolls + 1) * self.count

    # --- content -------------------------------------------------------------------------
    def _check_numbers(self, data: Any) -> None:
        dice = data["dice"]
        if not (1 <= self.rows <= 12 and 1 <= self.cols <= 12):
            raise ContentError("grid: rows and columns between 1 and 12", **where(data, "grid"))
        if not 1 <= self.count <= 12:
            raise ContentError("dice.count: between 1 and 12 dice", **where(dice, "count", value=True))
        if not 2 <= self.faces <= 20:
            raise ContentError("dice.faces: between 2 and 20 faces", **where(dice, "faces", value=True))
        if self.max_rerolls < 0:
            raise ContentError("rerolls: cannot be negative", **where(data, "rerolls", value=True))

    def _transforms(self, data: Any) -> tuple[tuple[int, int, int, int], ...]:
        result = []
        for item in data["transforms"]:
            m = item["matrix"]
            flat = [v for row in m for v in row] if len(m) == 2 and all(len(r) == 2 for r in m) else []
            if len(flat) != 4 or any(v not in (-1, 0, 1) for v in flat) or \
                    abs(flat[0] * flat[3] - flat[1] * flat[2]) != 1 or \
                    sum(abs(v) for v in flat) != 2:
                raise ContentError("transforms: a matrix is [[a, b], [c, d]] of a turn or a mirror "
                                   "(entries -1, 0, 1, one non-zero per row and column)",
                                   **where(item, "matrix", value=True))
            result.append((flat[0], flat[1], flat[2], flat[3]))
        return tuple(result)

    def orientations(self, cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
        """The distinct shapes the transforms make of `cells` (normalised to the top-left)."""
        seen: list[tuple[tuple[int, int], ...]] = []
        for a, b, c, d in self.transforms:
            shape = _normal([(a * r + b * col, c * r + d * col) for r, col in cells])
            if shape not in seen:
                seen.append(shape)
        return seen

    def _masks(self, cells: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        masks: dict[int, None] = {}  # in order of first placement
        for shape in self.orientations(cells):
            height = max(r for r, _ in shape) + 1
            width = max(c for _, c in shape) + 1
            at_origin = sum(1 << (r * self.cols + c) for r, c in shape)
            for top in range(self.rows - height + 1):
                for left in range(self.cols - width + 1):
                    masks[at_origin << (top * self.cols + left)] = None
        return tuple(masks)

    def _tiles(self, data: Any, chart: Any, side: str) -> tuple[Tile, ...]:
        shapes = data["shapes"]
        tiles: list[Tile] = []
        owner: dict[str, int] = {}
        for face_key, ids in chart.items():
            face = int(face_key) if str(face_key).isdigit() else -1
            if not 1 <= face <= self.faces or face in self.blank:
                raise ContentError(f"sides.{side}.tiles: '{face_key}' is not a face 1–{self.faces} "
                                   "that offers tiles", **where(chart, face_key))
            for index, sid in enumerate(ids):
                if sid not in shapes:
                    known = ", ".join(shapes)
                    raise ContentError(f"sides.{side}.tiles.{face}: unknown shape '{sid}' (shapes: {known})",
                                       **where(ids, index))
                if owner.get(sid, face) != face:
                    raise ContentError(f"sides.{side}.tiles.{face}: shape '{sid}' is already offered by "
                                       f"face {owner[sid]}", **where(ids, index))
                owner[sid] = face
        for sid, face in owner.items():
            shape = shapes[sid]
            cells = parse_shape(shape["shape"], shape, "shape")
            if not connected(cells):
                raise ContentError(f"shapes.{sid}: the cells must touch edge to edge",
                                   **where(shape, "shape", value=True))
            count = sum(list(ids).count(sid) for ids in chart.values())
            tiles.append(Tile(sid, face, count, int(shape["points"]), len(cells), shape["name"],
                              cells, self._masks(cells)))
        tiles.sort(key=lambda t: (t.face, list(owner).index(t.id)))
        return tuple(tiles)

    def _neighbour_mask(self, cell: int) -> int:
        r, c = divmod(cell, self.cols)
        mask = 0
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                mask |= 1 << (rr * self.cols + cc)
        return mask

    # --- cells ---------------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return f"{chr(ord('a') + cell % self.cols)}{cell // self.cols + 1}"

    def cells_text(self, mask: int) -> str:
        return " ".join(self.cell_name(i) for i in range(self.size) if mask >> i & 1)

    def fits(self, state_filled: int, left: tuple[int, ...], face: int) -> bool:
        """Some tile of `face` not yet crossed off fits in the empty cells."""
        for i in self.by_face.get(face, ()):
            if left[i] and any(not m & state_filled for m in self.tiles[i].masks):
                return True
        return False

    # --- lifecycle -----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        return State(0, (), tuple(t.count for t in self.tiles), (), self.count, 0, 0, ROLL, "")

    def current_player(self, state: State) -> int:
        if state.phase == OVER:
            return TERMINAL
        return CHANCE if state.phase == ROLL else 0

    def legal_moves(self, state: State) -> list[Move]:
        if state.phase == REROLL:
            return [Move("reroll")]
        if state.phase != PLAY:
            return []
        filled, moves = state.filled, []
        for face in sorted(set(state.hand)):
            for i in self.by_face.get(face, ()):
                if state.left[i]:
                    moves += [Move("place", face, i, m) for m in self.tiles[i].masks if not m & filled]
        return moves

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if state.phase != ROLL:
            return []
        return [(Move("roll", dice=d), p) for d, p in roll_multisets(state.aside, self.faces)]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        return Move("roll", dice=roll(state.aside, self.faces, rng))

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.phase == OVER:
            raise IllegalMove("NG-6", "the game is over")
        if move.kind == "roll":
            if state.phase != ROLL:
                raise IllegalMove("NG-2", "no roll is due: use the dice in hand" if state.phase == PLAY
                                  else "no roll is due: tick a reroll box first")
            return self._roll(state, move)
        if state.phase == ROLL:
            raise IllegalMove("NG-2", f"the {state.aside} dice must be rolled first")
        if move.kind == "reroll":
            if state.phase != REROLL:
                raise IllegalMove("NG-4", f"the dice in hand ({' '.join(map(str, state.hand))}) must be "
                                  "used before the reroll")
            return self._reroll(state)
        if move.kind == "place":
            if state.phase != PLAY:
                raise IllegalMove("NG-3", "no die is in hand: reroll")
            return self._place(state, move)
        raise IllegalMove("NG-3", f"unknown move {move.kind}")

    def _roll(self, state: State, move: Move) -> tuple[State, list[Event]]:
        dice = tuple(sorted(move.dice))
        if len(dice) != state.aside or not all(1 <= d <= self.faces for d in dice):
            raise IllegalMove("NG-2", f"the roll is {state.aside} faces 1–{self.faces}")
        shown = " ".join(map(str, dice))
        events = [Event("roll", lambda: f"roll {shown}", {"dice": list(dice)})]
        blanks = [d for d in dice if d in self.blank]
        if blanks:
            events.append(Event("set_aside", lambda: f"{len(blanks)} blank die(s) set aside (no tile)",
                                {"dice": blanks}))
        hand = tuple(d for d in dice if d not in self.blank)
        new = state._replace(hand=hand, aside=len(blanks), phase=PLAY)
        return self._settle(new, events)

    def _reroll(self, state: State) -> tuple[State, list[Event]]:
        box = state.rerolls + 1
        events = [Event("reroll", lambda: f"reroll box {box} of {self.max_rerolls} ticked: roll "
                        f"{state.aside} dice", {"box": box, "dice": state.aside})]
        return state._replace(rerolls=box, phase=ROLL), events

    def _place(self, state: State, move: Move) -> tuple[State, list[Event]]:
        face, index, mask = move.face, move.tile, move.mask
        if face not in state.hand:
            raise IllegalMove("NG-3", f"no die in hand shows {face} (hand: {' '.join(map(str, state.hand))})")
        if not 0 <= index < len(self.tiles):
            raise IllegalMove("NG-3", f"tile {index} is not on the chart")
        tile = self.tiles[index]
        if tile.face != face:
            raise IllegalMove("NG-3", f"tile {tile.id} belongs to face {tile.face}, not {face}")
        if not state.left[index]:
            raise IllegalMove("NG-3.2", f"every {tile.id} tile is crossed off already")
        if (index, mask) not in self.mask_tile:
            raise IllegalMove("NG-3.1", f"cells {self.cells_text(mask)} are not the {tile.id} shape in any "
                              "allowed orientation")
        if mask & state.filled:
            raise IllegalMove("NG-3.1", f"cell(s) {self.cells_text(mask & state.filled)} already filled")
        hand = list(state.hand)
        hand.remove(face)
        left = list(state.left)
        left[index] -= 1
        cells = self.cells_text(mask)
        new = state._replace(filled=state.filled | mask, drawn=state.drawn + ((index, mask),),
                             left=tuple(left), hand=tuple(hand), aside=state.aside + 1)
        events = [Event("place", lambda: f"die {face}: tile {tile.id} on {cells}",
                        {"face": face, "tile": tile.id, "cells": cells.split()})]
        if new.filled == self.full:
            events.append(Event("won", lambda: f"the grid is full: won, {tile.points} point(s) for the last "
                                f"tile {tile.id}", {"end": WON, "score": tile.points}))
            return new._replace(phase=OVER, end=WON), events
        return self._settle(new, events)

    def _settle(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Dice with no fitting tile leave the game; an empty hand means a reroll, or the end."""
        keep = tuple(d for d in state.hand if self.fits(state.filled, state.left, d))
        if len(keep) < len(state.hand):
            gone = [d for d in state.hand if d not in keep]
            events.append(Event("removed", lambda: f"no tile fits for {' '.join(map(str, gone))}: "
                                f"{'that die leaves' if len(gone) == 1 else 'those dice leave'} the game",
                                {"dice": gone}))
            state = state._replace(hand=keep, removed=state.removed + len(gone))
        if state.hand:
            return state, events
        if not state.aside:
            events.append(Event("lost", "no dice are left to roll: the game is lost", {"end": NO_DICE}))
            return state._replace(phase=OVER, end=NO_DICE), events
        if state.rerolls >= self.max_rerolls:
            events.append(Event("lost", f"all {self.max_rerolls} rerolls are used and the grid is not full: "
                                "the game is lost", {"end": NO_REROLLS}))
            return state._replace(phase=OVER, end=NO_REROLLS), events
        return state._replace(phase=REROLL), events

    def outcome(self, state: State) -> Outcome:
        if state.end == WON:
            return Outcome((0,), (float(self.last_points(state)),), WON)
        return Outcome((), (0.0,), state.end)

    def last_points(self, state: State) -> int:
        return self.tiles[state.drawn[-1][0]].points if state.drawn else 0

    # --- notation ------------------------------------------------------------------------
    def parse_cells(self, text: str, words: list[str]) -> int:
        mask = 0
        last = chr(ord("a") + self.cols - 1)
        for word in words:
            m = re.fullmatch(r"([a-z])([0-9]{1,9})", word.lower())
            if not m or not (ord(m[1]) - ord("a") < self.cols and 1 <= int(m[2]) <= self.rows):
                raise BadMove(f"cannot read move '{text}': '{word}' is not a cell (a1–{last}{self.rows}: "
                              "column letter, then row number from the top)")
            bit = 1 << ((int(m[2]) - 1) * self.cols + ord(m[1]) - ord("a"))
            if mask & bit:
                raise BadMove(f"cannot read move '{text}': cell {word} is named twice")
            mask |= bit
        return mask

    def parse_move(self, text: str, state: State | None = None) -> Move:
        words = text.split()
        forms = "'roll 1 2 3 4 5 6', '5 F5 at b1 c1 a2 b2 b3' (die, tile, cells) or 'reroll'"
        if not words:
            raise BadMove(f"cannot read an empty move: expected {forms}")
        head = words[0].lower()
        if head == "reroll" and len(words) == 1:
            return Move("reroll")
        if head == "roll":
            faces = [number(w) or 0 for w in words[1:]]
            if not all(1 <= f <= self.faces for f in faces):
                raise BadMove(f"cannot read move '{text}': dice are faces 1–{self.faces}")
            return Move("roll", dice=tuple(sorted(faces)))
        if number(head) is not None and len(words) >= 4 and words[2].lower() == "at":
            if words[1] not in self.by_id:
                raise BadMove(f"cannot read move '{text}': '{words[1]}' is not a tile of this side "
                              f"({', '.join(t.id for t in self.tiles)})")
            return Move("place", number(head) or 0, self.by_id[words[1]], self.parse_cells(text, words[3:]))
        raise BadMove(f"cannot read move '{text}': expected {forms}")

    def format_move(self, move: Move) -> str:
        if move.kind == "roll":
            return " ".join(["roll", *map(str, move.dice)])
        if move.kind == "reroll":
            return "reroll"
        return f"{move.face} {self.tiles[move.tile].id} at {self.cells_text(move.mask)}"
