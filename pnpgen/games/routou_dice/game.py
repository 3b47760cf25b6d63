"""ROUTOU DICE composed: rules and notation, state files, analysis and presentation."""

from __future__ import annotations

from pnpgen.games.routou_dice.analysis import RoutouAnalysis
from pnpgen.games.routou_dice.files import RoutouFiles
from pnpgen.games.routou_dice.presentation import RoutouPresentation


class RoutouDice(RoutouFiles, RoutouAnalysis, RoutouPresentation):
    """The whole game: rules and notation, state files, analysis and presentation."""
