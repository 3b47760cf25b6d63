"""War cards and traps: Card placement, AP cards, the trap windows of D-DW-21,
Mirror Shield, and ambushes (digest §7, D-DW-20)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Event

from . import building, core
from .config import NEUTRAL
from .core import gear_of, set_at, square_name
from .dungeon import Square
from .moves import Ambush, Card, Equip, Move, Pass, Trap, Unequip, UseCard
from .pending import AmbushAsk, Window
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def placements_b(rules: DungeonWarRules, state: State) -> list[Move]:
    """Card placement (King Dragon (b)): discard placed cards, place cards from the hand
    into free slots that match one of their categories (traps go face down)."""
    seat, cfg = state.seat, rules.cfg
    moves: list[Move] = [Unequip(i, slot) for slot, i in gear_of(state, seat)
                         if equip_refusal(rules, state, "unequip", i, slot) is None]
    for i in sorted(set(state.hands[seat])):
        for slot in cfg.war_cards[i].categories:
            if equip_refusal(rules, state, "equip", i, slot) is None:
                moves.append(Equip(i, slot))
    return moves


def equip_refusal(rules: DungeonWarRules, state: State, head: str, index: int, slot: str) -> tuple[str, str] | None:
    """Why card `index` may not be discarded from (head 'unequip') or placed in (head 'equip')
    `slot` now, or None: discards come first, then placements (once a card is placed, king_step
    4, none is discarded); a card placed is in the hand and goes in a free slot of one of its
    categories."""
    seat, cfg = state.seat, rules.cfg
    card = cfg.war_cards[index]
    gear = gear_of(state, seat)
    if head == "unequip":
        if state.king_step == 4:
            return "DW-EQUIP", "card placement discards placed cards first, then places cards: a card is placed already"
        if (slot, index) not in gear:
            return "DW-EQUIP", f"no {card.id} is placed in the {slot} slot"
        return None
    if index not in state.hands[seat]:
        return "DW-EQUIP", f"{card.id} is not in seat {seat + 1}'s hand"
    if slot not in card.categories or slot not in cfg.slots:
        return "DW-EQUIP", f"{card.id} goes in the {' or '.join(c for c in card.categories if c in cfg.slots)} slot"
    if sum(1 for s, _ in gear if s == slot) >= cfg.slots[slot]:
        return "DW-EQUIP", f"the {slot} slot holds at most {cfg.slots[slot]} card(s): discard one first"
    return None


def place_one(rules: DungeonWarRules, state: State, king: Square, head: str, index: int, slot: str,
              events: list[Event]) -> State:
    """One card of the Card placement action; the first pays its AP (D-DW-23: a placed
    card may be discarded; a dragon without its card returns to the unused pool)."""
    seat, cfg = state.seat, rules.cfg
    if state.king_step < 3:
        state = state._replace(ap=state.ap - cfg.actions_b["place"], acted=state.acted | {king}, king_step=3)
    card = cfg.war_cards[index]
    if head == "unequip":
        state = core.drop_card(state, seat, index, slot)
        events.append(Event("unequip", f"{card.name_en} is discarded from the {slot} slot"))
        for needs in {k.needs_card for k in cfg.pieces.values() if k.needs_card}:
            if needs == slot and not any(s == slot for s, _ in gear_of(state, seat)):
                for r, c, o, k in state.board:
                    if o == seat and cfg.pieces[k].needs_card == slot:
                        state = core.to_pool(state._replace(board=core.board_with(state, ((r, c),))), seat, k)
                        events.append(Event("unsummon", f"the {k} on {square_name((r, c))} leaves with its "
                                            f"card (D-DW-23)"))
        return core.settle(rules, state)
    hand = list(state.hands[seat])
    hand.remove(index)
    gear = tuple(sorted((*gear_of(state, seat), (slot, index))))
    state = state._replace(hands=set_at(state.hands, seat, tuple(hand)), equip=set_at(state.equip, seat, gear),
                           king_step=4)
    hidden = slot == "trap"
    events.append(Event("equip", "a card is placed face down in a trap slot" if hidden
                        else f"{card.name_en} is placed in the {slot} slot"))
    return core.settle(rules, state)


def trap_calls(rules: DungeonWarRules, state: State, seat: int) -> list[Move]:
    """Seat's face-down unconditional traps and where each may go (Rockfall `place:block`:
    any empty square; Frenzy Spores `frenzy`: an enemy slime)."""
    moves: list[Move] = []
    for i in sorted({i for slot, i in gear_of(state, seat) if slot == "trap"}):
        fx = rules.cfg.war_cards[i].effects
        if "place" in fx and fx["place"] in NEUTRAL and core.neutral_available(state, fx["place"]):
            moves += [Trap(i, r, c, *src) for r, c in core.empty_squares(rules, state, None)
                      for src in core.sources(state, -1, fx["place"])]
        elif "frenzy" in fx:
            moves += [Trap(i, r, c, *src) for r, c in building.frenzy_targets(rules, state, seat)
                      for src in core.sources(state, -1, "tentacle")]
    return moves


def window(rules: DungeonWarRules, state: State, first: int) -> State:
    """Open the trap window at seat `first` (D-DW-21: after every action and at each change
    of turn, every seat in seat order from the active player), skipping seats with no trap
    to call; the window closes when the order comes back to the active player."""
    n = state.players
    for k in range((first - state.seat) % n, n):
        seat = (state.seat + k) % n
        if trap_calls(rules, state, seat):
            return state._replace(phase="window", pending=Window.make(seat))
    return state._replace(phase="turn", pending=())


def call_trap(rules: DungeonWarRules, state: State, move: Trap, events: list[Event]) -> State:
    seat, index, square = Window.of(state).seat, move.card, move.square
    card = rules.cfg.war_cards[index]
    state = core.drop_card(state, seat, index, "trap")
    events.append(Event("trap", f"seat {seat + 1} calls its trap: {card.name_en} on {square_name(square)}"))
    source = tuple(int(v) for v in move[4:])
    if "frenzy" in card.effects:
        state = building.frenzy(rules, state, square, events, source)
    else:
        state = core.put_neutral(rules, state, square, card.effects["place"], events, source)
    return core.settle(rules, window(rules, state, seat))  # the same seat may call its other trap


def ambushes(rules: DungeonWarRules, state: State, seat: int, square: Square) -> list[int]:
    """Seat's face-down ambush traps that fire on `square` (stand-in trigger: an empty
    square of the card's terrain code)."""
    code = rules.dungeon(state).terrain[square]
    return sorted({i for slot, i in gear_of(state, seat)
                   if slot == "trap" and rules.cfg.war_cards[i].effects.get("ambush") == code})


def next_ambusher(rules: DungeonWarRules, state: State, mover: int, square: Square, after: int) -> int | None:
    """The next seat (in seat order from the active player, D-DW-21) that could spring an
    ambush on `square`, after seat `after`."""
    n = state.players
    for k in range(1, n):
        seat = (state.seat + k) % n
        if (seat - state.seat) % n <= (after - state.seat) % n and after != state.seat:
            continue
        if seat != mover and ambushes(rules, state, seat, square):
            return seat
    return None


# --- the moves ------------------------------------------------------------------------------
def seat_king(state: State) -> Square | None:
    """The square of the seat's King Dragon (None once it has fallen)."""
    return next(((r, c) for r, c, o, k in state.board if o == state.seat and k == "king"), None)


def king_square(state: State) -> Square:
    return next((r, c) for r, c, o, k in state.board if o == state.seat and k == "king")


def place_card(rules: DungeonWarRules, state: State, move: Equip | Unequip, events: list[Event]) -> State:
    """Equip or Unequip: one step of the King Dragon's Card placement."""
    return place_one(rules, state, king_square(state), move.head, move.card, move.slot, events)


def use_card(rules: DungeonWarRules, state: State, move: UseCard, events: list[Event]) -> State:
    """A worn card with an AP effect."""
    cfg, seat, index = rules.cfg, state.seat, move.card
    card = cfg.war_cards[index]
    state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {move.src})
    gain = int(card.effects.get("ap", 0))
    state = state._replace(ap=min(cfg.caps["ap"], state.ap + gain))
    events.append(Event("use", f"{card.name_en}: +{gain} AP"))
    if "disposable" in card.categories:
        state = core.drop_card(state, seat, index, core.slot_of(state, seat, index))
        events.append(Event("disposable", f"{card.name_en} is used up and discarded"))
    return core.settle(rules, state)


def draw_card(rules: DungeonWarRules, state: State, move: Card, events: list[Event]) -> State:
    """Chance: a war card owed (state.draws) is drawn; the discards are reshuffled when the deck is out."""
    index = int(move[1])
    deck, discard = state.war_deck, state.war_discard
    if not sum(deck):
        deck, discard = discard, (0,) * len(discard)
        events.append(Event("reshuffle", "the war-card discards become the deck"))
    seat, n = state.draws[0]
    hand = tuple(sorted((*state.hands[seat], index)))
    draws = ((seat, n - 1),) + state.draws[1:] if n > 1 else state.draws[1:]
    state = state._replace(war_deck=set_at(deck, index, deck[index] - 1), war_discard=discard,
                           hands=set_at(state.hands, seat, hand), draws=draws)
    events.append(Event("draw", f"seat {seat + 1} draws {rules.cfg.war_cards[index].name_en}"))
    return core.settle(rules, state)


def window_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    return [*trap_calls(rules, state, Window.of(state).seat), Pass()]


def ambush_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    asked = AmbushAsk.of(state)
    return [*(Ambush(i) for i in ambushes(rules, state, asked.seat, asked.dst)), Pass()]


def pass_window(rules: DungeonWarRules, state: State, move: Pass, events: list[Event]) -> State:
    """No trap now: the window asks the next seat, or closes back at the active player."""
    nxt = (Window.of(state).seat + 1) % state.players
    return core.settle(rules, window(rules, state, nxt) if nxt != state.seat
                       else state._replace(phase="turn", pending=()))



