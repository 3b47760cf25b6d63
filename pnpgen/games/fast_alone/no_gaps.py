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
from pnpgen.content.schema import Each, Text, check, text_for
from pnpgen.content.yamlpos import where
from pnpgen.engine.bots import best_of
from pnpgen.engine.protocol import CHANCE, TERMINAL, Bot, Event, IllegalMove, Outcome, Rules
from pnpgen.errors import BadMove, ContentError, ImpossibleState
from pnpgen.games.fast_alone.dice import roll, roll_multisets
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, Puzzle, collection_table, difficulty_table, settings
from pnpgen.games.words import number

ROLL, PLAY, REROLL, OVER = "roll", "play", "reroll", "over"
WON, NO_REROLLS, NO_DICE = "ng_won", "ng_no_rerolls", "ng_no_dice"
ENDS = (WON, NO_REROLLS, NO_DICE)

SHAPE_SCHEMA: dict[str, Any] = {"name": Text, "points": int, "shape": str}
RULES_SCHEMA: dict[str, Any] = {
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
STATE_SCHEMA: dict[str, Any] = {
    "drawn": [str],
    "dice?": [int],
    "set_aside": int,
    "removed": int,
    "rerolls_used": int,
    "phase": str,
    "end?": str,
    "note?": str,
}


@dataclass(frozen=True)
class Tile:
    """One line of the tile chart: a shape offered by a face, `count` times."""

    id: str  # the shape's id (unique per side)
    face: int
    count: int
    points: int
    size: int
    name: Any  # Text
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


def parse_shape(text: str, container: Any, key: Any) -> tuple[tuple[int, int], ...]:
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


class NoGaps(Puzzle[State, Move]):
    """One board side of No Gaps."""

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        self.content = content
        self.key = key
        self.data = data
        self.siblings: list[NoGaps] = [self]  # every side of this puzzle (set by create)
        self.side = side
        self.id = f"{content.id}/{key}-{side}"
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
        self.name = entry["name"]
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
        masks: list[int] = []
        for shape in self.orientations(cells):
            height = max(r for r, _ in shape) + 1
            width = max(c for _, c in shape) + 1
            for top in range(self.rows - height + 1):
                for left in range(self.cols - width + 1):
                    mask = 0
                    for r, c in shape:
                        mask |= 1 << ((top + r) * self.cols + left + c)
                    if mask not in masks:
                        masks.append(mask)
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

    def end_conditions(self) -> dict[str, str]:
        """This puzzle's ends only (the collection's ends.yaml files are merged)."""
        return {k: v for k, v in super().end_conditions().items() if k in ENDS}

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

    # --- state files ---------------------------------------------------------------------
    def to_data(self, state: State) -> dict[str, Any]:
        data: dict[str, Any] = {
            "drawn": [f"{self.tiles[i].id} {self.cells_text(m)}" for i, m in state.drawn],
        }
        if state.hand:
            data["dice"] = list(state.hand)
        data.update(set_aside=state.aside, removed=state.removed, rerolls_used=state.rerolls, phase=state.phase)
        if state.end:
            data["end"] = state.end
        return data

    def from_data(self, data: Any) -> State:
        if not isinstance(data, dict):
            raise ImpossibleState("a state must be a mapping")
        check(data, STATE_SCHEMA, path="state")

        def bad(message: str, container: Any = data, key: Any = None) -> ImpossibleState:
            return ImpossibleState(message, **where(container, key, value=True))

        drawn = []
        left = [t.count for t in self.tiles]
        filled = 0
        items = data["drawn"]
        for n, item in enumerate(items):
            words = item.split()
            if not words or words[0] not in self.by_id:
                raise bad(f"drawn[{n}]: '{item}' should be a tile id then its cells "
                          f"(tiles: {', '.join(t.id for t in self.tiles)})", items, n)
            index = self.by_id[words[0]]
            try:
                mask = self.parse_cells(item, words[1:])
            except BadMove as err:
                raise bad(f"drawn[{n}]: {err.message}", items, n) from None
            if (index, mask) not in self.mask_tile:
                raise bad(f"drawn[{n}]: cells {self.cells_text(mask)} are not the {words[0]} shape", items, n)
            if mask & filled:
                raise bad(f"drawn[{n}]: {self.cells_text(mask & filled)} already drawn by an earlier tile",
                          items, n)
            left[index] -= 1
            if left[index] < 0:
                raise bad(f"drawn[{n}]: the chart has only {self.tiles[index].count} {words[0]} tile(s)",
                          items, n)
            filled |= mask
            drawn.append((index, mask))
        hand = data.get("dice") or []
        for i, face in enumerate(hand):
            if not 1 <= face <= self.faces:
                raise bad(f"dice[{i}]: {face} is not a face 1–{self.faces}", hand, i)
        phase = data["phase"]
        if phase not in (ROLL, PLAY, REROLL, OVER):
            raise bad(f"phase: '{phase}' is not one of {ROLL}, {PLAY}, {REROLL}, {OVER}", data, "phase")
        end = str(data.get("end", ""))
        if end and end not in ENDS:
            raise bad(f"end: '{end}' is not one of {', '.join(ENDS)}", data, "end")
        state = State(filled, tuple(drawn), tuple(left), tuple(sorted(hand)), int(data["set_aside"]),
                      int(data["removed"]), int(data["rerolls_used"]), phase, end)
        problems = self.check(state)
        if problems:
            key = next((k for k in ("dice", "set_aside", "removed", "rerolls_used", "phase", "end")
                        if problems[0].startswith(k) and k in data), None)
            raise bad(problems[0], data, key)
        return state

    def example_state(self) -> State:
        """Early in a game: two tiles drawn, dice 1 3 5 in hand."""
        return self.from_data({"drawn": ["O4 a1 b1 a2 b2", "D c1 d1"], "dice": [1, 3, 5], "set_aside": 3,
                               "removed": 0, "rerolls_used": 0, "phase": PLAY})

    # --- checks and analysis -------------------------------------------------------------
    def check(self, state: State) -> list[str]:
        problems = []
        dice = len(state.hand) + state.aside + state.removed
        if dice != self.count:
            problems.append(f"dice: {len(state.hand)} in hand, {state.aside} set aside and {state.removed} "
                            f"removed make {dice}, the game has {self.count}")
        if any(d in self.blank for d in state.hand):
            problems.append("dice: a blank face is never kept in hand (it is set aside)")
        if not 0 <= state.rerolls <= self.max_rerolls:
            problems.append(f"rerolls_used is {state.rerolls}; the board has {self.max_rerolls} reroll boxes")
        if state.aside < 0 or state.removed < 0:
            problems.append("set_aside and removed cannot be negative")
        if any(n < 0 for n in state.left):
            problems.append("a tile is drawn more often than the chart offers it")
        if state.phase == PLAY:
            if not state.hand:
                problems.append("phase play needs dice in hand")
            unusable = [d for d in state.hand if not self.fits(state.filled, state.left, d)]
            if unusable:
                problems.append(f"dice: no tile fits for {unusable[0]}, so that die has left the game")
        elif state.hand and state.end != WON:  # the tile that fills the grid wins at once (NG-6)
            problems.append(f"phase {state.phase} with dice in hand")
        if state.phase == ROLL and not state.aside:
            problems.append("phase roll with no dice to roll")
        if state.phase == REROLL and (not state.aside or state.rerolls >= self.max_rerolls):
            problems.append("phase reroll needs dice set aside and a reroll box left")
        full = state.filled == self.full
        if full and state.end != WON:
            problems.append("the grid is full, so the game is won (end ng_won)")
        if state.phase == OVER:
            if state.end == WON and not full:
                problems.append("end is ng_won, but the grid has empty cells")
            if state.end == NO_DICE and state.aside:
                problems.append("end is ng_no_dice, but dice are set aside to roll")
            if state.end == NO_REROLLS and state.rerolls < self.max_rerolls:
                problems.append("end is ng_no_rerolls, but a reroll box is left")
            if not state.end:
                problems.append("phase over needs an end")
        elif state.end:
            problems.append(f"end {state.end} needs phase over")
        return problems

    def evaluate(self, state: State, seat: int) -> float:
        if state.phase == OVER:
            return 1000.0 + self.last_points(state) if state.end == WON else -1000.0
        return self.position_value(state.filled, state.left)

    def regions(self, filled: int) -> list[int]:
        """The empty cells as edge-connected regions (bitmasks)."""
        empty = self.full & ~filled
        result = []
        while empty:
            low = empty & -empty
            region = frontier = low
            while frontier:
                grow = 0
                f = frontier
                while f:
                    bit = f & -f
                    grow |= self.neighbours[bit.bit_length() - 1]
                    f ^= bit
                frontier = grow & empty & ~region
                region |= frontier
            result.append(region)
            empty &= ~region
        return result

    def tileable(self, region: int, left: tuple[int, ...]) -> bool:
        """The region can be covered exactly by tiles not yet crossed off (shapes, not dice)."""
        if not region:
            return True
        low = region & -region  # the first empty cell must be covered by some tile
        counts = list(left)
        for i, tile in enumerate(self.tiles):
            if counts[i]:
                for m in tile.masks:
                    if m & low and m & region == m:
                        counts[i] -= 1
                        if self.tileable(region & ~m, tuple(counts)):
                            return True
                        counts[i] += 1
        return False

    def position_value(self, filled: int, left: tuple[int, ...], hand: tuple[int, ...] = ()) -> float:
        """Solver heuristic: compact empty space, no region that the tiles left cannot fill,
        every face still able to place a tile, no die in hand lost."""
        w = self.weights
        fitting = {f: self.fits(filled, left, f) for f in self.by_face if self.by_face[f]}
        usable = sum(fitting.values())
        lost = sum(not fitting.get(d, False) for d in hand)
        empty = self.full & ~filled
        perimeter = 0
        e = empty
        while e:
            bit = e & -e
            cell = bit.bit_length() - 1
            perimeter += 4 - (self.neighbours[cell] & empty).bit_count()
            e ^= bit
        regions = self.regions(filled)
        sizes = [0] * (self.size + 1)
        for i, tile in enumerate(self.tiles):
            sizes[tile.size] += left[i]
        dead = small = 0
        for region in regions:
            n = region.bit_count()
            if n <= 5:
                small += 1
                if not self.tileable(region, left):
                    dead += 1
            elif not _sum_reachable(sizes, n):
                dead += 1
        kept = sum(left[i] * (6 - t.size) for i, t in enumerate(self.tiles) if t.size <= 3)
        return (-w["perimeter"] * perimeter - w["regions"] * max(0, len(regions) - 1)
                - w["dead"] * dead - w["small_region"] * small + w["tiles_kept"] * kept
                + w["usable_face"] * usable - w["lost_die"] * lost)

    def bots(self) -> dict[str, Any]:
        return {"random": lambda: random_bot(self), "solver": lambda: solver_bot(self)}

    def game_stats(self, state: State) -> dict[str, float]:
        return {
            "turns": float(1 + state.rerolls if state.drawn or state.phase != ROLL else 0),
            "tiles drawn": float(len(state.drawn)),
            "cells filled": float(state.filled.bit_count()),
            "dice removed": float(state.removed),
            "score (last tile points)": float(self.last_points(state) if state.end == WON else 0),
        }

    def picture(self, state: State) -> list[str]:
        """The grid, each cell showing the drawing order (1-9, then letters) of its tile."""
        marks = ["."] * self.size
        symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for n, (_, mask) in enumerate(state.drawn):
            for i in range(self.size):
                if mask >> i & 1:
                    marks[i] = symbols[n % len(symbols)]
        return [" ".join(marks[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]

    def describe(self, state: State) -> str | None:
        lines = [f"{text_for(self.name, 'en')}: columns a–{chr(ord('a') + self.cols - 1)}, rows 1–{self.rows} "
                 "from the top; digits show the order tiles were drawn"]
        lines.append("    " + " ".join(chr(ord("a") + c) for c in range(self.cols)))
        lines += [f"{r + 1:>3} {row}" for r, row in enumerate(self.picture(state))]
        left = ", ".join(f"{t.id}×{state.left[i]}" for i, t in enumerate(self.tiles) if state.left[i])
        lines.append(f"Tiles left: {left or 'none'}")
        lines.append(f"Dice: in hand {' '.join(map(str, state.hand)) or 'none'}, set aside {state.aside}, "
                     f"removed {state.removed}; rerolls used {state.rerolls} of {self.max_rerolls}")
        if state.phase == OVER:
            result = "won" if state.end == WON else "lost"
            lines.append(f"Game over ({state.end}): {result}, score {self.outcome(state).scores[0]:g}")
        elif state.phase == PLAY:
            for face in sorted(set(state.hand)):
                options = [f"{self.tiles[i].id} ({sum(not m & state.filled for m in self.tiles[i].masks)} places)"
                           for i in self.by_face[face] if state.left[i]]
                lines.append(f"  die {face}: {', '.join(o for o in options if '(0 places)' not in o)}")
        else:
            lines.append("A roll is due" if state.phase == ROLL else "Every die is used: reroll")
        return "\n".join(lines)

    # --- rulebook ------------------------------------------------------------------------
    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self, self.data)
        return {
            "difficulty_games": games,
            "difficulty_seed": seed,
            "rows": self.rows,
            "columns": self.cols,
            "cells": self.size,
            "dice": self.count,
            "faces": self.faces,
            "rerolls": self.max_rerolls,
            "blank_faces": "/".join(map(str, sorted(self.blank))),
            "tile_count": sum(t.count for t in self.tiles),
            "tile_cells": sum(t.count * t.size for t in self.tiles),
            "orientations": len(self.transforms),
            "side_name": text_for(self.name, lang),
            "solver_method": "1手先だけを見る貪欲法（すき間のまとまり具合と、残りのタイルで埋め切れるかを評価）"
            if lang == "ja" else "one-move greedy search on a gap heuristic (compact gaps, every gap still fillable)",
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == COLLECTION_TABLE:  # every side of the collection (intro chapter)
            return collection_table(self, lang)
        if name == "difficulty":  # every side of the puzzle, random player and solver
            games, seed, bots = settings(self, self.data)
            return difficulty_table([(text_for(r.name, lang), r) for r in self.siblings], games, seed, bots, lang)
        ja = lang == "ja"
        if name == "tiles":
            head = ["目", "タイル", "形", "点"] if ja else ["Die", "Tile", "Shape", "Points"]
            rows = [head]
            for tile in self.tiles:
                label = f"{tile.id} ×{tile.count}" if tile.count > 1 else tile.id
                rows.append([str(tile.face), f"{label} {text_for(tile.name, lang)}", shape_picture(tile.cells),
                             str(tile.points)])
            for face in sorted(self.blank):
                rows.append([str(face), "なし（使用済みへ）" if ja else "none (set aside)", "", ""])
            return rows
        if name == "chart":  # one row per face: the compact chart of a board sheet
            head = ["目", "タイル"] if ja else ["Die", "Tiles"]
            rows = [head]
            for face in range(1, self.faces + 1):
                items = [f"{t.id}×{t.count}" if t.count > 1 else t.id for t in self.tiles if t.face == face]
                rows.append([str(face), " ".join(items) or ("なし" if ja else "none")])
            return rows
        if name == "sheet_chart":  # the board sheet's chart: per face, its points and each tile's picture
            per_face = [[t for t in self.tiles if t.face == f] for f in range(1, self.faces + 1)]
            width = max(sum(t.count for t in tiles) for tiles in per_face)
            head = ["目", "点", "タイル"] if ja else ["Die", "Points", "Tiles"]
            rows = [head + [""] * (width - 1)]
            for face, tiles in enumerate(per_face, start=1):
                pictures = [shape_picture(t.cells) for t in tiles for _ in range(t.count)]
                points = "/".join(str(p) for p in sorted({t.points for t in tiles})) or "–"
                blank = ("なし" if ja else "none") if face in self.blank else ""
                rows.append([str(face), points, *(pictures or [blank]), *[""] * (width - max(1, len(pictures)))])
            return rows
        raise KeyError(name)


def shape_picture(cells: tuple[tuple[int, int], ...]) -> str:
    """A shape as lines of ■ (cell) and □ (no cell)."""
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    every = set(cells)
    return "\n".join("".join("■" if (r, c) in every else "□" for c in range(width)) for r in range(height))


def _sum_reachable(sizes: list[int], total: int) -> bool:
    """Some tiles left (sizes[k] tiles of k cells) add up to `total` cells."""
    reach = 1
    for size, n in enumerate(sizes):
        for _ in range(n):
            if size:
                reach |= reach << size
    return bool(reach >> total & 1)


def random_bot(rules: NoGaps) -> Bot[State, Move]:
    """A random player: a die in hand, then one of its tiles, then a place for it, each
    equally likely. (The generic `uniform` bot is uniform over every placement, so it
    favours the big tiles, which have the most places.)"""

    def choose(state: State, rng: random.Random) -> Move:
        moves = rules.legal_moves(state)
        face = rng.choice(sorted({m.face for m in moves}))
        tile = rng.choice(sorted({m.tile for m in moves if m.face == face}))
        return rng.choice([m for m in moves if m.face == face and m.tile == tile])

    return choose


def solver_bot(rules: NoGaps) -> Bot[State, Move]:
    """Greedy: every die, tile and placement in hand; keep the best position."""

    def choose(state: State, rng: random.Random) -> Move:
        moves = rules.legal_moves(state)
        if len(moves) == 1:
            return moves[0]

        def value(move: Move) -> float:
            filled = state.filled | move.mask
            if filled == rules.full:
                return 1e6 + rules.tiles[move.tile].points
            left = list(state.left)
            left[move.tile] -= 1
            hand = list(state.hand)
            hand.remove(move.face)
            return rules.position_value(filled, tuple(left), tuple(hand))

        return best_of(((move, value(move)) for move in moves), rng, tolerance=1e-9)

    return choose


def create(content: GameContent, key: str, data: Any) -> list[Rules[Any, Any]]:
    sides = [NoGaps(content, key, data, side) for side in data["sides"]]
    for rules in sides:
        rules.siblings = sides
    return list(sides)
