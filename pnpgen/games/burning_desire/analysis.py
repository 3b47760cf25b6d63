"""Burning Desire's analysis: the evaluation, the greedy and optimal bots, per-game figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpgen.games.burning_desire.bots import greedy_bot, optimal_bot
from pnpgen.games.burning_desire.solver import TurnSolver
from pnpgen.games.burning_desire.state import GAMBLE, MULTIPLY, OVER, State

if TYPE_CHECKING:
    from pnpgen.games.burning_desire.game import BurningDesire


_SOLVED: dict[str, TurnSolver] = {}  # a rule set's repr -> its solved turn (read only once made)
_SOLVED_KEPT = 8


def solver(rules: BurningDesire) -> TurnSolver:
    """The exact optimal turn policy: solved once per process for each rule set (about 0.3 s),
    however many times its content is loaded (validate and build each load it)."""
    key = repr(rules.cfg)  # the whole Config, every value of the YAML it was read from
    if key not in _SOLVED:
        if len(_SOLVED) >= _SOLVED_KEPT:
            _SOLVED.pop(next(iter(_SOLVED)))
        _SOLVED[key] = TurnSolver(rules.cfg)
    return _SOLVED[key]


def evaluate(rules: BurningDesire, state: State, seat: int) -> float:
    if state.phase == OVER:
        return float(rules.is_terminal(state) and seat in rules.outcome(state).winners)
    pending = state.points if state.turn == seat and state.phase in (GAMBLE, MULTIPLY) else 0
    return float(state.scores[seat] + pending - max(state.scores))


def bots(rules: BurningDesire) -> dict[str, object]:
    return {"greedy": lambda: greedy_bot(rules), "optimal": lambda: optimal_bot(rules, rules.solver)}


def game_stats(rules: BurningDesire, state: State) -> dict[str, float]:
    if not state.turns:
        return {}
    return {
        "mean turn score": sum(state.scores) / state.turns,
        "turns per player": state.turns / len(state.scores),
        "tie-break rounds": float(state.tie_round),
    }
