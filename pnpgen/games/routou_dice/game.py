"""ROUTOU DICE composed: RoutouRules (model.py: mechanics and notation) with the functions
of files.py (state files), analysis.py (evaluation, bots, figures) and presentation.py (the
referee's report, pictures, the rulebook's values and tables) registered on it."""

from __future__ import annotations

from pnpgen.games.routou_dice import analysis, bots, files, presentation
from pnpgen.games.routou_dice.model import RoutouRules


class RoutouDice(RoutouRules):
    """The whole game: rules and notation, state files, analysis and presentation."""

    # state files
    STATE_SCHEMA = files.STATE_SCHEMA
    to_data = files.to_data
    from_data = files.from_data
    example_state = files.example_state
    check = files.check
    # analysis
    evaluate = bots.evaluate
    bots = analysis.bots
    game_stats = analysis.game_stats
    # presentation and publishing
    describe = presentation.describe
    draw = presentation.draw
    draw_pair = presentation.draw_pair
    rulebook_figure = presentation.rulebook_figure
    rulebook_table = presentation.rulebook_table
    rulebook_context = presentation.rulebook_context
