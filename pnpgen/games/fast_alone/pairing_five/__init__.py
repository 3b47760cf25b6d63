"""Pairing Five (2つが5つ): GAMES.md §3.5, decision D-FA-10.
One board side is one class, composed as every puzzle is (pnpgen.games.fast_alone.puzzle)."""

from __future__ import annotations

from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.pairing_five import codec, presentation, solver
from pnpgen.games.fast_alone.pairing_five.board import RULES_SCHEMA
from pnpgen.games.fast_alone.pairing_five.rules import STUCK, WON, Move, PairingFiveRules, State

__all__ = [
    "Move", "PairingFive", "RULES_SCHEMA", "STUCK", "State", "WON", "create"
]


class PairingFive(PairingFiveRules):
    """One board side of Pairing Five."""

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
    misfits = solver.misfits
    evaluate = solver.evaluate
    game_stats = solver.game_stats
    # the rulebook and the referee
    draw = presentation.draw
    describe = presentation.describe
    values = presentation.values
    solver_method = presentation.solver_method
    tables = presentation.tables
    areas_table = presentation.areas_table


create = PairingFive.create
