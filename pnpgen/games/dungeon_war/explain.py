"""Why a move that is not legal is refused: the rule id and one sentence (the referee's verdict).

The kinds of move each decision phase takes (pending.ANSWERS), whether a piece may act
(turn.action_refusal) and where the first pieces go (turn.placement_refusal) come from the
rules the move generator uses; what remains here are the reasons a listed action's target
(a square, an aim, a card) or a King Dragon's action is not among the legal ones."""

from __future__ import annotations

from typing import Any

from . import shooting, turn
from .config import ARMY
from .dungeon import manhattan
from .notation import square_text
from .pending import ANSWERS, AmbushAsk, Going, Shooting, Window
from .state import Move, State

DungeonWarRules = Any  # the rules object (model.py imports this module, not the reverse)


def square_name(square: tuple[int, int]) -> str:
    return square_text(*square)



def explain(rules: DungeonWarRules, state: State, move: Move) -> tuple[str, str]:
    cfg, seat, head = rules.cfg, state.seat, move[0]
    wanted = tuple(dict.fromkeys(kind.head for kind in ANSWERS.get(state.phase, ())))
    if wanted and head not in wanted:
        return "DW-TURN", f"now the move is one of: {', '.join(wanted)}"
    if state.phase == "turn" and head in ("place", "go", "lay", "discard", "put"):
        return "DW-TURN", f"'{head}' is not a move of a turn"
    occ = rules.occupants(state)
    if head == "place":
        refused = turn.placement_refusal(rules, state, str(move[1]), (int(move[2]), int(move[3])))
        return refused or ("DW-PLACE", "")
    if head in ("move", "roll", "dash", "warp", "make", "block", "fence", "reverse"):
        src = (int(move[1]), int(move[2]))
        piece = occ.get(src)
        refused = turn.action_refusal(rules, state, src, piece, str(head))
        if refused or piece is None:
            return refused or ("DW-ACTION", "")
        who, name = piece
        kind = rules.kind(state, who, name)
        if head == "roll" or (head == "move" and kind.move.dice):
            return "DW-MOVE", "the knight rolls first ('roll'), then chooses where to go"
        if head == "warp":
            if state.gold[seat] < kind.warp_cost:
                return "DW-GOLD", f"cross warp costs {kind.warp_cost}G; seat {seat + 1} has {state.gold[seat]}G"
            dst = (int(move[3]), int(move[4]))
            if dst[0] != src[0] and dst[1] != src[1]:
                return "DW-WARP", "cross warp goes along the row or the column only"
            return _destination(rules, state, dst, name, "DW-WARP")
        if head == "move":
            dst = (int(move[3]), int(move[4]))
            if len(move) > 5 and move[:5] in rules.legal_moves(state):
                return "DW-MOVE", _bad_path(move[5:], kind.move.plus)
            return _destination(rules, state, dst, name, "DW-MOVE", src, kind.move.plus)
        if head == "make":
            return "DW-BUILD", "Dungeon Make needs an empty card spot next to the dungeon, adjacent to the slime"
        if head == "reverse":
            return "DW-BUILD", "Dungeon Reverse turns a placed dungeon card (not the stairs) with no piece on it"
        if head in ("block", "fence"):
            target = (int(move[3]), int(move[4]))
            low, high = cfg.block_range if head == "block" else cfg.fence_range
            if not low <= manhattan(src, target) <= high:
                span = str(low) if low == high else f"{low}-{high}"
                return "DW-BLOCK", f"a {head} goes at range {span} exactly (Manhattan distance)"
            return "DW-BLOCK", f"{square_name(target)} must be an empty dungeon square" + (
                " and not lava" if head == "fence" else "")
        return "DW-ACTION", "that action is not possible now"
    if head in ("summon", "alchemy", "remake", "draw", "element", "change"):
        king = next(((r, c) for r, c, o, k in state.board if o == seat and k == "king"), None)
        if king is None:
            return "DW-KING", "seat has no King Dragon on the board"
        if head in ("draw", "element", "change"):
            cost = cfg.actions_b[str(head)]
            if state.king_step > 1 or (state.king_step == 0 and king in state.acted):
                return "DW-KING", "the King Dragon has already acted"
            if state.ap < cost:
                return "DW-TURN", f"{state.ap} AP left; {head} costs {cost}"
            if head == "change":
                hand = list(state.hands[seat])
                for i in move[1:]:
                    if int(i) not in hand:
                        return "DW-CARDS", f"card change discards cards of the hand; seat {seat + 1} holds no " \
                                           f"{cfg.war_cards[int(i)].id} to discard"
                    hand.remove(int(i))
                return "DW-CARDS", f"card change discards 1 to {cfg.change_cards} cards"
            if head == "element":
                return "DW-ELEMENT", "the element changes one step around the cycle " + "-".join(cfg.cycle)
            return "DW-CARDS", "no war card is left to draw"
        if state.king_step and not (head == "summon" and state.summoned):
            return "DW-KING", "the King Dragon's (a) action is done; only one (a) action a turn"
        cost = cfg.actions_a[str(head)]
        if state.ap < cost and not state.summoned:
            return "DW-TURN", f"{state.ap} AP left; {head} costs {cost}"
        if head == "summon":
            name, square = str(move[1]), (int(move[2]), int(move[3]))
            kind = rules.kind(state, seat, name)
            if name in state.summoned:
                return "DW-SUMMON", f"one summon action calls pieces of different kinds; a {name} came already"
            if not rules.has_card_for(state, seat, kind):
                return "DW-SUMMON", f"a {name} needs a placed {kind.needs_card} card"
            if not state.pools[seat][ARMY.index(name)]:
                return "DW-SUMMON", f"no unused {name} is left"
            if state.gold[seat] < kind.cost:
                return "DW-GOLD", f"a {name} costs {kind.cost}G; seat {seat + 1} has {state.gold[seat]}G"
            if manhattan(square, king) != cfg.summon_range:
                return "DW-SUMMON", f"summoning is at range {cfg.summon_range} exactly from the King Dragon"
            return "DW-SUMMON", f"{square_name(square)} must be an empty dungeon square the {name} may stand on"
        if head == "remake":
            return "DW-BUILD", "Remake needs a placed dungeon card (not the stairs) with no piece on it"
    if head in ("equip", "unequip"):
        king = next(((r, c) for r, c, o, k in state.board if o == seat and k == "king"), None)
        if king is None:
            return "DW-KING", "seat has no King Dragon on the board"
        if state.king_step == 2 or (state.king_step in (0, 1) and king in state.acted and state.king_step == 0):
            return "DW-KING", "the King Dragon has already acted"
        if state.king_step < 3 and state.ap < cfg.actions_b["place"]:
            return "DW-TURN", f"{state.ap} AP left; card placement costs {cfg.actions_b['place']}"
        index, slot = int(move[1]), str(move[2])
        card = cfg.war_cards[index]
        if head == "unequip" and state.king_step == 4:
            return "DW-EQUIP", "card placement discards placed cards first, then places cards: a card is placed already"
        if head == "unequip":
            return "DW-EQUIP", f"no {card.id} is placed in the {slot} slot"
        if index not in state.hands[seat]:
            return "DW-EQUIP", f"{card.id} is not in seat {seat + 1}'s hand"
        return "DW-EQUIP", f"the {slot} slot holds at most {cfg.slots[slot]} card(s): discard one first"
    if head in ("use", "shoot"):
        src = (int(move[1]), int(move[2]))
        piece = occ.get(src)
        refused = turn.action_refusal(rules, state, src, piece, str(head))
        if refused or piece is None:
            return refused or ("DW-ACTION", "")
        index = int(move[3])
        slots = cfg.wearers.get(piece[1], ())
        fx = cfg.war_cards[index].effects
        targeted = head == "use" and len(move) > 4
        if not any(i == index and slot in slots for slot, i in state.equip[seat]) or (
                head == "shoot" and not ("shot" in fx or "breath" in fx)) or (
                head == "use" and not targeted and "ap" not in fx) or (targeted and "brainwash" not in fx):
            return "DW-EQUIP", f"the {piece[1]}s' play-sheet slots hold no usable {cfg.war_cards[index].id}"
        aimed = (int(move[4]), int(move[5])) if targeted else None
        if targeted and len(move) > 6 and aimed in shooting.charm_targets(rules, state, src, index):
            kind = occ[(int(move[4]), int(move[5]))][1]
            return "DW-EQUIP", (f"with no unused {kind}, name one of your own {kind}s on the board to re-place "
                                f"(D-DW-22); with one unused, name none")
        if targeted:
            _, _, (low, high), kinds = shooting.charm_spec(rules, index)
            return "DW-EQUIP", (f"{cfg.war_cards[index].id} brainwashes an enemy {' or '.join(sorted(kinds))} "
                                f"at range {low}-{high}")
        aim = (int(move[4]), int(move[5]))
        _, _, how, (low, high), *_ = shooting.shot_spec(rules, index)
        if not shooting.targetable(rules, state, aim, seat):
            return "DW-SHOT", f"{square_name(aim)} holds no enemy piece or tentacle creature to aim at (D-DW-14)"
        if how == "range":
            return "DW-SHOT", f"{cfg.war_cards[index].id} reaches range {low}-{high} only (Manhattan distance)"
        return "DW-SHOT", ("a straight-line shot goes along the row or column and stops at the first enemy, a "
                           "block, a wall or the outside world")
    if head == "trap" and state.phase == "window":
        return "DW-TRAP", (f"seat {Window.of(state).seat + 1} holds no face-down {cfg.war_cards[int(move[1])].id} that "
                           "can go there (Rockfall: an empty square; Frenzy Spores: an enemy slime)")
    if head == "trap" and state.phase == "mirror":
        return "DW-TRAP", (f"seat {Shooting.of(state).seat + 1} holds no face-down "
                           f"{cfg.war_cards[int(move[1])].id} that reflects this shot")
    if head == "trap":
        return "DW-TRAP", ("a trap is called between actions (D-DW-21) or, a Mirror Shield, when a straight-line "
                           "magic shot is declared at your piece")
    if head == "dispose":
        return "DW-MELEE", "a fighter uses or keeps only the disposable cards it wears"
    if head == "acid":
        return "DW-MELEE", "acid melts one of the opponent's knight or magician cards (a shield first)"
    if head == "revive":
        return "DW-MELEE", "an immortal piece comes back on an empty graveyard square"
    if head in ("ambush", "pass"):
        if state.phase != "ambush":
            return "DW-TRAP", "an ambush springs only when an enemy enters an empty square its trap names"
        return "DW-TRAP", (f"seat {AmbushAsk.of(state).seat + 1} holds no face-down {cfg.war_cards[int(move[1])].id} "
                           "that fires on this square")
    if head == "lay" or head == "discard":
        return "DW-BUILD", "no dungeon card is waiting to be laid"
    if head == "put":
        return "DW-EVENT", "the event goes on an empty dungeon square (Frenzy: on a slime)"
    if head == "go":
        dst = (int(move[1]), int(move[2]))
        going = Going.of(state)
        (sr, sc), steps = going.src, going.steps
        if len(move) > 3 and move[:3] in rules.legal_moves(state):
            return "DW-MOVE", _bad_path(move[3:], steps)
        return _destination(rules, state, dst, "knight", "DW-MOVE", (sr, sc), steps)
    return "DW-TURN", "not a move of this phase"


def _destination(rules: DungeonWarRules, state: State, dst: tuple[int, int], name: str, rule: str,
                 src: tuple[int, int] | None = None, limit: int = 0) -> tuple[str, str]:
    terrain = rules.dungeon(state).terrain
    if dst not in terrain:
        return rule, f"{square_name(dst)} is not a dungeon square"
    occ = rules.occupants(state)
    kind = rules.kind(state, state.seat, name)
    code = terrain[dst]
    need = rules.cfg.terrain[code].get("needs")
    if need and need not in kind.terrain:
        return "DW-TERRAIN", f"a {name} cannot enter {rules.cfg.terrain[code]['name']} (no {need} movement)"
    if name == "king" and code in rules.cfg.king_never_stops:
        return "DW-TERRAIN", f"the King Dragon never stops on {rules.cfg.terrain[code]['name']}"
    there = occ.get(dst)
    if there is not None and there[0] == state.seat and dst != src:
        if rules.kind(state, state.seat, there[1]).stop:
            return "DW-STOP", (f"{square_name(dst)} holds a friendly Stop! piece: it can be neither passed nor "
                               "stopped on (D-DW-7)")
        return "DW-STOP", f"{square_name(dst)} holds a friendly piece: pass through, never stop"
    if there is not None and name == "king" and there[1] == "king":
        return "DW-MELEE", "King Dragons never fight each other"
    if there is not None and there[0] < 0 and there[1] in ("block", "fence"):
        return "DW-BREAK", f"a {kind.strength} piece cannot break a {there[1]}"
    return rule, f"no path of at most {limit} steps reaches {square_name(dst)} (walls, terrain, Stop! squares)"


def _bad_path(flat: tuple[object, ...], limit: int) -> str:
    steps = len(flat) // 2
    if steps > limit:
        return f"the declared path has {steps} steps; this move has at most {limit}"
    return ("the declared path must go one legal step at a time (no wall, no square twice), pass only squares "
            "it may pass and end where it may stop")
