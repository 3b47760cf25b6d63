"""ROUTOU DICE's analysis: the evaluation and the bots of bots.py, per-game figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpgen.games.routou_dice.bots import greedy_bot
from pnpgen.games.routou_dice.config import ACTION_KINDS
from pnpgen.games.routou_dice.state import State

if TYPE_CHECKING:
    from pnpgen.games.routou_dice.game import RoutouDice


def bots(rules: RoutouDice) -> dict[str, object]:
    return {"greedy": lambda: greedy_bot(rules)}  # "random" is the engine's (sample_move)


def game_stats(rules: RoutouDice, state: State) -> dict[str, float]:
    total = sum(state.actions) or 1
    stats = {f"share_{k}": n / total for k, n in zip(ACTION_KINDS, state.actions, strict=True)}
    stats["actions"] = float(sum(state.actions))
    stats["kills_total"] = float(sum(state.kills))
    stats["dice_on_board"] = float(sum(1 for v in state.board if v))
    return stats
