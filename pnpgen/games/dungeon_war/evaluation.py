"""Dungeon War's search evaluation: the game's evaluation (analysis.evaluate) plus pressure on
the enemy King Dragon, for the guided MCTS only (the greedy bot keeps the game's evaluation).

With two players the game is won only by defeating the other King Dragon (DW-END); a searcher
valuing material alone builds an army and runs into the round cap, where everyone loses. So a
seat also scores, against each standing opponent, how close its pieces stand to that King
Dragon, how many stand next to it (each lends the attacker support BP), and its best strike:
the exact chance (odds.melee) that one of its pieces defeats that King Dragon with the support
it could gather (its pieces within SUPPORT squares), discounted per move the piece is short; a
piece still in reserve counts as summoned beside the seat's own King Dragon, in the share of
its cost the seat's gold covers (so saving for a golem shows). A seat's value is the game's
evaluation plus its pressure on the most pressed opponent less the most any opponent presses
it. The weights below are the bot's, not the game's; every rule number (die, support BP, the
King Dragon's BP, move ranges, costs) is read from the rules. Only public facts are read (the
board, gold, fatigue, crystals, placed face-up cards), like the game's evaluation.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from .analysis import evaluate
from .combat import fighter
from .config import ARMY, Config, PieceKind
from .dungeon import manhattan
from .odds import Fighter, melee
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules

APPROACH = 0.5  # per square closer than REACH that an own piece stands to an enemy King Dragon
REACH = 6  # squares (Manhattan) from which a piece counts as approaching
SIEGE = 2.0  # per own piece next to an enemy King Dragon (each lends the attacker support)
KILL = 100.0  # x the best strike's chance to defeat an enemy King Dragon
SUPPORT = 2  # squares from the enemy King Dragon within which a piece counts as a supporter to come
FAR = 0.5  # that chance's discount per further move the piece needs to reach the King Dragon


_FIGHTERS: dict[tuple[object, ...], Fighter] = {}  # attackers' stats, by what they rest on


@lru_cache(maxsize=4096)
def _kill_chance(attacker: Fighter, helpers: int, defender: Fighter, sides: int, support: int, gap: int) -> float:
    """The chance the defender falls (a win, or both defeated) to `attacker` with `helpers` supporters."""
    odds = melee(replace(attacker, support=helpers), defender, sides, support, gap)
    return float(odds.win + odds.draw)


def pressure(rules: DungeonWarRules, state: State, seat: int, foe: int) -> float:
    """How hard `seat`'s pieces press `foe`'s King Dragon (0 when it is not on the board): the
    squares they have closed, those next to it, and the best strike: the exact chance a piece
    defeats it with the support it could gather (its other pieces within SUPPORT squares of
    the King Dragon, up to the free squares beside it), discounted by FAR per move the piece is
    short; a piece in reserve counts as summoned beside its own King Dragon a move later, in
    the share of its cost the seat's gold covers."""
    king = next(((r, c) for r, c, o, k in state.board if o == foe and k == "king"), None)
    if king is None:
        return 0.0
    cfg = rules.cfg
    defender = fighter(rules, state, king, foe, "king", False, king)
    room = sum(1 for _ in rules.dungeon(state).adjacent(king)) - 1  # beside it, the striker's square aside
    gathering = sum(1 for r, c, o, _ in state.board if o == seat and manhattan((r, c), king) <= SUPPORT)
    value = best = 0.0

    def strike(name: str, dash: bool, nearby: bool, reach: float) -> float:
        # a piece's stats (support aside) rest on its kind, the seat's worn cards and slime element
        key = (id(cfg), name, dash, state.element[seat], state.equip[seat] if state.equip else ())
        attacker = _FIGHTERS.get(key)
        if attacker is None:
            if len(_FIGHTERS) > 4096:
                _FIGHTERS.clear()
            attacker = _FIGHTERS[key] = fighter(rules, state, king, seat, name, dash, king, support=False)
        helpers = max(0, min(room, gathering - nearby))
        return reach * _kill_chance(attacker, helpers, defender, cfg.die, cfg.support, cfg.fatigue_gap)

    for r, c, owner, name in state.board:
        if owner != seat or name == "king":
            continue
        distance = manhattan((r, c), king)
        if distance >= REACH:
            continue
        value += APPROACH * (REACH - distance) + (SIEGE if distance == 1 else 0.0)
        kind = cfg.pieces[name]
        reach = _reach(cfg, kind, distance)
        if "move" not in kind.actions or reach <= best:
            continue
        for dash in (False, True) if kind.dash_dice else (False,):
            best = max(best, strike(name, dash, distance <= SUPPORT, reach))
    own_king = next(((r, c) for r, c, o, k in state.board if o == seat and k == "king"), None)
    if own_king is not None:
        distance = manhattan(own_king, king)
        for name, left in zip(ARMY, state.pools[seat], strict=True):
            kind = cfg.pieces[name]
            if not left or name == "king" or kind.needs_card or "move" not in kind.actions:
                continue
            reach = FAR * _reach(cfg, kind, distance) * min(1.0, state.gold[seat] / kind.cost if kind.cost else 1.0)
            if reach > best:
                best = max(best, strike(name, False, False, reach))
    return value + KILL * best


def _reach(cfg: Config, kind: PieceKind, distance: int) -> float:
    """FAR to the power of the moves a piece of `kind` needs beyond its first to strike from
    `distance` squares (1 when one move takes it there)."""
    longest = kind.move.plus + kind.move.dice * cfg.die  # squares in one move, at most
    step = max(1.0, kind.move.plus + kind.move.dice * (cfg.die + 1) / 2)  # on average
    return float(FAR ** math.ceil(max(0, distance - longest) / step))


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
