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
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, Text, check, text_for
from pnpgen.content.yamlpos import where
from pnpgen.engine.bots import best_of
from pnpgen.engine.protocol import CHANCE, TERMINAL, Bot, Event, IllegalMove, Outcome, Rules
from pnpgen.errors import BadMove, ContentError, ImpossibleState
from pnpgen.games.fast_alone.dice import roll, roll_multisets
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, Puzzle, collection_table, difficulty_table, settings
from pnpgen.games.words import number

X = -1  # a crossed cell; 0 is an empty cell, 1..faces a written number
WON, STUCK, FULL = "hv_won", "hv_stuck", "hv_full"
TESTS = ("at_most", "equals", "at_least", "parity")

CONDITION_SCHEMA: dict[str, Any] = {
    "label": str,
    "measure": Choice("sum", "same"),
    "at_most?": int,
    "equals?": int,
    "at_least?": int,
    "parity?": Choice("even", "odd"),
}
SIDE_SCHEMA: dict[str, Any] = {
    "name": Text,
    "full_lines": bool,
    "rows": Each(CONDITION_SCHEMA, min=1),
    "columns": Each(CONDITION_SCHEMA, min=1),
}
RULES_SCHEMA: dict[str, Any] = {
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
STATE_SCHEMA: dict[str, Any] = {
    "grid": [str],
    "dice?": [int],
    "passes_used": int,
    "turns?": int,
    "end?": str,
    "note?": str,
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

    def describe(self, lang: str) -> str:
        ja = lang == "ja"
        what = ("合計" if ja else "the sum") if self.measure == "sum" else ("同じ数字" if ja else "equal numbers")
        if self.test == "parity":
            word = ("偶数" if self.value == 0 else "奇数") if ja else ("even" if self.value == 0 else "odd")
            return f"{what}が{word}" if ja else f"{what} is {word}"
        bound = {"at_most": ("以下", "at most"), "equals": ("ちょうど", "exactly"),
                 "at_least": ("以上", "at least")}[self.test]
        if ja:
            unit = "個" if self.measure == "same" else ""
            return f"{what}が{self.value}{unit}{bound[0]}" if self.test != "equals" else \
                f"{what}が{bound[0]}{self.value}{unit}"
        return f"{what} {bound[1]} {self.value}"


@dataclass(frozen=True)
class Side:
    key: str
    name: Any  # Text
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


def _fail(message: str, container: Any, key: Any) -> ContentError:
    return ContentError(message, **where(container, key, value=True))


def _condition(entry: Any) -> Condition:
    tests = [t for t in TESTS if t in entry]
    if len(tests) != 1:
        raise ContentError(f"condition '{entry['label']}': give exactly one of {', '.join(TESTS)}",
                           **where(entry))
    test = tests[0]
    value = entry[test]
    return Condition(entry["label"], entry["measure"], test,
                     (0 if value == "even" else 1) if test == "parity" else int(value))


class HorizontalVertical(Puzzle[State, Move]):
    """One board side of Horizontal & Vertical."""

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        self.content = content
        self.key = key
        self.data = data
        self.siblings: list[HorizontalVertical] = [self]  # every side of this puzzle (set by create)
        self.id = f"{content.id}/{key}-{side}"
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
                raise _fail(f"sides.{side}.{name}: {len(conds)} conditions for {len(labels)} {name}",
                            entry, name)
        self.side = Side(side, entry["name"], bool(entry["full_lines"]), tuple(rows + cols))
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
            raise _fail("dice.count: at least 3 dice (a row, a column and a value)", data["dice"], "count")
        if not 2 <= self.faces <= 20:
            raise _fail("dice.faces: between 2 and 20 faces", data["dice"], "faces")
        for name in ("rows", "columns"):
            labels = data[name]
            if len(set(labels)) != len(labels):
                raise _fail(f"{name}: labels must differ", data, name)
        for name in ("x_per_wild", "passes", "pass_x"):
            if data[name] < 0:
                raise _fail(f"{name}: cannot be negative", data, name)
        if not (1 <= self.win_rows <= len(self.row_labels) and 1 <= self.win_cols <= len(self.col_labels)):
            raise _fail("win: between 1 and the number of lines of each kind", data, "win")

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
        if X in values or (self.side.full_lines and 0 in values):
            return False
        cond = self.side.lines[line]
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
        return _writes(self, state.dice, state.cells)

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

    def end_conditions(self) -> dict[str, str]:
        """This puzzle's ends only (the collection's ends.yaml files are merged)."""
        return {k: v for k, v in super().end_conditions().items() if k in (WON, STUCK, FULL)}

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

    # --- state files ---------------------------------------------------------------------
    def _grid_lines(self, cells: tuple[int, ...]) -> list[str]:
        mark = {0: ".", X: "x"}
        return [" ".join(mark.get(v, str(v)) for v in cells[r * self.n_cols:(r + 1) * self.n_cols])
                for r in range(self.n_rows)]

    def to_data(self, state: State) -> dict[str, Any]:
        data: dict[str, Any] = {"grid": self._grid_lines(state.cells)}
        if state.dice:
            data["dice"] = list(state.dice)
        data["passes_used"] = state.passes
        data["turns"] = state.turns
        if state.end:
            data["end"] = state.end
        return data

    def from_data(self, data: Any) -> State:
        if not isinstance(data, dict):
            raise ImpossibleState("a state must be a mapping")
        check(data, STATE_SCHEMA, path="state")

        def bad(message: str, container: Any = data, key: Any = None) -> ImpossibleState:
            return ImpossibleState(message, **where(container, key, value=True))

        grid = data["grid"]
        if len(grid) != self.n_rows:
            raise bad(f"grid: {len(grid)} rows, the board has {self.n_rows} (rows "
                      f"{', '.join(map(str, self.row_labels))})", data, "grid")
        cells: list[int] = []
        for r, line in enumerate(grid):
            words = line.split()
            if len(words) != self.n_cols:
                raise bad(f"grid row {self.row_labels[r]}: {len(words)} cells, the board has {self.n_cols} "
                          "('.' empty, 'x' crossed, or a number)", grid, r)
            for word in words:
                value = number(word) or 0
                if word in (".", "x", "X"):
                    cells.append(0 if word == "." else X)
                elif 1 <= value <= self.faces:
                    cells.append(value)
                else:
                    raise bad(f"grid row {self.row_labels[r]}: '{word}' is not '.', 'x' or a number "
                              f"1–{self.faces}", grid, r)
        dice = data.get("dice") or []
        if dice and len(dice) != self.count:
            raise bad(f"dice: {len(dice)} dice, a roll is {self.count}", data, "dice")
        for i, face in enumerate(dice):
            if not 1 <= face <= self.faces:
                raise bad(f"dice[{i}]: {face} is not a face 1–{self.faces}", dice, i)
        end = str(data.get("end", ""))
        if end and end not in (WON, STUCK, FULL):
            raise bad(f"end: '{end}' is not one of {WON}, {STUCK}, {FULL}", data, "end")
        passes = int(data["passes_used"])
        # turns are rolls made; a file may leave them out (then the fewest the grid needs)
        turns = int(data["turns"]) if "turns" in data else self.turns_needed(tuple(cells), passes, bool(dice))
        state = State(tuple(cells), tuple(sorted(dice)), passes, turns, end)
        problems = self.check(state)
        if problems:
            key = next((k for k in ("end", "passes_used", "dice", "turns") if problems[0].startswith(k) and k in data),
                       "grid")
            raise bad(problems[0], data, key)
        return state

    def example_state(self) -> State:
        """Mid-game on the Total side's board: a roll of 1 3 5 to use."""
        state = self.from_data({
            "grid": [". 3 . . .", ". . 5 . x", "6 . . . .", ". . . 2 .", ". 4 . . ."],
            "dice": [1, 3, 5], "passes_used": 1, "turns": 7,
        })
        return state

    # --- checks and analysis -------------------------------------------------------------
    def check(self, state: State) -> list[str]:
        problems = []
        if len(state.cells) != self.size:
            return [f"the grid has {len(state.cells)} cells, not {self.size}"]
        if not 0 <= state.passes <= self.max_passes:
            problems.append(f"passes_used is {state.passes}; the board has {self.max_passes} pass boxes")
        crossed = state.cells.count(X)
        if crossed < state.passes * self.pass_x:
            problems.append(f"{state.passes} passes each write {self.pass_x} x, but the grid holds {crossed}")
        needed = self.turns_needed(state.cells, state.passes, bool(state.dice))
        if state.turns < needed:
            written = self.size - state.cells.count(0) - crossed
            held = " and the roll in hand" if state.dice else ""
            passes = f"{state.passes} pass{'' if state.passes == 1 else 'es'}"
            problems.append(f"turns: {state.turns} rolls made, but {written} numbers, {passes}{held} need {needed}")
        won = self.won(state.cells)
        if state.end == WON and not won:
            problems.append("end is hv_won, but no winning row and column are on the grid")
        if state.end in ("", STUCK) and won:
            problems.append("a row and a column already meet their conditions: the game is won (hv_won)")
        if state.end == "" and 0 not in state.cells:
            problems.append("the grid is full, so the game is over")
        if state.end == FULL and 0 in state.cells:
            problems.append("end is hv_full, but the grid has empty cells")
        if state.end == STUCK and (not state.dice or self.writes(state) or state.passes < self.max_passes):
            problems.append("end is hv_stuck, but the rolled dice can still be used or a pass is left")
        if state.end in (WON, FULL) and state.dice:
            problems.append("dice are waiting in a finished game")
        return problems

    def turns_needed(self, cells: tuple[int, ...], passes: int, rolled: bool) -> int:
        """The rolls made so far: one per number written and per pass, and the roll in hand."""
        return self.size - cells.count(0) - cells.count(X) + passes + rolled

    def evaluate(self, state: State, seat: int) -> float:
        if state.end:
            return 1000.0 + self.max_passes - state.passes if state.end == WON else -1000.0
        return self.position_value(state.cells, state.passes)

    def line_promise(self, cells: tuple[int, ...], line: int) -> float:
        """How close a line is to meeting its condition, 0..1 (solver heuristic)."""
        values = [cells[i] for i in self.line_cells[line]]
        if X in values:
            return 0.0
        cond = self.side.lines[line]
        empty = values.count(0)
        numbers = [v for v in values if v]
        if cond.measure == "sum":
            if not self.side.full_lines:
                return 1.0 if cond.holds(sum(numbers)) else 0.0
            chance = _sum_chance(cond, sum(numbers), empty, self.faces)
            return chance * self.decay**empty
        best = max(Counter(numbers).values(), default=0)
        if cond.holds(best):
            return 1.0
        need = max(0, cond.value - best) if cond.test in ("at_least", "equals") else 0
        if need > empty:
            return 0.0
        return self.decay ** (2 * need) * (1 + 0.1 * (empty - need))

    def position_value(self, cells: tuple[int, ...], passes: int) -> float:
        promise = [self.line_promise(cells, line) for line in range(len(self.line_cells))]
        rows = sorted(promise[: self.n_rows], reverse=True)
        cols = sorted(promise[self.n_rows:], reverse=True)
        core = _top(rows, self.win_rows) * _top(cols, self.win_cols)
        return (core + self.spread * sum(promise) / len(promise)
                + self.pass_value * (self.max_passes - passes) + self.empty_value * cells.count(0))

    def bots(self) -> dict[str, Any]:
        return {"random": lambda: random_bot(self), "solver": lambda: solver_bot(self)}

    def game_stats(self, state: State) -> dict[str, float]:
        won = state.end == WON
        return {"turns": float(state.turns), "score (passes left)": float(self.max_passes - state.passes)
                if won else 0.0, "passes used": float(state.passes)}

    def describe(self, state: State) -> str | None:
        lines = [f"{text_for(self.side.name, 'en')}; rows {', '.join(map(str, self.row_labels))} top to "
                 f"bottom, columns {', '.join(map(str, self.col_labels))} left to right"]
        header = "      " + " ".join(f"{c:>2}" for c in self.col_labels)
        lines.append(header)
        for r, text in enumerate(self._grid_lines(state.cells)):
            cond = self.side.lines[r].label
            lines.append(f"  {self.row_labels[r]:>2}  " + " ".join(f"{w:>2}" for w in text.split())
                         + f"   {cond}")
        lines.append("      " + " ".join(f"{self.side.lines[self.n_rows + c].label:>2}"
                                         for c in range(self.n_cols)))
        rows, cols = self.met_lines(state.cells)
        met = ", ".join(self.line_name(m) for m in rows + cols) or "none"
        lines.append(f"Lines meeting their condition: {met}")
        lines.append(f"Passes used: {state.passes} of {self.max_passes}; turns: {state.turns}")
        if state.end:
            result = "won" if state.end == WON else "lost"
            lines.append(f"Game over ({state.end}): {result}, score {self.outcome(state).scores[0]:g}")
        elif state.dice:
            writes = self.writes(state)
            lines.append(f"Dice {' '.join(map(str, state.dice))}: {len(writes)} possible writes")
            for (value, cell), cost in sorted(writes.items(), key=lambda w: (w[0][0], w[0][1])):
                lines.append(f"  write {value} at {self.cell_name(cell)}" + (f" (+{cost} x)" if cost else ""))
        else:
            lines.append("A roll is due")
        return "\n".join(lines)

    # --- rulebook ------------------------------------------------------------------------
    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self, self.data)
        return {
            "difficulty_games": games,
            "difficulty_seed": seed,
            "dice": self.count,
            "faces": self.faces,
            "rows": self.n_rows,
            "columns": self.n_cols,
            "row_labels": f"{self.row_labels[0]}–{self.row_labels[-1]}",
            "column_labels": f"{self.col_labels[0]}–{self.col_labels[-1]}",
            "wild_faces": "/".join(map(str, sorted(self.wild))),
            "x_per_wild": self.x_per_wild,
            "passes": self.max_passes,
            "pass_x": self.pass_x,
            "win_rows": self.win_rows,
            "win_columns": self.win_cols,
            "side_name": text_for(self.side.name, lang),
            "row_conditions": "・".join(c.label for c in self.side.lines[:self.n_rows]) if lang == "ja"
            else ", ".join(c.label for c in self.side.lines[:self.n_rows]),
            "column_conditions": "・".join(c.label for c in self.side.lines[self.n_rows:]) if lang == "ja"
            else ", ".join(c.label for c in self.side.lines[self.n_rows:]),
            "same_needed": next((c.value for c in self.side.lines if c.measure == "same"), 0),
            # one label per line for the board sheet: row_condition_1 .. and column_condition_1 ..
            **{f"row_condition_{i + 1}": c.label for i, c in enumerate(self.side.lines[:self.n_rows])},
            **{f"column_condition_{i + 1}": c.label for i, c in enumerate(self.side.lines[self.n_rows:])},
            "solver_method": "1手先だけを見る貪欲法（各列の見込みで局面を評価し、x は損の少ないマスへ）" if lang == "ja"
            else "one-move greedy search on a line-promise heuristic, x placed where they cost least",
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == COLLECTION_TABLE:  # every side of the collection (intro chapter)
            return collection_table(self, lang)
        if name == "difficulty":  # every side of the puzzle, random player and solver
            games, seed, bots = settings(self, self.data)
            return difficulty_table([(text_for(r.side.name, lang), r) for r in self.siblings], games, seed, bots, lang)
        if name != "conditions":
            raise KeyError(name)
        ja = lang == "ja"
        head = ["列", "ラベル", "成立条件"] if ja else ["Line", "Label", "Condition"]
        rows = [head]
        for line, cond in enumerate(self.side.lines):
            if line < self.n_rows:
                where_ = f"横 {self.row_labels[line]}" if ja else f"row {self.row_labels[line]}"
            else:
                where_ = f"縦 {self.col_labels[line - self.n_rows]}" if ja else \
                    f"column {self.col_labels[line - self.n_rows]}"
            rows.append([where_, cond.label, cond.describe(lang)])
        return rows


def _top(values: list[float], count: int) -> float:
    """The product of the `count` best values (every one of them must come true)."""
    result = 1.0
    for v in values[:count]:
        result *= v
    return result


@cache
def _sum_table(empty: int, faces: int) -> tuple[int, ...]:
    """Ways for `empty` dice to total each sum 0..empty*faces."""
    ways = [1]
    for _ in range(empty):
        nxt = [0] * (len(ways) + faces)
        for total, count in enumerate(ways):
            for face in range(1, faces + 1):
                nxt[total + face] += count
        ways = nxt
    return tuple(ways)


@cache
def _sum_chance(cond: Condition, filled: int, empty: int, faces: int) -> float:
    """Chance that random numbers in the empty cells make the line meet `cond`."""
    ways = _sum_table(empty, faces)
    good = sum(count for total, count in enumerate(ways) if count and cond.holds(filled + total))
    return good / faces**empty


def _writes(rules: HorizontalVertical, dice: tuple[int, ...], cells: tuple[int, ...]) -> dict[tuple[int, int], int]:
    if not dice:
        return {}
    empty_count = cells.count(0)
    result: dict[tuple[int, int], int] = {}
    for value in sorted(set(dice)):
        for cell, v in enumerate(cells):
            if v == 0:
                cost = rules.write_cost(dice, value, cell)
                if cost is not None and cost <= empty_count - 1:
                    result[(value, cell)] = cost
    return result


def _best_crosses(rules: HorizontalVertical, cells: tuple[int, ...], passes: int, count: int,
                  taken: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Place `count` x one at a time where they cost the position least."""
    placed: list[int] = []
    current = list(cells)
    for _ in range(count):
        best, best_value = -1, float("-inf")
        for cell, v in enumerate(current):
            if v == 0 and cell != taken:
                current[cell] = X
                value = rules.position_value(tuple(current), passes)
                current[cell] = 0
                if value > best_value:
                    best, best_value = cell, value
        current[best] = X
        placed.append(best)
    return tuple(sorted(placed)), tuple(current)


def random_bot(rules: HorizontalVertical) -> Bot[State, Move]:
    """A random player: any write (value and cell) or the pass, equally likely; x anywhere.

    (The generic `uniform` bot picks among every x placement too, so it mostly plays
    double wilds.)"""

    def choose(state: State, rng: random.Random) -> Move:
        options: list[tuple[int, int, int]] = [(v, c, cost) for (v, c), cost in rules.writes(state).items()]
        if state.passes < rules.max_passes:
            options.append((0, -1, rules.pass_x))
        value, cell, cost = rng.choice(options)
        empty = [i for i, v in enumerate(state.cells) if v == 0 and i != cell]
        xs = tuple(sorted(rng.sample(empty, cost)))
        return Move("write", value, cell, xs) if cell >= 0 else Move("pass", xs=xs)

    return choose


def solver_bot(rules: HorizontalVertical) -> Bot[State, Move]:
    """Greedy on the heuristic: try every write (and a pass), x where they hurt least."""

    def choose(state: State, rng: random.Random) -> Move:
        options: list[tuple[Move, int, int]] = [
            (Move("write", value, cell), cost, cell) for (value, cell), cost in rules.writes(state).items()]
        if state.passes < rules.max_passes:
            options.append((Move("pass"), rules.pass_x, -1))

        def scored() -> Iterator[tuple[Move, float]]:
            for move, cost, cell in options:
                cells = list(state.cells)
                if cell >= 0:
                    cells[cell] = move.value
                passes = state.passes + (move.kind == "pass")
                xs, after = _best_crosses(rules, tuple(cells), passes, cost, cell)
                if rules.won(after):
                    value = 1000.0 + rules.max_passes - passes
                else:
                    value = rules.position_value(after, passes) if 0 in after else -1000.0
                yield move._replace(xs=xs), value

        return best_of(scored(), rng)

    return choose


def create(content: GameContent, key: str, data: Any) -> list[Rules[Any, Any]]:
    sides = [HorizontalVertical(content, key, data, side) for side in data["sides"]]
    for rules in sides:
        rules.siblings = sides
    return list(sides)
