"""Burning Desire played by uniformly random players, written directly: plain ints and
tuples, no Rules, no states, no events. Only the numbers (Config) and the scoring
arithmetic (scoring.score) come from the game module."""

from __future__ import annotations

import math
import random
from itertools import product
from typing import Any

from benchmarks.loops import Play
from pnpgen.games.burning_desire.scoring import score


def burning_desire(rules: Any, players: int) -> Play:
    cfg = rules.cfg
    tie_cap = rules.tie_break_cap
    n_combos = len(cfg.combinations)
    keeps: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}

    def keep_options(dice: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        found = keeps.get(dice)
        if found is None:
            counts = [(f, dice.count(f)) for f in range(1, cfg.faces + 1) if f in dice]
            found = []
            for picks in product(*(range(c + 1) for _, c in counts)):
                kept = tuple(f for (f, _), k in zip(counts, picks, strict=True) for _ in range(k))
                found.append((kept, 0))
                if len(kept) < cfg.dice:
                    found.append((kept, 1))
            keeps[dice] = found
        return found

    def turn(rng: random.Random, total: int, final: bool) -> tuple[int, int, int]:
        """One turn: (points gained, steps, player moves)."""
        kept: tuple[int, ...] = ()
        bonus = rolls = steps = moves = 0
        while True:
            dice = tuple(sorted(kept + tuple(rng.randint(1, cfg.faces) for _ in range(cfg.dice - len(kept)))))
            bonus = bonus or rng.randint(1, cfg.bonus_faces)
            rolls += 1
            steps += 2
            moves += 1
            options = keep_options(dice) if rolls < cfg.rolls else []
            pick = rng.randrange(n_combos + len(options))
            if pick < n_combos:
                points = score(cfg, cfg.combinations[pick], dice, bonus).points
                break
            kept, keep_bonus = options[pick - n_combos]
            if not keep_bonus:
                bonus = 0
        while points > 0:
            allowed = (final and cfg.gamble_in_final) or (cfg.gamble_on_reaching and total + points >= cfg.threshold)
            steps += 1
            moves += 1
            if not allowed or rng.randrange(2):
                break
            faces = [rng.choice(d.faces) for d in cfg.multipliers]
            steps += 1
            points = 0 if 0 in faces else points * math.prod(faces)
        return points, steps, moves

    def play(rng: random.Random) -> tuple[int, int]:
        scores = [0] * players
        steps = moves = 0
        seat = 0
        while scores[seat] < cfg.threshold:  # until someone reaches the threshold
            seat = (seat + 1) % players if steps else 0
            gained, s, m = turn(rng, scores[seat], False)
            scores[seat] += gained
            steps, moves = steps + s, moves + m
        order = [(seat + k) % players for k in range(1, players)]
        for tie_round in range(tie_cap + 1):
            for s_ in order:
                gained, s, m = turn(rng, scores[s_], True)
                scores[s_] += gained
                steps, moves = steps + s, moves + m
            top = max(scores)
            leaders = [s_ for s_ in range(players) if scores[s_] == top]
            if len(leaders) == 1 or tie_round == tie_cap:
                break
            start = order[-1] + 1
            order = sorted(leaders, key=lambda s_: (s_ - start) % players)
        return steps, moves

    return play


LOOPS = {"burning-desire": burning_desire}
