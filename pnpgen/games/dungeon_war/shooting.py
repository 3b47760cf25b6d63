"""Ranged combat (digest §6, D-DW-13/14) and brainwashing (洗脳)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Event

from . import combat, core
from .config import ARMY, PieceKind
from .core import dice, gear_of, set_at, square_name
from .dungeon import STEPS, Square, manhattan
from .moves import Acid, Brainwash, Charm, Move, Pass, Shoot, Shot, Trap, UseCard
from .notation import square_text
from .odds import BP, shot_outcomes
from .pending import AcidChoice, Charming, Melee, Shooting
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


def shot_spec(rules: DungeonWarRules, index: int) -> tuple[BP, frozenset[str], str, tuple[int, int], bool, str, int]:
    """(BP, elements, 'line' or 'range', range, area, penetration strength, range dice) of
    the shot a card fires (digest §6; D-DW-13: 怪力貫通 passes walls and blocks)."""
    card = rules.cfg.war_cards[index]
    fx = card.effects
    if "breath" in fx:
        dice, plus, *colours = fx["breath"].split(":")
        breath = rules.cfg.breath
        return (BP(int(dice), int(plus)), frozenset(colours), "line", (1, 10 ** 3), False,
                str(breath.get("penetrate", "")), int(breath.get("range_dice", 0)))
    how = fx["shot"].split(":")
    element = frozenset({card.element} if card.element else ())
    if how[0] == "range":
        low, high = (int(v) for v in how[1].split("-"))
        return card.bp, element, "range", (low, high), "area" in fx, "", 0
    return card.bp, element, "line", (1, 10 ** 3), "area" in fx, fx.get("penetrate", ""), 0


def targetable(rules: DungeonWarRules, state: State, square: Square, seat: int) -> bool:
    """D-DW-14: only an enemy piece or a tentacle creature may be aimed at."""
    piece = rules.occupants(state).get(square)
    return piece is not None and (piece[0] >= 0 and piece[0] != seat or piece[1] == "tentacle")


def line(rules: DungeonWarRules, state: State, src: Square, step: tuple[int, int], seat: int,
         penetrate: str) -> list[Square]:
    """Enemies a straight-line shot meets going `step` from `src`: it stops at an enemy or a
    tentacle creature (passing on with penetration), a block, a wall or the outside world;
    friends are not hit (digest §6). 怪力貫通 passes walls and blocks (D-DW-13)."""
    dun, occ = rules.dungeon(state), rules.occupants(state)
    strong = penetrate == "strong"
    hit: list[Square] = []
    here = src
    while True:
        nxt = (here[0] + step[0], here[1] + step[1])
        if nxt not in dun.terrain or (dun.walls.get(frozenset((here, nxt))) and not strong):
            return hit
        piece = occ.get(nxt)
        if piece is not None:
            if piece[1] == "block" and not strong:
                return hit
            if targetable(rules, state, nxt, seat):
                hit.append(nxt)
                if not penetrate:
                    return hit
        here = nxt


def shot_aims(rules: DungeonWarRules, state: State, src: Square, index: int) -> list[Square]:
    """Squares a shot from `src` with card `index` may be aimed at (the first enemy in a
    line; any enemy in range for a range shot)."""
    if shot_spec(rules, index)[2] == "range":
        return [sq for sq in sorted(rules.occupants(state)) if aim_refusal(rules, state, src, index, sq) is None]
    return line_aims(rules, state, src, index)


def line_aims(rules: DungeonWarRules, state: State, src: Square, index: int) -> list[Square]:
    """The first enemy a straight-line shot meets in each direction."""
    seat = rules.occupants(state)[src][0]
    penetrate = shot_spec(rules, index)[5]
    aims = []
    for step in STEPS:
        hits = line(rules, state, src, step, seat, penetrate)
        if hits:
            aims.append(hits[0])
    return sorted(aims)


def aim_refusal(rules: DungeonWarRules, state: State, src: Square, index: int, aim: Square) -> tuple[str, str] | None:
    """Why the shot of card `index` from `src` may not be aimed at `aim`, or None: an enemy
    piece or a tentacle creature (D-DW-14), in range (a range shot) or the first met in a
    straight line."""
    cfg = rules.cfg
    if not targetable(rules, state, aim, rules.occupants(state)[src][0]):
        return "DW-SHOT", f"{square_text(*aim)} holds no enemy piece or tentacle creature to aim at (D-DW-14)"
    _, _, how, (low, high), *_ = shot_spec(rules, index)
    if how == "range":
        if not low <= manhattan(src, aim) <= high:
            return "DW-SHOT", f"{cfg.war_cards[index].id} reaches range {low}-{high} only (Manhattan distance)"
        return None
    if aim not in line_aims(rules, state, src, index):
        return "DW-SHOT", ("a straight-line shot goes along the row or column and stops at the first enemy, a "
                           "block, a wall or the outside world")
    return None


def shot_targets(rules: DungeonWarRules, state: State, src: Square, index: int, aim: Square) -> list[Square]:
    """Every square the shot aimed at `aim` hits, nearest first (area: the aim, then its
    neighbours holding a piece, friends included, D-DW-14)."""
    _, _, how, _, area, penetrate, _ = shot_spec(rules, index)
    seat = rules.occupants(state)[src][0]
    if how == "line":
        step = ((aim[0] > src[0]) - (aim[0] < src[0]), (aim[1] > src[1]) - (aim[1] < src[1]))
        return line(rules, state, src, step, seat, penetrate)
    found = [aim]
    if area:
        occ = rules.occupants(state)
        found += sorted({sq for sq in rules.dungeon(state).adjacent(aim) if sq != src and sq in occ
                         and (occ[sq][0] >= 0 or occ[sq][1] == "tentacle")})
    return found


def targets_in_play(rules: DungeonWarRules, state: State) -> list[Square]:
    """The squares the pending shot hits; a reflected shot (Mirror Shield) hits its shooter."""
    shot = Shooting.of(state)
    if shot.reflected:
        return [shot.src]
    return shot_targets(rules, state, shot.src, shot.card, shot.aim)


def shot_odds_in_play(rules: DungeonWarRules, state: State) -> dict[tuple[str | int, ...], Fraction]:
    """The joint outcome of the pending shot; a shot with a range roll (a breath) names the
    rolled range last, since it decides which blocks the breath destroys (D-DW-13)."""
    shot = Shooting.of(state)
    bp, attack, _, _, _, _, range_dice = shot_spec(rules, shot.card)
    occ = rules.occupants(state)
    targets = targets_in_play(rules, state)
    if shot.reflected:
        range_dice = 0  # the reflection comes straight back
    fighters = [combat.fighter(rules, state, sq, occ[sq][0], occ[sq][1], False, sq, support=False)
                for sq in targets]
    distances = [manhattan(shot.src, sq) for sq in targets]
    kings = [occ[sq][1] == "king" for sq in targets]
    if not range_dice:
        plain = shot_outcomes(bp, attack, fighters, distances, kings, 0, rules.cfg.die, rules.cfg.fatigue_gap)
        return {tuple[str | int, ...](combo): p for combo, p in plain.items()}
    joint: dict[tuple[str | int, ...], Fraction] = {}
    for reach, pr in dice(range_dice, rules.cfg.die):
        near = [i for i, d in enumerate(distances) if d <= reach]
        sub = shot_outcomes(bp, attack, [fighters[i] for i in near], [distances[i] for i in near],
                            [kings[i] for i in near], 0, rules.cfg.die, rules.cfg.fatigue_gap)
        for combo, p in sub.items():
            full = ["miss"] * len(targets)
            for i, status in zip(near, combo, strict=True):
                full[i] = status
            key: tuple[str | int, ...] = (*full, reach)
            joint[key] = joint.get(key, Fraction(0)) + pr * p
    return dict(sorted(joint.items()))


def breath_blocks(rules: DungeonWarRules, state: State, reach: int) -> list[Square]:
    """Blocks a 怪力貫通 shot destroys: those on its line within the rolled range (D-DW-13)."""
    shot = Shooting.of(state)
    (sr, sc), (ar, ac) = shot.src, shot.aim
    if shot_spec(rules, shot.card)[5] != "strong" or shot.reflected:
        return []
    step = ((ar > sr) - (ar < sr), (ac > sc) - (ac < sc))
    terrain, occ = rules.dungeon(state).terrain, rules.occupants(state)
    found = []
    here = (sr, sc)
    for _ in range(reach):
        here = (here[0] + step[0], here[1] + step[1])
        if here not in terrain:
            break
        if occ.get(here) == (-1, "block"):
            found.append(here)
    return found


def resolve_shot(rules: DungeonWarRules, state: State, statuses: tuple[str, ...],
                  reach: int | None = None) -> tuple[State, list[Event]]:
    shot = Shooting.of(state)
    (sr, sc), index = shot.src, shot.card
    broken = breath_blocks(rules, state, reach) if reach is not None else []
    occ = rules.occupants(state)
    owner, s_name = occ[(sr, sc)]
    targets = targets_in_play(rules, state)
    shooter = shot.seat if shot.reflected else owner  # who wins the spoils (D-DW-1)
    card = rules.cfg.war_cards[index]
    events = [Event("shot", f"{card.name_en} from {square_name((sr, sc))}: " + ", ".join(
        f"{square_name(sq)} {st}" for sq, st in zip(targets, statuses, strict=True)), {"result": list(statuses)})]
    attack = shot_spec(rules, index)[1]
    state = state._replace(phase="turn", pending=())
    fell: set[int] = set()
    revive: list[tuple[int, int]] = []
    for sq, status in zip(targets, statuses, strict=True):
        who, name = occ[sq]
        if status == "hit":
            if who != shooter:  # no spoils for your own pieces (digest §6)
                knight = s_name == "knight" and shooter == owner
                state = combat.spoils(rules, state, shooter, who, name, knight, events)
            state = combat.fall(rules, state._replace(board=core.board_with(state, (sq,))), who, name, attack,
                                revive, events)
            if name == "king":
                fell.add(who)
        elif status == "close" and name == "king":
            cap = rules.cfg.caps["fatigue"]
            state = state._replace(fatigue=set_at(state.fatigue, who, min(cap, state.fatigue[who] + 1)))
            events.append(Event("fatigue", f"seat {who + 1}'s King Dragon tires (D-DW-4)"))
    for sq in broken:  # 怪力貫通 destroys the blocks it passes (D-DW-13)
        state = core.to_pool(state._replace(board=core.board_with(state, (sq,))), -1, "block")
        events.append(Event("break", f"the breath destroys the block on {square_name(sq)}"))
    if "disposable" in card.categories:  # D-DW-27
        state = core.drop_card(state, owner, index, core.slot_of(state, owner, index))
        events.append(Event("disposable", f"{card.name_en} is used up and discarded"))
    if fell:  # D-DW-26: the whole shot is resolved first
        return core.game_over(state, fell, events)
    return combat.revive_queue(rules, core.settle(rules, state), revive), events


def targets_acid(rules: DungeonWarRules, state: State, start: int, events: list[Event]) -> State:
    """Acid comes first in a shot too (digest §6): each enemy target with acid (the water
    slime), in target order from `start`, melts one of the shooter's worn cards, never the
    card being fired (acid mode 3 + the target's number)."""
    shot = Shooting.of(state)
    index = shot.card
    occ = rules.occupants(state)
    shooter = occ[shot.src]
    for k, square in enumerate(targets_in_play(rules, state)):
        who, name = occ[square]
        if k < start or who < 0 or who == shooter[0] or not rules.kind(state, who, name).acid:
            continue
        state, waiting = combat.acid(rules, state, who, shooter, 3 + k, events, spare=index)
        if waiting:
            return waiting
    return state


def charm_spec(rules: DungeonWarRules, index: int) -> tuple[int, int, tuple[int, int], frozenset[str]]:
    """(dice, at least, range, kinds) of a brainwash card: `brainwash:2:7 reach:1-1 kinds:a/b`."""
    fx = rules.cfg.war_cards[index].effects
    dice, need = (int(v) for v in fx["brainwash"].split(":"))
    low, high = (int(v) for v in fx.get("reach", "1-1").split("-"))
    return dice, need, (low, high), frozenset(fx.get("kinds", "").split("/"))


def charm_targets(rules: DungeonWarRules, state: State, src: Square, index: int) -> list[Square]:
    return [(r, c) for r, c, _, _ in state.board if charm_refusal(rules, state, src, index, (r, c)) is None]


def charm_refusal(rules: DungeonWarRules, state: State, src: Square, index: int,
                  target: Square) -> tuple[str, str] | None:
    """Why card `index` used from `src` may not brainwash the piece on `target`, or None: an
    enemy piece of the card's kinds at its range."""
    _, _, (low, high), kinds = charm_spec(rules, index)
    occ = rules.occupants(state)
    who, name = occ.get(target, (-1, ""))
    if who < 0 or who == occ[src][0] or name not in kinds or not low <= manhattan(src, target) <= high:
        return "DW-EQUIP", (f"{rules.cfg.war_cards[index].id} brainwashes an enemy {' or '.join(sorted(kinds))} "
                            f"at range {low}-{high}")
    return None


def use_refusal(rules: DungeonWarRules, state: State, name: str, kind: PieceKind, index: int,
                effect: str) -> tuple[str, str] | None:
    """Why the seat's `name` may not use card `index` for `effect` (ap, brainwash, shot: a shot
    or a breath), or None: its kind has the card-use action, the card is worn in one of its
    play-sheet slots and has that effect."""
    cfg = rules.cfg
    use, slots = cfg.use.get(name, ""), cfg.wearers.get(name, ())
    fx = cfg.war_cards[index].effects
    has = ("shot" in fx or "breath" in fx) if effect == "shot" else effect in fx
    if not (use and use in kind.actions and has
            and any(i == index and slot in slots for slot, i in gear_of(state, state.seat))):
        return "DW-EQUIP", f"the {name}s' play-sheet slots hold no usable {cfg.war_cards[index].id}"
    return None


def charm_odds(rules: DungeonWarRules, state: State) -> Fraction:
    n, need, _, _ = charm_spec(rules, Charming.of(state).card)
    return sum((p for total, p in dice(n, rules.cfg.die) if total >= need), Fraction(0))


def resolve_charm(rules: DungeonWarRules, state: State, success: bool) -> tuple[State, list[Event]]:
    """Brainwashing (洗脳): the enemy piece goes back to its owner's unused pieces and one of
    the charmer's of the same kind takes its square, with the charmer's stats; with none
    unused, the charmer's first of that kind on the board (square order) is moved (D-DW-22)."""
    charming = Charming.of(state)
    index, (tr, tc), source = charming.card, charming.target, charming.source
    seat = state.seat
    card = rules.cfg.war_cards[index]
    events = [Event("charm", f"{card.name_en} on {square_name((tr, tc))}: " + ("it works" if success
                                                                            else "it fails"))]
    state = state._replace(phase="turn", pending=())
    if "disposable" in card.categories:
        state = core.drop_card(state, seat, index, core.slot_of(state, seat, index))
        events.append(Event("disposable", f"{card.name_en} is used up and discarded"))
    if success:
        who, name = rules.occupants(state)[(tr, tc)]
        i = ARMY.index(name)
        state = core.to_pool(state._replace(board=core.board_with(state, ((tr, tc),))), who, name)
        if not state.pools[seat][i]:
            taken = (source[0], source[1])
            state = core.to_pool(state._replace(board=core.board_with(state, (taken,)),
                                                 acted=state.acted - {taken}), seat, name)
            events.append(Event("reuse", f"no unused {name}: the one on {square_name(taken)} is taken "
                                "(D-DW-22)"))
        state = state._replace(board=core.board_with(state, add=((tr, tc, seat, name),)),
                               pools=set_at(state.pools, seat, set_at(state.pools[seat], i, state.pools[seat][i] - 1)),
                               acted=state.acted | {(tr, tc)})
        events.append(Event("brainwash", f"seat {who + 1}'s {name} on {square_name((tr, tc))} is replaced by "
                            f"seat {seat + 1}'s"))
        if not rules.may_stand(rules.kind(state, seat, name), rules.dungeon(state).terrain[(tr, tc)], False):
            state = core.to_pool(state._replace(board=core.board_with(state, ((tr, tc),))), seat, name)
            events.append(Event("drown", f"the {name} on {square_name((tr, tc))} drowns (D-DW-8)"))
    return core.settle(rules, state), events


# --- the moves ------------------------------------------------------------------------------
def card_uses(rules: DungeonWarRules, state: State, square: Square, name: str, kind: PieceKind) -> Iterator[Move]:
    """The worn cards a piece may use: an AP card, a brainwash card at each target (and the
    board piece D-DW-22 re-uses), a shot at each aim."""
    seat, cfg = state.seat, rules.cfg
    use = cfg.use.get(name, "")
    if not (use and use in kind.actions):
        return
    r, c = square
    for slot, i in gear_of(state, seat):
        if slot not in cfg.wearers[name]:
            continue
        if use_refusal(rules, state, name, kind, i, "ap") is None:
            yield UseCard(r, c, i)
        if use_refusal(rules, state, name, kind, i, "brainwash") is None:
            for tr, tc in charm_targets(rules, state, square, i):
                for source in core.sources(state, seat, rules.occupants(state)[(tr, tc)][1]):
                    yield Brainwash(r, c, i, tr, tc, *source)
        if use_refusal(rules, state, name, kind, i, "shot") is None:
            for tr, tc in shot_aims(rules, state, square, i):
                yield Shoot(r, c, i, tr, tc)


def shoot(rules: DungeonWarRules, state: State, move: Shoot, events: list[Event]) -> State:
    """A shot is declared: acid first (digest §6), then the Mirror Shield window, then the roll."""
    cfg, seat, src, index, aim = rules.cfg, state.seat, move.src, move.card, move.aim
    state = state._replace(ap=state.ap - cfg.action_cost, acted=state.acted | {src}, phase="shot",
                           pending=Shooting.make(*src, index, *aim))
    events.append(Event("shoot", f"{cfg.war_cards[index].name_en} is fired at {square_name(aim)}"))
    if "acid" in cfg.war_cards[index].effects:  # acid first (digest §6), on the aimed piece
        victim = rules.occupants(state)[aim]
        state, waiting = combat.acid(rules, state, seat, victim, 1, events)
        if waiting:
            return waiting
    return mirror_window(rules, state, seat, events)


def brainwash(rules: DungeonWarRules, state: State, move: Brainwash, events: list[Event]) -> State:
    """A targeted use (brainwashing): the charm roll comes next (phase 'charm')."""
    src, index = move.src, move.card
    state = state._replace(ap=state.ap - rules.cfg.action_cost, acted=state.acted | {src}, phase="charm",
                           pending=Charming.make(*src, index, *(int(v) for v in move[4:])))
    events.append(Event("use", f"{rules.cfg.war_cards[index].name_en} on {square_name(move.target)}"))
    return state


def shot(rules: DungeonWarRules, state: State, move: Shot, events: list[Event]) -> State:
    return core.note(*resolve_shot(rules, state, move.statuses, move.reach), events)


def charm(rules: DungeonWarRules, state: State, move: Charm, events: list[Event]) -> State:
    return core.note(*resolve_charm(rules, state, bool(move[1])), events)


def mirrors(rules: DungeonWarRules, state: State, seat: int) -> list[int]:
    """Seat's face-down Mirror Shield-like traps that may answer the declared shot: its card
    has the category the trap names (`mirror:magic`), it is a straight-line shot, and it
    would hit one of seat's pieces (digest §7 発動条件あり)."""
    shot = Shooting.of(state)
    card = rules.cfg.war_cards[shot.card]
    if shot_spec(rules, shot.card)[2] != "line" or "breath" in card.effects:
        return []
    occ = rules.occupants(state)
    if not any(occ[sq][0] == seat for sq in shot_targets(rules, state, shot.src, shot.card, shot.aim)):
        return []
    return sorted({i for slot, i in gear_of(state, seat) if slot == "trap"
                   and rules.cfg.war_cards[i].effects.get("mirror") in card.categories})


def mirror_window(rules: DungeonWarRules, state: State, after: int, events: list[Event]) -> State:
    """Ask each seat after `after` (seat order from the shooter) that could reflect the shot."""
    n = state.players
    for k in range((after - state.seat) % n + 1, n):
        seat = (state.seat + k) % n
        if mirrors(rules, state, seat):
            return state._replace(phase="mirror", pending=Shooting.make(*Shooting.of(state).shot, seat))
    return targets_acid(rules, state._replace(phase="shot", pending=Shooting.of(state).shot), 0, events)


def mirror_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    return [*(Trap(i) for i in mirrors(rules, state, Shooting.of(state).seat)), Pass()]


def apply_acid(rules: DungeonWarRules, state: State, index: int, events: list[Event]) -> State:
    """The acid's owner chose the card it melts; the melee or the shot goes on."""
    p = AcidChoice.of(state)
    mode, chooser = p.mode, p.chooser
    victim = rules.occupants(state)[combat.acid_victim(rules, state)]
    card = next(c for c in combat.acid_choices(rules, state) if c[1] == index)
    state = combat.melt(rules, state, victim[0], card, events)
    state = state._replace(pending=(Melee if mode in (0, 2) else Shooting).make(*p.numbers))
    if mode >= 3:
        return targets_acid(rules, state._replace(phase="shot"), mode - 2, events)
    if mode == 1:
        return mirror_window(rules, state._replace(phase="shot"), chooser, events)
    return combat.start_melee(rules, state, mode // 2 + 1, events)


def acid_move(rules: DungeonWarRules, state: State, move: Acid, events: list[Event]) -> State:
    return apply_acid(rules, state, int(move[1]), events)


def reflect(rules: DungeonWarRules, state: State, move: Trap, events: list[Event]) -> State:
    """A Mirror Shield: the declared shot comes back at its shooter."""
    shot = Shooting.of(state)
    mirror_seat, index = shot.seat, move.card
    state = core.drop_card(state, mirror_seat, index, "trap")
    events.append(Event("mirror", f"seat {mirror_seat + 1} calls {rules.cfg.war_cards[index].name_en}: the shot "
                        "is reflected at its shooter"))
    return state._replace(phase="shot", pending=Shooting.make(*shot.shot, mirror_seat))


def pass_mirror(rules: DungeonWarRules, state: State, move: Pass, events: list[Event]) -> State:
    return mirror_window(rules, state, Shooting.of(state).seat, events)
