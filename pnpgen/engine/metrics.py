"""Statistics for simulation reports."""

from __future__ import annotations

import math


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score 95% interval for a proportion (shared wins may count as fractions)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = 1.959964) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def first_player_advantage(rates: list[float]) -> float:
    """Seat 1's win rate minus its fair share 1/players (0 means no advantage)."""
    return rates[0] - 1.0 / len(rates) if rates else 0.0


def seat_balance(rates: list[float]) -> float:
    """1 minus the spread between the best and worst seat's win rate (1 = balanced)."""
    return 1.0 - (max(rates) - min(rates)) if rates else 1.0


def quantile(sorted_values: list[int], q: float) -> float:
    """Linear-interpolation quantile of already sorted values."""
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    low = int(pos)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)


def histogram(values: list[int], bins: int = 12) -> list[tuple[int, int, int]]:
    """(low, high, count) bins of equal integer width covering every value (inclusive)."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    width = max(1, -(-(hi - lo + 1) // bins))
    counts = [0] * (-(-(hi - lo + 1) // width))
    for v in values:
        counts[(v - lo) // width] += 1
    return [(lo + i * width, lo + (i + 1) * width - 1, c) for i, c in enumerate(counts)]


def distribution(values: list[int]) -> dict[str, object]:
    """Summary of a length distribution: min, quartiles, max and a histogram."""
    ordered = sorted(values)
    if not ordered:
        return {}
    return {
        "min": ordered[0],
        "p25": quantile(ordered, 0.25),
        "median": quantile(ordered, 0.5),
        "p75": quantile(ordered, 0.75),
        "max": ordered[-1],
        "histogram": [list(b) for b in histogram(ordered)],
    }
