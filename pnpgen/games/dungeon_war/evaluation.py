"""Dungeon War's search evaluation: the game's evaluation (analysis.evaluate) plus pressure on
the enemy King Dragon, for the guided MCTS only (the greedy bot keeps the game's evaluation).

With two players the game is won only by defeating the other King Dragon (DW-END); a searcher
valuing material alone builds an army and runs into the round cap, where everyone loses. So a
seat also scores, against each standing opponent, how close its pieces stand to that King
Dragon, how many stand next to it (each lends the attacker support BP), and the best exact
chance (odds.melee) that one of its pieces within a move of that King Dragon defeats it now.
The weights are the bot's, not the game's; every rule number (die, support BP, the King
Dragon's BP, move ranges) is read from the rules. Only public facts are read (the board,
fatigue, crystals, placed face-up cards), like the game's evaluation.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .analysis import evaluate
from .dungeon import manhattan
from .odds import Fighter, melee
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules

APPROACH = 0.5  # per square closer than REACH that an own piece stands to an enemy King Dragon
REACH = 6  # squares (Manhattan) from which a piece counts as approaching
SIEGE = 2.0  # per own piece next to an enemy King Dragon
KILL = 30.0  # x the best chance that one own piece, within a move, defeats an enemy King Dragon now


@lru_cache(maxsize=4096)
def _kill_chance(attacker: Fighter, defender: Fighter, sides: int, support: int, gap: int) -> float:
    """The chance the defender falls: a win, or both defeated."""
    odds = melee(attacker, defender, sides, support, gap)
    return float(odds.win + odds.draw)


def pressure(rules: DungeonWarRules, state: State, seat: int, foe: int) -> float:
    """How hard `seat`'s pieces press `foe`'s King Dragon (0 when it is not on the board)."""
    king = next(((r, c) for r, c, o, k in state.board if o == foe and k == "king"), None)
    if king is None:
        return 0.0
    cfg = rules.cfg
    defender: Fighter | None = None
    value = best = 0.0
    for r, c, owner, name in state.board:
        if owner != seat or name == "king":
            continue
        distance = manhattan((r, c), king)
        value += APPROACH * max(0, REACH - distance) + (SIEGE if distance == 1 else 0.0)
        kind = cfg.pieces[name]
        if "move" not in kind.actions or distance > kind.move.plus + kind.move.dice * cfg.die:
            continue
        if defender is None:
            defender = rules.fighter(state, king, foe, "king", False, king)
        dashes = (False, True) if kind.dash_dice else (False,)
        for dash in dashes:
            attacker = rules.fighter(state, (r, c), seat, name, dash, king)
            best = max(best, _kill_chance(attacker, defender, cfg.die, cfg.support, cfg.fatigue_gap))
    return value + KILL * best


def search_evaluate(rules: DungeonWarRules, state: State, seat: int) -> float:
    """The game's evaluation plus the seat's pressure margin: its pressure on the standing
    opponents' King Dragons (the most pressed), less the most any opponent presses its own."""
    base = evaluate(rules, state, seat)
    if rules.is_terminal(state) or seat in state.fallen:
        return base
    others = [o for o in range(state.players) if o != seat and o not in state.fallen]
    if not others:
        return base
    attack = max(pressure(rules, state, seat, o) for o in others)
    defence = max(pressure(rules, state, o, seat) for o in others)
    return base + attack - defence
