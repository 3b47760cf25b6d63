"""UnificationRules: codec."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Schema
from pnpgen.engine.state_data import checked, read_state_data, read_word
from pnpgen.games.fast_alone.unification.rules import (
    ENDS,
    STUCK,
    TIME,
    WON,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.unification import Unification

STATE_SCHEMA: Schema = {
    "grid": [[int]],
    "red": [int],
    "push": int,
    "banned?": str,
    "pushes?": int,
    "rerolls?": int,
    "end?": str,
    "note?": str,
}


# State files: what a UnificationRules state file holds, and its invariants.
# --- state files ---------------------------------------------------------------------
def to_data(rules: Unification, state: State) -> dict[str, object]:
    n = rules.n
    data: dict[str, object] = {"grid": [list(state.cells[r * n:(r + 1) * n]) for r in range(n)]}
    data["red"] = [state.red // n + 1, state.red % n + 1] if state.red >= 0 else []
    data["push"] = state.push
    if state.banned:
        data["banned"] = state.banned
    data["pushes"] = state.pushes
    data["rerolls"] = state.rerolls
    if state.end:
        data["end"] = state.end
    return data


def from_data(rules: Unification, data: Any) -> State:
    bad = read_state_data(data, STATE_SCHEMA)

    n, grid = rules.n, data["grid"]
    if len(grid) != n or any(len(row) != n for row in grid):
        raise bad(f"grid: {n} rows of {n} faces", data, "grid")
    for r, row in enumerate(grid):
        for face in row:
            if not 0 <= face <= rules.faces:
                raise bad(f"grid row {r + 1}: {face} is not a face 1–{rules.faces} (0: not rolled yet)", grid, r)
    red = data["red"]
    if red and (len(red) != 2 or not all(1 <= x <= n for x in red)):
        raise bad(f"red: the red die's cell as [row, column], each 1–{n}", data, "red")
    push = data["push"]
    if not 0 <= push <= rules.faces:
        raise bad(f"push: the push die's face 1–{rules.faces} (0: being rolled)", data, "push")
    banned = str(data.get("banned", ""))
    if banned and not re.fullmatch(rf"[NESW][1-{n}]", banned):
        raise bad(f"banned: an edge N, E, S or W and a line 1–{n}, like 'S2'", data, "banned")
    end = read_word(data, "end", ENDS)
    cells = tuple(f for row in grid for f in row)
    cell = (red[0] - 1) * n + red[1] - 1 if red else -1
    state = State(cells, cell, push, banned, int(data.get("pushes", 0)), int(data.get("rerolls", 0)), end)
    return checked(rules, state, data, "grid")


def example_state(rules: Unification) -> State:
    """A game under way on the Simple side's board."""
    return rules.from_data({"grid": [[3, 1, 4], [1, 5, 2], [6, 5, 3]], "red": [2, 2], "push": 5,
                           "banned": "E2", "pushes": 3})


# --- checks and analysis -------------------------------------------------------------
def check(rules: Unification, state: State) -> list[str]:
    problems = []
    if len(state.cells) != rules.size:
        return [f"grid: {rules.size} cells, not {len(state.cells)}"]
    rolled = 0 not in state.cells
    if not rolled and any(state.cells[state.cells.index(0):]):
        problems.append("grid: setup rolls the cells in reading order; a rolled cell follows an empty one")
    if not rolled and state.push:
        problems.append("push: the push die is rolled after the grid")
    if state.red < 0 and any(state.cells):
        problems.append("red: setup places the red die first; name its cell")
    if state.pushes and not rolled:
        problems.append("grid: pushes were made, so every cell holds a die")
    if state.banned and not state.pushes:
        problems.append("banned: no push was made yet, so no place is banned")
    if state.pushes < 0 or state.rerolls < 0:
        problems.append("pushes and rerolls cannot be negative")
    if state.pushes > rules.push_limit:
        problems.append(f"pushes: at most {rules.push_limit} (push_limit)")
    if state.rerolls > state.pushes:
        problems.append("rerolls: more rerolls than pushes")
    if state.end == WON and not (rolled and state.red >= 0 and rules.won(state)):
        problems.append("end is un_won, but the grid does not show one face")
    if state.end == TIME and state.pushes < rules.push_limit:
        problems.append(f"end is un_time, but only {state.pushes} of {rules.push_limit} pushes are made")
    if state.end == STUCK and (not state.push or rules.pushes(state)):
        problems.append("end is un_stuck, but a push is allowed")
    if not state.end and rolled and state.red >= 0:
        if rules.won(state):
            problems.append("every die shows the red die's face, so the game is won (end: un_won)")
        elif state.pushes >= rules.push_limit:
            problems.append("the pushes are used up, so the game is lost (end: un_time)")
        elif state.push and not rules.pushes(state):
            problems.append("no push is allowed, so the game is lost (end: un_stuck)")
    return problems
