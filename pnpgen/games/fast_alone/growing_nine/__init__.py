"""Growing Nine (ふえていく): GAMES.md §3.2, decisions D-FA-4..6.
One board side is one class, composed as every puzzle is (pnpgen.games.fast_alone.puzzle)."""

from __future__ import annotations

from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.growing_nine import codec, presentation, solver
from pnpgen.games.fast_alone.growing_nine.rules import (
    ORIENTATIONS,
    REPEAT,
    RULES_SCHEMA,
    STUCK,
    TOP,
    TUMBLE,
    WON,
    GrowingNineRules,
    Move,
    State,
)
from pnpgen.games.fast_alone.growing_nine.solver import roll_setup, solve_setup

__all__ = [
    "GrowingNine", "Move", "ORIENTATIONS", "REPEAT", "RULES_SCHEMA", "STUCK", "State", "TOP",
    "TUMBLE", "WON", "create", "roll_setup", "solve_setup"
]


class GrowingNine(GrowingNineRules):
    """One board side of Growing Nine."""

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
    BOTS = solver.BOTS
    search = solver.search
    solve_placement = solver.solve_placement
    placement_wins = solver.placement_wins
    solve = solver.solve
    evaluate = solver.evaluate
    game_stats = solver.game_stats
    # the rulebook and the referee
    describe = presentation.describe
    draw = presentation.draw
    rulebook_figure = presentation.rulebook_figure
    values = presentation.values
    tables = presentation.tables


create = GrowingNine.create
