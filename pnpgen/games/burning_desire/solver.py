"""The exact optimal reroll policy for one turn (a small MDP, like Yahtzee solvers).

A decision point is (roll number t, the main dice as a multiset, the bonus die).
The player scores the best combination now, or keeps a sub-multiset K of the main
dice (and keeps or rerolls the bonus die) and rolls the rest. Values are exact:
after roll t every value is an integer over the common denominator
U^(R-t), U = f^n * g (n main dice of f faces, a bonus die of g faces, R rolls),
so no Fractions are needed until the very end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement, product

from pnpgen.games.burning_desire.config import Config
from pnpgen.games.burning_desire.scoring import best_score

Counts = tuple[int, ...]  # how many main dice show face 1, 2, ..., f


def to_counts(dice: tuple[int, ...], faces: int) -> Counts:
    counts = [0] * faces
    for d in dice:
        counts[d - 1] += 1
    return tuple(counts)


def to_dice(counts: Counts) -> tuple[int, ...]:
    return tuple(face + 1 for face, c in enumerate(counts) for _ in range(c))


def multisets(size: int, faces: int) -> list[tuple[Counts, int]]:
    """Every multiset of `size` dice with the number of ordered rolls giving it."""
    result = []
    for dice in combinations_with_replacement(range(1, faces + 1), size):
        counts = to_counts(dice, faces)
        ways = math.factorial(size)
        for c in counts:
            ways //= math.factorial(c)
        result.append((counts, ways))
    return result


@dataclass(frozen=True)
class Action:
    kind: str  # "score" or "keep"
    keep: tuple[int, ...] = ()  # kept main dice (keep)
    keep_bonus: bool = False
    combination: str = ""  # score


class TurnSolver:
    """Solves the turn once; `ev` is the exact expected points of a turn under optimal play."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        n, f, rolls = cfg.dice, cfg.faces, cfg.rolls
        self.n, self.f, self.rolls = n, f, rolls
        self.unit = f**n * cfg.bonus_faces
        bonus_faces = range(1, cfg.bonus_faces + 1)
        full = multisets(n, f)
        self._outcomes = {size: multisets(size, f) for size in range(n + 1)}
        self.policy: dict[tuple[int, Counts, int], Action] = {}
        # value[(counts, bonus)] after the last roll: the best score
        best = {(c, b): best_score(cfg, to_dice(c), b) for c, _ in full for b in bonus_faces}
        value = {key: br.points for key, br in best.items()}
        kept_sets = [c for size in range(n + 1) for c, _ in multisets(size, f)]
        for t in range(rolls - 1, 0, -1):  # decisions after roll t, with rerolls left
            q = self._keep_values(value, kept_sets, bonus_faces)
            scale = self.unit ** (rolls - t)
            new_value: dict[tuple[Counts, int], int] = {}
            for counts, _ in full:
                subs = [tuple(s) for s in product(*(range(c + 1) for c in counts))]
                for b in bonus_faces:
                    br = best[(counts, b)]
                    top, action = br.points * scale, Action("score", combination=br.combination)
                    for sub in subs:
                        for keep_bonus in (True, False):
                            if keep_bonus and sub == counts:
                                continue  # rerolling nothing is no reroll
                            v = q[(sub, b if keep_bonus else 0)]
                            if v > top:
                                top, action = v, Action("keep", to_dice(sub), keep_bonus)
                    new_value[(counts, b)] = top
                    self.policy[(t, counts, b)] = action
            value = new_value
        total = sum(ways * value[(c, b)] for c, ways in full for b in bonus_faces)
        self.ev = Fraction(total, self.unit**rolls)
        self._best = best

    def _keep_values(self, value: dict[tuple[Counts, int], int], kept_sets: list[Counts],
                     bonus_faces: range) -> dict[tuple[Counts, int], int]:
        """Expected next value of every keep, scaled to one more roll's denominator.

        Key (K, b): keep multiset K and bonus face b; (K, 0): the bonus die is rerolled."""
        n, f, nb = self.n, self.f, len(bonus_faces)
        q: dict[tuple[Counts, int], int] = {}
        for kept in kept_sets:
            rolled = n - sum(kept)
            factor = f ** (n - rolled)
            rerolled = 0
            for b in bonus_faces:
                acc = 0
                for out, ways in self._outcomes[rolled]:
                    acc += ways * value[(tuple(k + o for k, o in zip(kept, out, strict=True)), b)]
                q[(kept, b)] = acc * factor * nb
                rerolled += acc * factor
            q[(kept, 0)] = rerolled  # the bonus die rerolled: every face once
        return q

    def action(self, roll: int, dice: tuple[int, ...], bonus: int) -> Action:
        """The optimal choice after roll number `roll` (1-based) of the turn."""
        counts = to_counts(dice, self.f)
        if roll >= self.rolls:
            return Action("score", combination=self._best[(counts, bonus)].combination)
        return self.policy[(roll, counts, bonus)]

