"""ROUTOU DICE's analysis: the evaluation and the bots of bots.py, per-game figures."""

from __future__ import annotations

from typing import Any

from pnpgen.engine.protocol import Analysis
from pnpgen.games.routou_dice.bots import evaluate, greedy_bot, random_bot
from pnpgen.games.routou_dice.config import ACTION_KINDS
from pnpgen.games.routou_dice.model import RoutouRules
from pnpgen.games.routou_dice.state import Move, State


class RoutouAnalysis(RoutouRules, Analysis[State, Move]):
    def evaluate(self, state: State, seat: int) -> float:
        return evaluate(self, state, seat)

    def bots(self) -> dict[str, Any]:
        return {"random": lambda: random_bot(self), "greedy": lambda: greedy_bot(self)}

    def game_stats(self, state: State) -> dict[str, float]:
        total = sum(state.actions) or 1
        stats = {f"share_{k}": n / total for k, n in zip(ACTION_KINDS, state.actions, strict=True)}
        stats["actions"] = float(sum(state.actions))
        stats["kills_total"] = float(sum(state.kills))
        stats["dice_on_board"] = float(sum(1 for v in state.board if v))
        return stats
