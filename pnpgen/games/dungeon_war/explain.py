"""Why a move is refused: the rule id and one sentence (the referee's verdict), or None if it is legal.

Each rule is stated once, as a gate the move generators call and this module asks in the same
order: pending.ANSWERS (the moves a decision phase takes), turn.placement_refusal and
action_refusal, movement.walk_refusal, warp_refusal, entry and path_refusal,
building.neutral_refusal, king.a_refusal, b_refusal, summon_refusal and range_refusal,
cards.equip_refusal, shooting.use_refusal, charm_refusal and aim_refusal. A move its gates let
through is legal exactly when legal_moves lists it; when it is not listed, TARGETS says what
the generator's last condition (the target, the path, the card) asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import building, cards, king, movement, shooting, turn
from . import moves as mv
from .config import ARMY
from .notation import square_text
from .pending import ANSWERS, AmbushAsk, Going, Shooting, Window
from .state import Move, State

if TYPE_CHECKING:
    from .model import DungeonWarRules

Refusal = tuple[str, str] | None
PIECE_ACTIONS = (mv.Walk, mv.Roll, mv.Dash, mv.Warp, mv.Make, mv.Block, mv.Fence, mv.Reverse, mv.UseCard, mv.Brainwash,
                 mv.Shoot)
B_ACTIONS = {mv.Draw: "draw", mv.Change: "change", mv.Element: "element", mv.Equip: "place", mv.Unequip: "place"}
USES = {mv.UseCard: "ap", mv.Brainwash: "brainwash", mv.Shoot: "shot"}


def explain(rules: DungeonWarRules, state: State, move: Move) -> Refusal:
    """The rule `move` breaks now and why, or None when legal_moves lists it."""
    move = mv.typed(move)
    refused = gates(rules, state, move)
    if refused is not None:
        return refused
    if isinstance(move, mv.Walk | mv.Go) and len(move) > (5 if isinstance(move, mv.Walk) else 3):
        code = movement.declared_path_refusal(rules, state, move)
        if code is None:
            return None
        if code != "base":
            n = 5 if isinstance(move, mv.Walk) else 3
            return "DW-MOVE", movement.path_words(code, (len(move) - n) // 2, _limit(rules, state, move))
    elif move in rules.legal_moves(state):
        return None
    target = TARGETS.get(type(move))
    return target(rules, state, move) if target else ("DW-TURN", "not a move of this phase")


def gates(rules: DungeonWarRules, state: State, move: Move) -> Refusal:
    """The first gate of the move generators that refuses `move` (None: all let it through)."""
    head = move[0]
    wanted = tuple(dict.fromkeys(kind.head for kind in ANSWERS.get(state.phase, ())))
    if wanted and head not in wanted:
        return "DW-TURN", f"now the move is one of: {', '.join(wanted)}"
    if state.phase == "turn" and isinstance(move, mv.Place | mv.Go | mv.Lay | mv.Discard | mv.Put):
        return "DW-TURN", f"'{head}' is not a move of a turn"
    if isinstance(move, mv.Place):
        return turn.placement_refusal(rules, state, str(move[1]), move.square)
    if isinstance(move, PIECE_ACTIONS):
        src = move.src if not isinstance(move, mv.Roll | mv.Dash) else move.square
        piece = rules.occupants(state).get(src)
        refused = turn.action_refusal(rules, state, src, piece, head)
        if refused or piece is None:
            return refused or ("DW-ACTION", "")
        kind = rules.kind(state, piece[0], piece[1])
        if isinstance(move, mv.Walk | mv.Roll):
            return movement.walk_refusal(kind, head)
        if isinstance(move, mv.Warp):
            return movement.warp_refusal(rules, state, kind, src, move.dst)
        if isinstance(move, mv.Block | mv.Fence):
            return building.neutral_refusal(rules, state, head, src, move.dst)
        if isinstance(move, mv.UseCard | mv.Brainwash | mv.Shoot):
            return (shooting.use_refusal(rules, state, piece[1], kind, move.card, USES[type(move)])
                    or (shooting.charm_refusal(rules, state, src, move.card, move.target)
                        if isinstance(move, mv.Brainwash) else None)
                    or (shooting.aim_refusal(rules, state, src, move.card, move.aim)
                        if isinstance(move, mv.Shoot) else None))
        return None
    if isinstance(move, mv.Summon | mv.Alchemy | mv.Remake):
        square = cards.seat_king(state)
        refused = king.a_refusal(rules, state, head, square)
        if refused is None and isinstance(move, mv.Summon):
            name = str(move[1])
            refused = king.summon_refusal(rules, state, name, rules.kind(state, state.seat, name)) or (
                king.range_refusal(rules, cards.king_square(state), move.square))
        return refused
    b_action = B_ACTIONS.get(type(move))
    if b_action is not None:
        refused = king.b_refusal(rules, state, b_action, cards.seat_king(state))
        if refused is None and isinstance(move, mv.Equip | mv.Unequip):
            refused = cards.equip_refusal(rules, state, head, move.card, move.slot)
        return refused
    return None


def _limit(rules: DungeonWarRules, state: State, move: Move) -> int:
    """The most steps a declared path of this move may have."""
    if isinstance(move, mv.Go):
        return Going.of(state).steps
    return rules.kind(state, state.seat, rules.occupants(state)[(int(move[1]), int(move[2]))][1]).move.plus


# --- what the generator's last condition asks, for a move its gates let through -------------------
def _walk(rules: DungeonWarRules, state: State, move: mv.Walk) -> Refusal:
    name = rules.occupants(state)[move.src][1]
    return movement.destination_refusal(rules, state, move.dst, name, "DW-MOVE", move.src, _limit(rules, state, move))


def _go(rules: DungeonWarRules, state: State, move: mv.Go) -> Refusal:
    going = Going.of(state)
    return movement.destination_refusal(rules, state, move.dst, "knight", "DW-MOVE", going.src, going.steps)


def _warp(rules: DungeonWarRules, state: State, move: mv.Warp) -> Refusal:
    return movement.destination_refusal(rules, state, move.dst, rules.occupants(state)[move.src][1], "DW-WARP")


def _neutral(rules: DungeonWarRules, state: State, move: mv.Block | mv.Fence) -> Refusal:
    return "DW-BLOCK", f"{square_text(*move.dst)} must be an empty dungeon square" + (
        " and not lava" if isinstance(move, mv.Fence) else "")


def _summon(rules: DungeonWarRules, state: State, move: mv.Summon) -> Refusal:
    name = str(move[1])
    if not state.pools[state.seat][ARMY.index(name)]:
        return "DW-SUMMON", f"no unused {name} is left: name one of yours on the board to re-place (D-DW-22)"
    return "DW-SUMMON", f"{square_text(*move.square)} must be an empty dungeon square the {name} may stand on"


def _change(rules: DungeonWarRules, state: State, move: mv.Change) -> Refusal:
    cfg, seat = rules.cfg, state.seat
    hand = list(state.hands[seat])
    for i in move.cards:
        if int(i) not in hand:
            return "DW-CARDS", (f"card change discards cards of the hand; seat {seat + 1} holds no "
                                f"{cfg.war_cards[int(i)].id} to discard")
        hand.remove(int(i))
    return "DW-CARDS", f"card change discards 1 to {cfg.change_cards} cards"


def _brainwash(rules: DungeonWarRules, state: State, move: mv.Brainwash) -> Refusal:
    kind = rules.occupants(state)[move.target][1]
    return "DW-EQUIP", (f"with no unused {kind}, name one of your own {kind}s on the board to re-place "
                        f"(D-DW-22); with one unused, name none")


def _trap(rules: DungeonWarRules, state: State, move: mv.Trap) -> Refusal:
    card = rules.cfg.war_cards[move.card].id
    if state.phase == "window":
        return "DW-TRAP", (f"seat {Window.of(state).seat + 1} holds no face-down {card} that can go there "
                           "(Rockfall: an empty square; Frenzy Spores: an enemy slime)")
    if state.phase == "mirror":
        return "DW-TRAP", f"seat {Shooting.of(state).seat + 1} holds no face-down {card} that reflects this shot"
    return "DW-TRAP", ("a trap is called between actions (D-DW-21) or, a Mirror Shield, when a straight-line "
                       "magic shot is declared at your piece")


def _ambush(rules: DungeonWarRules, state: State, move: mv.Ambush | mv.Pass) -> Refusal:
    if state.phase != "ambush":
        return "DW-TRAP", "an ambush springs only when an enemy enters an empty square its trap names"
    return "DW-TRAP", (f"seat {AmbushAsk.of(state).seat + 1} holds no face-down {rules.cfg.war_cards[int(move[1])].id} "
                       "that fires on this square")


def _said(rule: str, words: str) -> Callable[[DungeonWarRules, State, Move], Refusal]:
    return lambda rules, state, move: (rule, words)


TARGETS: dict[type[Move], Callable[..., Refusal]] = {
    mv.Walk: _walk, mv.Go: _go, mv.Warp: _warp, mv.Block: _neutral, mv.Fence: _neutral, mv.Summon: _summon,
    mv.Change: _change, mv.Brainwash: _brainwash, mv.Trap: _trap, mv.Ambush: _ambush, mv.Pass: _ambush,
    mv.Roll: _said("DW-ACTION", "that action is not possible now"),
    mv.Dash: _said("DW-ACTION", "that action is not possible now"),
    mv.Make: _said("DW-BUILD", "Dungeon Make needs an empty card spot next to the dungeon, adjacent to the slime"),
    mv.Reverse: _said("DW-BUILD", "Dungeon Reverse turns a placed dungeon card (not the stairs) with no piece on it"),
    mv.Draw: _said("DW-CARDS", "no war card is left to draw"),
    mv.Remake: _said("DW-BUILD", "Remake needs a placed dungeon card (not the stairs) with no piece on it"),
    mv.Element: lambda rules, state, move: (
        "DW-ELEMENT", "the element changes one step around the cycle " + "-".join(rules.cfg.cycle)),
    mv.Dispose: _said("DW-MELEE", "a fighter uses or keeps only the disposable cards it wears"),
    mv.Acid: _said("DW-MELEE", "acid melts one of the opponent's knight or magician cards (a shield first)"),
    mv.Revive: _said("DW-MELEE", "an immortal piece comes back on an empty graveyard square"),
    mv.Lay: _said("DW-BUILD", "no dungeon card is waiting to be laid"),
    mv.Discard: _said("DW-BUILD", "no dungeon card is waiting to be laid"),
    mv.Put: _said("DW-EVENT", "the event goes on an empty dungeon square (Frenzy: on a slime)"),
}
