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
import time
from fractions import Fraction
from itertools import permutations
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Text, check, text_for
from pnpgen.content.yamlpos import where
from pnpgen.engine.metrics import wilson_interval
from pnpgen.engine.protocol import CHANCE, TERMINAL, Bot, Event, IllegalMove, Outcome, Rules
from pnpgen.errors import BadMove, ContentError, ImpossibleState
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, Puzzle, collection_table, difficulty_table, settings
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

SIDE_SCHEMA: dict[str, Any] = {
    "name": Text,
    "size": int,
    "spawns": Each({"symbol": Text, "mark": str, "cells": [str]}, min=1),
}
RULES_SCHEMA: dict[str, Any] = {
    "dice": {"whites": int, "red": int},
    "sides": {"*": SIDE_SCHEMA},
    "solver": {"max_nodes": int},
    "difficulty": {"games": int, "bots": Each(str, min=1)},
    "exact": {"setups": int},
}
STATE_SCHEMA: dict[str, Any] = {
    "rolled?": [str],
    "grid?": [str],
    "queue?": [str],
    "history?": [[str]],
    "turns?": int,
    "end?": str,
    "note?": str,
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


class Search(NamedTuple):
    won: bool | None  # None: gave up after max_nodes positions
    nodes: int
    moves: tuple[Move, ...]  # a winning line (empty when none)


def die_text(value: int) -> str:
    o = ORIENTATIONS[(value - 1) % RED]
    return f"{'R' if value > RED else ''}{o[0]}/{o[1]}"


class GrowingNine(Puzzle[State, Move]):
    """One board side of Growing Nine."""

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        self.content = content
        self.key = key
        self.data = data
        self.siblings: list[GrowingNine] = [self]
        self.id = f"{content.id}/{key}-{side}"
        entry = data["sides"][side]
        self.side_name = entry["name"]
        self.n = int(entry["size"])
        if not 3 <= self.n <= 9:
            raise ContentError("size: a board is 3 to 9 cells wide", **where(entry, "size", value=True))
        if int(data["dice"]["red"]) != 1:
            raise ContentError("dice.red: the game has exactly one red die", **where(data["dice"], "red", value=True))
        self.size = self.n * self.n
        self.partner: dict[int, int] = {}
        self.symbol: dict[int, Any] = {}
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

    def _content_cell(self, name: str, container: Any, key: int) -> int:
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
        """The cells of the dice that may move: the whites matching the red, else the red."""
        red = next(i for i, v in enumerate(cells) if v > RED)
        top = TOP[cells[red] - RED - 1]
        forced = [i for i, v in enumerate(cells) if 0 < v <= RED and TOP[v - 1] == top]
        return forced or [red]

    def steps(self, cells: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """(from, to, new value) for every legal tumble."""
        result = []
        for frm in self.movers(cells):
            v = cells[frm]
            white = v <= RED
            base = 1 if white else 1 + RED
            for d, to in self.adj[frm]:
                if cells[to] or (white and to in self.partner and cells[self.partner[to]]):
                    continue
                result.append((frm, to, base + TUMBLE[d][v - base]))
        return result

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

    def end_conditions(self) -> dict[str, str]:
        """This puzzle's ends only (the collection's ends.yaml files are merged)."""
        return {k: v for k, v in super().end_conditions().items() if k in ENDS}

    def outcome(self, state: State) -> Outcome:
        if state.end == WON:
            return Outcome((0,), (float(state.turns),), WON)
        return Outcome((), (float(-len(state.queue) - (0 if self.placed(state) else self.whites)),), state.end)

    # --- the exact solver ----------------------------------------------------------------
    def search(self, cells: tuple[int, ...], queue: tuple[int, ...], seen: frozenset[tuple[int, ...]] = frozenset(),
               limit: int = 0, dead: set[tuple[int, ...]] | None = None,
               winning: set[tuple[int, ...]] | None = None) -> Search:
        """Depth-first search for the last spawn, never entering `seen` (module docstring).

        `dead` and `winning` may be shared between searches from empty histories with the
        same queue: `dead` holds positions proven not to lead to a win (a failed search
        adds every position it saw) and `winning` positions proven to (reaching one ends
        the search; its line is then not returned). A position left behind by a search
        that won may still win through one on the stack, so only failures feed `dead`."""
        dead = set() if dead is None else dead
        winning = set() if winning is None else winning
        visited = set(seen)
        visited.add(cells)
        total = len(queue)
        nodes = 1
        path: list[Move] = []
        stack = [(cells, total - len(queue), iter(self.steps(cells)))]
        while stack:
            here, spawned, options = stack[-1]
            step = next(options, None)
            if step is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            frm, to, value = step
            new, rest, _ = self._after_tumble(here, frm, to, value, queue[spawned:])
            if not rest or new in winning:
                winning.update(alive for alive, _, _ in stack)
                return Search(True, nodes, tuple(path) + (Move("tumble", cell=frm, to=to),))
            if new in visited or new in dead:
                continue
            visited.add(new)
            nodes += 1
            if limit and nodes > limit:
                return Search(None, nodes, ())
            path.append(Move("tumble", cell=frm, to=to))
            stack.append((new, total - len(rest), iter(self.steps(new))))
        if not seen:
            dead |= visited
        return Search(False, nodes, ())

    def solve_placement(self, state: State) -> tuple[Search, Move | None]:
        """Every placement of a rolled setup (sharing the dead positions of those with the
        same queue) until one wins."""
        nodes = 0
        dead: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        for move in self.placements(state):
            placed, _ = self._place(state, move)
            if placed.end:
                continue
            shared = dead.setdefault(placed.queue, set())
            if placed.cells in shared:
                continue
            if self.max_nodes and nodes >= self.max_nodes:
                return Search(None, nodes, ()), None
            limit = self.max_nodes - nodes if self.max_nodes else 0
            found = self.search(placed.cells, placed.queue, limit=limit, dead=shared)
            nodes += found.nodes
            if found.won is None:
                return Search(None, nodes, ()), None
            if found.won:
                return Search(True, nodes, found.moves), move
        return Search(False, nodes, ()), None

    def placement_wins(self, state: State) -> tuple[int, int, int]:
        """(winning placements, placements, positions searched) of a rolled setup: the
        win rate of a player who places at random and then plays perfectly."""
        nodes = wins = 0
        dead: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        good: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        moves = self.placements(state)
        for move in moves:
            placed, _ = self._place(state, move)
            if placed.end:
                continue
            found = self.search(placed.cells, placed.queue, dead=dead.setdefault(placed.queue, set()),
                                winning=good.setdefault(placed.queue, set()))
            nodes += found.nodes
            wins += bool(found.won)
        return wins, len(moves), nodes

    def solve(self, state: State) -> Search:
        """Exact: can this state still be won?"""
        if state.end:
            return Search(state.end == WON, 0, ())
        if not self.placed(state):
            return self.solve_placement(state)[0]
        return self.search(state.cells, state.queue, state.seen - {state.cells}, self.max_nodes)

    # --- state files ---------------------------------------------------------------------
    def grid_lines(self, cells: tuple[int, ...]) -> list[str]:
        """Rows from north (top) to south, '.' for an empty cell."""
        return [" ".join(die_text(v) if v else "." for v in cells[r * self.n:(r + 1) * self.n])
                for r in reversed(range(self.n))]

    def to_data(self, state: State) -> dict[str, Any]:
        if not self.placed(state):
            data: dict[str, Any] = {"rolled": [die_text(1 + o + (RED if i == 0 else 0))
                                               for i, o in enumerate(state.rolled)]}
        else:
            data = {"grid": self.grid_lines(state.cells), "queue": [die_text(1 + o) for o in state.queue]}
            history = [self.grid_lines(c) for c in sorted(state.seen - {state.cells})]
            if history:
                data["history"] = history
        data["turns"] = state.turns
        if state.end:
            data["end"] = state.end
        return data

    def _die(self, word: str, red: bool | None, container: Any, key: Any) -> int:
        m = re.fullmatch(r"(R?)([1-6])/([1-6])", word)
        if not m or (int(m[2]), int(m[3])) not in INDEX:
            raise ImpossibleState(f"'{word}' is not a die: top/north with adjacent faces (e.g. 3/1, R3/1 for the red)",
                                  **where(container, key, value=True))
        if red is not None and bool(m[1]) != red:
            raise ImpossibleState(f"'{word}': {'the red' if red else 'a white'} die expected here",
                                  **where(container, key, value=True))
        return 1 + INDEX[(int(m[2]), int(m[3]))] + (RED if m[1] else 0)

    def _grid(self, rows: Any, container: Any, key: Any) -> tuple[int, ...]:
        if len(rows) != self.n:
            raise ImpossibleState(f"grid: {len(rows)} rows, the board has {self.n}", **where(container, key))
        cells = [0] * self.size
        for r, line in enumerate(rows):
            words = line.split()
            if len(words) != self.n:
                raise ImpossibleState(f"grid row {self.n - r}: {len(words)} cells, the board has {self.n} "
                                      "('.' or a die like 3/1 or R3/1)", **where(rows, r, value=True))
            for c, word in enumerate(words):
                cells[(self.n - 1 - r) * self.n + c] = 0 if word == "." else self._die(word, None, rows, r)
        return tuple(cells)

    def from_data(self, data: Any) -> State:
        if not isinstance(data, dict):
            raise ImpossibleState("a state must be a mapping")
        check(data, STATE_SCHEMA, path="state")
        end = str(data.get("end", ""))
        if end and end not in ENDS:
            raise ImpossibleState(f"end: '{end}' is not one of {', '.join(ENDS)}", **where(data, "end", value=True))
        turns = int(data.get("turns", 0))
        if "grid" not in data:
            rolled = data.get("rolled") or []
            if len(rolled) > self.whites + 1:
                raise ImpossibleState(f"rolled: {len(rolled)} dice, the game has {self.whites + 1}",
                                      **where(data, "rolled"))
            dice = tuple((self._die(w, i == 0, rolled, i) - 1) % RED for i, w in enumerate(rolled))
            setup = State(dice, (0,) * self.size, (), frozenset(), turns, end)
            problems = self.check(setup)
            if problems:
                key = next((k for k in ("end", "turns") if problems[0].startswith(k) and k in data), "rolled")
                raise ImpossibleState(problems[0], **where(data, key if key in data else None, value=True))
            return setup
        cells = self._grid(data["grid"], data, "grid")
        queue = data.get("queue") or []
        q = tuple(self._die(w, False, queue, i) - 1 for i, w in enumerate(queue))
        seen = {cells} | {self._grid(h, data["history"], i) for i, h in enumerate(data.get("history") or [])}
        state = State((), cells, q, frozenset(seen), turns, end)
        problems = self.check(state)
        if problems:
            raise ImpossibleState(problems[0], **where(data, "grid"))
        return state

    def example_state(self) -> State:
        """Mid-game: the red shows 3, so the white 3 on b1 must tumble (b1-b2 or b1-c1)."""
        last = self.n - 1
        rows = [". " * last + "."] * self.n
        rows[0] = "1/2 " + ". " * (last - 1) + "R3/2"
        rows[-1] = "4/1 3/2 " + ". " * (last - 2) + "6/2"
        return self.from_data({"grid": rows, "queue": ["2/1", "5/3", "6/4", "1/3", "2/4"], "turns": 4})

    # --- checks and analysis -------------------------------------------------------------
    def check(self, state: State) -> list[str]:
        if state.turns < 0:
            return [f"turns: {state.turns} cannot be negative"]
        if not self.placed(state):
            if len(state.rolled) > self.whites + 1:
                return ["more dice rolled than the game has"]
            if state.end:
                return [f"end: {state.end}, but the dice are not placed yet"]
            return ["turns: no die tumbles before the dice are placed"] if state.turns else []
        problems = []
        reds = sum(v > RED for v in state.cells)
        whites = sum(0 < v <= RED for v in state.cells)
        if reds != 1:
            problems.append(f"the board holds {reds} red dice; the game has exactly one")
        if whites + len(state.queue) != self.whites:
            problems.append(f"{whites} whites on the board and {len(state.queue)} queued make "
                            f"{whites + len(state.queue)}, not {self.whites}")
        if whites < self.start_whites:
            problems.append(f"only {whites} whites on the board; setup puts {self.start_whites}")
        if problems:
            return problems
        if state.end == WON and state.queue:
            problems.append("end is g9_won, but whites still wait in the queue")
        if state.end != WON and not state.queue:
            problems.append("every white is on the board, so the game is won (g9_won)")
        if state.end == STUCK and self.steps(state.cells):
            problems.append("end is g9_stuck, but a die can still move")
        if state.end == "" and not self.steps(state.cells):
            problems.append("no die can move, so the game is lost (g9_stuck)")
        return problems

    def evaluate(self, state: State, seat: int) -> float:
        if state.end:
            return 1000.0 - state.turns if state.end == WON else -1000.0
        return float(self.whites - len(state.queue))

    def bots(self) -> dict[str, Any]:
        return {"random": lambda: random_bot(self), "solver": lambda: solver_bot(self)}

    def game_stats(self, state: State) -> dict[str, float]:
        on_board = self.whites - len(state.queue) if self.placed(state) else 0
        return {"turns": float(state.turns), "whites on the board": float(on_board),
                "score (turns when won)": float(state.turns) if state.end == WON else 0.0}

    def describe(self, state: State) -> str | None:
        lines = [f"{text_for(self.side_name, 'en')}: {self.n}x{self.n}, spawn pairs "
                 + ", ".join(f"{self.cell_name(a)}+{self.cell_name(b)} ({text_for(self.symbol[a], 'en')})"
                             for a, b in self.partner.items() if a < b)]
        if not self.placed(state):
            rolled = " ".join(self.to_data(state)["rolled"])
            lines.append(f"Setup: rolled {rolled or 'nothing yet'}")
            if self.current_player(state) == 0:
                spawns = " ".join(map(self.cell_name, self.spawn_cells))
                lines.append(f"Place the red and {self.start_whites} whites on {spawns}")
            return "\n".join(lines)
        for r, text in enumerate(self.grid_lines(state.cells)):
            lines.append(f"  {self.n - r}  " + " ".join(f"{w:>4}" for w in text.split()))
        lines.append("     " + " ".join(f"{c:>4}" for c in "abcdefghi"[:self.n]))
        lines.append(f"Queue: {' '.join(die_text(1 + o) for o in state.queue) or 'empty'}; turns: {state.turns}")
        if state.end:
            lines.append(f"Game over ({state.end}): {'won' if state.end == WON else 'lost'}")
        else:
            movers = self.movers(state.cells)
            who = "red" if state.cells[movers[0]] > RED else "white"
            lines.append(f"Must move ({who}): {' '.join(self.cell_name(c) for c in movers)}; legal: "
                         + ", ".join(self.format_move(m) for m in self.legal_moves(state)))
        return "\n".join(lines)

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

    # --- rulebook ------------------------------------------------------------------------
    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self, self.data)
        return {
            "difficulty_games": games,
            "difficulty_seed": seed,
            "exact_setups": int(self.data["exact"]["setups"]),
            "size": self.n,
            "whites": self.whites,
            "start_whites": self.start_whites,
            "queued": self.whites - self.start_whites,
            "side_name": text_for(self.side_name, lang),
            "spawn_pairs": (" / " if lang == "en" else "・").join(
                f"{self.cell_name(a)}–{self.cell_name(b)}" for a, b in self.partner.items() if a < b),
            "solver_method": "全探索（局面の到達可能性を深さ優先で調べる厳密解）" if lang == "ja"
            else "exact search (depth-first reachability over positions)",
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == COLLECTION_TABLE:
            return collection_table(self, lang)
        if name == "exact":
            return exact_table(self.siblings, lang)
        if name == "difficulty":
            games, seed, bots = settings(self, self.data)
            return difficulty_table([(text_for(r.side_name, lang), r) for r in self.siblings], games, seed, bots, lang)
        raise KeyError(name)


def random_bot(rules: GrowingNine) -> Bot[State, Move]:
    """Any legal move, equally likely (a random placement, then random tumbles)."""

    def choose(state: State, rng: random.Random) -> Move:
        return rng.choice(rules.legal_moves(state))

    return choose


def solver_bot(rules: GrowingNine) -> Bot[State, Move]:
    """Plays a proven winning line when the exact search finds one; otherwise any move
    that does not repeat a position."""
    plan: dict[tuple[int, ...], Move] = {}

    def follow(state: State, cells: tuple[int, ...], queue: tuple[int, ...], moves: tuple[Move, ...]) -> None:
        plan.clear()
        for move in moves:
            plan[cells] = move
            v = cells[move.cell]
            base = 1 if v <= RED else 1 + RED
            d = next(d for d, t in rules.adj[move.cell] if t == move.to)
            cells, queue, _ = rules._after_tumble(cells, move.cell, move.to, base + TUMBLE[d][v - base], queue)

    def choose(state: State, rng: random.Random) -> Move:
        if not rules.placed(state):
            found, place = rules.solve_placement(state)
            if place is None:
                return rng.choice(rules.legal_moves(state))
            placed, _ = rules._place(state, place)
            follow(placed, placed.cells, placed.queue, found.moves)
            return place
        if state.cells in plan:
            return plan[state.cells]
        found = rules.solve(state)
        if found.won:
            follow(state, state.cells, state.queue, found.moves)
            return plan[state.cells]
        moves = rules.legal_moves(state)
        fresh = [m for m in moves if rules.apply(state, m)[0].end != REPEAT]
        return rng.choice(fresh or moves)

    return choose


def roll_setup(rules: GrowingNine, rng: random.Random) -> State:
    """A setup rolled by chance: the red and every white, each in one of 24 orientations."""
    state = rules.initial_state(1)
    while rules.current_player(state) == CHANCE:
        state, _ = rules.apply(state, rules.sample_chance(state, rng))
    return state


def solve_setup(rules: GrowingNine, state: State) -> tuple[bool | None, int, float]:
    """For the bench: (won, positions searched, seconds) for one rolled setup, the best
    placement chosen (or for one placed state)."""
    start = time.perf_counter()
    found = rules.solve(state)
    return found.won, found.nodes, time.perf_counter() - start


class Exact(NamedTuple):
    """Exact verdicts on `setups` rolled setups (sampled: 24^10 rolls are too many to list)."""
    setups: int
    best: int  # setups won with the best placement
    placed: int  # setups won from one random placement (then perfect play)
    undecided: int  # searches that hit solver.max_nodes (counted as not won)
    mean_seconds: float
    max_seconds: float
    max_nodes: int
    mean_nodes: float  # positions searched per setup (best placement); the table prints these, not
    # the seconds, so that a rebuild gives the same PDF on any machine

    def interval(self, wins: int) -> tuple[float, float]:
        return wilson_interval(wins, self.setups)


_exact: dict[tuple[str, int, int], Exact] = {}


def exact_figures(rules: GrowingNine, setups: int, seed: int) -> Exact:
    """Roll `setups` setups with random.Random(seed) and decide each exactly: with the best
    placement, and from one placement drawn at random (a player who places blindly)."""
    key = (rules.id, setups, seed)
    if key in _exact:
        return _exact[key]
    rng = random.Random(seed)
    best = placed = undecided = most = 0
    times: list[float] = []
    nodes_total = 0
    for _ in range(setups):
        state = roll_setup(rules, rng)
        won, nodes, seconds = solve_setup(rules, state)
        times.append(seconds)
        most = max(most, nodes)
        nodes_total += nodes
        best += won is True
        undecided += won is None
        start, _ = rules.apply(state, rng.choice(rules.legal_moves(state)))
        placed += rules.solve(start).won is True
    result = Exact(setups, best, placed, undecided, sum(times) / max(1, setups), max(times, default=0.0), most,
                   nodes_total / max(1, setups))
    _exact[key] = result
    return result


def exact_table(sides: list[GrowingNine], lang: str) -> list[list[str]]:
    """Header, then per side: setups sampled, win rate with the best placement and from a
    random placement (95% intervals), positions the solver searched per setup (mean, max;
    deterministic, unlike times, so rebuilt rulebooks stay byte-identical)."""
    ja = lang == "ja"
    rows = [["面", "配置数", "最善の配置で勝てる", "95%区間", "ランダムな配置から勝てる", "95%区間", "探索した局面数"]
            if ja else ["Side", "Setups", "Winnable, best placement", "95% interval",
                        "Winnable, random placement", "95% interval", "Positions searched"]]
    for rules in sides:
        _, seed, _ = settings(rules, rules.data)
        e = exact_figures(rules, int(rules.data["exact"]["setups"]), seed)
        cells = [text_for(rules.side_name, lang), str(e.setups)]
        for wins in (e.best, e.placed):
            low, high = e.interval(wins)
            cells += [f"{wins / e.setups:.1%}", f"{low:.1%}–{high:.1%}"]
        cells.append(f"{e.mean_nodes:,.0f}" + (f"（最大 {e.max_nodes:,}）" if ja else f" (max {e.max_nodes:,})"))
        rows.append(cells)
    return rows


def create(content: GameContent, key: str, data: Any) -> list[Rules[Any, Any]]:
    sides = [GrowingNine(content, key, data, side) for side in data["sides"]]
    for rules in sides:
        rules.siblings = sides
    return list(sides)
