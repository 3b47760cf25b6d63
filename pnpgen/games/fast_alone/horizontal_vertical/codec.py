"""HorizontalVerticalRules: codec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Schema
from pnpgen.engine.state_data import checked, read_state_data, read_word
from pnpgen.games.fast_alone.horizontal_vertical.rules import (
    FULL,
    STUCK,
    WON,
    State,
    X,
)
from pnpgen.games.words import number

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.horizontal_vertical import HorizontalVertical

STATE_SCHEMA: Schema = {
    "grid": [str],
    "dice?": [int],
    "passes_used": int,
    "turns?": int,
    "end?": str,
    "note?": str,
}


# State files: what a HorizontalVerticalRules state file holds, and its invariants.


def to_data(rules: HorizontalVertical, state: State) -> dict[str, object]:
    data: dict[str, object] = {"grid": rules._grid_lines(state.cells)}
    if state.dice:
        data["dice"] = list(state.dice)
    data["passes_used"] = state.passes
    data["turns"] = state.turns
    if state.end:
        data["end"] = state.end
    return data


def from_data(rules: HorizontalVertical, data: Any) -> State:
    bad = read_state_data(data, STATE_SCHEMA)

    grid = data["grid"]
    if len(grid) != rules.n_rows:
        raise bad(f"grid: {len(grid)} rows, the board has {rules.n_rows} (rows "
                  f"{', '.join(map(str, rules.row_labels))})", data, "grid")
    cells: list[int] = []
    for r, line in enumerate(grid):
        words = line.split()
        if len(words) != rules.n_cols:
            raise bad(f"grid row {rules.row_labels[r]}: {len(words)} cells, the board has {rules.n_cols} "
                      "('.' empty, 'x' crossed, or a number)", grid, r)
        for word in words:
            value = number(word) or 0
            if word in (".", "x", "X"):
                cells.append(0 if word == "." else X)
            elif 1 <= value <= rules.faces:
                cells.append(value)
            else:
                raise bad(f"grid row {rules.row_labels[r]}: '{word}' is not '.', 'x' or a number "
                          f"1–{rules.faces}", grid, r)
    dice = data.get("dice") or []
    if dice and len(dice) != rules.count:
        raise bad(f"dice: {len(dice)} dice, a roll is {rules.count}", data, "dice")
    for i, face in enumerate(dice):
        if not 1 <= face <= rules.faces:
            raise bad(f"dice[{i}]: {face} is not a face 1–{rules.faces}", dice, i)
    end = read_word(data, "end", (WON, STUCK, FULL))
    passes = int(data["passes_used"])
    # turns are rolls made; a file may leave them out (then the fewest the grid needs)
    turns = int(data["turns"]) if "turns" in data else rules.turns_needed(tuple(cells), passes, bool(dice))
    state = State(tuple(cells), tuple(sorted(dice)), passes, turns, end)
    return checked(rules, state, data, "grid")


def example_state(rules: HorizontalVertical) -> State:
    """Mid-game on the Total side's board: a roll of 1 3 5 to use."""
    state = rules.from_data({
        "grid": [". 3 . . .", ". . 5 . x", "6 . . . .", ". . . 2 .", ". 4 . . ."],
        "dice": [1, 3, 5], "passes_used": 1, "turns": 7,
    })
    return state


# --- checks and analysis -------------------------------------------------------------
def check(rules: HorizontalVertical, state: State) -> list[str]:
    problems = []
    if len(state.cells) != rules.size:
        return [f"the grid has {len(state.cells)} cells, not {rules.size}"]
    if not 0 <= state.passes <= rules.max_passes:
        problems.append(f"passes_used is {state.passes}; the board has {rules.max_passes} pass boxes")
    crossed = state.cells.count(X)
    if crossed < state.passes * rules.pass_x:
        problems.append(f"{state.passes} passes each write {rules.pass_x} x, but the grid holds {crossed}")
    needed = rules.turns_needed(state.cells, state.passes, bool(state.dice))
    if state.turns < needed:
        written = rules.size - state.cells.count(0) - crossed
        held = " and the roll in hand" if state.dice else ""
        passes = f"{state.passes} pass{'' if state.passes == 1 else 'es'}"
        problems.append(f"turns: {state.turns} rolls made, but {written} numbers, {passes}{held} need {needed}")
    won = rules.won(state.cells)
    if state.end == WON and not won:
        problems.append("end is hv_won, but no winning row and column are on the grid")
    if state.end in ("", STUCK) and won:
        problems.append("a row and a column already meet their conditions: the game is won (hv_won)")
    if state.end == "" and 0 not in state.cells:
        problems.append("the grid is full, so the game is over")
    if state.end == FULL and 0 in state.cells:
        problems.append("end is hv_full, but the grid has empty cells")
    if state.end == STUCK and (not state.dice or rules.writes(state) or state.passes < rules.max_passes):
        problems.append("end is hv_stuck, but the rolled dice can still be used or a pass is left")
    if state.end in (WON, FULL) and state.dice:
        problems.append("dice are waiting in a finished game")
    return problems
