"""Burning Desire composed: BurningDesireRules (rules.py: mechanics and notation) with the
functions of files.py (state files), analysis.py (evaluation, bots, figures) and
presentation.py (the referee's report, pictures, the rulebook's values and tables)
registered on it."""

from __future__ import annotations

from functools import cached_property

from pnpgen.games.burning_desire import analysis, files, presentation
from pnpgen.games.burning_desire.rules import BurningDesireRules


class BurningDesire(BurningDesireRules):
    """The whole game: rules and notation, state files, analysis and presentation."""

    # state files
    STATE_SCHEMA = files.STATE_SCHEMA
    to_data = files.to_data
    from_data = files.from_data
    example_state = files.example_state
    check = files.check
    # analysis
    solver = cached_property(analysis.solver)
    evaluate = analysis.evaluate
    bots = analysis.bots
    game_stats = analysis.game_stats
    # presentation and publishing
    describe = presentation.describe
    draw = presentation.draw
    rulebook_figure = presentation.rulebook_figure
    rulebook_context = presentation.rulebook_context
    rulebook_table = presentation.rulebook_table
