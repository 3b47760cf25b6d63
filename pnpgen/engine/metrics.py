"""Statistics for simulation reports."""

from __future__ import annotations

import math
from collections.abc import Mapping


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


def count_interval(counts: Mapping[int, int], z: float = 1.959964) -> tuple[float, float, float]:
    """`mean_interval` of integers given as value -> how many times, computed exactly
    (sums of integers), so it does not depend on the order games were counted in."""
    n = sum(counts.values())
    if n == 0:
        return (0.0, 0.0, 0.0)
    total = sum(v * c for v, c in counts.items())
    mean = total / n
    if n == 1:
        return (mean, mean, mean)
    squares = sum(v * v * c for v, c in counts.items())
    var = (n * squares - total * total) / (n * (n - 1))
    half = z * math.sqrt(max(0.0, var) / n)
    return (mean, mean - half, mean + half)


def count_quantile(counts: Mapping[int, int], q: float) -> float:
    """`quantile` of integers given as value -> how many times."""
    n = sum(counts.values())
    if n == 0:
        return 0.0
    pos = q * (n - 1)
    low = int(pos)
    values = sorted(counts)
    seen, at_low, at_high = 0, None, None
    for v in values:
        seen += counts[v]
        if at_low is None and seen > low:
            at_low = v
        if seen > min(low + 1, n - 1):
            at_high = v
            break
    assert at_low is not None and at_high is not None
    return at_low + (at_high - at_low) * (pos - low)


def quantile(sorted_values: list[int], q: float) -> float:
    """Linear-interpolation quantile of already sorted values."""
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    low = int(pos)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)


def histogram(values: list[int] | Mapping[int, int], bins: int = 12) -> list[tuple[int, int, int]]:
    """(low, high, count) bins of equal integer width covering every value (inclusive).
    `values` is a list, or a mapping value -> how many times (what simulations keep)."""
    counted = _counted(values)
    if not counted:
        return []
    lo, hi = min(counted), max(counted)
    width = max(1, -(-(hi - lo + 1) // bins))
    counts = [0] * (-(-(hi - lo + 1) // width))
    for v, c in counted.items():
        counts[(v - lo) // width] += c
    return [(lo + i * width, lo + (i + 1) * width - 1, c) for i, c in enumerate(counts)]


def distribution(values: list[int] | Mapping[int, int]) -> dict[str, object]:
    """Summary of a length distribution: min, quartiles, max and a histogram.
    `values` is a list, or a mapping value -> how many times."""
    counted = {v: c for v, c in _counted(values).items() if c}
    if not counted:
        return {}
    return {
        "min": min(counted),
        "p25": count_quantile(counted, 0.25),
        "median": count_quantile(counted, 0.5),
        "p75": count_quantile(counted, 0.75),
        "max": max(counted),
        "histogram": [list(b) for b in histogram(counted)],
    }


def _counted(values: list[int] | Mapping[int, int]) -> Mapping[int, int]:
    if isinstance(values, Mapping):
        return values
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return counts
