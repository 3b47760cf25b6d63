"""Unification (単一化): GAMES.md §3.4, decisions D-FA-8 and D-FA-9.
One board side is one class, composed as every puzzle is (pnpgen.games.fast_alone.puzzle)."""

from __future__ import annotations

from functools import cached_property

from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.unification import codec, presentation, solver
from pnpgen.games.fast_alone.unification.rules import RULES_SCHEMA, STUCK, TIME, WON, Move, State, UnificationRules

__all__ = [
    "Move", "RULES_SCHEMA", "STUCK", "State", "TIME", "Unification", "WON", "create"
]


class Unification(UnificationRules):
    """One board side of Unification."""

    # shared by every puzzle
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
    distance = solver.distance
    evaluate = solver.evaluate
    game_stats = solver.game_stats
    steps = cached_property(solver.steps)
    # the rulebook and the referee
    draw = presentation.draw
    describe = presentation.describe
    values = presentation.values
    solver_method = presentation.solver_method
    tables = presentation.tables
    edges_table = presentation.edges_table


create = Unification.create
