"""Melee: fighters and odds, acid first, disposable cards, the result, spoils (D-DW-1/2),
falling, immortality and revival (D-DW-16)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from pnpgen.engine.protocol import Event

from . import core
from .config import ARMY
from .core import gear_of, set_at, square_name
from .dungeon import Square
from .moves import Acid, Dispose, Move, Revive
from .odds import BP, Fighter, melee
from .pending import AcidChoice, Disposing, Melee, Reviving, Shooting
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def fighter(rules: DungeonWarRules, state: State, square: Square, who: int, name: str, dash: bool, fight_at: Square,
            support: bool = True, kept: tuple[int, ...] = ()) -> Fighter:
    cfg = rules.cfg
    if who < 0:
        spec = cfg.neutral[name]
        return Fighter(BP(*spec.get("bp", (0, 0))))
    kind = rules.kind(state, who, name, kept)
    bp = kind.bp
    if name == "king":
        bp = BP(bp.dice, bp.plus + (rules.crystals(state, who) - state.fatigue[who]) * cfg.crystal_bp)
    if dash:
        bp = BP(bp.dice, bp.plus + kind.dash_bp)
    occ = rules.occupants(state)
    friends = sum(1 for sq in rules.dungeon(state).adjacent(fight_at)
                  if sq != square and occ.get(sq, (-9, ""))[0] == who) if support else 0
    return Fighter(bp, kind.attack, kind.resist, kind.weak, friends)


def fight_sides(rules: DungeonWarRules, state: State) -> tuple[Fighter, Fighter]:
    fight = Melee.of(state)
    occ = rules.occupants(state)
    a_who, a_name = occ[fight.src]
    d_who, d_name = occ[fight.dst]
    return (fighter(rules, state, fight.src, a_who, a_name, fight.dash, fight.dst, kept=fight.kept(0)),
            fighter(rules, state, fight.dst, d_who, d_name, False, fight.dst, kept=fight.kept(1)))


def fight_odds(rules: DungeonWarRules, state: State) -> Any:
    attacker, defender = fight_sides(rules, state)
    return melee(attacker, defender, rules.cfg.die, rules.cfg.support, rules.cfg.fatigue_gap)


def spoils(rules: DungeonWarRules, state: State, winner: int, who: int, name: str, knight: bool,
           events: list[Event]) -> State:
    """Spoils of the defeated piece (who, name) for seat `winner` (D-DW-1, D-DW-2)."""
    if winner < 0 or winner == who:
        return state
    if who < 0:
        gold, cards, crowns = int(rules.cfg.neutral[name].get("spoils", {}).get("gold", 0)), 0, 0
    else:
        kind = rules.kind(state, who, name)
        gold, cards, crowns = kind.spoils_gold, kind.spoils_cards, int(name == "king")
    if knight and (gold or cards or crowns):
        cards += rules.cfg.pieces["knight"].extra_cards
    state = core.gain_gold(rules, state, winner, gold)
    state = core.owe(state, winner, cards)
    if crowns:
        state = state._replace(kings_beaten=set_at(state.kings_beaten, winner, state.kings_beaten[winner] + 1))
    events.append(Event("spoils", f"seat {winner + 1} takes the spoils: {gold}G, {cards} card(s)"
                        + (", a King Dragon's crystals" if crowns else "")))
    return state


def resolve_fight(rules: DungeonWarRules, state: State, result: str) -> tuple[State, list[Event]]:
    fight = Melee.of(state)
    (sr, sc), (dr, dc) = fight.src, fight.dst
    occ = rules.occupants(state)
    a_who, a_name = occ[(sr, sc)]
    d_who, d_name = occ[(dr, dc)]
    events = [Event("fight", f"melee at {square_name((dr, dc))}: {result}", {"result": result})]
    close = result.startswith("close") or result == "draw"
    a_attack, d_attack = (f.attack for f in fight_sides(rules, state))
    for side, (who, name) in enumerate(((a_who, a_name), (d_who, d_name))):  # used disposables go
        used = list(disposables(rules, state, who, name))
        for i in fight.kept(side):
            used.remove(i)
        for i in used:
            state = core.drop_card(state, who, i, core.slot_of(state, who, i))
            events.append(Event("disposable", f"{rules.cfg.war_cards[i].name_en} is used up and discarded"))
    revive: list[tuple[int, int]] = []
    state = state._replace(phase="turn", pending=())
    if result in ("win", "close-win"):
        state = state._replace(board=core.board_with(state, ((sr, sc), (dr, dc)), ((dr, dc, a_who, a_name),)),
                               acted=(state.acted - {(sr, sc)}) | {(dr, dc)})
        state = spoils(rules, state, a_who, d_who, d_name, a_name == "knight", events)
        state = fall(rules, state, d_who, d_name, a_attack, revive, events)
        fallen, survivor = d_who if d_name == "king" else None, a_who if a_name == "king" else None
    elif result == "draw":
        state = state._replace(board=core.board_with(state, ((sr, sc), (dr, dc))), acted=state.acted - {(sr, sc)})
        state = spoils(rules, state, a_who, d_who, d_name, a_name == "knight", events)
        state = fall(rules, state, d_who, d_name, a_attack, revive, events)
        state = fall(rules, state, a_who, a_name, d_attack, revive, events)
        fell = {s for s, n in ((a_who, a_name), (d_who, d_name)) if n == "king"}
        if fell:
            return core.game_over(state, fell, events)
        return revive_queue(rules, core.settle(rules, state), revive), events
    else:
        state = state._replace(board=core.board_with(state, ((sr, sc),)), acted=state.acted - {(sr, sc)})
        state = spoils(rules, state, d_who, a_who, a_name, d_name == "knight", events)
        state = fall(rules, state, a_who, a_name, d_attack, revive, events)
        fallen, survivor = a_who if a_name == "king" else None, d_who if d_name == "king" else None
    if survivor is not None and close:
        cap = rules.cfg.caps["fatigue"]
        state = state._replace(fatigue=set_at(state.fatigue, survivor, min(cap, state.fatigue[survivor] + 1)))
        events.append(Event("fatigue", f"seat {survivor + 1}'s King Dragon tires (D-DW-4)"))
    if fallen is not None:
        return core.game_over(state, {fallen}, events)
    if result in ("win", "close-win"):
        state = core.arrive(rules, state, (dr, dc), a_who, events)
    return revive_queue(rules, core.after_action(rules, state, a_name), revive), events


def start_melee(rules: DungeonWarRules, state: State, side: int, events: list[Event]) -> State:
    """Melee, step 1: acid from either side (attacker first), then victory flags or the roll."""
    fight = Melee.of(state)
    occ = rules.occupants(state)
    for k, (user, victim) in enumerate(((fight.src, fight.dst), (fight.dst, fight.src))):
        u_who, u_name = occ[user]
        if k < side or u_who < 0 or not rules.kind(state, u_who, u_name).acid:
            continue
        state, waiting = acid(rules, state, u_who, occ[victim], 2 * k, events)
        if waiting:
            return waiting
    return choose_disposables(rules, state, 0, events)


def disposables(rules: DungeonWarRules, state: State, who: int, name: str) -> tuple[int, ...]:
    """The worn disposable cards that add to a fight (not those used by an action), sorted."""
    if who < 0:
        return ()
    cfg = rules.cfg
    slots = cfg.wearers.get(name, ())
    return tuple(sorted(i for slot, i in gear_of(state, who) if slot in slots
                        and "disposable" in cfg.war_cards[i].categories
                        and not (cfg.action_effects | {"dragon"}) & cfg.war_cards[i].effects.keys()))


def choose_disposables(rules: DungeonWarRules, state: State, side: int, events: list[Event]) -> State:
    """Melee, step 2: the attacker, then the defender, decides for each worn disposable card
    whether to use it (it adds, then is discarded) or keep it (it adds nothing this fight and
    stays) (digest §6, D-DW-32). pending of 'dispose': the fight's numbers, kept cards, side,
    chooser; kept cards are noted 2 x card + side."""
    occ = rules.occupants(state)
    fight = Melee.of(state)
    for k in range(side, 2):
        who, name = occ[(fight.src, fight.dst)[k]]
        if disposables(rules, state, who, name):
            return state._replace(phase="dispose", pending=Disposing.make(*fight, k, who))
    odds = fight_odds(rules, state)
    if odds.by_flags:
        events.append(Event("flags", f"victory flags decide: the {odds.by_flags} wins"))
        done, more = resolve_fight(rules, state._replace(phase="fight"),
                                         "win" if odds.by_flags == "attacker" else "loss")
        return core.note(done, more, events)
    return state._replace(phase="fight")


def dispose_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    """('dispose', cards used...): every choice of which worn disposables to use."""
    p = Disposing.of(state)
    occ = rules.occupants(state)
    cards = disposables(rules, state, *occ[(p.melee.src, p.melee.dst)[p.side]])
    return sorted({Dispose(*chosen) for n in range(len(cards) + 1)
                   for chosen in itertools.combinations(cards, n)}, key=lambda m: (len(m), m))


def apply_dispose(rules: DungeonWarRules, state: State, used: tuple[int, ...], events: list[Event]) -> State:
    p = Disposing.of(state)
    fight, side, who = p.melee, p.side, p.chooser
    occ = rules.occupants(state)
    kept = list(disposables(rules, state, *occ[(fight.src, fight.dst)[side]]))
    for i in used:
        kept.remove(i)
    names = ", ".join(rules.cfg.war_cards[i].name_en for i in used) or "none"
    events.append(Event("dispose", f"seat {who + 1} uses {names}"
                        + (f" and keeps {', '.join(rules.cfg.war_cards[i].name_en for i in kept)}" if kept else "")))
    state = state._replace(phase="fight", pending=Melee.make(*fight, *(2 * i + side for i in kept)))
    return choose_disposables(rules, state, side + 1, events)


def acid_cards(rules: DungeonWarRules, state: State, who: int, name: str) -> list[tuple[str, int]]:
    """The victim's cards acid may melt: a shield if it wears one, else any it wears."""
    if who < 0 or name not in rules.cfg.acid["victims"]:
        return []
    worn = [(slot, i) for slot, i in gear_of(state, who) if slot in rules.cfg.wearers.get(name, ())]
    shields = [(slot, i) for slot, i in worn if slot == rules.cfg.acid["melts_first"]]
    return sorted(set(shields or worn))


def acid(rules: DungeonWarRules, state: State, user: int, victim: tuple[int, str], mode: int,
          events: list[Event], spare: int = -1) -> tuple[State, State | None]:
    """Acid (酸): melt one of the victim's cards (never card `spare`, the one being fired);
    the acid's owner chooses unless a shield melts first or only one card is worn.
    (state, a state waiting for the choice or None)."""
    cards = [c for c in acid_cards(rules, state, *victim) if c[1] != spare]
    if len({i for _, i in cards}) > 1:
        return state, state._replace(phase="acid", pending=AcidChoice.make(mode, *state.pending[:5], user))
    if cards:
        state = melt(rules, state, victim[0], cards[0], events)
    return state, None


def melt(rules: DungeonWarRules, state: State, who: int, card: tuple[str, int], events: list[Event]) -> State:
    events.append(Event("acid", f"acid melts seat {who + 1}'s {rules.cfg.war_cards[card[1]].name_en}"))
    return core.drop_card(state, who, card[1], card[0])


def acid_victim(rules: DungeonWarRules, state: State) -> Square:
    """The piece the pending acid melts a card of (pending.AcidChoice)."""
    p = AcidChoice.of(state)
    if p.mode in (0, 2):
        fight = Melee.make(*p.numbers)
        return fight.dst if p.mode == 0 else fight.src
    shot = Shooting.make(*p.numbers)
    return shot.aim if p.mode == 1 else shot.src


def acid_choices(rules: DungeonWarRules, state: State) -> list[tuple[str, int]]:
    """The cards the pending acid may melt (a target's acid spares the card being fired)."""
    victim = rules.occupants(state)[acid_victim(rules, state)]
    p = AcidChoice.of(state)
    spare = Shooting.make(*p.numbers).card if p.mode >= 3 else -1
    return [c for c in acid_cards(rules, state, *victim) if c[1] != spare]


def graves(rules: DungeonWarRules, state: State, seat: int, name: str) -> list[Square]:
    """Empty squares of the immortal respawn terrain the piece may stand on (D-DW-16)."""
    code = rules.cfg.immortal["respawn"]
    kind = rules.kind(state, seat, name)
    return [sq for sq in core.empty_squares(rules, state, kind, name == "king")
            if rules.dungeon(state).terrain[sq] == code]


def fall(rules: DungeonWarRules, state: State, who: int, name: str, by: frozenset[str], revive: list[tuple[int, int]],
          events: list[Event]) -> State:
    """A defeated army piece goes to the unused pool; an immortal one not beaten by a fire
    attack (the content's `not_against`) is queued to come back on a graveyard (不死身)."""
    kind = rules.kind(state, who, name) if who >= 0 else None
    immortal = kind is not None and kind.immortal
    state = core.to_pool(state, who, name)
    if kind is not None and kind.needs_card:  # 「敗北すると、配置した【ドラゴン】のカードが捨札へ」
        for slot, i in [g for g in gear_of(state, who) if g[0] == kind.needs_card]:
            state = core.drop_card(state, who, i, slot)
            events.append(Event("discard", f"the defeated {name}'s {rules.cfg.war_cards[i].name_en} card is "
                                "discarded"))
    if immortal:
        if by & set(rules.cfg.immortal["not_against"]):
            events.append(Event("immortal", f"the {name} fell to a fire attack: it cannot come back"))
        elif graves(rules, state, who, name):
            revive.append((who, ARMY.index(name)))
        else:
            events.append(Event("immortal", f"no empty graveyard: the {name} stays down (D-DW-16)"))
    return state


def revive_queue(rules: DungeonWarRules, state: State, revive: list[tuple[int, int]]) -> State:
    if not revive or state.phase == "over":
        return state
    return state._replace(phase="revive", pending=Reviving.make(*(v for pair in revive for v in pair)))


def revive_at(rules: DungeonWarRules, state: State, square: Square, events: list[Event]) -> State:
    """An immortal piece comes back (復活は移動: counts as a move, costs no AP)."""
    p = Reviving.of(state)
    who, i = p.seat, p.piece
    name = ARMY[i]
    state = state._replace(board=core.board_with(state, add=((square[0], square[1], who, name),)),
                           pools=set_at(state.pools, who, set_at(state.pools[who], i, state.pools[who][i] - 1)))
    if who == state.seat:
        state = state._replace(acted=state.acted | {square})
    events.append(Event("revive", f"seat {who + 1}'s immortal {name} comes back on {square_name(square)}"))
    rest = Reviving.make(*p.rest)
    if rest and graves(rules, state, rest.seat, ARMY[rest.piece]):
        return state._replace(pending=rest)
    return core.settle(rules, state._replace(phase="turn", pending=()))


# --- the moves ------------------------------------------------------------------------------


def acid_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    return [Acid(i) for _, i in acid_choices(rules, state)]


def dispose(rules: DungeonWarRules, state: State, move: Dispose, events: list[Event]) -> State:
    return apply_dispose(rules, state, tuple(int(v) for v in move.cards), events)


def revive_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    p = Reviving.of(state)
    return [Revive(r, c) for r, c in graves(rules, state, p.seat, ARMY[p.piece])]


def revive(rules: DungeonWarRules, state: State, move: Revive, events: list[Event]) -> State:
    return revive_at(rules, state, move.square, events)
