"""Unification (単一化): GAMES.md §3.4, decisions D-FA-8 and D-FA-9.

A square grid of white dice and the red one; one more white die, the push die, is
pushed into a row or column from one of the four edges. The line shifts by one cell
and the die at the far end leaves through the opposite edge, gets that edge's effects
and becomes the next push die. The red die may never leave; the next push may not come
from the place (edge and line) the last die left by. Win when every grid die shows the
red die's face. The edges' effects are board data in rules.yaml, one table per side.

Setup is a chain of chance steps: the red die's cell, then each grid die's face in
reading order, then the push die's face. A reroll effect is one more chance step.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, Schema, Text, text_for
from pnpgen.engine.collection import Variant
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome
from pnpgen.errors import BadMove
from pnpgen.games.fast_alone.puzzle import content_error
from pnpgen.games.words import number, signed

WON, TIME, STUCK = "un_won", "un_time", "un_stuck"

ENDS = (WON, TIME, STUCK)

EDGES = ("N", "E", "S", "W")  # the edges a push comes from / a die leaves by

EDGE_KEYS = {"north": "N", "east": "E", "south": "S", "west": "W"}

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

EFFECTS = ("add", "shift", "flip", "reroll", "rotate", "paradigm")

EFFECT_SCHEMA: Schema = {"effect": Choice(*EFFECTS), "by?": int}

EDGE_SCHEMA: Schema = {"name": Text, "effects": Each(EFFECT_SCHEMA, min=1), "rule": str}

RULES_SCHEMA: Schema = {
    "grid": int,
    "dice": {"faces": int},
    "push_limit": int,
    "sides": {"*": {"name": Text, "edges": {key: EDGE_SCHEMA for key in EDGE_KEYS}}},
    "solver": {"weight": float, "nodes": int},
    "difficulty": {"games": int, "bots": Each(str, min=1)},
}


@dataclass(frozen=True)
class Effect:
    effect: str
    by: int


@dataclass(frozen=True)
class Edge:
    key: str  # N, E, S or W
    name: object  # Text
    effects: tuple[Effect, ...]
    rule: str


class Move(NamedTuple):
    kind: str  # "red" (its cell), "roll" (the next setup die), "reroll" (the push die) or "push"
    edge: str = ""  # push: the edge it comes from
    line: int = 0  # push: the row (from E or W) or column (from N or S), 0-based
    delta: int = 0  # push: the step chosen for a shift effect (0: none or the only one)
    face: int = 0  # roll / reroll: the face
    cell: int = -1  # red: its cell, in reading order


class State(NamedTuple):
    cells: tuple[int, ...]  # faces in reading order; 0 while setup has not rolled it
    red: int  # the red die's cell, -1 before setup places it
    push: int  # the push die's face; 0 while it is (to be) rolled
    banned: str  # the place the last die left by, e.g. "S2" ("" when none)
    pushes: int
    rerolls: int
    end: str  # "" while the game goes on


class Result(NamedTuple):
    """A push worked out: the new grid, red cell, push die face and what happened."""
    cells: tuple[int, ...]
    red: int
    push: int  # 0 when the push die is to be rerolled
    out: int  # the face the die had when it left
    changed: int  # its face after the effects (before a reroll)
    red_face: int  # the red die's face afterwards (paradigm shift)


class UnificationRules(Variant[State, Move]):
    """One board side of Unification: mechanics and notation."""

    ENDS = ENDS

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        super().__init__(content, key, data, side)
        self.weight = float(data["solver"]["weight"])
        self.nodes = int(data["solver"]["nodes"])
        entry = data["sides"][side]
        self.n = int(data["grid"])
        if not 2 <= self.n <= 9:
            raise content_error("grid: a square grid of 2 to 9 cells a side", data, "grid")
        self.faces = int(data["dice"]["faces"])
        if not 2 <= self.faces <= 20:
            raise content_error("dice.faces: between 2 and 20", data["dice"], "faces")
        self.push_limit = int(data["push_limit"])
        if self.push_limit < 1:
            raise content_error("push_limit: at least one push", data, "push_limit")
        self.edges = {EDGE_KEYS[k]: self._edge(EDGE_KEYS[k], e) for k, e in entry["edges"].items()}
        self.paradigm = any(e.effect == "paradigm" for edge in self.edges.values() for e in edge.effects)
        self.size = self.n * self.n
        self.centre = self.size // 2 if self.n % 2 else -1
        self.paths = {(edge, line): self._path(edge, line) for edge in EDGES for line in range(self.n)}
        self.turned = tuple(self._turned(i) for i in range(self.size))
        self.max_steps = 2 * (self.push_limit + self.size + 2)

    def _edge(self, key: str, entry: Any) -> Edge:
        effects = []
        for item in entry["effects"]:
            by = int(item.get("by", 0))
            if item["effect"] in ("add", "shift") and not (0 < abs(by) < self.faces):
                raise content_error(f"{item['effect']}: 'by' must be between {1 - self.faces} and {self.faces - 1}, "
                            "not 0", item, "effect")
            effects.append(Effect(str(item["effect"]), by))
        if sum(e.effect in ("add", "shift", "flip", "reroll") for e in effects) > 1:
            raise content_error("effects: at most one effect changes the pushed-out die", entry, "effects")
        return Edge(key, entry["name"], tuple(effects), str(entry["rule"]))

    # --- geometry ------------------------------------------------------------------------
    def _path(self, edge: str, line: int) -> tuple[int, ...]:
        """The cells of a push from `edge` into `line`, from the entry cell to the exit cell."""
        n = self.n
        if edge == "N":
            return tuple(r * n + line for r in range(n))
        if edge == "S":
            return tuple(r * n + line for r in reversed(range(n)))
        if edge == "W":
            return tuple(line * n + c for c in range(n))
        return tuple(line * n + c for c in reversed(range(n)))

    def _turned(self, cell: int) -> int:
        """Where a cell goes when the grid turns 90 degrees counter-clockwise."""
        row, col = divmod(cell, self.n)
        return (self.n - 1 - col) * self.n + row

    def place(self, edge: str, line: int) -> str:
        return f"{edge}{line + 1}"

    def cell_name(self, cell: int) -> str:
        row, col = divmod(cell, self.n)
        return f"{row + 1},{col + 1}"

    def exit_edge(self, move: Move) -> Edge:
        return self.edges[OPPOSITE[move.edge]]

    def _changed(self, effect: Effect, face: int) -> list[int]:
        """The faces a face-changing effect may give `face` (empty: it cannot apply)."""
        if effect.effect == "add":
            return [face + effect.by] if 1 <= face + effect.by <= self.faces else []
        if effect.effect == "shift":  # D-FA-11: the low half only goes up, the high half only down
            new = face + effect.by if face <= self.faces // 2 else face - effect.by
            return [new] if 1 <= new <= self.faces else []
        if effect.effect == "flip":
            return [self.faces + 1 - face]
        return []

    # --- pushes --------------------------------------------------------------------------
    def options(self, state: State, edge: str, line: int) -> list[int]:
        """The deltas a push from `edge` into `line` may take ([0] when nothing is chosen);
        [] when the rules forbid it. No check of the banned place."""
        path = self.paths[(edge, line)]
        if state.red == path[-1]:
            return []
        return list(self._deltas(OPPOSITE[edge], state.cells[path[-1]], state.cells[state.red]))

    def _deltas(self, leaves: str, face: int, red_face: int) -> tuple[int, ...]:
        """The deltas of a die showing `face` leaving by edge `leaves` (red die showing `red_face`)."""
        deltas: tuple[int, ...] = (0,)
        for e in self.edges[leaves].effects:
            if e.effect in ("add", "flip"):
                face = self._changed(e, face)[0] if self._changed(e, face) else 0
                if not face:
                    return ()
            elif e.effect == "shift":
                new = self._changed(e, face)
                if not new:
                    return ()
                deltas = tuple(f - face for f in new)
            elif e.effect == "paradigm" and face == red_face:
                return ()
        return deltas

    @cached_property
    def _places(self) -> tuple[tuple[str, int, str, int, dict[tuple[int, int], tuple[Move, ...]]], ...]:
        """Each place a push comes from: its name, exit cell, edge, line, and its moves by
        (exit face, red face), filled in as met (the moves depend on nothing else)."""
        return tuple((self.place(edge, line), self.paths[(edge, line)][-1], edge, line, {})
                     for edge in EDGES for line in range(self.n))

    def _pushes_by_place(self, state: State) -> Iterator[tuple[Move, ...]]:
        """The pushes the rules allow, place by place (an empty tuple: none from there)."""
        cells, red, banned = state.cells, state.red, state.banned
        for place, exit_cell, edge, line, known in self._places:
            if place == banned or red == exit_cell:
                continue
            faces = (cells[exit_cell], cells[red])
            found = known.get(faces)
            if found is None:
                found = known[faces] = tuple(Move("push", edge, line, d)
                                             for d in self._deltas(OPPOSITE[edge], *faces))
            yield found

    def pushes(self, state: State) -> list[Move]:
        """Every push the rules allow, with its choice of step."""
        return [move for found in self._pushes_by_place(state) for move in found]

    def can_push(self, state: State) -> bool:
        """Some push is allowed (pushes() is not empty)."""
        return any(self._pushes_by_place(state))

    def work_out(self, state: State, move: Move) -> Result:
        """The result of a legal push (no checks)."""
        path = self.paths[(move.edge, move.line)]
        cells = list(state.cells)
        out = cells[path[-1]]
        for k in range(len(path) - 1, 0, -1):
            cells[path[k]] = cells[path[k - 1]]
        cells[path[0]] = state.push
        red = state.red
        if red in path:
            red = path[path.index(red) + 1]
        face, push, red_face = out, out, cells[red]
        for e in self.exit_edge(move).effects:
            if e.effect in ("add", "flip"):
                face = self._changed(e, face)[0]
            elif e.effect == "shift":
                face += move.delta
            elif e.effect == "reroll":
                push = 0
            elif e.effect == "paradigm":
                red_face = face
            elif e.effect == "rotate":
                turned = [0] * self.size
                for i, f in enumerate(cells):
                    turned[self.turned[i]] = f
                cells, red = turned, self.turned[red]
        cells[red] = red_face
        return Result(tuple(cells), red, push and face, out, face, red_face)

    def advance(self, state: State, move: Move) -> State:
        """The mechanics of a move already known to be legal (no events): the solver's step."""
        if move.kind == "red":
            return state._replace(red=move.cell)
        if move.kind == "roll":
            if 0 in state.cells:
                i = state.cells.index(0)
                return self.settle(state._replace(cells=state.cells[:i] + (move.face,) + state.cells[i + 1:]))
            return self.settle(state._replace(push=move.face))
        if move.kind == "reroll":
            return self.settle(state._replace(push=move.face))
        done = self.work_out(state, move)
        leaves = OPPOSITE[move.edge]
        rerolled = int(done.push == 0)
        return self.settle(State(done.cells, done.red, done.push, self.place(leaves, move.line),
                                 state.pushes + 1, state.rerolls + rerolled, ""))

    def won(self, state: State) -> bool:
        cells = state.cells
        return cells.count(cells[state.red]) == len(cells)

    def settled(self, state: State) -> bool:
        return state.red >= 0 and 0 not in state.cells

    def settle(self, state: State) -> State:
        """A unified grid wins (even with a reroll pending); then the push limit, then no push."""
        if not self.settled(state):
            return state
        if self.won(state):
            return state._replace(end=WON)
        if state.pushes >= self.push_limit:
            return state._replace(end=TIME)
        if state.push and not self.can_push(state):
            return state._replace(end=STUCK)
        return state

    # --- lifecycle -----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        return State((0,) * self.size, -1, 0, "", 0, 0, "")

    def current_player(self, state: State) -> int:
        if state.end:
            return TERMINAL
        return CHANCE if not self.settled(state) or not state.push else 0

    def legal_moves(self, state: State) -> list[Move]:
        return self.pushes(state) if self.current_player(state) == 0 else []

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if self.current_player(state) != CHANCE:
            return []
        if state.red < 0:
            return [(Move("red", cell=c), Fraction(1, self.size)) for c in range(self.size)]
        kind = "reroll" if self.settled(state) and state.pushes else "roll"
        return [(Move(kind, face=f), Fraction(1, self.faces)) for f in range(1, self.faces + 1)]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        if state.red < 0:
            return Move("red", cell=rng.randrange(self.size))
        kind = "reroll" if self.settled(state) and state.pushes else "roll"
        return Move(kind, face=rng.randint(1, self.faces))

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.end:
            raise IllegalMove("U-7", "the game is over")
        if move.kind in ("red", "roll", "reroll"):
            return self._chance(state, move)
        if self.current_player(state) == CHANCE:
            what = "the push die must be rolled again first" if self.settled(state) else "setup is not finished"
            raise IllegalMove("U-2" if not self.settled(state) else "U-8.4", what)
        move = self._check_push(state, move)
        new = self.advance(state, move)
        return new, self._ending(new, self._push_events(state, move, new))

    def _chance(self, state: State, move: Move) -> tuple[State, list[Event]]:
        expected = {m.kind for m, _ in self.chance_outcomes(state)}
        if move.kind not in expected:
            raise IllegalMove("U-2", f"no {move.kind} is due now" + (" (setup is over)" if self.settled(state) else ""))
        if move.kind == "red":
            if not 0 <= move.cell < self.size:
                raise IllegalMove("U-2", f"the grid has cells 1,1 to {self.n},{self.n}")
            cell = self.cell_name(move.cell)
            return self.advance(state, move), [Event("red", lambda: f"the red die goes in cell {cell}",
                                                     {"cell": cell})]
        if not 1 <= move.face <= self.faces:
            raise IllegalMove("U-2", f"a die shows 1–{self.faces}, not {move.face}")
        new = self.advance(state, move)
        face = move.face
        if move.kind == "reroll":
            events = [Event("reroll", lambda: f"the push die is rolled again: {face}", {"face": face})]
        elif 0 in state.cells:
            cell = self.cell_name(state.cells.index(0))
            events = [Event("roll", lambda: f"cell {cell}: {face}", {"cell": cell, "face": face})]
        else:
            events = [Event("roll", lambda: f"the push die shows {face}", {"push": face})]
        return new, self._ending(new, events)

    def _check_push(self, state: State, move: Move) -> Move:
        """The move, its step filled in when only one is possible; IllegalMove if refused."""
        if move.edge not in EDGES or not 0 <= move.line < self.n:
            raise IllegalMove("U-3", f"push from N, E, S or W into line 1–{self.n}")
        place = self.place(move.edge, move.line)
        if place == state.banned:
            raise IllegalMove("U-5", f"the last die left by {place}: the next push may not come from there")
        path = self.paths[(move.edge, move.line)]
        leaves = self.exit_edge(move)
        if state.red == path[-1]:
            raise IllegalMove("U-4", f"the push from {place} would push the red die out of cell "
                              f"{self.cell_name(path[-1])}")
        deltas = self.options(state, move.edge, move.line)
        face = state.cells[path[-1]]
        what = text_for(leaves.name, "en")
        if not deltas:
            reason = (f"the die pushed out ({face}) already shows the red die's face, so it may not leave "
                      f"by the {what} edge"
                      if any(e.effect == "paradigm" for e in leaves.effects) and face == state.cells[state.red]
                      else f"{what} cannot apply to the {face} that would leave by {leaves.key}{move.line + 1}")
            raise IllegalMove(leaves.rule, reason)
        if move.delta in deltas:
            return move
        if move.delta == 0 and len(deltas) == 1:
            return move._replace(delta=deltas[0])
        ways = " or ".join(f"{face}→{face + d} ({d:+d})" for d in deltas)
        if move.delta == 0:
            raise IllegalMove(leaves.rule, f"{what} can turn the {face} two ways, {ways}: add the step, "
                              f"e.g. '{self.format_move(move._replace(delta=deltas[0]))}'")
        raise IllegalMove(leaves.rule, f"{what} turns the {face} {ways}, not {move.delta:+d}")

    def _push_events(self, state: State, move: Move, new: State) -> list[Event]:
        done = self.work_out(state, move)
        place, leaves = self.place(move.edge, move.line), self.exit_edge(move)
        exit_place = self.place(leaves.key, move.line)
        what = text_for(leaves.name, "en")
        push = state.push
        out, changed = done.out, done.changed
        events = [Event("push", lambda: f"the {push} is pushed in from {place}; the {out} leaves by {exit_place}",
                        {"from": place, "in": push, "out": out, "leaves": exit_place})]
        for e in leaves.effects:
            kind = e.effect
            if kind in ("add", "shift", "flip"):
                events.append(Event("effect", lambda: f"{what}: the {out} becomes {changed}",
                                    {"effect": kind, "from": out, "to": changed}))
            elif kind == "reroll":
                events.append(Event("effect", lambda: f"{what}: the pushed-out die is rolled again",
                                    {"effect": kind, "face": out}))
            elif kind == "rotate":
                cell = self.cell_name(done.red)
                events.append(Event("effect", f"{what}: the grid turns a quarter "
                                    f"counter-clockwise (the red die is now in cell {cell})",
                                    {"effect": kind, "red": cell}))
            elif kind == "paradigm":
                red_face = done.red_face
                events.append(Event("effect", f"{what}: the red die now shows {red_face}",
                                    {"effect": kind, "red": red_face}))
        return events

    def _ending(self, state: State, events: list[Event]) -> list[Event]:
        if state.end == WON:
            score, pushes = self.score(state), state.pushes
            centre = " with the red die in the centre (doubled)" if state.red == self.centre else ""
            events.append(Event("won", lambda: f"every die shows {state.cells[state.red]} after {pushes} pushes: "
                                f"won{centre}, score {score}", {"end": WON, "pushes": pushes, "score": score}))
        elif state.end == TIME:
            events.append(Event("time", lambda: f"{self.push_limit} pushes are used up: the game is lost",
                                {"end": TIME, "pushes": state.pushes}))
        elif state.end == STUCK:
            events.append(Event("stuck", lambda: "no push is allowed: the game is lost",
                                {"end": STUCK, "pushes": state.pushes}))
        return events

    def score(self, state: State) -> int:
        """Pushes left (the stand-in for time left), doubled with the red die in the centre."""
        if state.end != WON:
            return 0
        return (self.push_limit - state.pushes) * (2 if state.red == self.centre else 1)

    def outcome(self, state: State) -> Outcome:
        return Outcome((0,) if state.end == WON else (), (float(self.score(state)),), state.end)

    # --- notation ------------------------------------------------------------------------
    def parse_move(self, text: str, state: State | None = None) -> Move:
        forms = "'N2' (push from the north into column 2), 'S1 +1' (with the step), 'reroll 4', 'roll 3', 'red 2,2'"
        words = text.replace("push", " ").split()
        if not words:
            raise BadMove(f"cannot read an empty move: expected {forms}")
        head = words[0].lower()
        if head in ("roll", "reroll") and len(words) == 2:
            face = number(words[1]) or 0
            if not 1 <= face <= self.faces:
                raise BadMove(f"cannot read move '{text}': '{words[1]}' is not a face 1–{self.faces}")
            return Move(head, face=face)
        if head == "red" and len(words) == 2:
            row, _, col = words[1].partition(",")
            r, c = number(row) or 0, number(col) or 0
            if not (1 <= r <= self.n and 1 <= c <= self.n):
                raise BadMove(f"cannot read move '{text}': '{words[1]}' is not a cell 1,1 to {self.n},{self.n}")
            return Move("red", cell=(r - 1) * self.n + c - 1)
        m = re.fullmatch(r"([NESWnesw])([0-9]+)", words[0])
        if not m or len(words) > 2:
            raise BadMove(f"cannot read move '{text}': expected {forms}")
        line = number(m[2]) or 0
        if not 1 <= line <= self.n:
            raise BadMove(f"cannot read move '{text}': line {m[2]} is not 1–{self.n}")
        delta = 0
        if len(words) == 2:
            delta = (signed(words[1]) or 0) if words[1][:1] in ("+", "-") else 0
            if not delta:
                raise BadMove(f"cannot read the step in '{text}': expected '+1' or '-2'")
        return Move("push", m[1].upper(), line - 1, delta)

    def format_move(self, move: Move) -> str:
        if move.kind in ("roll", "reroll"):
            return f"{move.kind} {move.face}"
        if move.kind == "red":
            return f"red {self.cell_name(move.cell)}"
        return self.place(move.edge, move.line) + (f" {move.delta:+d}" if move.delta else "")
