"""Hand loops of the harness's toy games (tests/test_harness_toys.py)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from benchmarks.loops import Play


def nim(rules: Any, players: int) -> Play:
    data = rules.content.data["rules"]
    pile0, max_take = int(data["pile"]), int(data["max_take"])
    winds = [int(k) for k in data["wind"]]
    weights = [float(Fraction(p)) for p in data["wind"].values()]

    def play(rng: random.Random) -> tuple[int, int]:
        pile, steps, moves = pile0, 0, 0
        while True:
            pile -= rng.choice(range(1, min(max_take, pile) + 1))
            steps += 1
            moves += 1
            if pile <= 0:
                return steps, moves
            pile -= rng.choices(winds, weights)[0]
            steps += 1
            if pile <= 0:
                return steps, moves

    return play


def pig(rules: Any, players: int) -> Play:
    data = rules.content.data["rules"]
    target, turns, max_rolls = int(data["target"]), int(data["turns"]), int(data["max_rolls"])

    def play(rng: random.Random) -> tuple[int, int]:
        total = steps = moves = 0
        for _ in range(turns):
            banked = rolls = 0
            while True:
                options = (["roll"] if rolls < max_rolls else []) + (["stop"] if rolls else [])
                moves += 1
                steps += 1
                if rng.choice(options) == "stop":
                    total += banked
                    break
                rolls += 1
                pips = rng.choice(range(1, 7))
                steps += 1
                if pips == 1:
                    break
                banked += pips
            if total >= target:
                break
        return steps, moves

    return play


LOOPS = {"toy-nim": nim, "toy-pig": pig}
