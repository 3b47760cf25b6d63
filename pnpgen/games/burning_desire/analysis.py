"""Burning Desire's analysis: the evaluation, the greedy and optimal bots, per-game figures."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pnpgen.engine.protocol import Analysis
from pnpgen.games.burning_desire.bots import greedy_bot, optimal_bot
from pnpgen.games.burning_desire.rules import BurningDesireRules
from pnpgen.games.burning_desire.solver import TurnSolver
from pnpgen.games.burning_desire.state import GAMBLE, MULTIPLY, OVER, Move, State


class BurningDesireAnalysis(BurningDesireRules, Analysis[State, Move]):
    @cached_property
    def solver(self) -> TurnSolver:
        """The exact optimal turn policy (solved once, on first use)."""
        return TurnSolver(self.cfg)

    def evaluate(self, state: State, seat: int) -> float:
        if state.phase == OVER:
            return super().evaluate(state, seat)
        pending = state.points if state.turn == seat and state.phase in (GAMBLE, MULTIPLY) else 0
        return float(state.scores[seat] + pending - max(state.scores))

    def bots(self) -> dict[str, Any]:
        return {"greedy": lambda: greedy_bot(self), "optimal": lambda: optimal_bot(self, self.solver)}

    def game_stats(self, state: State) -> dict[str, float]:
        if not state.turns:
            return {}
        return {
            "mean turn score": sum(state.scores) / state.turns,
            "turns per player": state.turns / len(state.scores),
            "tie-break rounds": float(state.tie_round),
        }
