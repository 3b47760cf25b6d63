"""Dungeon War's exact combat odds (digest §6 and §11), with Fractions.

A BP is `kD + c` (k dice of `sides` faces plus a constant); its distribution is an exact
convolution. Melee compares two BPs after victory flags (resistances and weaknesses against
the other side's attack elements, D-DW-6): a higher flag score wins outright; otherwise the
higher BP wins and equal BPs defeat both. A ranged shot hits when the shooter's BP is at
least the target's; only the target's flags count (D-DW-5). Several targets share the one
shooter roll, so their results are correlated: the joint distribution conditions on it.

The engine resolves every fight through these functions, so the referee, the simulator
and the rulebook's tables give the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product

__all__ = ["BP", "Fighter", "MeleeOdds", "ShotOdds", "bp_distribution", "flags", "melee", "shot", "shot_outcomes",
           "volley"]


@dataclass(frozen=True)
class BP:
    """`dice`D + `plus`: a battle-power expression."""

    dice: int = 0
    plus: int = 0

    def __add__(self, other: BP) -> BP:
        return BP(self.dice + other.dice, self.plus + other.plus)

    def __str__(self) -> str:
        if not self.dice:
            return str(self.plus)
        sign = "+" if self.plus >= 0 else "-"
        return f"{self.dice}D{sign}{abs(self.plus)}" if self.plus else f"{self.dice}D"


@dataclass(frozen=True)
class Fighter:
    """One side of a fight: its BP, attack elements, resistances and weaknesses, and the
    number of adjacent friendly pieces (support, melee only)."""

    bp: BP
    attack: frozenset[str] = field(default_factory=frozenset)
    resist: frozenset[str] = field(default_factory=frozenset)
    weak: frozenset[str] = field(default_factory=frozenset)
    support: int = 0


@cache
def bp_distribution(dice: int, plus: int, sides: int = 6) -> tuple[tuple[int, Fraction], ...]:
    """Every total of `dice`D + `plus` with its exact probability, lowest first."""
    counts: dict[int, int] = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    whole = sides ** dice
    return tuple((total + plus, Fraction(ways, whole)) for total, ways in sorted(counts.items()))


def flags(me: Fighter, other_attack: Iterable[str]) -> int:
    """Victory flags (D-DW-6): +1 per resistance, -1 per weakness, matching the attack."""
    attack = frozenset(other_attack)
    return len(me.resist & attack) - len(me.weak & attack)


@dataclass(frozen=True)
class MeleeOdds:
    """The attacker's chances. `by_flags` is 'attacker' or 'defender' when flags decide
    outright (then the odds are 1 or 0). `close_*` are the parts decided by a BP
    difference of at most `gap` (a surviving King Dragon's fatigue, D-DW-4)."""

    win: Fraction
    draw: Fraction
    loss: Fraction
    close_win: Fraction
    close_loss: Fraction
    by_flags: str | None = None

    def outcomes(self) -> list[tuple[str, Fraction]]:
        """The five results a fight can have, those with a chance, with their odds."""
        parts = [("win", self.win - self.close_win), ("close-win", self.close_win), ("draw", self.draw),
                 ("close-loss", self.close_loss), ("loss", self.loss - self.close_loss)]
        return [(name, p) for name, p in parts if p]


def _totals(fighter: Fighter, support_bp: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    bp = fighter.bp
    return bp_distribution(bp.dice, bp.plus + support_bp * fighter.support, sides)


def melee(attacker: Fighter, defender: Fighter, sides: int = 6, support_bp: int = 2, gap: int = 9) -> MeleeOdds:
    """Exact melee odds for the attacker (digest §6, steps 3 and 4)."""
    one, zero = Fraction(1), Fraction(0)
    a_flags, d_flags = flags(attacker, defender.attack), flags(defender, attacker.attack)
    if a_flags > d_flags:
        return MeleeOdds(one, zero, zero, zero, zero, "attacker")
    if d_flags > a_flags:
        return MeleeOdds(zero, zero, one, zero, zero, "defender")
    win = draw = loss = close_win = close_loss = zero
    for a, pa in _totals(attacker, support_bp, sides):
        for d, pd in _totals(defender, support_bp, sides):
            p = pa * pd
            if a > d:
                win += p
                close_win += p if a - d <= gap else 0
            elif a < d:
                loss += p
                close_loss += p if d - a <= gap else 0
            else:
                draw += p
    return MeleeOdds(win, draw, loss, close_win, close_loss)


@dataclass(frozen=True)
class ShotOdds:
    """A shot at one target: the chance it hits, and the part decided by a BP difference of
    at most `gap` (the target's fatigue when a King Dragon survives a shot)."""

    hit: Fraction
    close_miss: Fraction
    by_flags: str | None = None

    @property
    def miss(self) -> Fraction:
        return 1 - self.hit


def shot(shooter: BP, attack: Iterable[str], target: Fighter, sides: int = 6, gap: int = 9) -> ShotOdds:
    """Exact odds that a shot of BP `shooter` with elements `attack` defeats `target`
    (ties go to the shooter; no support in ranged combat)."""
    score = flags(target, attack)
    if score > 0:
        return ShotOdds(Fraction(0), Fraction(0), "target")
    if score < 0:
        return ShotOdds(Fraction(1), Fraction(0), "shooter")
    hit = close_miss = Fraction(0)
    target_bp = bp_distribution(target.bp.dice, target.bp.plus, sides)
    for s, ps in bp_distribution(shooter.dice, shooter.plus, sides):
        for t, pt in target_bp:
            if s >= t:
                hit += ps * pt
            elif t - s <= gap:
                close_miss += ps * pt
    return ShotOdds(hit, close_miss)


def volley(shooter: BP, attack: Iterable[str], targets: Sequence[Fighter],
           sides: int = 6) -> dict[tuple[bool, ...], Fraction]:
    """The exact joint distribution of hits on several targets of one shot: the shooter
    rolls once, each target rolls its own BP (digest §6)."""
    attack = frozenset(attack)
    joint: dict[tuple[bool, ...], Fraction] = {}
    for s, ps in bp_distribution(shooter.dice, shooter.plus, sides):
        each = [shot(BP(0, s), attack, target, sides).hit for target in targets]
        for hits in product((True, False), repeat=len(targets)):
            p = ps
            for hit, q in zip(hits, each, strict=True):
                p *= q if hit else 1 - q
            if p:
                joint[hits] = joint.get(hits, Fraction(0)) + p
    return dict(sorted(joint.items(), reverse=True))


def shot_outcomes(shooter: BP, attack: Iterable[str], targets: Sequence[Fighter], distances: Sequence[int],
                  close_for: Sequence[bool], range_dice: int = 0, sides: int = 6,
                  gap: int = 9) -> dict[tuple[str, ...], Fraction]:
    """The exact joint result of one shot in play: per target 'hit', 'close' (missed by a
    BP difference of at most `gap`, reported only where `close_for` is set: a King Dragon's
    fatigue, D-DW-4) or 'miss'. The shooter rolls once; with `range_dice` (a breath's 1D
    range) a target farther than the rolled range is missed outright."""
    attack = frozenset(attack)
    reaches = bp_distribution(range_dice, 0, sides) if range_dice else ((max(distances, default=0), Fraction(1)),)
    joint: dict[tuple[str, ...], Fraction] = {}
    for reach, pr in reaches:
        for s, ps in bp_distribution(shooter.dice, shooter.plus, sides):
            each = []
            for target, d, close in zip(targets, distances, close_for, strict=True):
                if d > reach:
                    each.append({"miss": Fraction(1)})
                    continue
                odds = shot(BP(0, s), attack, target, sides, gap)
                near = odds.close_miss if close else Fraction(0)
                each.append({"hit": odds.hit, "close": near, "miss": 1 - odds.hit - near})
            for combo in product(*(sorted(e) for e in each)):
                p = pr * ps
                for status, e in zip(combo, each, strict=True):
                    p *= e[status]
                if p:
                    joint[combo] = joint.get(combo, Fraction(0)) + p
    return dict(sorted(joint.items()))
