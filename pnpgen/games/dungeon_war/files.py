"""Dungeon War state files: the State as readable data (1-based seats, squares like `k5`,
cards by id) and back, and the invariants every state keeps (pieces and cards conserved,
caps, one piece per square)."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from pnpgen.content.yamlpos import where
from pnpgen.errors import ImpossibleState

from . import cards, combat, shooting
from .config import ARMY, NEUTRAL
from .notation import COLUMNS, square_text
from .state import PHASES, State

if TYPE_CHECKING:
    from .model import DungeonWarRules

KEYS = ("players", "phase", "seat", "round", "ap", "king_step", "summoned", "acted", "cards", "board", "pools",
        "neutral_pool", "gold", "fatigue", "element", "hands", "kings_beaten", "war_deck", "war_discard",
        "dungeon_deck", "dungeon_discard", "draws", "pending", "fallen", "equip")
OPTIONAL = {"equip"}  # older state files have no equipment: empty play sheets


def to_data(rules: DungeonWarRules, s: State) -> dict[str, Any]:
    cfg = rules.cfg

    def counts(values: tuple[int, ...], names: list[str]) -> dict[str, int]:
        return {name: n for name, n in zip(names, values, strict=True) if n}

    layouts = [layout.id for layout in cfg.layouts]
    war = [card.id for card in cfg.war_cards]
    return {
        "players": s.players, "phase": s.phase, "seat": s.seat + 1, "round": s.round, "ap": s.ap,
        "king_step": s.king_step, "summoned": sorted(s.summoned), "acted": [square_text(*q) for q in sorted(s.acted)],
        "cards": [f"{r + 1}.{c + 1} {'stairs' if i < 0 else layouts[i]}{'~' if f else ''}" for r, c, i, f in s.cards],
        "board": {square_text(r, c): (f"{o + 1}{cfg.pieces[k].code}" if o >= 0 else k) for r, c, o, k in s.board},
        "pools": [list(p) for p in s.pools], "neutral_pool": list(s.neutral_pool), "gold": list(s.gold),
        "fatigue": list(s.fatigue), "element": [cfg.cycle[e] for e in s.element],
        "hands": [[war[i] for i in hand] for hand in s.hands], "kings_beaten": list(s.kings_beaten),
        "war_deck": counts(s.war_deck, war), "war_discard": counts(s.war_discard, war),
        "dungeon_deck": counts(s.dungeon_deck, layouts), "dungeon_discard": counts(s.dungeon_discard, layouts),
        "draws": [[seat + 1, n] for seat, n in s.draws], "pending": list(s.pending),
        "fallen": [seat + 1 for seat in sorted(s.fallen)],
        "equip": [[f"{slot} {war[i]}" for slot, i in gear] for gear in (s.equip or ((),) * s.players)],
    }


def _square(text: Any) -> tuple[int, int]:
    m = re.fullmatch(r"([a-z])(\d{1,2})", str(text))
    if not m:
        raise ValueError(f"'{text}' is not a square like k5")
    return int(m.group(2)) - 1, COLUMNS.index(m.group(1))


def _ints(value: Any, n: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or any(type(v) is not int for v in value) or (n is not None and len(value) != n):
        raise ValueError(f"expected a list of {n if n is not None else ''} whole numbers".replace("  ", " "))
    return tuple(value)


def _counts(value: Any, names: list[str]) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise ValueError("expected a mapping of card id to count")
    for key, n in value.items():
        if key not in names:
            raise ValueError(f"no card '{key}'")
        if type(n) is not int or n < 0:
            raise ValueError(f"'{key}': a count is a whole number from 0")
    return tuple(int(value.get(name, 0)) for name in names)


def from_data(rules: DungeonWarRules, data: Any) -> State:
    if not isinstance(data, dict):
        raise ImpossibleState("a state file is a mapping")
    cfg = rules.cfg
    layouts = [layout.id for layout in cfg.layouts]
    war = [card.id for card in cfg.war_cards]
    codes = {cfg.pieces[name].code: name for name in ARMY}
    values: dict[str, Any] = {}
    for key in KEYS:
        if key not in data and key not in OPTIONAL:
            raise ImpossibleState(f"{key}: missing", **where(data))
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise ImpossibleState(f"{unknown[0]}: not a key of a Dungeon War state", **where(data, unknown[0]))
    key = "players"
    try:
        players = data["players"]
        if type(players) is not int or not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"{rules.min_players} to {rules.max_players} players")
        values["players"] = players
        for key in ("seat", "round", "ap", "king_step"):
            if type(data[key]) is not int or not -1 <= data[key] <= 10_000:
                raise ValueError("a whole number")
            values[key] = data[key] - (key == "seat")
        key = "phase"
        if data["phase"] not in PHASES:
            raise ValueError(f"one of {', '.join(PHASES)}")
        values["phase"] = data["phase"]
        key = "summoned"
        if not isinstance(data[key], list) or any(v not in ARMY for v in data[key]):
            raise ValueError(f"a list of {', '.join(ARMY)}")
        values[key] = frozenset(data[key])
        key = "acted"
        if not isinstance(data[key], list):
            raise ValueError("a list of squares")
        values[key] = frozenset(_square(v) for v in data[key])
        key = "cards"
        cards = []
        if not isinstance(data[key], list):
            raise ValueError("a list like '3.4 stairs'")
        for text in data[key]:
            m = re.fullmatch(r"(\d)\.(\d) ([a-z0-9_-]+)(~?)", str(text))
            if not m or (m.group(3) != "stairs" and m.group(3) not in layouts):
                raise ValueError(f"'{text}' is not a card like '3.4 stairs' or '2.4 hall~'")
            index = -1 if m.group(3) == "stairs" else layouts.index(m.group(3))
            cards.append((int(m.group(1)) - 1, int(m.group(2)) - 1, index, bool(m.group(4))))
        values[key] = tuple(cards)
        key = "board"
        if not isinstance(data[key], dict):
            raise ValueError("a mapping of square to piece, like k5: 1K or c3: chest")
        board = []
        for sq, piece in data[key].items():
            r, c = _square(sq)
            m = re.fullmatch(r"(\d)([A-Z])", str(piece))
            if m and m.group(2) in codes:
                board.append((r, c, int(m.group(1)) - 1, codes[m.group(2)]))
            elif piece in NEUTRAL:
                board.append((r, c, -1, piece))
            else:
                raise ValueError(f"'{piece}' is neither a seat and piece code (1K) nor a neutral piece")
        values[key] = tuple(sorted(board))
        key = "pools"
        if not isinstance(data[key], list) or len(data[key]) != players:
            raise ValueError("one list of unused army pieces per seat")
        values[key] = tuple(_ints(p, len(ARMY)) for p in data[key])
        for key, n in (("neutral_pool", len(NEUTRAL)), ("gold", players), ("fatigue", players),
                       ("kings_beaten", players)):
            values[key] = _ints(data[key], n)
        key = "element"
        if not isinstance(data[key], list) or len(data[key]) != players or any(e not in cfg.cycle for e in data[key]):
            raise ValueError(f"one of {', '.join(cfg.cycle)} per seat")
        values[key] = tuple(cfg.cycle.index(e) for e in data[key])
        key = "hands"
        if not isinstance(data[key], list) or len(data[key]) != players:
            raise ValueError("one list of war cards per seat")
        hands = []
        for hand in data[key]:
            if not isinstance(hand, list) or any(card not in war for card in hand):
                raise ValueError("a hand lists war-card ids")
            hands.append(tuple(sorted(war.index(card) for card in hand)))
        values[key] = tuple(hands)
        for key, names in (("war_deck", war), ("war_discard", war), ("dungeon_deck", layouts),
                           ("dungeon_discard", layouts)):
            values[key] = _counts(data[key], names)
        key = "draws"
        if not isinstance(data[key], list):
            raise ValueError("a list of [seat, cards]")
        values[key] = tuple((p[0] - 1, p[1]) for p in (_ints(d, 2) for d in data[key]))
        key = "pending"
        values[key] = _ints(data[key])
        key = "fallen"
        values[key] = frozenset(s - 1 for s in _ints(data[key]))
        key = "equip"
        equip = data.get(key, [[]] * players)
        if not isinstance(equip, list) or len(equip) != players or any(not isinstance(g, list) for g in equip):
            raise ValueError("one list of placed war cards per seat, like 'sword long-sword'")
        sheets = []
        for gear in equip:
            placed = []
            for text in gear:
                m = re.fullmatch(r"([a-z]+) ([a-z0-9_-]+)", str(text))
                if not m or m.group(1) not in cfg.slots or m.group(2) not in war:
                    raise ValueError(f"'{text}' is not a slot and a war card, like 'sword long-sword'")
                placed.append((m.group(1), war.index(m.group(2))))
            sheets.append(tuple(sorted(placed)))
        values[key] = tuple(sheets)
    except (ValueError, TypeError, KeyError, IndexError) as err:
        raise ImpossibleState(f"{key}: {err}", **where(data, key, value=True)) from None
    return State(**values)


def check(rules: DungeonWarRules, s: State) -> list[str]:
    """Broken invariants, each 'key: problem'."""
    cfg = rules.cfg
    problems: list[str] = []
    n = s.players
    if not 0 <= s.seat < n:
        return [f"seat: must be 1 to {n}"]
    if any(not 0 <= seat < n for seat, _ in s.draws) or any(k < 1 for _, k in s.draws):
        return ["draws: each is [seat, cards] with a seat of the game and at least 1 card"]
    if any(not 0 <= seat < n for seat in s.fallen):
        return ["fallen: seats of the game only"]
    spots = Counter((r, c) for r, c, _, _ in s.cards)
    if any(v > 1 for v in spots.values()) or any(not (0 <= r < cfg.rows and 0 <= c < cfg.columns) for r, c in spots):
        return ["cards: one card per spot, inside the grid"]
    if sum(1 for *_, i, _ in s.cards if i < 0) != 1 or (cfg.stairs[0], cfg.stairs[1], -1, False) not in s.cards:
        return ["cards: the stairs card lies at its place, unflipped"]
    terrain = rules.dungeon(s).terrain
    squares = Counter((r, c) for r, c, _, _ in s.board)
    for (r, c), k in squares.items():
        if k > 1:
            problems.append(f"board: two pieces on {square_text(r, c)}")
        elif (r, c) not in terrain:
            problems.append(f"board: {square_text(r, c)} is not on a dungeon card")
    if any(not -1 <= o < n for _, _, o, _ in s.board):
        problems.append("board: a piece of a seat not in the game")
    for seat in range(n):
        for i, name in enumerate(ARMY):
            on = sum(1 for *_, o, k in s.board if o == seat and k == name)
            if s.pools[seat][i] < 0 or on + s.pools[seat][i] != cfg.pieces[name].count:
                problems.append(f"pools: seat {seat + 1} has {on} {name} on the board and {s.pools[seat][i]} unused; "
                                f"a colour has {cfg.pieces[name].count}")
    for i, name in enumerate(NEUTRAL):
        on = sum(1 for *_, o, k in s.board if o < 0 and k == name)
        if s.neutral_pool[i] < 0 or on + s.neutral_pool[i] != cfg.neutral[name]["count"]:
            problems.append(f"neutral_pool: {on} {name} on the board and {s.neutral_pool[i]} unused; "
                            f"there are {cfg.neutral[name]['count']}")
    for i, card in enumerate(cfg.war_cards):
        held = sum(hand.count(i) for hand in s.hands) + sum(1 for gear in s.equip for _, j in gear if j == i)
        if s.war_deck[i] + s.war_discard[i] + held != card.count:
            problems.append(f"war_deck: {card.id} counts {s.war_deck[i]} + {s.war_discard[i]} + {held} in hands "
                            f"and play sheets; there are {card.count}")
    for seat, gear in enumerate(s.equip):
        for slot, cap in cfg.slots.items():
            if sum(1 for g, _ in gear if g == slot) > cap:
                problems.append(f"equip: seat {seat + 1} has more than {cap} card(s) in the {slot} slot")
        for slot, i in gear:
            if slot not in cfg.war_cards[i].categories:
                problems.append(f"equip: {cfg.war_cards[i].id} does not fit the {slot} slot")
    for r, c, o, name in s.board:
        if o >= 0 and not rules.has_card_for(s, o, cfg.pieces[name]):
            problems.append(f"board: seat {o + 1}'s {name} on {square_text(r, c)} has no "
                            f"{cfg.pieces[name].needs_card} card")
    limbo = s.pending[3] if s.phase in ("lay", "event") and len(s.pending) == 4 else None
    if limbo is not None and not 0 <= limbo < len(cfg.layouts):
        return ["pending: no such dungeon card"]
    for i, layout in enumerate(cfg.layouts):
        placed = sum(1 for *_, j, _ in s.cards if j == i) + (limbo == i and s.phase == "lay")
        if s.dungeon_deck[i] + s.dungeon_discard[i] + placed != layout.count:
            problems.append(f"dungeon_deck: {layout.id} counts {s.dungeon_deck[i]} + {s.dungeon_discard[i]} "
                            f"+ {placed} placed; there are {layout.count}")
    caps = cfg.caps
    for key, values, cap in (("gold", s.gold, caps["gold"]), ("fatigue", s.fatigue, caps["fatigue"])):
        if any(not 0 <= v <= cap for v in values):
            problems.append(f"{key}: 0 to {cap}")
    if any(len(h) > caps["hand"] for h in s.hands):
        problems.append(f"hands: at most {caps['hand']} cards")
    if not 0 <= s.ap <= caps["ap"]:
        problems.append(f"ap: 0 to {caps['ap']}")
    if not 0 <= s.round <= cfg.round_cap or not 0 <= s.king_step <= 4 or any(v < 0 for v in s.kings_beaten):
        problems.append(f"round: 0 to {cfg.round_cap}; king_step 0 to 4")
    if problems:
        return problems
    return _phase_problems(rules, s)


PENDING = {"deal": 1, "place": 1, "turn": 0, "roll": 3, "go": 4, "fight": 5, "build": 3, "lay": 4, "event": 4,
           "over": 0, "shot": 5, "ambush": 6, "ambushed": 6, "window": 1, "mirror": 6, "acid": 7, "revive": 2,
           "charm": 5, "dispose": 7}
VARIABLE = {"ambush", "ambushed", "shot", "revive", "charm"}  # these phases keep more numbers in pairs


def _melee_problems(rules: DungeonWarRules, s: State) -> list[str]:
    """A melee ('fight') or a disposable choice before it ('dispose': then side, chooser)."""
    p = s.pending
    head = 7 if s.phase == "dispose" else 5
    if len(p) < head or (s.phase == "dispose" and (p[-2] not in (0, 1) or not 0 <= p[-1] < s.players)):
        return [f"pending: the {s.phase} phase keeps {head} numbers and the cards kept"]
    fight = s._replace(phase="fight", pending=tuple(p[:-2]) if s.phase == "dispose" else p)
    occ = rules.occupants(s)
    for v in fight.pending[5:]:
        side = v % 2
        who, name = occ.get((p[2 * side], p[2 * side + 1]), (-1, ""))
        if v < 0 or list(fight.pending[5:]).count(v) > list(combat.disposables(rules, s, who, name)).count(v // 2):
            return ["pending: a kept card (2 x card + side) is a disposable card the fighter wears"]
    return _phase_problems(rules, fight._replace(pending=p[:5]))


def pending_problem(s: State) -> str | None:
    """Whether `pending` has as many numbers as its phase keeps (the shape every other check,
    and a view's reading, relies on)."""
    p = s.pending
    if s.phase == "dispose" or (s.phase == "fight" and len(p) > 5):  # a melee and the cards kept
        head = 7 if s.phase == "dispose" else 5
        return None if len(p) >= head else f"pending: the {s.phase} phase keeps {head} numbers and the cards kept"
    extra = len(p) - PENDING[s.phase] if s.phase in VARIABLE else 0
    if s.phase == "shot" and extra == 1:  # a reflected shot: the Mirror Shield's seat
        extra = 0 if 0 <= p[5] < s.players and p[5] != s.seat else -1
    if len(p) != PENDING[s.phase] + extra + (s.phase == "shot" and len(p) == 6) or extra < 0 or extra % 2:
        return f"pending: the {s.phase} phase keeps {PENDING[s.phase]} numbers"
    return None


def _phase_problems(rules: DungeonWarRules, s: State) -> list[str]:
    cfg, p = rules.cfg, s.pending
    # a melee's kept disposables (2 x card + side) follow its 5 numbers
    if s.phase == "dispose" or (s.phase == "fight" and len(p) > 5):
        return _melee_problems(rules, s)
    shape = pending_problem(s)
    if shape:
        return [shape]
    occ = rules.occupants(s)
    kings = {o for *_, o, k in s.board if k == "king"}
    if s.phase == "deal" and (s.board or not 0 <= p[0] < len(rules.first_spots())):
        return ["pending: dealing the first cards, before any piece"]
    if s.phase == "place" and not 0 <= p[0] < len(cfg.first_pieces):
        return ["pending: which placement round"]
    if s.phase == "shot":
        piece = occ.get((p[0], p[1]))
        if piece is None or piece[0] != s.seat or not 0 <= p[2] < len(cfg.war_cards) or not any(
                i == p[2] for _, i in s.equip[s.seat]) or (p[3], p[4]) not in shooting.shot_aims(
                rules, s, (p[0], p[1]), p[2]):
            return ["pending: a shot is [row, column of the shooter, war card, row, column of the aim] "
                    "with a placed card and a target it can aim at"]
    if s.phase in ("ambush", "ambushed"):
        piece = occ.get((p[0], p[1]) if s.phase == "ambush" else (p[2], p[3]))
        empty = (p[2], p[3]) not in occ if s.phase == "ambush" else True
        ok = piece is not None and piece[0] == s.seat and empty and (p[2], p[3]) in rules.dungeon(s).terrain
        if ok and s.phase == "ambush":
            ok = 0 <= p[5] < s.players and p[5] != s.seat and bool(cards.ambushes(rules, s, p[5], (p[2], p[3])))
        if ok and s.phase == "ambushed":
            ok = 0 <= p[5] < len(cfg.war_cards) and "ambush" in cfg.war_cards[p[5]].effects
        if not ok:
            return ["pending: an ambush is [mover's row, column, target row, column, dash, asked seat or trap card]"]
    if s.phase == "acid" and not (0 <= p[0] < 3 + 9 and 0 <= p[-1] < s.players and occ.get(
            (p[3], p[4]) if p[0] == 0 else (p[1], p[2]) if p[0] in (2, *range(3, 12)) else (p[4], p[5])) is not None):
        return ["pending: acid is [0 attacker's | 1 shot's | 2 defender's | 3 + k the k-th target's acid, "
                "5 numbers of the fight or shot, chooser]"]
    if s.phase == "revive" and not all(0 <= p[i] < s.players and 0 <= p[i + 1] < len(ARMY)
                                       and s.pools[p[i]][p[i + 1]] > 0 for i in range(0, len(p), 2)):
        return ["pending: a revival is [seat, piece] pairs of unused pieces"]
    if s.phase == "charm":
        piece = occ.get((p[0], p[1]))
        if piece is None or piece[0] != s.seat or not any(i == p[2] for _, i in s.equip[s.seat]) or (
                "brainwash" not in cfg.war_cards[p[2]].effects) or (p[3], p[4]) not in shooting.charm_targets(rules,
                s, (p[0], p[1]), p[2]) or len(p) not in (5, 7) or (len(p) == 7 and occ.get((p[5], p[6])) != (
                s.seat, occ[(p[3], p[4])][1])) or (len(p) == 5 and not s.pools[s.seat][ARMY.index(
                occ[(p[3], p[4])][1])]):
            return ["pending: brainwashing is [row, column of the user, war card, row, column of the target]"]
    if s.phase in ("window", "mirror") and not (0 <= p[-1] < s.players and (
            cards.trap_calls(rules, s, p[-1]) if s.phase == "window" else shooting.mirrors(rules, s, p[-1]))):
        return ["pending: a trap window asks a seat that holds a trap it can call"]
    if s.phase in ("turn", "roll", "go", "fight", "build", "lay", "event", "shot", "ambush", "ambushed", "window",
                   "mirror", "acid", "revive", "charm") and (
            s.round < 1 or any(seat not in kings for seat in range(s.players))):
        return ["board: in play, every seat has its King Dragon on the board"]
    if s.phase in ("roll", "go", "fight"):
        piece = occ.get((p[0], p[1]))
        if piece is None or piece[0] != s.seat or (s.phase != "fight" and piece[1] != "knight"):
            return ["pending: the acting piece is not on its square"]
        if s.phase == "go" and not 0 <= p[3] <= cfg.die * max(1, cfg.pieces["knight"].dash_dice):
            return ["pending: a roll a knight can make"]
    if s.phase == "fight":
        target = occ.get((p[2], p[3]))
        if target is None or target[0] == s.seat or (target[0] < 0 and target[1] != "tentacle") or (
                target[1] == "king" and occ[(p[0], p[1])][1] == "king"):
            return ["pending: a melee needs an enemy or a tentacle creature on the target square"]
    if s.phase in ("build", "lay", "event"):
        if p[0] not in (0, 1) or not (0 <= p[1] < cfg.rows and 0 <= p[2] < cfg.columns):
            return ["pending: a build is [0 make | 1 remake, card row, card column, ...]"]
        placed = any((r, c) == (p[1], p[2]) for r, c, _, _ in s.cards)
        if placed != (p[0] == 1) or (p[0] == 1 and (p[1], p[2]) == cfg.stairs):
            return ["pending: Make needs an empty spot; Remake a placed dungeon card"]
        if s.phase in ("lay", "event") and cfg.layouts[p[3]].event != (s.phase == "event"):
            return ["pending: the drawn card does not fit the phase"]
        if s.phase == "build" and not (sum(s.dungeon_deck) or sum(s.dungeon_discard)):
            return ["dungeon_deck: nothing left to draw"]
    if s.draws and not (sum(s.war_deck) or sum(s.war_discard)):
        return ["draws: no war card is left to draw"]
    if s.phase == "over" and not s.fallen and s.round < cfg.round_cap:
        return ["phase: over before the round cap with no King Dragon fallen"]
    try:  # a last guard: every listing must work on an accepted state
        rules.legal_moves(s)
        rules.chance_outcomes(s)
    except (KeyError, IndexError, ValueError, StopIteration, ZeroDivisionError) as err:
        return [f"phase: this {s.phase} state cannot continue ({type(err).__name__})"]
    return []


def describe(rules: DungeonWarRules, s: State) -> str:
    dun = rules.dungeon(s)
    occ = rules.occupants(s)
    rows = []
    for r in range(rules.cfg.height):
        line = []
        for c in range(rules.cfg.width):
            piece = occ.get((r, c))
            if piece is not None:
                line.append(f"{piece[0] + 1}{rules.cfg.pieces[piece[1]].code}" if piece[0] >= 0 else piece[1][:2])
            else:
                line.append(" " + dun.terrain[(r, c)] if (r, c) in dun.terrain else " .")
        rows.append(f"{r + 1:>2} " + " ".join(line))
    head = "   " + " ".join(f" {COLUMNS[c]}" for c in range(rules.cfg.width))
    seats = [f"seat {i + 1}: {s.gold[i]}G fatigue {s.fatigue[i]} {rules.cfg.cycle[s.element[i]]} slimes, "
             f"{len(s.hands[i])} cards, {rules.crystals(s, i)} crystals" for i in range(s.players)]
    return "\n".join([f"round {s.round}, seat {s.seat + 1}, phase {s.phase}, AP {s.ap}", head, *rows, *seats])
