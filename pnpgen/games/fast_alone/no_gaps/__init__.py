"""No Gaps (すきまなく): GAMES.md §3.3, decision D-FA-7.
One board side is one class, composed as every puzzle is (pnpgen.games.fast_alone.puzzle)."""

from __future__ import annotations

from functools import cached_property

from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.no_gaps import codec, presentation, solver
from pnpgen.games.fast_alone.no_gaps.rules import NO_DICE, NO_REROLLS, RULES_SCHEMA, WON, Move, NoGapsRules, State

__all__ = [
    "Move", "NO_DICE", "NO_REROLLS", "NoGaps", "RULES_SCHEMA", "State", "WON", "create"
]


class NoGaps(NoGapsRules):
    """One board side of No Gaps."""

    # shared by every puzzle
    solver_method = puzzle.solver_method
    bot_methods = puzzle.bot_methods
    rulebook_context = puzzle.rulebook_context
    rulebook_table = puzzle.rulebook_table
    # state files
    STATE_SCHEMA = codec.STATE_SCHEMA
    to_data = codec.to_data
    from_data = codec.from_data
    example_state = codec.example_state
    check = codec.check
    # bots and evaluation
    sample_move = solver.sample_move
    BOTS = solver.BOTS
    evaluate = solver.evaluate
    regions = solver.regions
    tileable = solver.tileable
    position_value = solver.position_value
    board = cached_property(solver.board)
    game_stats = solver.game_stats
    # the rulebook and the referee
    picture = presentation.picture
    draw = presentation.draw
    describe = presentation.describe
    values = presentation.values
    rulebook_figure = presentation.rulebook_figure
    tables = presentation.tables
    tiles_table = presentation.tiles_table
    chart_table = presentation.chart_table
    sheet_chart_table = presentation.sheet_chart_table


create = NoGaps.create
