"""Building the dungeon: the first cards dealt, Dungeon Make / Remake / Reverse, blocks and
fences, drawing and laying dungeon cards, and the events they bring."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Event

from . import core
from .config import NEUTRAL, PieceKind
from .core import set_at, square_name
from .dungeon import STEPS, Square, in_range, open_spots
from .moves import Block, Deal, Discard, Dungeon, Fence, Lay, Make, Move, Put, Reverse
from .notation import square_text
from .pending import Building, Dealing, Laying, Placing
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def deal_eligible(rules: DungeonWarRules, state: State) -> list[tuple[int, int]]:
    cfg = rules.cfg
    crystals = boxes = 0
    for _, _, index, _ in state.cards:
        layout = cfg.stairs_card if index < 0 else cfg.layouts[index]
        crystals += sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("crystal"))
        boxes += sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("empty_box"))
    eligible = []
    for i, layout in enumerate(cfg.layouts):
        if layout.event or not state.dungeon_deck[i]:
            continue
        c = sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("crystal"))
        b = sum(1 for row in layout.rows for code in row if cfg.terrain[code].get("empty_box"))
        if crystals + c <= cfg.max_crystals and boxes + b <= cfg.max_boxes:
            eligible.append((i, state.dungeon_deck[i]))
    return eligible


def after_deal(rules: DungeonWarRules, state: State) -> State:
    """The next card spot, or initial placement once the spots are filled (or no card fits)."""
    if Dealing.of(state).spot < len(rules.first_spots()) and deal_eligible(rules, state):
        return state
    return state._replace(phase="place", seat=0, pending=Placing.make(0))


def next_to_spot(rules: DungeonWarRules, square: Square, spot: tuple[int, int]) -> bool:
    for dr, dc in STEPS:
        r, c = square[0] + dr, square[1] + dc
        if (r // rules.cfg.card_rows, c // rules.cfg.card_columns) == spot and r >= 0 and c >= 0:
            return True
    return False


def remakeable(rules: DungeonWarRules, state: State) -> list[tuple[int, int]]:
    dun = rules.dungeon(state)
    busy = {dun.card_of((r, c)) for r, c, _, _ in state.board}
    return [(cr, cc) for cr, cc, index, _ in state.cards if index >= 0 and (cr, cc) not in busy]


def drawn_dungeon(rules: DungeonWarRules, state: State, index: int) -> tuple[State, list[Event]]:
    deck, discard = state.dungeon_deck, state.dungeon_discard
    events: list[Event] = []
    if not sum(deck):
        deck, discard = discard, (0,) * len(discard)
        events.append(Event("reshuffle", "the dungeon discards become the deck"))
    state = state._replace(dungeon_deck=set_at(deck, index, deck[index] - 1), dungeon_discard=discard)
    layout = rules.cfg.layouts[index]
    mode, cr, cc = Building.of(state)
    if not layout.event:
        events.append(Event("dungeon", f"{layout.id} is drawn"))
        return state._replace(phase="lay", pending=Laying.make(mode, cr, cc, index)), events
    state = state._replace(dungeon_discard=set_at(state.dungeon_discard, index, state.dungeon_discard[index] + 1))
    events.append(Event("event", f"event: {layout.id} (stand-in)"))
    effect = rules.cfg.events[layout.id]
    if "gold" in effect:
        for s in range(state.players):
            state = core.gain_gold(rules, state, s, int(effect["gold"]))
    elif "place" in effect or "frenzy" in effect:
        put = str(effect.get("place", "tentacle"))
        if effect.get("square"):
            spots = [sq for sq in core.empty_squares(rules, state, None)
                     if rules.dungeon(state).terrain[sq] == effect["square"]]
            for sq in spots[:state.neutral_pool[NEUTRAL.index(put)]]:
                state = core.put_neutral(rules, state, sq, put)
            if spots:
                return rebuild(rules, state), events
        state = state._replace(phase="event", pending=Laying.make(mode, cr, cc, index))
        return state, events
    return rebuild(rules, state), events


def rebuild(rules: DungeonWarRules, state: State) -> State:
    """After an event: Remake fails if its card now holds a piece; otherwise draw again."""
    build = Building.of(state)
    if build.remake and build.spot not in remakeable(rules, state):
        return core.settle(rules, state._replace(phase="turn", pending=()))
    if not (sum(state.dungeon_deck) or sum(state.dungeon_discard)):
        return core.settle(rules, state._replace(phase="turn", pending=()))
    return state._replace(phase="build", pending=Building.make(*build[:3]))


def event_targets(rules: DungeonWarRules, state: State) -> list[Square]:
    effect = rules.cfg.events[rules.cfg.layouts[Laying.of(state).card].id]
    if "frenzy" in effect:
        return frenzy_targets(rules, state, -1)
    put = str(effect.get("place"))
    return core.empty_squares(rules, state, None) if core.neutral_available(state, put) else []


def frenzy_targets(rules: DungeonWarRules, state: State, seat: int) -> list[Square]:
    """Slimes that may become a tentacle creature (狂暴化): an event's any slime (seat -1),
    a trap's enemy slimes only."""
    if not core.neutral_available(state, "tentacle"):
        return []
    return sorted((r, c) for r, c, o, k in state.board if o >= 0 and o != seat and k == "slime")


def frenzy(rules: DungeonWarRules, state: State, square: Square, events: list[Event], source: tuple[int,
           ...] = ()) -> State:
    """Slime frenzy (狂暴化): the slime returns to its owner's unused pieces and a tentacle
    creature takes its square (digest §4)."""
    who = rules.occupants(state)[square][0]
    state = core.to_pool(state._replace(board=core.board_with(state, (square,))), who, "slime")
    state = core.put_neutral(rules, state, square, "tentacle", events, source)
    events.append(Event("frenzy", f"the slime on {square_name(square)} becomes a tentacle creature"))
    return state


def put_event(rules: DungeonWarRules, state: State, square: Square, events: list[Event],
              source: tuple[int, ...] = ()) -> State:
    effect = rules.cfg.events[rules.cfg.layouts[Laying.of(state).card].id]
    state = state._replace(pending=Building.make(*state.pending[:3]))
    if square[0] < 0:
        events.append(Event("event", "nothing to place"))
    elif "frenzy" in effect:
        state = frenzy(rules, state, square, events, source)
    else:
        state = core.put_neutral(rules, state, square, str(effect["place"]), events, source)
        events.append(Event("event", f"a {effect['place']} on {square_name(square)}"))
    return rebuild(rules, state)


def lay_card(rules: DungeonWarRules, state: State, flip: bool, events: list[Event]) -> State:
    mode, cr, cc, index = Laying.of(state)
    cards = state.cards
    if mode == 1:
        old = next(p for p in cards if (p[0], p[1]) == (cr, cc))
        cards = tuple(p for p in cards if p != old)
        discard = state.dungeon_discard
        state = state._replace(dungeon_discard=set_at(discard, old[2], discard[old[2]] + 1))
    state = state._replace(cards=(*cards, (cr, cc, index, flip)), phase="turn", pending=())
    events.append(Event("lay", f"{rules.cfg.layouts[index].id} laid at card {cr + 1}.{cc + 1}"
                        + (" flipped" if flip else "")))
    return core.settle(rules, state)


# --- the moves ------------------------------------------------------------------------------
def deal(rules: DungeonWarRules, state: State, move: Deal, events: list[Event]) -> State:
    """Chance, at setup: the next first card (D-DW-9/10)."""
    index, flip = int(move[1]), bool(move[2])
    spot = Dealing.of(state).spot
    cr, cc = rules.first_spots()[spot]
    state = state._replace(cards=(*state.cards, (cr, cc, index, flip)),
                           dungeon_deck=set_at(state.dungeon_deck, index, state.dungeon_deck[index] - 1),
                           pending=Dealing.make(spot + 1))
    events.append(Event("deal", f"{rules.cfg.layouts[index].id} placed at card {cr + 1}.{cc + 1}"))
    return after_deal(rules, state)


def piece_moves(rules: DungeonWarRules, state: State, square: Square, kind: PieceKind) -> Iterator[Move]:
    """Dungeon Reverse (no base piece has it; content may grant it), Dungeon Make, Block, Fence."""
    cfg = rules.cfg
    r, c = square
    if "reverse" in kind.actions:
        for cr, cc in remakeable(rules, state):
            yield Reverse(r, c, cr, cc)
    if "make" in kind.actions and sum(state.dungeon_deck) + sum(state.dungeon_discard) > 0:
        for cr, cc in open_spots(cfg, state.cards):
            if next_to_spot(rules, square, (cr, cc)):
                yield Make(r, c, cr, cc)
    for action in (Block, Fence):
        if action.head in kind.actions and core.neutral_available(state, action.head):
            reach = neutral_range(rules, action.head, square)
            for tr, tc in core.empty_squares(rules, state, None):
                if (tr, tc) in reach and neutral_refusal(rules, state, action.head, square, (tr, tc)) is None:
                    for source in core.sources(state, -1, action.head):
                        yield action(r, c, tr, tc, *source)


def neutral_range(rules: DungeonWarRules, head: str, src: Square) -> frozenset[Square]:
    """Where a block or fence from `src` may go: at its range (game.yaml block_range, fence_range)."""
    low, high = rules.cfg.block_range if head == "block" else rules.cfg.fence_range
    return in_range(src, low, high)


def neutral_refusal(rules: DungeonWarRules, state: State, head: str, src: Square,
                    target: Square) -> tuple[str, str] | None:
    """A block or fence goes at its range from the slime, a fence not on a `no_fence` terrain
    (lava); the square must be empty too (piece_moves lists those, explain words it)."""
    cfg = rules.cfg
    if target not in neutral_range(rules, head, src):
        low, high = cfg.block_range if head == "block" else cfg.fence_range
        span = str(low) if low == high else f"{low}-{high}"
        return "DW-BLOCK", f"a {head} goes at range {span} exactly (Manhattan distance)"
    code = rules.dungeon(state).terrain.get(target) if head == "fence" else None
    if code is not None and cfg.terrain[code].get("no_fence"):
        return "DW-BLOCK", f"{square_text(*target)} must be an empty dungeon square and not lava"
    return None


def make(rules: DungeonWarRules, state: State, move: Make, events: list[Event]) -> State:
    (cr, cc) = move.dst
    state = state._replace(ap=state.ap - rules.cfg.action_cost, acted=state.acted | {move.src}, phase="build",
                           pending=Building.make(0, cr, cc))
    events.append(Event("make", f"Dungeon Make at card {cr + 1}.{cc + 1}"))
    return state


def reverse(rules: DungeonWarRules, state: State, move: Reverse, events: list[Event]) -> State:
    """Flip (180°, D-DW-10) a dungeon card with no piece on it."""
    spot = move.dst
    cards = tuple((cr, cc, i, not f) if (cr, cc) == spot else (cr, cc, i, f) for cr, cc, i, f in state.cards)
    events.append(Event("reverse", f"Dungeon Reverse: card {spot[0] + 1}.{spot[1] + 1} is turned round"))
    return core.settle(rules, state._replace(ap=state.ap - rules.cfg.action_cost, acted=state.acted | {move.src},
                                             cards=cards))


def block(rules: DungeonWarRules, state: State, move: Block | Fence, events: list[Event]) -> State:
    """Block (earth slime) or Fence (wood slime) on a square at range."""
    target = move.dst
    state = state._replace(ap=state.ap - rules.cfg.action_cost, acted=state.acted | {move.src})
    state = core.put_neutral(rules, state, target, move.head, events, move.source)
    events.append(Event(move.head, f"a {move.head} on {square_name(target)}"))
    return core.settle(rules, state)


def drawn(rules: DungeonWarRules, state: State, move: Dungeon, events: list[Event]) -> State:
    """Chance: the dungeon card drawn for Make or Remake."""
    return core.note(*drawn_dungeon(rules, state, int(move[1])), events)


def lay_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    return [Lay(False), Lay(True), Discard()]


def lay(rules: DungeonWarRules, state: State, move: Lay, events: list[Event]) -> State:
    return lay_card(rules, state, bool(move[1]), events)


def discard(rules: DungeonWarRules, state: State, move: Discard, events: list[Event]) -> State:
    index = Laying.of(state).card
    state = state._replace(dungeon_discard=set_at(state.dungeon_discard, index, state.dungeon_discard[index] + 1))
    events.append(Event("discard", f"{rules.cfg.layouts[index].id} is discarded"))
    return core.settle(rules, state._replace(phase="turn", pending=()))


def event_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    """Phase 'event': where the event's piece goes (a neutral piece, or a slime's frenzy)."""
    effect = rules.cfg.events[rules.cfg.layouts[Laying.of(state).card].id]
    name = "tentacle" if "frenzy" in effect else str(effect.get("place"))
    return [Put(r, c, *src) for r, c in event_targets(rules, state)
            for src in core.sources(state, -1, name)] or [Put(-1, -1)]


def put(rules: DungeonWarRules, state: State, move: Put, events: list[Event]) -> State:
    return put_event(rules, state, move.square, events, tuple(int(v) for v in move.source))
