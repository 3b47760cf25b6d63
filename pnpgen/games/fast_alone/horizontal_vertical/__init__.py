"""Horizontal & Vertical (ヨコとタテと): GAMES.md §3.1, decisions D-FA-1..3.
One board side is one class, composed as every puzzle is (pnpgen.games.fast_alone.puzzle)."""

from __future__ import annotations

from functools import cached_property

from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.horizontal_vertical import codec, presentation, solver
from pnpgen.games.fast_alone.horizontal_vertical.rules import (
    FULL,
    RULES_SCHEMA,
    STUCK,
    WON,
    HorizontalVerticalRules,
    Move,
    State,
)

__all__ = [
    "FULL", "HorizontalVertical", "Move", "RULES_SCHEMA", "STUCK", "State", "WON", "create"
]


class HorizontalVertical(HorizontalVerticalRules):
    """One board side of Horizontal & Vertical."""

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
    line_promise = solver.line_promise
    position_value = solver.position_value
    promises = cached_property(solver.promises)
    game_stats = solver.game_stats
    # the rulebook and the referee
    describe = presentation.describe
    draw = presentation.draw
    values = presentation.values
    tables = presentation.tables
    conditions_table = presentation.conditions_table


create = HorizontalVertical.create
