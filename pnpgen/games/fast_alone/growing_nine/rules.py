"""Growing Nine (ふえていく): GAMES.md §3.2, decisions D-FA-4..6.

Setup is chance in steps: the red and then each white die is rolled with its full
orientation (24 outcomes of 1/24 each). The player places the red and some whites on
the spawn cells (any die on any spawn cell) and the other whites queue in roll order.
Play: every white whose top equals the red's top must tumble (any order); the red
tumbles only when no white matches. A white entering a spawn cell brings the next
queued die onto the partner cell (which must be empty). Win when the queue is empty;
lose when no die can move or a position repeats. The board (size, spawn pairs) is
data in rules.yaml; a die is an orientation index into ORIENTATIONS.

The solver decides a setup exactly. Play is deterministic, and a game that repeats a
position is lost, so a win is a path without repeated positions to the last spawn.
Any path to it can be cut to a simple one (drop each cycle), so a position is winnable
exactly when the last spawn is reachable in the graph of positions, minus the
positions already seen since the last spawn (those would repeat). Reachability
needs no path-dependent memo: one visited set per search is exact.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from functools import cached_property
from itertools import permutations
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Schema, Text
from pnpgen.content.yamlpos import where
from pnpgen.engine.collection import Variant
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome
from pnpgen.errors import BadMove, ContentError
from pnpgen.games.words import number

WON, STUCK, REPEAT = "g9_won", "g9_stuck", "g9_repeat"

ENDS = (WON, STUCK, REPEAT)

RED = 24  # cells hold 0 (empty), 1 + o (a white die), 1 + RED + o (the red), o in 0..23


# --- the cube ------------------------------------------------------------------------
# An orientation is (top, north, east). A right-handed die reads 1, 2, 3 counter-
# clockwise around their corner, so with 1 up and 2 north the 3 faces west (east 4).
DIRS = {"n": (1, 0), "e": (0, 1), "s": (-1, 0), "w": (0, -1)}


def _tumble(o: tuple[int, int, int], d: str) -> tuple[int, int, int]:
    top, north, east = o
    if d == "n":  # the top face goes north, the south face comes up
        return 7 - north, top, east
    if d == "s":
        return north, 7 - top, east
    if d == "e":
        return 7 - east, north, top
    return east, north, 7 - top


def _orientations() -> tuple[tuple[int, int, int], ...]:
    found = [(1, 2, 4)]
    for o in found:
        for d in DIRS:
            nxt = _tumble(o, d)
            if nxt not in found:
                found.append(nxt)
    return tuple(sorted(found))


ORIENTATIONS = _orientations()  # 24

INDEX = {(t, n): i for i, (t, n, _) in enumerate(ORIENTATIONS)}

TOP = tuple(o[0] for o in ORIENTATIONS)

TUMBLE = {d: tuple(ORIENTATIONS.index(_tumble(o, d)) for o in ORIENTATIONS) for d in DIRS}
# per cell value: the white values whose top is the red's (empty unless the value is the red)
MATCHING = tuple(frozenset(w for w in range(1, RED + 1) if v > RED and TOP[w - 1] == TOP[v - RED - 1])
                 for v in range(2 * RED + 1))

SIDE_SCHEMA: Schema = {
    "name": Text,
    "size": int,
    "spawns": Each({"symbol": Text, "mark": str, "cells": [str]}, min=1),
}

RULES_SCHEMA: Schema = {
    "dice": {"whites": int, "red": int},
    "sides": {"*": SIDE_SCHEMA},
    "solver": {"max_nodes": int},
    "difficulty": {"games": int, "bots": Each(str, min=1)},
    "exact": {"setups": int},
}


class Move(NamedTuple):
    kind: str  # "roll", "place" or "tumble"
    orient: int = -1  # roll: the orientation rolled
    dice: tuple[int, ...] = ()  # place: per spawn cell, the die put there (0 red, 1.. whites in roll order)
    cell: int = -1  # tumble: from
    to: int = -1  # tumble: to


class State(NamedTuple):
    rolled: tuple[int, ...]  # setup: the orientations rolled, red first (() once placed)
    cells: tuple[int, ...]  # row by row from the south; see RED
    queue: tuple[int, ...]  # orientations of the waiting whites, next first
    seen: frozenset[tuple[int, ...]]  # positions (cells) since the last spawn, this one included
    turns: int  # tumbles made
    end: str  # "" while the game goes on


def die_text(value: int) -> str:
    o = ORIENTATIONS[(value - 1) % RED]
    return f"{'R' if value > RED else ''}{o[0]}/{o[1]}"




class GrowingNineRules(Variant[State, Move]):
    """One board side of Growing Nine."""

    ENDS = ENDS

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        super().__init__(content, key, data, side)
        entry = data["sides"][side]
        self.n = int(entry["size"])
        if not 3 <= self.n <= 9:
            raise ContentError("size: a board is 3 to 9 cells wide", **where(entry, "size", value=True))
        if int(data["dice"]["red"]) != 1:
            raise ContentError("dice.red: the game has exactly one red die", **where(data["dice"], "red", value=True))
        self.size = self.n * self.n
        self.partner: dict[int, int] = {}
        self.symbol: dict[int, object] = {}  # Text
        self.mark: dict[int, str] = {}
        for spawn in entry["spawns"]:
            names = spawn["cells"]
            if len(names) != 2:
                raise ContentError("spawns: each symbol marks exactly two cells", **where(spawn, "cells"))
            a, b = (self._content_cell(name, names, i) for i, name in enumerate(names))
            if a in self.partner or b in self.partner or a == b:
                raise ContentError("spawns: a cell carries one symbol only", **where(spawn, "cells"))
            self.partner[a], self.partner[b] = b, a
            for c in (a, b):
                self.symbol[c], self.mark[c] = spawn["symbol"], spawn["mark"]
        self.spawn_cells = tuple(sorted(self.partner))
        self.whites = int(data["dice"]["whites"])
        self.start_whites = len(self.spawn_cells) - 1
        if not 1 <= self.start_whites <= self.whites:
            raise ContentError(f"dice.whites: {self.whites} whites cannot fill {self.start_whites} spawn cells "
                               "beside the red", **where(data["dice"], "whites", value=True))
        self.max_nodes = int(data["solver"]["max_nodes"])
        self.adj = tuple(tuple((d, (r + dr) * self.n + c + dc) for d, (dr, dc) in DIRS.items()
                               if 0 <= r + dr < self.n and 0 <= c + dc < self.n)
                         for r in range(self.n) for c in range(self.n))
        self.max_steps = 100_000
        self._placements: tuple[Move, ...] = ()

    def _content_cell(self, name: str, container: object, key: int) -> int:
        try:
            return self.parse_cell(name, name)
        except BadMove as exc:
            raise ContentError(f"spawns: {exc}", **where(container, key, value=True)) from None

    # --- cells ---------------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return f"{'abcdefghi'[cell % self.n]}{cell // self.n + 1}"

    def parse_cell(self, text: str, word: str) -> int:
        m = re.fullmatch(r"([a-i])([1-9])", word.lower())
        if not m or "abcdefghi".index(m[1]) >= self.n or int(m[2]) > self.n:
            last = "abcdefghi"[self.n - 1]
            raise BadMove(f"cannot read move '{text}': '{word}' is not a cell (a1–{last}{self.n})")
        return (int(m[2]) - 1) * self.n + "abcdefghi".index(m[1])

    # --- play ----------------------------------------------------------------------------
    def movers(self, cells: tuple[int, ...]) -> list[int]:
        """The cells of the dice that may move: the whites matching the red, else the red.
        (A position holds one red, the highest value.)"""
        red = cells.index(max(cells))
        matching = MATCHING[cells[red]]
        if matching.isdisjoint(cells):
            return [red]
        return [i for i, v in enumerate(cells) if v in matching]

    def steps(self, cells: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """(from, to, new value) for every legal tumble."""
        result = []
        tumbles = self._tumbles
        for frm in self.movers(cells):
            for to, value, partner in tumbles[frm][cells[frm]]:
                if cells[to] or (partner >= 0 and cells[partner]):
                    continue
                result.append((frm, to, value))
        return result

    @cached_property
    def _tumbles(self) -> tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]:
        """[cell][value]: (to, new value, the spawn partner a white entering `to` needs empty,
        else -1) for each tumble of a die of `value` on `cell`, in adj order."""
        table = []
        for frm in range(self.size):
            row: list[tuple[tuple[int, int, int], ...]] = [()]
            for v in range(1, 2 * RED + 1):
                white = v <= RED
                base = 1 if white else 1 + RED
                row.append(tuple((to, base + TUMBLE[d][v - base],
                                  self.partner[to] if white and to in self.partner else -1)
                                 for d, to in self.adj[frm]))
            table.append(tuple(row))
        return tuple(table)

    def blocked_reason(self, cells: tuple[int, ...], frm: int, to: int) -> str | None:
        """Why the die on `frm` cannot tumble to `to` (None when it can)."""
        v = cells[frm]
        if not v:
            return f"no die stands on {self.cell_name(frm)}"
        if to not in [t for _, t in self.adj[frm]]:
            return f"{self.cell_name(to)} is not next to {self.cell_name(frm)} (a tumble crosses one edge)"
        if frm not in self.movers(cells):
            red_top = TOP[cells[next(i for i, x in enumerate(cells) if x > RED)] - RED - 1]
            if v > RED:
                return f"a white die shows the red's top {red_top}: it must move before the red may"
            return f"this white shows {TOP[v - 1]}, not the red's top {red_top}: only a matching white may " \
                   "move" + (", and while one does, the red waits" if self.movers(cells) != [
                       next(i for i, x in enumerate(cells) if x > RED)] else "; here the red must move")
        if cells[to]:
            return f"{self.cell_name(to)} is occupied"
        if v <= RED and to in self.partner and cells[self.partner[to]]:
            return f"{self.cell_name(to)} is a spawn cell and its partner {self.cell_name(self.partner[to])} " \
                   "is occupied, so no die could appear there"
        return None

    def _after_tumble(self, cells: tuple[int, ...], frm: int, to: int, value: int,
                      queue: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
        new = list(cells)
        new[frm], new[to] = 0, value
        spawned = value <= RED and to in self.partner
        if spawned:
            new[self.partner[to]] = 1 + queue[0]
            queue = queue[1:]
        return tuple(new), queue, spawned

    # --- lifecycle -----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        return State((), (0,) * self.size, (), frozenset(), 0, "")

    def placed(self, state: State) -> bool:
        return any(state.cells)

    def current_player(self, state: State) -> int:
        if state.end:
            return TERMINAL
        if not self.placed(state) and len(state.rolled) <= self.whites:
            return CHANCE
        return 0

    def placements(self, state: State) -> list[Move]:
        """Every placement: the red and distinct whites on the spawn cells (the same for any roll)."""
        if not self._placements:
            dice = range(self.whites + 1)
            self._placements = tuple(Move("place", dice=p) for p in permutations(dice, len(self.spawn_cells))
                                     if 0 in p)
        return list(self._placements)

    def legal_moves(self, state: State) -> list[Move]:
        if self.current_player(state) != 0:
            return []
        if not self.placed(state):
            return self.placements(state)
        return [Move("tumble", cell=f, to=t) for f, t, _ in self.steps(state.cells)]

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if self.current_player(state) != CHANCE:
            return []
        return [(Move("roll", orient=o), Fraction(1, len(ORIENTATIONS))) for o in range(len(ORIENTATIONS))]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        return Move("roll", orient=rng.randrange(len(ORIENTATIONS)))

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.end:
            raise IllegalMove("G9-6", "the game is over")
        if move.kind == "roll":
            if self.current_player(state) != CHANCE:
                raise IllegalMove("G9-2", "all ten dice are already rolled")
            if not 0 <= move.orient < len(ORIENTATIONS):
                raise IllegalMove("G9-2", "a die lands in one of 24 orientations")
            which = "red" if not state.rolled else f"white {len(state.rolled)}"
            text = die_text(1 + move.orient + (RED if not state.rolled else 0))
            return state._replace(rolled=state.rolled + (move.orient,)), [
                Event("roll", lambda: f"{which} rolled {text}", {"die": which, "orientation": text})]
        if self.current_player(state) == CHANCE:
            raise IllegalMove("G9-2", "roll all the dice first")
        if move.kind == "place":
            return self._place(state, move)
        if move.kind == "tumble":
            return self._tumble(state, move)
        raise IllegalMove("G9-3", f"unknown move {move.kind}")

    def _place(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if self.placed(state):
            raise IllegalMove("G9-2", "the dice are already placed")
        dice = move.dice
        if len(dice) != len(self.spawn_cells) or len(set(dice)) != len(dice) or 0 not in dice \
                or not all(0 <= d <= self.whites for d in dice):
            raise IllegalMove("G9-2", f"put the red and {self.start_whites} different whites, one on each of the "
                              f"{len(self.spawn_cells)} spawn cells")
        cells = [0] * self.size
        for cell, d in zip(self.spawn_cells, dice, strict=True):
            cells[cell] = 1 + state.rolled[d] + (RED if d == 0 else 0)
        queue = tuple(state.rolled[d] for d in range(1, self.whites + 1) if d not in dice)
        new = State((), tuple(cells), queue, frozenset([tuple(cells)]), 0, "")
        events = [Event("place", lambda: "placed " + self.format_move(move), {"place": self.format_move(move)})]
        return self._settle(new, events)

    def _tumble(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if not self.placed(state):
            raise IllegalMove("G9-2", "place the dice on the spawn cells first")
        for c in (move.cell, move.to):
            if not 0 <= c < self.size:
                raise IllegalMove("G9-3", f"cell {c} is not on the board")
        why = self.blocked_reason(state.cells, move.cell, move.to)
        if why:
            rule = "G9-4" if "top" in why else "G9-5" if "spawn" in why else "G9-3"
            raise IllegalMove(rule, why)
        d = next(d for d, t in self.adj[move.cell] if t == move.to)
        v = state.cells[move.cell]
        base = 1 if v <= RED else 1 + RED
        value = base + TUMBLE[d][v - base]
        cells, queue, spawned = self._after_tumble(state.cells, move.cell, move.to, value, state.queue)
        frm, to = self.cell_name(move.cell), self.cell_name(move.to)
        colour = "white" if v <= RED else "red"
        events = [Event("tumble", lambda: f"the {colour} die tumbles {frm}→{to}, now {die_text(value)}",
                        {"die": colour, "from": frm, "to": to, "top": TOP[(value - 1) % RED]})]
        turns = state.turns + 1
        if spawned:
            at, shown = self.cell_name(self.partner[move.to]), cells[self.partner[move.to]]
            events.append(Event("spawn", lambda: f"a queued white appears on {at} showing {die_text(shown)}",
                                {"cell": at, "top": TOP[shown - 1], "queue": len(queue)}))
            new = State((), cells, queue, frozenset([cells]), turns, "")
            if not queue:
                events.append(Event("won", lambda: f"all {self.whites} whites are on the board after {turns} "
                                    "tumbles: the game is won", {"end": WON, "turns": turns}))
                return new._replace(end=WON), events
            return self._settle(new, events)
        if cells in state.seen:
            events.append(Event("repeat", "this position was already seen: play repeats, the game is lost",
                                {"end": REPEAT}))
            return State((), cells, queue, state.seen, turns, REPEAT), events
        return self._settle(State((), cells, queue, state.seen | {cells}, turns, ""), events)

    def _settle(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        if not self.steps(state.cells):
            movers = " ".join(self.cell_name(c) for c in self.movers(state.cells))
            events.append(Event("stuck", lambda: f"the die on {movers} must move but cannot: the game is lost",
                                {"end": STUCK, "dice": movers.split()}))
            return state._replace(end=STUCK), events
        return state, events

    def outcome(self, state: State) -> Outcome:
        if state.end == WON:
            return Outcome((0,), (float(state.turns),), WON)
        return Outcome((), (float(-len(state.queue) - (0 if self.placed(state) else self.whites)),), state.end)

    # --- notation ------------------------------------------------------------------------
    def parse_move(self, text: str, state: State | None = None) -> Move:
        words = text.replace(",", " ").split()
        forms = "'roll 3/1', 'place a1=R a4=2 d1=5 d4=7', 'b1-b2' or 'b1 n'"
        if not words:
            raise BadMove(f"cannot read an empty move: expected {forms}")
        head = words[0].lower()
        if head == "roll" and len(words) == 2:
            m = re.fullmatch(r"R?([1-6])/([1-6])", words[1])
            if not m or (int(m[1]), int(m[2])) not in INDEX:
                raise BadMove(f"cannot read move '{text}': a die is top/north with adjacent faces, e.g. 3/1")
            return Move("roll", orient=INDEX[(int(m[1]), int(m[2]))])
        if head == "place":
            chosen: dict[int, int] = {}
            for word in words[1:]:
                cell, _, die = word.partition("=")
                white = number(die)
                if not (die.upper() == "R" or white is not None):
                    raise BadMove(f"cannot read move '{text}': '{word}' is cell=R or cell=white number")
                chosen[self.parse_cell(text, cell)] = white or 0
            if sorted(chosen) != list(self.spawn_cells):
                raise BadMove(f"cannot read move '{text}': name every spawn cell once "
                              f"({' '.join(map(self.cell_name, self.spawn_cells))})")
            return Move("place", dice=tuple(chosen[c] for c in self.spawn_cells))
        if len(words) == 1 and "-" in words[0]:
            a, _, b = words[0].partition("-")
            return Move("tumble", cell=self.parse_cell(text, a), to=self.parse_cell(text, b))
        if len(words) == 2 and words[1].lower() in DIRS:
            frm = self.parse_cell(text, words[0])
            dr, dc = DIRS[words[1].lower()]
            r, c = divmod(frm, self.n)
            if not (0 <= r + dr < self.n and 0 <= c + dc < self.n):
                raise BadMove(f"cannot read move '{text}': that tumble leaves the board")
            return Move("tumble", cell=frm, to=(r + dr) * self.n + c + dc)
        raise BadMove(f"cannot read move '{text}': expected {forms}")

    def format_move(self, move: Move) -> str:
        if move.kind == "roll":
            o = ORIENTATIONS[move.orient]
            return f"roll {o[0]}/{o[1]}"
        if move.kind == "place":
            return "place " + " ".join(f"{self.cell_name(c)}={'R' if d == 0 else d}"
                                       for c, d in zip(self.spawn_cells, move.dice, strict=True))
        return f"{self.cell_name(move.cell)}-{self.cell_name(move.to)}"

    # --- state files ---------------------------------------------------------------------
    def grid_lines(self, cells: tuple[int, ...]) -> list[str]:
        """Rows from north (top) to south, '.' for an empty cell."""
        return [" ".join(die_text(v) if v else "." for v in cells[r * self.n:(r + 1) * self.n])
                for r in reversed(range(self.n))]
