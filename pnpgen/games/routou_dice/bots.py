"""ROUTOU DICE bots: a greedy player valuing lines, kills and safety (the random player is
the engine's, on RoutouRules.sample_move). Weights come from game.yaml `simulation:`."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Bot
from pnpgen.games.routou_dice.board import owner
from pnpgen.games.routou_dice.state import Move, State

if TYPE_CHECKING:
    from pnpgen.games.routou_dice.model import RoutouRules as RoutouDice


def greedy_bot(rules: RoutouDice) -> Bot[State, Move]:
    """One-move look-ahead on evaluate(); clone moves are sampled to keep it quick."""
    sample = int(rules.simulation.get("greedy", {}).get("clone_sample", 40))

    def choose(state: State, rng: random.Random) -> Move:
        seat = state.turn
        if state.roll is not None:
            candidates = rules.placements(state)
        else:
            candidates = []
            for kind in rules.kinds(state):
                moves = rules.moves_of(state, kind)
                if kind == "clone" and len(moves) > sample:
                    moves = rng.sample(moves, sample)
                candidates += moves
        best: list[Move] = []
        best_value = float("-inf")
        for move in candidates:
            value = evaluate(rules, rules.apply(state, move)[0], seat)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return rng.choice(best)

    return choose


def evaluate(rules: RoutouDice, state: State, seat: int) -> float:
    """Lines (open windows weighted by their fill), kills, material, dice under threat,
    and the dice a pending placement roll will bring."""
    if state.result is not None:
        return 1e6 if seat in state.result[1] else -1e6
    w: dict[str, float] = dict(rules.simulation.get("greedy", {}).get("weights", {}))
    board, geo = state.board, rules.geo
    score = 0.0
    for window in geo.windows:
        mine = theirs = 0
        for i in window:
            v = board[i]
            if v:
                if owner(v) == seat:
                    mine += 1
                else:
                    theirs += 1
        if mine and not theirs:
            score += w.get("line", 1.0) * mine * mine
        elif theirs and not mine:
            score -= w.get("enemy_line", 1.0) * theirs * theirs
    score += w.get("kill", 20.0) * (state.kills[seat] - state.kills[1 - seat])
    own = sum(abs(v) for v in board if v and owner(v) == seat)
    other = sum(abs(v) for v in board if v and owner(v) != seat)
    score += w.get("value", 0.5) * (own - other)
    score -= w.get("threat", 1.0) * threatened(rules, state, seat)
    score += w.get("stock", 3.0) * (state.stock[seat] - state.stock[1 - seat])
    if state.roll is not None and state.turn == seat and state.roll.action != "contract":
        score += w.get("pending_die", 4.0) * rules.cfg.roll_dice[state.roll.action] / 3
    return score


def threatened(rules: RoutouDice, state: State, seat: int) -> float:
    """Total value of `seat`'s dice that some enemy die could slash next turn."""
    board, geo = state.board, rules.geo
    at_risk: set[int] = set()
    for i, v in enumerate(board):
        if not v or owner(v) == seat or abs(v) < 2:
            continue
        value = abs(v)
        for j, d in geo.distances(board, i, value - 2).items():
            for t in geo.orth[j]:
                if board[t] and owner(board[t]) == seat and value - d - 1 >= abs(board[t]):
                    at_risk.add(t)
    return float(sum(abs(board[t]) for t in at_risk))
