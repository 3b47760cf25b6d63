"""Bots: `greedy` keeps the dice of the best combination so far; `optimal` follows
the exact turn policy of solver.py. Both share one gamble policy."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Bot
from pnpgen.games.burning_desire.scoring import best_score
from pnpgen.games.burning_desire.state import GAMBLE, GAMBLE_MOVE, STOP_MOVE, Move, State

if TYPE_CHECKING:
    from pnpgen.games.burning_desire.rules import BurningDesireRules as BurningDesire
    from pnpgen.games.burning_desire.solver import TurnSolver


def wants_gamble(rules: BurningDesire, state: State) -> bool:
    """Gamble when allowed and not clearly ahead: in the final round when not leading
    the others, on reaching the threshold when leading by less than the margin."""
    if not rules.gamble_allowed(state):
        return False
    mine = state.scores[state.turn] + state.points
    others = max(s for i, s in enumerate(state.scores) if i != state.turn)
    if state.trigger >= 0:
        return mine <= others
    return mine - others < rules.gamble_margin


def _decide(rules: BurningDesire, choose: Bot[State, Move]) -> Bot[State, Move]:
    def bot(s: State, rng: random.Random) -> Move:
        if s.phase == GAMBLE:
            return GAMBLE_MOVE if wants_gamble(rules, s) else STOP_MOVE
        return choose(s, rng)

    return bot


def greedy_bot(rules: BurningDesire) -> Bot[State, Move]:
    """Keep the dice counted by the best combination now (and the bonus die when it
    matches one of them); score when out of rolls or when nothing would be rerolled."""
    cfg = rules.cfg

    def choose(s: State, rng: random.Random) -> Move:
        best = best_score(cfg, s.dice, s.bonus)
        combo = cfg.combination(best.combination)
        assert combo is not None
        kept = tuple(d for d in s.dice if d in combo.faces)
        keep_bonus = s.bonus in kept if combo.bonus == "per_die" else s.bonus in combo.faces
        if s.rolls >= cfg.rolls or (len(kept) == cfg.dice and keep_bonus):
            return Move("score", combination=best.combination)
        return Move("keep", kept, int(keep_bonus))

    return _decide(rules, choose)


def optimal_bot(rules: BurningDesire, solver: TurnSolver) -> Bot[State, Move]:
    """The exact expected-points-maximising reroll policy."""

    def choose(s: State, rng: random.Random) -> Move:
        action = solver.action(s.rolls, s.dice, s.bonus)
        if action.kind == "score":
            return Move("score", combination=action.combination)
        return Move("keep", action.keep, int(action.keep_bonus))

    return _decide(rules, choose)
