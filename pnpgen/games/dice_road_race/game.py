"""The stage race composed: rules and notation, state files, analysis and presentation."""

from __future__ import annotations

from pnpgen.games.dice_road_race.analysis import StageRaceAnalysis
from pnpgen.games.dice_road_race.presentation import StageRacePresentation


class StageRace(StageRacePresentation, StageRaceAnalysis):
    """The whole game: rules and notation, state files, analysis and presentation."""
