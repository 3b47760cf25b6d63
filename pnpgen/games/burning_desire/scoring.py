"""Scoring one final roll under one combination (BD-3)."""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.games.burning_desire.config import Combination, Config


@dataclass(frozen=True)
class Breakdown:
    combination: str
    count: int  # main dice that belong to the combination
    base: int  # the table's points for that count
    bonus: int  # per-die bonus (per_die combinations)
    doubled: bool  # doubling by the bonus die (double combinations)
    points: int

    def to_data(self) -> dict[str, object]:
        return {"combination": self.combination, "count": self.count, "base": self.base,
                "bonus": self.bonus, "doubled": self.doubled, "points": self.points}


def score(cfg: Config, combo: Combination, dice: tuple[int, ...], bonus_face: int) -> Breakdown:
    counted = [d for d in dice if d in combo.faces]
    count = len(counted)
    base = combo.points[count - 1] if count else 0
    if combo.bonus == "per_die":
        each = cfg.per_die_all if count == cfg.dice else cfg.per_die
        bonus = counted.count(bonus_face) * each
        return Breakdown(combo.id, count, base, bonus, False, base + bonus)
    doubled = bonus_face in combo.faces
    return Breakdown(combo.id, count, base, 0, doubled, base * cfg.double_factor if doubled else base)


def best_score(cfg: Config, dice: tuple[int, ...], bonus_face: int) -> Breakdown:
    """The combination worth most for this roll (the first listed on a tie)."""
    results = [score(cfg, c, dice, bonus_face) for c in cfg.combinations]
    return max(results, key=lambda b: b.points)
