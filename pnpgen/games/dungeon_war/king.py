"""The King Dragon: its (a) actions (move, summon, alchemy, remake) and (b) actions
(draw, card change, element change)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Event

from . import building, cards, core, movement, turn
from .config import ARMY, PieceKind
from .core import set_at, square_name
from .dungeon import Square, in_range
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


Refusal = tuple[str, str] | None


def a_refusal(rules: DungeonWarRules, state: State, head: str, king: Square | None) -> Refusal:
    """Why the King Dragon on `king` (cards.seat_king) may not take (a) action `head` (summon,
    alchemy, remake; its move is a piece's action, turn.action_refusal) now, or None: one (a)
    action a turn, before anything else it does, and the AP for it; a Summon action goes on
    calling pieces of other kinds for free."""
    if king is None:
        return "DW-KING", "seat has no King Dragon on the board"
    going_on = head == "summon" and state.king_step == 1 and bool(state.summoned)
    if state.king_step and not going_on:
        return "DW-KING", "the King Dragon's (a) action is done; only one (a) action a turn"
    if going_on:
        return None
    if king in state.acted:
        return "DW-KING", "the King Dragon has already acted"
    cost = rules.cfg.actions_a[head]
    if state.ap < cost:
        return "DW-TURN", f"{state.ap} AP left; {head} costs {cost}"
    return None


def b_refusal(rules: DungeonWarRules, state: State, head: str, king: Square | None) -> Refusal:
    """Why the King Dragon may not take (b) action `head` (draw, change, element, place) now,
    or None: after its (a) action or none, once, for its AP; a draw or card change needs a war
    card left; Card placement goes on placing cards (king_step 3, 4)."""
    if king is None:
        return "DW-KING", "seat has no King Dragon on the board"
    if head == "place" and state.king_step in (3, 4):
        return None
    if state.king_step not in (0, 1):
        return "DW-KING", "the King Dragon has already acted"
    cost = rules.cfg.actions_b[head]
    if state.ap < cost:
        return "DW-TURN", f"{state.ap} AP left; {'card placement' if head == 'place' else head} costs {cost}"
    if head in ("draw", "change") and not sum(state.war_deck) + sum(state.war_discard):
        return "DW-CARDS", "no war card is left to draw"
    return None


def summon_refusal(rules: DungeonWarRules, state: State, name: str, kind: PieceKind) -> Refusal:
    """Why no `name` may be summoned now, or None: each kind once a Summon action, its card
    placed (a dragon), a piece of it to place (unused, or one on the board, D-DW-22), its cost."""
    seat = state.seat
    if name == "king":
        return "DW-SUMMON", "the King Dragon is never summoned"
    if name in state.summoned:
        return "DW-SUMMON", f"one summon action calls pieces of different kinds; a {name} came already"
    if not rules.has_card_for(state, seat, kind):
        return "DW-SUMMON", f"a {name} needs a placed {kind.needs_card} card"
    if not army_available(state, seat, name):
        return "DW-SUMMON", f"no unused {name} is left"
    if state.gold[seat] < kind.cost:
        return "DW-GOLD", f"a {name} costs {kind.cost}G; seat {seat + 1} has {state.gold[seat]}G"
    return None


def range_refusal(rules: DungeonWarRules, king: Square, square: Square) -> Refusal:
    if square not in in_range(king, rules.cfg.summon_range, rules.cfg.summon_range):
        return "DW-SUMMON", f"summoning is at range {rules.cfg.summon_range} exactly from the King Dragon"
    return None


def king_a(rules: DungeonWarRules, state: State, square: Square) -> Iterator[Move]:
    seat = state.seat
    king = rules.kind(state, seat, "king")
    if turn.action_refusal(rules, state, square, (seat, "king"), "move") is None:  # its move, as a piece's
        for dr, dc in sorted(movement.reach(rules, state, square, king, seat, king.move.plus)):
            yield Walk(square[0], square[1], dr, dc)
    if a_refusal(rules, state, "summon", square) is None:
        yield from summons(rules, state, square)
    if a_refusal(rules, state, "alchemy", square) is None:
        yield Alchemy()
    if a_refusal(rules, state, "remake", square) is None and sum(state.dungeon_deck) + sum(state.dungeon_discard) > 0:
        for cr, cc in building.remakeable(rules, state):
            yield Remake(cr, cc)


def king_b(rules: DungeonWarRules, state: State, square: Square) -> Iterator[Move]:
    """The (b) actions of the King Dragon on `square`: draw, card change, element change, Card placement."""
    if b_refusal(rules, state, "draw", square) is None:
        yield Draw()
    if "change" in rules.cfg.actions_b and b_refusal(rules, state, "change", square) is None:
        yield from changes(rules, state)
    if b_refusal(rules, state, "element", square) is None:
        here = state.element[state.seat]
        for step in (-1, 1):
            yield Element((here + step) % len(rules.cfg.cycle))
    if b_refusal(rules, state, "place", square) is None:
        yield from cards.placements_b(rules, state)


def army_available(state: State, seat: int, name: str) -> bool:
    """An unused piece of that kind, or one on the board to re-place (D-DW-22)."""
    return bool(state.pools[seat][ARMY.index(name)]) or any(o == seat and k == name for *_, o, k in state.board)


def summons(rules: DungeonWarRules, state: State, king_square: Square) -> Iterator[Move]:
    seat, ring = state.seat, in_range(king_square, rules.cfg.summon_range, rules.cfg.summon_range)
    for name in ARMY:
        kind = rules.kind(state, seat, name)
        if summon_refusal(rules, state, name, kind) is not None:
            continue
        for r, c in core.empty_squares(rules, state, kind):
            if (r, c) in ring:  # range_refusal
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
