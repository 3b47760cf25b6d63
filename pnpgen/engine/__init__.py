"""Engine: the rules protocol every game implements, chance, bots and simulation."""

from pnpgen.engine.protocol import (
    CHANCE,
    TERMINAL,
    Event,
    IllegalMove,
    Outcome,
    Rules,
)

__all__ = ["CHANCE", "TERMINAL", "Event", "IllegalMove", "Outcome", "Rules"]
