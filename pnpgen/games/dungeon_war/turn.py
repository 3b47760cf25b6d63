"""The turn: initial placement, the moves of a turn, its start (AP, turn bonuses) and its end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Event

from . import cards, core
from .config import ARMY
from .core import set_at, square_name
from .dungeon import Square
from .moves import End, Move, Place
from .notation import square_text
from .pending import Placing
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def placements(rules: DungeonWarRules, state: State) -> list[Move]:
    """Initial placement: the round's piece on each square placement_refusal lets it go."""
    code = rules.cfg.pieces[rules.cfg.first_pieces[Placing.of(state).round]].code
    return [Place(code, r, c) for r, c in sorted(rules.dungeon(state).terrain)
            if placement_refusal(rules, state, code, (r, c)) is None]


def placement_refusal(rules: DungeonWarRules, state: State, code: str, square: Square) -> tuple[str, str] | None:
    """Why the piece `code` may not be placed on `square` now (rule id, reason), or None: it is
    the round's piece, on an empty dungeon square whose terrain it may stand on (rule ②)."""
    cfg = rules.cfg
    name = cfg.first_pieces[Placing.of(state).round]
    if code != cfg.pieces[name].code:
        return "DW-PLACE", f"this placement round places a {name} ({cfg.pieces[name].code})"
    terrain = rules.dungeon(state).terrain
    if square not in terrain:
        return "DW-PLACE", f"{square_text(*square)} is not a dungeon square"
    if any((r, c) == square for r, c, _, _ in state.board):
        return "DW-PLACE", f"{square_text(*square)} is not empty (rule ②)"
    if not rules.may_stand(rules.kind(state, state.seat, name), terrain[square], name == "king"):
        return "DW-PLACE", f"a {name} may not be placed on this terrain ({terrain[square]})"
    return None


def start_turn(rules: DungeonWarRules, state: State, seat: int, events: list[Event]) -> State:
    cfg = rules.cfg
    kind = rules.kind(state, seat, "slime")
    terrain = rules.dungeon(state).terrain
    slimes = [(r, c) for r, c, o, k in state.board if o == seat and k == "slime"]
    ap = cfg.ap + sum(kind.plant_ap for sq in slimes if cfg.terrain[terrain[sq]].get("plant"))
    state = state._replace(phase="turn", seat=seat, ap=min(ap, cfg.caps["ap"]), king_step=0,
                           summoned=frozenset(), acted=frozenset(), pending=())
    state = core.gain_gold(rules, state, seat, kind.gold_per_turn * len(slimes))
    events.append(Event("turn", f"round {state.round}: seat {seat + 1} takes the die at AP {state.ap}"))
    return core.settle(rules, cards.window(rules, state, seat))


def end_turn(rules: DungeonWarRules, state: State, events: list[Event]) -> State:
    nxt = (state.seat + 1) % state.players
    if nxt == 0:
        if state.round >= rules.cfg.round_cap:
            events.append(Event("end", "the round cap is reached: everyone loses (stand-in for 3 hours)"))
            return state._replace(phase="over", draws=(), pending=(), summoned=frozenset())
        state = state._replace(round=state.round + 1)
    return start_turn(rules, state, nxt, events)


def place(rules: DungeonWarRules, state: State, move: Place, events: list[Event]) -> State:
    """Initial placement: each seat in turn places the round's piece; then round 1 begins."""
    seat, cfg = state.seat, rules.cfg
    code, (r, c) = str(move[1]), move.square
    name = cfg.by_code[code]
    i = ARMY.index(name)
    state = state._replace(board=core.board_with(state, add=((r, c, seat, name),)),
                           pools=set_at(state.pools, seat, set_at(state.pools[seat], i, state.pools[seat][i] - 1)))
    events.append(Event("place", f"seat {seat + 1} places its {name} on {square_name((r, c))}"))
    nxt, index = seat + 1, Placing.of(state).round
    if nxt >= state.players:
        nxt, index = 0, index + 1
    if index >= len(cfg.first_pieces):
        return start_turn(rules, state._replace(round=1), 0, events)
    return state._replace(seat=nxt, pending=Placing.make(index))


def end(rules: DungeonWarRules, state: State, move: End, events: list[Event]) -> State:
    return end_turn(rules, state, events)


def action_refusal(rules: DungeonWarRules, state: State, src: Square, piece: tuple[int, str] | None,
                   head: str | None = None) -> tuple[str, str] | None:
    """Why the piece on `src` may not take an action now (rule id, reason), or None: it is the
    seat's, the King Dragon has not acted, it has not acted this turn, it has the action
    (`head`; None: any) and the AP pay for it. The turn's move generator lists the actions
    of the pieces this lets act; the referee's verdict on a refused action starts here."""
    cfg, seat = rules.cfg, state.seat
    card_use = head in ("use", "shoot")
    if piece is None or (card_use and piece[0] != seat):
        return "DW-ACTION", (f"no piece of seat {seat + 1} on {square_text(*src)}" if card_use
                             else f"no piece on {square_text(*src)}")
    who, name = piece
    if who != seat:
        return "DW-ACTION", f"the piece on {square_text(*src)} is not seat {seat + 1}'s"
    if state.king_step:
        return "DW-KING", "the King Dragon has acted: only its (b) action or the end of the turn remain"
    if src in state.acted:
        return "DW-ONCE", f"the {name} on {square_text(*src)} has already acted this turn"
    if head is not None and not card_use:
        action = "move" if head in ("move", "roll") else head
        if action not in rules.kind(state, who, name).actions and name != "king":
            return "DW-ACTION", f"a {name} has no '{head}' action"
        if name == "king" and head != "move":
            return "DW-KING", f"the King Dragon has no '{head}' action"
    cost = cfg.actions_a["move"] if name == "king" and not card_use else cfg.action_cost
    if state.ap < cost:
        return "DW-TURN", f"{state.ap} AP left; the action costs {cost}"
    return None
