"""The King Dragon: its (a) actions (move, summon, alchemy, remake) and (b) actions
(draw, card change, element change)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Event

from . import building, cards, core, movement, turn
from .config import ARMY
from .core import set_at, square_name
from .dungeon import Square, manhattan
from .moves import Alchemy, Change, Draw, Element, Move, Remake, Summon, Walk
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def changes(rules: DungeonWarRules, state: State) -> list[Move]:
    """Card change (King Dragon (b)): 1 to `change_cards` cards of the hand, as sorted card indices."""
    hand = state.hands[state.seat]
    found: set[Move] = set()

    def pick(start: int, chosen: tuple[int, ...]) -> None:
        if chosen:
            found.add(Change(*chosen))
        if len(chosen) < rules.cfg.change_cards:
            for k in range(start, len(hand)):
                pick(k + 1, (*chosen, hand[k]))

    pick(0, ())
    return sorted(found)


def king_a(rules: DungeonWarRules, state: State, square: Square) -> Iterator[Move]:
    a, seat = rules.cfg.actions_a, state.seat
    king = rules.kind(state, seat, "king")
    if state.ap >= a["move"]:
        for dr, dc in sorted(movement.reach(rules, state, square, king, seat, king.move.plus)):
            yield Walk(square[0], square[1], dr, dc)
    if state.ap >= a["summon"]:
        yield from summons(rules, state, square, free=False)
    if state.ap >= a["alchemy"]:
        yield Alchemy()
    if state.ap >= a["remake"] and sum(state.dungeon_deck) + sum(state.dungeon_discard) > 0:
        for cr, cc in building.remakeable(rules, state):
            yield Remake(cr, cc)


def army_available(state: State, seat: int, name: str) -> bool:
    """An unused piece of that kind, or one on the board to re-place (D-DW-22)."""
    return bool(state.pools[seat][ARMY.index(name)]) or any(o == seat and k == name for *_, o, k in state.board)


def summons(rules: DungeonWarRules, state: State, king_square: Square, free: bool) -> Iterator[Move]:
    seat = state.seat
    for name in ARMY:
        kind = rules.kind(state, seat, name)
        if (name == "king" or not rules.has_card_for(state, seat, kind) or name in state.summoned
                or not army_available(state, seat, name) or state.gold[seat] < kind.cost):
            continue
        for r, c in core.empty_squares(rules, state, kind):
            if manhattan((r, c), king_square) == rules.cfg.summon_range:
                for source in core.sources(state, seat, name):
                    yield Summon(name, r, c, *source)


def drown(rules: DungeonWarRules, state: State, seat: int, events: list[Event]) -> State:
    terrain = rules.dungeon(state).terrain
    kind = rules.kind(state, seat, "slime")
    lost = tuple((r, c) for r, c, o, k in state.board
                 if o == seat and k == "slime" and not rules.may_stand(kind, terrain[(r, c)], False))
    for square in lost:
        state = core.to_pool(state._replace(board=core.board_with(state, (square,))), seat, "slime")
        events.append(Event("drown", f"the slime on {square_name(square)} drowns (D-DW-8)"))
    return state


# --- the moves: (a) actions -------------------------------------------------------------------
def summon(rules: DungeonWarRules, state: State, move: Summon, events: list[Event]) -> State:
    """One piece of a Summon action (the first pays its AP; each kind once, D-DW-22 re-uses
    the named board piece when none is unused)."""
    cfg, seat, king = rules.cfg, state.seat, cards.king_square(state)
    name, (r, c) = str(move[1]), move.square
    kind = rules.kind(state, seat, name)
    i = ARMY.index(name)
    if not state.summoned:
        state = state._replace(ap=state.ap - cfg.actions_a["summon"], acted=state.acted | {king}, king_step=1)
    if not state.pools[seat][i]:  # D-DW-22: the one of its kind the player picked is re-placed
        taken = (int(move.source[0]), int(move.source[1]))
        state = core.to_pool(state._replace(board=core.board_with(state, (taken,)),
                                            acted=state.acted - {taken}), seat, name)
        events.append(Event("reuse", f"no unused {name}: the one on {square_name(taken)} is taken (D-DW-22)"))
    state = state._replace(board=core.board_with(state, add=((r, c, seat, name),)),
                           pools=set_at(state.pools, seat, set_at(state.pools[seat], i, state.pools[seat][i] - 1)),
                           summoned=state.summoned | {name}, acted=state.acted | {(r, c)})
    state = core.gain_gold(rules, state, seat, -kind.cost)
    events.append(Event("summon", f"a {name} is summoned on {square_name((r, c))} for {kind.cost}G"))
    return state


def alchemy(rules: DungeonWarRules, state: State, move: Alchemy, events: list[Event]) -> State:
    cfg = rules.cfg
    state = state._replace(ap=state.ap - cfg.actions_a["alchemy"], acted=state.acted | {cards.king_square(state)},
                           king_step=1)
    events.append(Event("alchemy", f"alchemy: +{cfg.alchemy_gold}G"))
    return core.gain_gold(rules, state, state.seat, cfg.alchemy_gold)


def remake(rules: DungeonWarRules, state: State, move: Remake, events: list[Event]) -> State:
    cr, cc = move.square
    state = state._replace(ap=state.ap - rules.cfg.actions_a["remake"], acted=state.acted | {cards.king_square(state)},
                           king_step=1, phase="build", pending=(1, cr, cc))
    events.append(Event("remake", f"Dungeon Remake of card {cr + 1}.{cc + 1}"))
    return state


# --- the moves: (b) actions end the turn --------------------------------------------------------
def _b_action(state: State) -> State:
    return state._replace(acted=state.acted | {cards.king_square(state)}, king_step=2)


def draw(rules: DungeonWarRules, state: State, move: Draw, events: list[Event]) -> State:
    state = core.owe(_b_action(state)._replace(ap=state.ap - rules.cfg.actions_b["draw"]), state.seat, 1)
    events.append(Event("draw-action", "the King Dragon draws a war card"))
    return turn.end_turn(rules, core.settle(rules, state), events)


def change(rules: DungeonWarRules, state: State, move: Change, events: list[Event]) -> State:
    cfg, seat = rules.cfg, state.seat
    state = _b_action(state)
    hand = list(state.hands[seat])
    discard = state.war_discard
    for drop in move.cards:
        hand.remove(drop)
        discard = set_at(discard, drop, discard[drop] + 1)
    state = state._replace(ap=state.ap - cfg.actions_b["change"], hands=set_at(state.hands, seat, tuple(hand)),
                           war_discard=discard)
    state = core.owe(state, seat, len(move.cards))
    events.append(Event("change", "card change: " + ", ".join(cfg.war_cards[i].name_en for i in move.cards)
                        + f" discarded, {len(move.cards)} drawn"))
    return turn.end_turn(rules, core.settle(rules, state), events)


def element(rules: DungeonWarRules, state: State, move: Element, events: list[Event]) -> State:
    cfg, seat, index = rules.cfg, state.seat, int(move[1])
    state = _b_action(state)
    state = state._replace(ap=state.ap - cfg.actions_b["element"], element=set_at(state.element, seat, index))
    events.append(Event("element", f"slimes become {cfg.cycle[index]}"))
    state = drown(rules, state, seat, events)
    return turn.end_turn(rules, core.settle(rules, state), events)
