"""Movement: entering squares, reach and declared paths, the knight's roll, cross warp,
ambush windows on the way, and arriving (melee, neutral pieces)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pnpgen.engine.protocol import Event

from . import cards, combat, core
from .config import PieceKind
from .core import flat, pairs, set_at, square_name
from .dungeon import Square
from .moves import Ambush, Dash, Face, Fight, Go, Move, Pass, Roll, Walk, Warp
from .notation import square_text
from .odds import Fighter, melee
from .pending import AmbushAsk, Ambushed, Going, Melee, Rolling
from .state import State

if TYPE_CHECKING:
    from .model import DungeonWarRules


Entry = tuple[bool, bool, bool, str]  # may stop, may pass on, forced stop, why it may not stop ('' if it may)
FREE: Entry = (True, True, False, "")
FIGHT: Entry = (True, False, True, "")

# why a piece may not stop on a square (entry()'s codes), in words: rule, sentence (filled by explain)
REFUSALS: dict[str, str] = {  # why a piece may not stop on a square: the rule it breaks
    "terrain": "DW-TERRAIN", "never-stops": "DW-TERRAIN", "friend-stop": "DW-STOP", "friend": "DW-STOP",
    "kings": "DW-MELEE", "unbreakable": "DW-BREAK",
}


def refusal_words(why: str, name: str, terrain: Mapping[str, object], square: str, strength: str, there: str) -> str:
    """The referee's words for a REFUSALS code."""
    match why:
        case "terrain":
            return f"a {name} cannot enter {terrain['name']} (no {terrain.get('needs')} movement)"
        case "never-stops":
            return f"the King Dragon never stops on {terrain['name']}"
        case "friend-stop":
            return f"{square} holds a friendly Stop! piece: it can be neither passed nor stopped on (D-DW-7)"
        case "friend":
            return f"{square} holds a friendly piece: pass through, never stop"
        case "kings":
            return "King Dragons never fight each other"
        case _:  # "unbreakable"
            return f"a {strength} piece cannot break a {there}"


# a square that may not be entered: neither stop nor pass, and why
REFUSED: dict[str, Entry] = {code: (False, False, False, code) for code in REFUSALS}
PASS: dict[str, Entry] = {code: (False, True, False, code) for code in ("never-stops", "friend")}


def entry(rules: DungeonWarRules, state: State, occ: dict[Square, tuple[int, str]], target: Square, kind: PieceKind,
          owner: int, king: bool) -> Entry:
    """Entering `target`: (may stop, may pass on, forced stop, the REFUSALS code of why it may
    not stop, '' if it may); a square it may not enter neither stops nor passes. A King
    Dragon's ban on stopping comes first, then the piece there: the order of the referee's reasons."""
    code = rules.dungeon(state).terrain[target]
    need = rules.cfg.terrain[code].get("needs")
    if need and need not in kind.terrain:
        return REFUSED["terrain"]  # D-DW-8
    stand = not (king and code in rules.cfg.king_never_stops)
    there = occ.get(target)
    if there is None:
        return FREE if stand else PASS["never-stops"]
    who, name = there
    if who == owner:  # D-DW-7
        if rules.kind(state, who, name).stop:
            return REFUSED["friend-stop" if stand else "never-stops"]
        return PASS["friend" if stand else "never-stops"]
    if who >= 0:  # an enemy
        if rules.kind(state, who, name).stop:
            if not stand:
                return REFUSED["never-stops"]
            return REFUSED["kings"] if king and name == "king" else FIGHT
        return FREE if stand else PASS["never-stops"]
    if name in ("block", "fence"):
        if not stand:
            return REFUSED["never-stops"]
        return FIGHT if name in rules.cfg.breaks[kind.strength] else REFUSED["unbreakable"]
    return FREE if stand else PASS["never-stops"]  # tentacle, chest, coin


def destination_refusal(rules: DungeonWarRules, state: State, dst: Square, name: str, rule: str,
                        src: Square | None = None, limit: int = 0) -> tuple[str, str]:
    """Why a move of the seat's `name` does not end on `dst` (it is not among the generated
    ones): entry()'s reason for not stopping there, else no path reaches it."""
    terrain = rules.dungeon(state).terrain
    if dst not in terrain:
        return rule, f"{square_text(*dst)} is not a dungeon square"
    kind = rules.kind(state, state.seat, name)
    if dst != src:
        occ = rules.occupants(state)
        why = entry(rules, state, occ, dst, kind, state.seat, name == "king")[3]
        if why:
            return REFUSALS[why], refusal_words(why, name, rules.cfg.terrain[terrain[dst]], square_text(*dst),
                                                kind.strength, occ.get(dst, (0, ""))[1])
    return rule, f"no path of at most {limit} steps reaches {square_text(*dst)} (walls, terrain, Stop! squares)"


def reach(rules: DungeonWarRules, state: State, start: Square, kind: PieceKind, owner: int, limit: int) -> set[Square]:
    """Squares where a move of at most `limit` steps from `start` may end (0 steps included)."""
    return set(reach_paths(rules, state, start, kind, owner, limit))


def step_targets(rules: DungeonWarRules, state: State, square: Square, cracked: bool) -> Iterator[tuple[Square, bool]]:
    """Squares one step from `square` may enter: (square, through a broken cracked wall);
    the outside world leads to every stairs square (D-DW-11), warp partners count (D-DW-12)."""
    dun = rules.dungeon(state)
    for target, wall in dun.steps(square):
        if wall and not (wall == "cracked_wall" and cracked):
            continue
        for t in (dun.stairs if target is None else (target,)):
            yield t, bool(wall)


def reach_paths(rules: DungeonWarRules, state: State, start: Square, kind: PieceKind, owner: int,
                limit: int) -> dict[Square, tuple[Square, ...]]:
    """Each square where a move of at most `limit` steps may end, with the first shortest
    path to it (squares entered, the end included; `()` for a 0-square move)."""
    if limit < 0:
        return {}
    occ = rules.occupants(state)
    king = occ.get(start, (owner, ""))[1] == "king"
    ends: dict[Square, tuple[Square, ...]] = {start: ()}
    seen = {start}
    layer: list[tuple[Square, tuple[Square, ...]]] = [(start, ())]
    cracked = "cracked_wall" in rules.cfg.breaks[kind.strength]
    entries: dict[Square, Entry] = {}  # entering a square: the same from any side
    for _ in range(limit):
        nxt_layer = []
        for square, path in layer:
            for t, wall in step_targets(rules, state, square, cracked):
                if t == start:
                    continue
                if t in entries:
                    found = entries[t]
                else:
                    found = entries[t] = entry(rules, state, occ, t, kind, owner, king)
                stop, go_on, forced, _ = found  # a square it may not enter neither stops nor passes
                if stop and t not in ends:
                    ends[t] = (*path, t)
                if go_on and not forced and not wall and t not in seen:
                    seen.add(t)
                    nxt_layer.append((t, (*path, t)))
        layer = nxt_layer
    return ends


def path_refusal(rules: DungeonWarRules, state: State, start: Square, path: tuple[Square, ...], kind: PieceKind,
                 owner: int, limit: int) -> str | None:
    """Why a declared path (digest §5 「進路を示して進みます」) is refused, or None: 'long' (more than
    `limit` steps) or 'step' (each must be a legal step, passing only squares it may pass and
    ending where it may stop; no square twice)."""
    if len(path) > limit:
        return "long"
    if not path or len(set(path)) != len(path) or start in path:
        return "step"
    occ = rules.occupants(state)
    king = occ.get(start, (owner, ""))[1] == "king"
    cracked = "cracked_wall" in rules.cfg.breaks[kind.strength]
    here = start
    for i, t in enumerate(path):
        walls = [wall for target, wall in step_targets(rules, state, here, cracked) if target == t]
        if not walls:
            return "step"
        stop, go_on, forced, _ = entry(rules, state, occ, t, kind, owner, king)
        if i == len(path) - 1:
            return None if stop else "step"
        if not go_on or forced or min(walls):
            return "step"
        here = t
    return "step"


def warps(rules: DungeonWarRules, state: State, start: Square, kind: PieceKind, owner: int) -> list[Square]:
    """Cross warp (D-DW-17): any square in the same row or column the magician may stop on."""
    occ = rules.occupants(state)
    return [t for t in sorted(rules.dungeon(state).terrain) if t != start and in_line(start, t)
            and entry(rules, state, occ, t, kind, owner, False)[0]]


def in_line(a: Square, b: Square) -> bool:
    """Cross warp goes along the row or the column."""
    return a[0] == b[0] or a[1] == b[1]


def travel(rules: DungeonWarRules, state: State, src: Square, path: tuple[Square, ...], dash: bool, events: list[Event],
            asked: int | None = None) -> State:
    """Move the piece on `src` along `path` (the squares it enters, its end last): an ambush
    window opens on the first empty square entered that an enemy's trap names (digest §7;
    D-DW-21), before the piece goes on."""
    occ = rules.occupants(state)
    for i, sq in enumerate(path):
        if sq in occ or state.phase != "turn":
            continue
        after = asked if i == 0 and asked is not None else state.seat
        seat = cards.next_ambusher(rules, state, occ[src][0], sq, after)
        if seat is not None:  # an ambush window before the piece goes on
            return state._replace(phase="ambush", pending=AmbushAsk.make(*src, *sq, int(dash), seat,
                                                                         *flat(path[i + 1:])))
    return move_to(rules, state, src, path[-1] if path else src, dash, events)


def move_to(rules: DungeonWarRules, state: State, src: Square, dst: Square, dash: bool, events: list[Event]) -> State:
    occ = rules.occupants(state)
    who, name = occ[src]
    events.append(Event("move", f"{name} {square_name(src)}-{square_name(dst)}"))
    there = occ.get(dst)
    acted = (state.acted - {src}) | {dst}
    if there is not None and dst != src:
        t_who, t_name = there
        if t_who >= 0 or t_name == "tentacle":  # melee (digest §6)
            state = state._replace(pending=Melee.make(*src, *dst, int(dash)))
            return combat.start_melee(rules, state, 0, events)
        state = core.to_pool(state, -1, t_name)
        if t_name in ("block", "fence"):
            events.append(Event("break", f"the {t_name} is broken"))
        elif t_name == "chest":
            state = core.owe(state, who, int(rules.cfg.neutral["chest"].get("cards", 0)))
            events.append(Event("chest", "a treasure chest: war cards"))
        elif t_name == "coin":
            state = core.gain_gold(rules, state, who, int(rules.cfg.neutral["coin"].get("gold", 0)))
            events.append(Event("coin", "a gold coin"))
    state = state._replace(board=core.board_with(state, (src, dst), ((dst[0], dst[1], who, name),)), acted=acted)
    state = core.arrive(rules, state, dst, who, events)
    return core.after_action(rules, state, name)


def path_of(rules: DungeonWarRules, state: State, src: Square, rest: tuple[Any, ...], name: str,
            limit: int) -> tuple[Square, ...]:
    """The path of a move written `(dr, dc)` (the first shortest path) or `(dr, dc, r1, c1, ...)`."""
    if len(rest) > 2:
        return tuple(pairs(rest[2:]))
    dst = (int(rest[0]), int(rest[1]))
    kind = rules.kind(state, state.seat, name)
    return reach_paths(rules, state, src, kind, state.seat, limit)[dst]


def declared_path_refusal(rules: DungeonWarRules, state: State, move: Move) -> str | None:
    """Why a move with a declared path is refused, or None: 'base' (the move without its path
    is not legal), else path_refusal's 'long' or 'step' (the path must end on the destination)."""
    if move[0] == "go" and state.phase == "go" and len(move) > 3:
        going = Going.of(state)
        base: tuple[Any, ...] = move[:3]
        src, name, limit, path = going.src, "knight", going.steps, tuple(pairs(move[3:]))
    elif move[0] == "move" and state.phase == "turn" and len(move) > 5:
        base, src = move[:5], (int(move[1]), int(move[2]))
        piece = rules.occupants(state).get(src)
        if piece is None:
            return "base"
        name, path = piece[1], tuple(pairs(move[5:]))
        limit = rules.kind(state, state.seat, name).move.plus
    else:
        return "base"
    if base not in rules.legal_moves(state):
        return "base"
    if len(path) > limit:
        return "long"
    if path[-1] != (int(base[-2]), int(base[-1])):
        return "step"
    return path_refusal(rules, state, src, path, rules.kind(state, state.seat, name), state.seat, limit)


def path_words(code: str, steps: int, limit: int) -> str:
    if code == "long":
        return f"the declared path has {steps} steps; this move has at most {limit}"
    return ("the declared path must go one legal step at a time (no wall, no square twice), pass only squares "
            "it may pass and end where it may stop")


def walk_refusal(kind: PieceKind, head: str) -> tuple[str, str] | None:
    """A piece whose move is rolled (the knight) rolls first ('roll'), then goes; the others move."""
    if (head == "move") == bool(kind.move.dice):
        return "DW-MOVE", "the knight rolls first ('roll'), then chooses where to go"
    return None


def warp_refusal(rules: DungeonWarRules, state: State, kind: PieceKind, src: Square,
                 dst: Square | None = None) -> tuple[str, str] | None:
    """Cross warp (D-DW-17) costs gold and goes along the row or the column (`dst`, when given)."""
    gold = state.gold[state.seat]
    if gold < kind.warp_cost:
        return "DW-GOLD", f"cross warp costs {kind.warp_cost}G; seat {state.seat + 1} has {gold}G"
    if dst is not None and not in_line(src, dst):
        return "DW-WARP", "cross warp goes along the row or the column only"
    return None


# --- the moves ------------------------------------------------------------------------------
def walks(rules: DungeonWarRules, state: State, square: Square, kind: PieceKind) -> Iterator[Move]:
    """A piece's move (to each square it may reach; the knight rolls first) and dash."""
    r, c = square
    if "move" in kind.actions:
        if walk_refusal(kind, "roll") is None:
            yield Roll(r, c)
        else:
            for dr, dc in sorted(reach(rules, state, square, kind, state.seat, kind.move.plus)):
                yield Walk(r, c, dr, dc)
    if "dash" in kind.actions and kind.dash_dice:
        yield Dash(r, c)


def warps_from(rules: DungeonWarRules, state: State, square: Square, kind: PieceKind) -> Iterator[Move]:
    if "warp" in kind.actions and warp_refusal(rules, state, kind, square) is None:
        for dr, dc in warps(rules, state, square, kind, state.seat):
            yield Warp(square[0], square[1], dr, dc)


def go_moves(rules: DungeonWarRules, state: State) -> list[Move]:
    """Phase 'go': where the rolled knight may end."""
    going = Going.of(state)
    kind = rules.kind(state, state.seat, "knight")
    return [Go(r, c) for r, c in sorted(reach(rules, state, going.src, kind, state.seat, going.steps))]


def walk(rules: DungeonWarRules, state: State, move: Walk, events: list[Event]) -> State:
    src = move.src
    name = rules.occupants(state)[src][1]
    cost = rules.cfg.actions_a["move"] if name == "king" else rules.cfg.action_cost
    state = state._replace(ap=state.ap - cost, acted=state.acted | {src})
    limit = rules.kind(state, state.seat, name).move.plus
    return travel(rules, state, src, path_of(rules, state, src, move[3:], name, limit), False, events)


def warp(rules: DungeonWarRules, state: State, move: Warp, events: list[Event]) -> State:
    src, dst = move.src, move.dst
    name = rules.occupants(state)[src][1]
    state = state._replace(ap=state.ap - rules.cfg.action_cost, acted=state.acted | {src})
    state = core.gain_gold(rules, state, state.seat, -rules.kind(state, state.seat, name).warp_cost)
    events.append(Event("warp", f"cross warp to {square_name(dst)}"))
    return travel(rules, state, src, (dst,), False, events)


def roll(rules: DungeonWarRules, state: State, move: Roll | Dash, events: list[Event]) -> State:
    """The knight's move or dash: the die is rolled (phase 'roll', a chance node)."""
    r, c = move.square
    return state._replace(ap=state.ap - rules.cfg.action_cost, acted=state.acted | {(r, c)}, phase="roll",
                          pending=Rolling.make(r, c, int(type(move) is Dash)))


def face(rules: DungeonWarRules, state: State, move: Face, events: list[Event]) -> State:
    events.append(Event("roll", f"the knight may move {move[1]}"))
    return state._replace(phase="go", pending=Going.make(*Rolling.of(state), int(move[1])))


def go(rules: DungeonWarRules, state: State, move: Go, events: list[Event]) -> State:
    going = Going.of(state)
    path = path_of(rules, state, going.src, move[1:], "knight", going.steps)
    state = state._replace(phase="turn", pending=())
    return travel(rules, state, going.src, path, going.dash, events)


def ambush_odds(rules: DungeonWarRules, state: State) -> Any:
    p = Ambushed.of(state)
    who, name = rules.occupants(state)[p.dst]
    mover = combat.fighter(rules, state, p.dst, who, name, p.dash, p.dst)
    return melee(mover, Fighter(rules.cfg.war_cards[p.card].bp), rules.cfg.die, rules.cfg.support,
                 rules.cfg.fatigue_gap)


def spring_trap(rules: DungeonWarRules, state: State, index: int, events: list[Event]) -> State:
    """An ambush (digest §7, D-DW-20): the mover arrives, then fights the trap's BP as the
    attacker; the trap is revealed and discarded; no spoils either way."""
    asked = AmbushAsk.of(state)
    (sr, sc), (dr, dc), seat = asked.src, asked.dst, asked.seat
    who, name = rules.occupants(state)[(sr, sc)]
    state = core.drop_card(state, seat, index, "trap")
    state = state._replace(board=core.board_with(state, ((sr, sc),), ((dr, dc, who, name),)),
                           acted=(state.acted - {(sr, sc)}) | {(dr, dc)})
    events.append(Event("ambush", f"seat {seat + 1} springs {rules.cfg.war_cards[index].name_en} on "
                        f"{square_name((dr, dc))}"))
    state = state._replace(phase="ambushed", pending=Ambushed.make(*asked[:5], index, *asked.rest))
    odds = ambush_odds(rules, state)
    if odds.by_flags:
        events.append(Event("flags", f"victory flags decide the ambush: the {odds.by_flags} wins"))
        done, more = resolve_ambush(rules, state, "win" if odds.by_flags == "attacker" else "loss")
        events.extend(more)
        return done
    return state


def resolve_ambush(rules: DungeonWarRules, state: State, result: str) -> tuple[State, list[Event]]:
    p = Ambushed.of(state)
    (dr, dc), rest = p.dst, p.rest
    who, name = rules.occupants(state)[(dr, dc)]
    element = frozenset({rules.cfg.war_cards[p.card].element} - {""})
    events = [Event("fight", f"ambush at {square_name((dr, dc))}: {result}", {"result": result})]
    state = state._replace(phase="turn", pending=())
    if result not in ("win", "close-win"):
        revive: list[tuple[int, int]] = []
        state = combat.fall(rules, state._replace(board=core.board_with(state, ((dr, dc),)),
                                                  acted=state.acted - {(dr, dc)}), who, name, element, revive, events)
        events.append(Event("ambushed", f"the {name} falls to the ambush (no spoils)"))
        if name == "king":
            return core.game_over(state, {who}, events)
        return combat.revive_queue(rules, core.settle(rules, state), revive), events
    if name == "king" and result == "close-win":
        cap = rules.cfg.caps["fatigue"]
        state = state._replace(fatigue=set_at(state.fatigue, who, min(cap, state.fatigue[who] + 1)))
        events.append(Event("fatigue", f"seat {who + 1}'s King Dragon tires (D-DW-4)"))
    kind = rules.kind(state, who, name)
    if rest and not rules.may_stand(kind, rules.dungeon(state).terrain[(dr, dc)], name == "king"):
        # 緊急移動 (D-DW-20): it may not stop here, so it finishes its declared path
        events.append(Event("emergency", f"the {name} may not stop on {square_name((dr, dc))}: it goes on "
                            "along its declared path"))
        return travel(rules, state, (dr, dc), tuple(pairs(rest)), p.dash, events), events
    state = core.arrive(rules, state, (dr, dc), who, events)
    return core.after_action(rules, state, name), events


def spring(rules: DungeonWarRules, state: State, move: Ambush, events: list[Event]) -> State:
    return spring_trap(rules, state, int(move[1]), events)


def fight(rules: DungeonWarRules, state: State, move: Fight, events: list[Event]) -> State:
    """Chance: a melee's result (or an ambush's, in phase 'ambushed')."""
    if state.phase == "ambushed":
        return core.note(*resolve_ambush(rules, state, str(move[1])), events)
    return core.note(*combat.resolve_fight(rules, state, str(move[1])), events)


def pass_ambush(rules: DungeonWarRules, state: State, move: Pass, events: list[Event]) -> State:
    """No ambush: the move goes on (the next seat that could spring one is asked first)."""
    p = AmbushAsk.of(state)
    state = state._replace(phase="turn", pending=())
    return travel(rules, state, p.src, (p.dst, *pairs(p.rest)), p.dash, events, p.seat)
