"""GrowingNineRules: codec."""

from __future__ import annotations

import re
from typing import Any

from pnpgen.content.yamlpos import where
from pnpgen.engine.protocol import StateCodec
from pnpgen.engine.state_data import read_state_data, read_word
from pnpgen.errors import ImpossibleState
from pnpgen.games.fast_alone.growing_nine.rules import (
    ENDS,
    INDEX,
    RED,
    STUCK,
    WON,
    GrowingNineRules,
    State,
    die_text,
)

STATE_SCHEMA: dict[str, Any] = {
    "rolled?": [str],
    "grid?": [str],
    "queue?": [str],
    "history?": [[str]],
    "turns?": int,
    "end?": str,
    "note?": str,
}


class GrowingNineCodec(GrowingNineRules, StateCodec[State]):
    """State files: what a GrowingNineRules state file holds, and its invariants."""

    STATE_SCHEMA = STATE_SCHEMA
    STATE_KEY = "grid"

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
        read_state_data(data, STATE_SCHEMA)
        end = read_word(data, "end", ENDS)
        turns = int(data.get("turns", 0))
        if "grid" not in data:
            rolled = data.get("rolled") or []
            if len(rolled) > self.whites + 1:
                raise ImpossibleState(f"rolled: {len(rolled)} dice, the game has {self.whites + 1}",
                                      **where(data, "rolled"))
            dice = tuple((self._die(w, i == 0, rolled, i) - 1) % RED for i, w in enumerate(rolled))
            return self.checked(State(dice, (0,) * self.size, (), frozenset(), turns, end), data)
        cells = self._grid(data["grid"], data, "grid")
        queue = data.get("queue") or []
        q = tuple(self._die(w, False, queue, i) - 1 for i, w in enumerate(queue))
        seen = {cells} | {self._grid(h, data["history"], i) for i, h in enumerate(data.get("history") or [])}
        return self.checked(State((), cells, q, frozenset(seen), turns, end), data)

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
