"""Hand-written random-policy loops, one per game: plain Python, no engine, no protocol.

Each module defines LOOPS: {rules id: factory}; a factory takes the game's Rules
only to read its numbers from content and returns `play(rng) -> (steps, player moves)`
for one random game. The benchmark compares the engine path against these.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable
from typing import Any

Play = Callable[[random.Random], tuple[int, int]]
Factory = Callable[[Any, int], Play]  # (rules, players) -> play


def all_loops() -> dict[str, Factory]:
    loops: dict[str, Factory] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        loops.update(getattr(module, "LOOPS", {}))
    return loops
