"""Burning Desire composed: rules and notation, state files, analysis and presentation."""

from __future__ import annotations

from pnpgen.games.burning_desire.files import BurningDesireFiles
from pnpgen.games.burning_desire.presentation import BurningDesirePresentation


class BurningDesire(BurningDesireFiles, BurningDesirePresentation):
    """The whole game: rules and notation, state files, analysis and presentation."""
