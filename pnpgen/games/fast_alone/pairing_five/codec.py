"""PairingFiveRules: codec."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import OneOf, Schema
from pnpgen.engine.state_data import checked, read_state_data, read_word
from pnpgen.games.fast_alone.pairing_five.rules import (
    ENDS,
    STUCK,
    WON,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.pairing_five import PairingFive

STATE_SCHEMA: Schema = {
    "areas": {"*": [int]},
    "red": OneOf(int, str),  # its face while it waits, else the area holding it
    "unused?": [int],
    "rerolling?": int,
    "turns?": int,
    "rerolls?": int,
    "end?": str,
    "note?": str,
}


# State files: what a PairingFiveRules state file holds, and its invariants.
# --- state files ---------------------------------------------------------------------
def to_data(rules: PairingFive, state: State) -> dict[str, object]:
    areas = {rules.label(a): [f for f in state.cells[2 * a:2 * a + 2] if f] for a in range(rules.n)}
    data: dict[str, object] = {"areas": areas}
    data["red"] = state.red if state.red else (rules.label(state.red_area) if state.red_area >= 0 else 0)
    data["unused"] = list(state.pool)
    if state.pending:
        data["rerolling"] = state.pending
    data["turns"] = state.turns
    data["rerolls"] = state.rerolls
    if state.end:
        data["end"] = state.end
    return data


def from_data(rules: PairingFive, data: Any) -> State:
    bad = read_state_data(data, STATE_SCHEMA)

    labels = [a.label for a in rules.areas]
    areas = data["areas"]
    cells = [0] * (2 * rules.n)
    for name, dice in areas.items():
        if str(name) not in labels:
            raise bad(f"areas: '{name}' is not an area of this side ({', '.join(labels)})", areas, name)
        if len(dice) > 2 or not all(isinstance(d, int) and 1 <= d <= rules.faces for d in dice):
            raise bad(f"areas.{name}: at most two dice, faces 1–{rules.faces}", areas, name)
        a = labels.index(str(name))
        cells[2 * a:2 * a + len(dice)] = dice
    red = data["red"]
    red_face, red_area = 0, -1
    if isinstance(red, int) and not isinstance(red, bool) and 0 <= red <= rules.faces:
        red_face = red
    elif isinstance(red, str) and red in labels:
        red_area = labels.index(red)
    else:
        raise bad(f"red: the red die's face 1–{rules.faces} while it waits, the area ({', '.join(labels)}) "
                  "holding it once placed, or 0 before the roll", data, "red")
    pool = data.get("unused") or []
    for i, face in enumerate(pool):
        if not isinstance(face, int) or not 1 <= face <= rules.faces:
            raise bad(f"unused[{i}]: {face} is not a face 1–{rules.faces}", pool, i)
    end = read_word(data, "end", ENDS)
    turns = int(data.get("turns", sum(1 for c in cells if c)))
    state = State(tuple(cells), red_face, red_area, tuple(sorted(pool)), int(data.get("rerolling", 0)),
                  turns, int(data.get("rerolls", 0)), end)
    return checked(rules, state, data, "areas")


def example_state(rules: PairingFive) -> State:
    """Three dice placed on the Basic side's board; the rest to place."""
    return rules.from_data({"areas": {"A": [5], "C": [2], "D": [6]}, "red": "A",
                           "unused": [1, 3, 3, 4, 4, 6, 6], "turns": 3})


# --- checks and analysis -------------------------------------------------------------
def check(rules: PairingFive, state: State) -> list[str]:
    cells = state.cells
    problems = []
    if len(cells) != 2 * rules.n:
        return [f"the board has {2 * rules.n} cells, not {len(cells)}"]
    placed = sum(1 for c in cells if c)
    for a in range(rules.n):
        first, second = cells[2 * a], cells[2 * a + 1]
        if second and second != first:
            problems.append(f"areas: area {rules.label(a)} holds {first} and {second}; the two dice of an area "
                            "match")
    faces = [c for c in cells[0::2] if c]
    if len(set(faces)) != len(faces):
        problems.append("areas: two areas hold the same face; each area holds a different face")
    if any(cells[1::2]) and not rules.first_full(cells):
        problems.append("areas: a 2nd cell is filled while a 1st cell is empty")
    dice = placed + len(state.pool) + state.pending + (1 if state.red else 0)
    if rules.rolled(state) and dice != rules.white + 1:
        problems.append(f"unused: {placed} dice placed, {len(state.pool)} unused and {state.pending} "
                        f"rerolling make {dice}, not {rules.white + 1}")
    if state.red and placed:
        problems.append("red: the red die is placed first, but dice are already on the board")
    if placed and not (0 <= state.red_area < rules.n and cells[2 * state.red_area]):
        problems.append("red: name the area holding the red die")
    if not placed and state.red_area >= 0:
        problems.append("red: the board is empty, so the red die waits to be placed (give its face)")
    if state.pending < 0 or state.rerolls < 0:
        problems.append("rerolling and rerolls cannot be negative")
    if state.turns < placed:
        problems.append(f"turns: {placed} dice are placed, so at least {placed} turns")
    if state.end == WON and not all(cells):
        problems.append("end is p5_won, but some cells are empty")
    if state.end == STUCK and (state.pending or all(cells) or rules.has_move(state)):
        problems.append("end is p5_stuck, but a die can still be placed")
    if not state.end and rules.rolled(state) and not state.pending:
        if all(cells):
            problems.append("every cell is filled, so the game is won (end: p5_won)")
        elif not rules.has_move(state):
            problems.append("no unused die can be placed, so the game is lost (end: p5_stuck)")
    return problems
