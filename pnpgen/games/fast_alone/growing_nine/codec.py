"""GrowingNineRules: codec."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Schema
from pnpgen.content.yamlpos import where
from pnpgen.engine.state_data import checked, read_state_data, read_word
from pnpgen.errors import ImpossibleState
from pnpgen.games.fast_alone.growing_nine.rules import (
    ENDS,
    INDEX,
    RED,
    STUCK,
    WON,
    State,
    die_text,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.growing_nine import GrowingNine

STATE_SCHEMA: Schema = {
    "rolled?": [str],
    "grid?": [str],
    "queue?": [str],
    "history?": [[str]],
    "turns?": int,
    "end?": str,
    "note?": str,
}


# State files: what a GrowingNineRules state file holds, and its invariants.


def to_data(rules: GrowingNine, state: State) -> dict[str, object]:
    if not rules.placed(state):
        data: dict[str, object] = {"rolled": [die_text(1 + o + (RED if i == 0 else 0))
                                           for i, o in enumerate(state.rolled)]}
    else:
        data = {"grid": rules.grid_lines(state.cells), "queue": [die_text(1 + o) for o in state.queue]}
        history = [rules.grid_lines(c) for c in sorted(state.seen - {state.cells})]
        if history:
            data["history"] = history
    data["turns"] = state.turns
    if state.end:
        data["end"] = state.end
    return data


def _die(rules: GrowingNine, word: str, red: bool | None, container: object, key: object) -> int:
    m = re.fullmatch(r"(R?)([1-6])/([1-6])", word)
    if not m or (int(m[2]), int(m[3])) not in INDEX:
        raise ImpossibleState(f"'{word}' is not a die: top/north with adjacent faces (e.g. 3/1, R3/1 for the red)",
                              **where(container, key, value=True))
    if red is not None and bool(m[1]) != red:
        raise ImpossibleState(f"'{word}': {'the red' if red else 'a white'} die expected here",
                              **where(container, key, value=True))
    return 1 + INDEX[(int(m[2]), int(m[3]))] + (RED if m[1] else 0)


def _grid(rules: GrowingNine, rows: Any, container: object, key: object) -> tuple[int, ...]:
    if len(rows) != rules.n:
        raise ImpossibleState(f"grid: {len(rows)} rows, the board has {rules.n}", **where(container, key))
    cells = [0] * rules.size
    for r, line in enumerate(rows):
        words = line.split()
        if len(words) != rules.n:
            raise ImpossibleState(f"grid row {rules.n - r}: {len(words)} cells, the board has {rules.n} "
                                  "('.' or a die like 3/1 or R3/1)", **where(rows, r, value=True))
        for c, word in enumerate(words):
            cells[(rules.n - 1 - r) * rules.n + c] = 0 if word == "." else _die(rules, word, None, rows, r)
    return tuple(cells)


def from_data(rules: GrowingNine, data: Any) -> State:
    read_state_data(data, STATE_SCHEMA)
    end = read_word(data, "end", ENDS)
    turns = int(data.get("turns", 0))
    if "grid" not in data:
        rolled = data.get("rolled") or []
        if len(rolled) > rules.whites + 1:
            raise ImpossibleState(f"rolled: {len(rolled)} dice, the game has {rules.whites + 1}",
                                  **where(data, "rolled"))
        dice = tuple((_die(rules, w, i == 0, rolled, i) - 1) % RED for i, w in enumerate(rolled))
        return checked(rules, State(dice, (0,) * rules.size, (), frozenset(), turns, end), data, "rolled")
    cells = _grid(rules, data["grid"], data, "grid")
    queue = data.get("queue") or []
    q = tuple(_die(rules, w, False, queue, i) - 1 for i, w in enumerate(queue))
    seen = {cells} | {_grid(rules, h, data["history"], i) for i, h in enumerate(data.get("history") or [])}
    return checked(rules, State((), cells, q, frozenset(seen), turns, end), data, "grid")


def example_state(rules: GrowingNine) -> State:
    """Mid-game: the red shows 3, so the white 3 on b1 must tumble (b1-b2 or b1-c1)."""
    last = rules.n - 1
    rows = [". " * last + "."] * rules.n
    rows[0] = "1/2 " + ". " * (last - 1) + "R3/2"
    rows[-1] = "4/1 3/2 " + ". " * (last - 2) + "6/2"
    return rules.from_data({"grid": rows, "queue": ["2/1", "5/3", "6/4", "1/3", "2/4"], "turns": 4})


# --- checks and analysis -------------------------------------------------------------
def check(rules: GrowingNine, state: State) -> list[str]:
    if state.turns < 0:
        return [f"turns: {state.turns} cannot be negative"]
    if not rules.placed(state):
        if len(state.rolled) > rules.whites + 1:
            return ["more dice rolled than the game has"]
        if state.end:
            return [f"end: {state.end}, but the dice are not placed yet"]
        return ["turns: no die tumbles before the dice are placed"] if state.turns else []
    problems = []
    reds = sum(v > RED for v in state.cells)
    whites = sum(0 < v <= RED for v in state.cells)
    if reds != 1:
        problems.append(f"the board holds {reds} red dice; the game has exactly one")
    if whites + len(state.queue) != rules.whites:
        problems.append(f"{whites} whites on the board and {len(state.queue)} queued make "
                        f"{whites + len(state.queue)}, not {rules.whites}")
    if whites < rules.start_whites:
        problems.append(f"only {whites} whites on the board; setup puts {rules.start_whites}")
    if problems:
        return problems
    if state.end == WON and state.queue:
        problems.append("end is g9_won, but whites still wait in the queue")
    if state.end != WON and not state.queue:
        problems.append("every white is on the board, so the game is won (g9_won)")
    if state.end == STUCK and rules.steps(state.cells):
        problems.append("end is g9_stuck, but a die can still move")
    if state.end == "" and not rules.steps(state.cells):
        problems.append("no die can move, so the game is lost (g9_stuck)")
    return problems
