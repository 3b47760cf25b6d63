"""Horizontal & Vertical (ヨコとタテと): GAMES.md §3.1, decisions D-FA-1..3.

Each turn three dice are rolled (a chance node: one outcome per multiset). Two dice
name a row and a column, the third is written in that cell; a die showing a wild
face names any line and costs an x in an empty cell. Or pass: an x and a tick.
Win once enough rows and columns meet their conditions; lose when stuck or full.
Every number and every line condition comes from rules.yaml (one side each).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, Schema, Text
from pnpgen.content.yamlpos import where
from pnpgen.engine.collection import Variant
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome
from pnpgen.errors import BadMove, ContentError
from pnpgen.games.fast_alone.dice import roll, roll_multisets
from pnpgen.games.fast_alone.puzzle import content_error
from pnpgen.games.words import number

X = -1  # a crossed cell; 0 is an empty cell, 1..faces a written number

WON, STUCK, FULL = "hv_won", "hv_stuck", "hv_full"

TESTS = ("at_most", "equals", "at_least", "parity")

CONDITION_SCHEMA: Schema = {
    "label": str,
    "measure": Choice("sum", "same"),
    "at_most?": int,
    "equals?": int,
    "at_least?": int,
    "parity?": Choice("even", "odd"),
}

SIDE_SCHEMA: Schema = {
    "name": Text,
    "full_lines": bool,
    "rows": Each(CONDITION_SCHEMA, min=1),
    "columns": Each(CONDITION_SCHEMA, min=1),
}

RULES_SCHEMA: Schema = {
    "dice": {"count": int, "faces": int},
    "rows": Each(int, min=1),
    "columns": Each(int, min=1),
    "wild_faces": [int],
    "x_per_wild": int,
    "passes": int,
    "pass_x": int,
    "win": {"rows": int, "columns": int},
    "sides": {"*": SIDE_SCHEMA},
    "solver": {"line_decay": float, "spread": float, "pass_value": float, "empty_value": float},
    "difficulty": {"games": int, "bots": Each(str, min=1)},
}


@dataclass(frozen=True)
class Condition:
    label: str
    measure: str  # "sum" or "same"
    test: str  # one of TESTS
    value: int  # the bound (parity: 0 even, 1 odd)

    def holds(self, amount: int) -> bool:
        if self.test == "at_most":
            return amount <= self.value
        if self.test == "equals":
            return amount == self.value
        if self.test == "at_least":
            return amount >= self.value
        return amount % 2 == self.value


@dataclass(frozen=True)
class Side:
    key: str
    name: object  # Text
    full_lines: bool
    lines: tuple[Condition, ...]  # rows, then columns


class Move(NamedTuple):
    kind: str  # "roll", "write" or "pass"
    value: int = 0  # write: the number written
    cell: int = -1  # write: the target cell
    xs: tuple[int, ...] = ()  # write: x for the wild dice; pass: the x
    dice: tuple[int, ...] = ()  # roll: the faces rolled


class State(NamedTuple):
    cells: tuple[int, ...]  # row by row; 0 empty, X crossed, else the number written
    dice: tuple[int, ...]  # the dice to use, sorted; () while a roll is due
    passes: int  # pass boxes ticked
    turns: int  # rolls made
    end: str  # "" while the game goes on


def _condition(entry: Any) -> Condition:
    tests = [t for t in TESTS if t in entry]
    if len(tests) != 1:
        raise ContentError(f"condition '{entry['label']}': give exactly one of {', '.join(TESTS)}",
                           **where(entry))
    test = tests[0]
    value = entry[test]
    return Condition(entry["label"], entry["measure"], test,
                     (0 if value == "even" else 1) if test == "parity" else int(value))


class HorizontalVerticalRules(Variant[State, Move]):
    """One board side of Horizontal & Vertical."""

    ENDS = (WON, STUCK, FULL)

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        super().__init__(content, key, data, side)
        self.count = int(data["dice"]["count"])
        self.faces = int(data["dice"]["faces"])
        self.row_labels = tuple(int(v) for v in data["rows"])
        self.col_labels = tuple(int(v) for v in data["columns"])
        self.wild = frozenset(int(v) for v in data["wild_faces"])
        self.x_per_wild = int(data["x_per_wild"])
        self.max_passes = int(data["passes"])
        self.pass_x = int(data["pass_x"])
        self.win_rows = int(data["win"]["rows"])
        self.win_cols = int(data["win"]["columns"])
        self._check_numbers(data)
        entry = data["sides"][side]
        rows = [_condition(c) for c in entry["rows"]]
        cols = [_condition(c) for c in entry["columns"]]
        for name, conds, labels in (("rows", rows, self.row_labels), ("columns", cols, self.col_labels)):
            if len(conds) != len(labels):
                raise content_error(f"sides.{side}.{name}: {len(conds)} conditions for {len(labels)} {name}",
                            entry, name)
        self.board = Side(side, entry["name"], bool(entry["full_lines"]), tuple(rows + cols))
        solver = data["solver"]
        self.decay = float(solver["line_decay"])
        self.spread = float(solver["spread"])
        self.pass_value = float(solver["pass_value"])
        self.empty_value = float(solver["empty_value"])
        self.n_rows, self.n_cols = len(self.row_labels), len(self.col_labels)
        self.size = self.n_rows * self.n_cols
        # the cells of each line: rows first, then columns
        self.line_cells = tuple(
            [tuple(r * self.n_cols + c for c in range(self.n_cols)) for r in range(self.n_rows)]
            + [tuple(r * self.n_cols + c for r in range(self.n_rows)) for c in range(self.n_cols)]
        )
        self.max_steps = 2 * (self.size + 1)

    def _check_numbers(self, data: Any) -> None:
        if self.count < 3:
            raise content_error("dice.count: at least 3 dice (a row, a column and a value)", data["dice"], "count")
        if not 2 <= self.faces <= 20:
            raise content_error("dice.faces: between 2 and 20 faces", data["dice"], "faces")
        for name in ("rows", "columns"):
            labels = data[name]
            if len(set(labels)) != len(labels):
                raise content_error(f"{name}: labels must differ", data, name)
        for name in ("x_per_wild", "passes", "pass_x"):
            if data[name] < 0:
                raise content_error(f"{name}: cannot be negative", data, name)
        if not (1 <= self.win_rows <= len(self.row_labels) and 1 <= self.win_cols <= len(self.col_labels)):
            raise content_error("win: between 1 and the number of lines of each kind", data, "win")

    # --- cells and lines ---------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return f"{self.row_labels[cell // self.n_cols]}-{self.col_labels[cell % self.n_cols]}"

    def line_name(self, line: int) -> str:
        if line < self.n_rows:
            return f"row {self.row_labels[line]}"
        return f"column {self.col_labels[line - self.n_rows]}"

    def line_met(self, cells: tuple[int, ...], line: int) -> bool:
        """The line holds no x, is full if the side needs it, and meets its condition."""
        values = [cells[i] for i in self.line_cells[line]]
        if X in values or (self.board.full_lines and 0 in values):
            return False
        cond = self.board.lines[line]
        numbers = [v for v in values if v]
        if cond.measure == "sum":
            return cond.holds(sum(numbers))
        return cond.holds(max(Counter(numbers).values(), default=0))

    def met_lines(self, cells: tuple[int, ...]) -> tuple[list[int], list[int]]:
        met = [line for line in range(len(self.line_cells)) if self.line_met(cells, line)]
        return [m for m in met if m < self.n_rows], [m for m in met if m >= self.n_rows]

    def won(self, cells: tuple[int, ...]) -> bool:
        rows, cols = self.met_lines(cells)
        return len(rows) >= self.win_rows and len(cols) >= self.win_cols

    def _namer_cost(self, face: int, label: int) -> int | None:
        """x owed for a die of `face` naming the line labelled `label` (None: it cannot)."""
        if face == label:
            return 0
        return self.x_per_wild if face in self.wild else None

    def write_cost(self, dice: tuple[int, ...], value: int, cell: int) -> int | None:
        """The fewest x owed to write `value` in `cell` with these dice (None: impossible)."""
        if value not in dice:
            return None
        rest = list(dice)
        rest.remove(value)
        row = self.row_labels[cell // self.n_cols]
        col = self.col_labels[cell % self.n_cols]
        best: int | None = None
        for i, j in ((a, b) for a in range(len(rest)) for b in range(len(rest)) if a != b):
            cr, cc = self._namer_cost(rest[i], row), self._namer_cost(rest[j], col)
            if cr is not None and cc is not None and (best is None or cr + cc < best):
                best = cr + cc
        return best

    def writes(self, state: State) -> dict[tuple[int, int], int]:
        """(value, cell) -> x owed, for every write the dice allow into an empty cell."""
        return self.writes_for(state.dice, state.cells)

    def writes_for(self, dice: tuple[int, ...], cells: tuple[int, ...]) -> dict[tuple[int, int], int]:
        """(value, cell) -> x owed, for every write `dice` allow into an empty cell of `cells`."""
        if not dice:
            return {}
        empty_count = cells.count(0)
        result: dict[tuple[int, int], int] = {}
        for value in sorted(set(dice)):
            for cell, v in enumerate(cells):
                if v == 0:
                    cost = self.write_cost(dice, value, cell)
                    if cost is not None and cost <= empty_count - 1:
                        result[(value, cell)] = cost
        return result

    # --- lifecycle -----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        return State((0,) * self.size, (), 0, 0, "")

    def current_player(self, state: State) -> int:
        if state.end:
            return TERMINAL
        return 0 if state.dice else CHANCE

    def legal_moves(self, state: State) -> list[Move]:
        if state.end or not state.dice:
            return []
        empty = [i for i, v in enumerate(state.cells) if v == 0]
        moves = []
        for (value, cell), cost in self.writes(state).items():
            others = [i for i in empty if i != cell]
            moves += [Move("write", value, cell, xs) for xs in combinations(others, cost)]
        if state.passes < self.max_passes:
            moves += [Move("pass", xs=xs) for xs in combinations(empty, self.pass_x)]
        return moves

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if state.end or state.dice:
            return []
        return [(Move("roll", dice=d), p) for d, p in roll_multisets(self.count, self.faces)]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        return Move("roll", dice=roll(self.count, self.faces, rng))

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.end:
            raise IllegalMove("HV-5", "the game is over")
        if move.kind == "roll":
            return self._roll(state, move)
        if not state.dice:
            raise IllegalMove("HV-2", f"the {self.count} dice must be rolled first")
        if move.kind == "pass":
            return self._pass(state, move)
        if move.kind == "write":
            return self._write(state, move)
        raise IllegalMove("HV-2", f"unknown move {move.kind}")

    def _roll(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.dice:
            raise IllegalMove("HV-2", "the dice are already rolled: write a number or pass")
        dice = tuple(sorted(move.dice))
        if len(dice) != self.count or not all(1 <= d <= self.faces for d in dice):
            raise IllegalMove("HV-2", f"a roll is {self.count} faces 1–{self.faces}")
        new = state._replace(dice=dice, turns=state.turns + 1)
        events = [Event("roll", lambda: f"roll {' '.join(map(str, dice))}", {"dice": list(dice)})]
        if not self.writes(new) and state.passes >= self.max_passes:
            events.append(Event("stuck", "no number can be written and no pass is left: the game is lost",
                                {"end": STUCK}))
            new = new._replace(end=STUCK)
        return new, events

    def _crosses(self, state: State, xs: tuple[int, ...], taken: int, what: str, rule: str) -> list[int]:
        cells = list(state.cells)
        if len(set(xs)) != len(xs):
            raise IllegalMove(rule, f"{what}: each x goes in a different cell")
        for cell in xs:
            if not 0 <= cell < self.size:
                raise IllegalMove(rule, f"{what}: cell {cell} is not on the board")
            if cell == taken or cells[cell] != 0:
                raise IllegalMove(rule, f"{what}: cell {self.cell_name(cell)} is not empty")
            cells[cell] = X
        return cells

    def _pass(self, state: State, move: Move) -> tuple[State, list[Event]]:
        if state.passes >= self.max_passes:
            raise IllegalMove("HV-4", f"all {self.max_passes} pass boxes are ticked")
        if len(move.xs) != self.pass_x:
            raise IllegalMove("HV-4", f"a pass writes {self.pass_x} x in an empty cell")
        cells = self._crosses(state, move.xs, -1, "the pass's x", "HV-4")
        names = " ".join(self.cell_name(c) for c in move.xs)
        events = [Event("pass", lambda: f"pass: x in {names}, pass box {state.passes + 1} of "
                        f"{self.max_passes} ticked", {"x": [self.cell_name(c) for c in move.xs]})]
        return self._after(state._replace(cells=tuple(cells), dice=(), passes=state.passes + 1), events)

    def _write(self, state: State, move: Move) -> tuple[State, list[Event]]:
        value, cell, dice = move.value, move.cell, state.dice
        shown = " ".join(map(str, dice))
        if not 0 <= cell < self.size:
            raise IllegalMove("HV-3", f"cell {cell} is not on the board")
        name = self.cell_name(cell)
        if value not in dice:
            raise IllegalMove("HV-3", f"the dice show {shown}: none of them shows {value} to write")
        if state.cells[cell] != 0:
            held = "an x" if state.cells[cell] == X else str(state.cells[cell])
            raise IllegalMove("HV-3.1", f"cell {name} already holds {held}")
        cost = self.write_cost(dice, value, cell)
        if cost is None:
            rest = list(dice)
            rest.remove(value)
            raise IllegalMove("HV-3", f"with {value} written, the dice {' and '.join(map(str, rest))} "
                              f"cannot name row {name.split('-')[0]} and column {name.split('-')[1]}")
        if len(move.xs) != cost:
            wilds = cost // self.x_per_wild if self.x_per_wild else 0
            raise IllegalMove("HV-3.2", f"writing {value} in {name} uses {wilds} wild "
                              f"{'die' if wilds == 1 else 'dice'}, which cost{'s' if wilds == 1 else ''} "
                              f"{cost} x, not {len(move.xs)}")
        cells = self._crosses(state, move.xs, cell, "the wild's x", "HV-3.2")
        cells[cell] = value
        events = [Event("write", lambda: f"write {value} in {name} (dice {shown})",
                        {"value": value, "cell": name})]
        if move.xs:
            names = [self.cell_name(c) for c in move.xs]
            events.append(Event("wild", lambda: f"the wild die costs x in {' '.join(names)}", {"x": names}))
        return self._after(state._replace(cells=tuple(cells), dice=()), events)

    def _after(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Win, or a full grid, ends the game; otherwise the next roll is due."""
        rows, cols = self.met_lines(state.cells)
        if len(rows) >= self.win_rows and len(cols) >= self.win_cols:
            lines = [self.line_name(m) for m in rows + cols]
            events.append(Event("won", lambda: f"{', '.join(lines)} meet their conditions: the game is won "
                                f"with {self.max_passes - state.passes} pass(es) left",
                                {"end": WON, "lines": lines, "score": self.max_passes - state.passes}))
            return state._replace(end=WON), events
        if 0 not in state.cells:
            events.append(Event("full", "the grid is full without a winning row and column: the game is lost",
                                {"end": FULL}))
            return state._replace(end=FULL), events
        return state, events

    def outcome(self, state: State) -> Outcome:
        if state.end == WON:
            return Outcome((0,), (float(self.max_passes - state.passes),), WON)
        return Outcome((), (0.0,), state.end)

    # --- notation ------------------------------------------------------------------------
    def parse_cell(self, text: str, word: str) -> int:
        row, _, col = word.partition("-")
        r, c = number(row), number(col)
        if r not in self.row_labels or c not in self.col_labels:
            rows, cols = self.row_labels, self.col_labels
            raise BadMove(f"cannot read move '{text}': '{word}' is not a cell (row-column, rows "
                          f"{rows[0]}–{rows[-1]}, columns {cols[0]}–{cols[-1]}, e.g. {rows[0]}-{cols[-1]})")
        return self.row_labels.index(r) * self.n_cols + self.col_labels.index(c)  # type: ignore[arg-type]

    def parse_move(self, text: str, state: State | None = None) -> Move:
        words = text.replace(",", " ").split()
        forms = "'roll 1 3 5', 'write 5 at 3-4', 'write 5 at 3-4 x 2-6' or 'pass x 2-6'"
        if not words:
            raise BadMove(f"cannot read an empty move: expected {forms}")
        head = words[0].lower()
        if head == "roll" and len(words) == self.count + 1:
            faces = [number(w) or 0 for w in words[1:]]
            if not all(1 <= f <= self.faces for f in faces):
                raise BadMove(f"cannot read move '{text}': dice are faces 1–{self.faces}")
            return Move("roll", dice=tuple(sorted(faces)))
        xs: tuple[int, ...] = ()
        if "x" in words:
            at = words.index("x")
            xs = tuple(sorted(self.parse_cell(text, w) for w in words[at + 1:] if w != "x"))
            words = words[:at]
            if not xs:
                raise BadMove(f"cannot read move '{text}': name the cell(s) after 'x'")
        if head == "pass" and len(words) == 1:
            return Move("pass", xs=xs)
        if head == "write" and len(words) == 4 and words[2] == "at":
            value = number(words[1]) or 0
            if not 1 <= value <= self.faces:
                raise BadMove(f"cannot read move '{text}': '{words[1]}' is not a number 1–{self.faces}")
            return Move("write", value, self.parse_cell(text, words[3]), tuple(sorted(xs)))
        raise BadMove(f"cannot read move '{text}': expected {forms}")

    def format_move(self, move: Move) -> str:
        if move.kind == "roll":
            return "roll " + " ".join(map(str, move.dice))
        x = (" x " + " ".join(self.cell_name(c) for c in move.xs)) if move.xs else ""
        if move.kind == "pass":
            return "pass" + x
        return f"write {move.value} at {self.cell_name(move.cell)}{x}"

    def turns_needed(self, cells: tuple[int, ...], passes: int, rolled: bool) -> int:
        """The rolls made so far: one per number written and per pass, and the roll in hand."""
        return self.size - cells.count(0) - cells.count(X) + passes + rolled

    # --- state files ---------------------------------------------------------------------
    def _grid_lines(self, cells: tuple[int, ...]) -> list[str]:
        mark = {0: ".", X: "x"}
        return [" ".join(mark.get(v, str(v)) for v in cells[r * self.n_cols:(r + 1) * self.n_cols])
                for r in range(self.n_rows)]
