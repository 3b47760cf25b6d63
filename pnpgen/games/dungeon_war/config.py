"""Dungeon War's numbers and data, read from content: game.yaml `rules:`, the dungeon
cards (dungeon-cards.yaml) and the war cards (war-cards.csv). Nothing here is a number
of the game; every value comes from those files."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pnpgen import limits
from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Range, check
from pnpgen.content.yamlpos import load_yaml, read_text, where
from pnpgen.errors import ContentError

from .odds import BP

DICE = Each(int, min=2)  # [dice, plus]
PIECE_SCHEMA: dict[str, Any] = {
    "code": str, "count": Range(int, 1, 20), "bp": DICE, "move": DICE, "strength": str,
    "terrain": [str], "stop": bool, "spoils": {"gold?": int, "cards?": int, "crystals?": float},
    "actions": [str], "cost?": int, "needs_card?": str, "extra_spoils_cards?": int,
    "dash?": {"dice": int, "bp": int}, "warp_cost?": int,
}
SLIME_SCHEMA: dict[str, Any] = {
    "bp": DICE, "strength": str, "terrain": [str], "attack?": [str], "resist?": [str], "weak?": [str],
    "actions?": [str], "gold_per_turn?": int, "plant_ap?": int, "acid?": bool,
}
RULES_SCHEMA: dict[str, Any] = {
    "files": {"dungeon_cards": str, "war_cards": str},
    "die": Range(int, 2, 20),
    "grid": {"rows": Range(int, 1, 9), "columns": Range(int, 1, 9), "card_rows": Range(int, 1, 4),
             "card_columns": Range(int, 1, 4), "stairs": DICE},
    "setup": {"first_spots": Range(int, 0, 4), "max_crystals": int, "max_empty_boxes": int, "first_pieces": [str]},
    "start": {"gold": int, "fatigue": int, "element": str},
    "turn": {"ap": int, "action_cost": int},
    "caps": {"ap": int, "gold": int, "fatigue": int, "hand": int},
    "round_cap": Range(int, 1, 1000),
    "support": int,
    "fatigue_gap": int,
    "king": {"crystal_bp": int, "actions_a": {"*": int}, "actions_b": {"*": int}, "alchemy_gold": int,
             "summon_range": int, "change_cards?": Range(int, 1, 6)},
    "elements": [str],
    "slime_cycle": [str],
    "strength": {"*": [str]},
    "terrain": {"*": {"name": str, "needs?": str, "no_fence?": bool, "crystal?": bool, "empty_box?": bool,
                      "plant?": bool, "map_cards?": int, "warp?": bool}},
    "king_never_stops": [str],
    "pieces": {"*": PIECE_SCHEMA},
    "slimes": {"*": SLIME_SCHEMA},
    "ranges": {"block": DICE, "fence": DICE},
    "equipment": {"slots": {"*": Range(int, 0, 9)}, "wearers": {"*": [str]}, "use": {"*": str},
                  "action_effects": [str], "breath": {"range_dice": int, "penetrate": str}},
    "neutral": {"*": {"count": int, "cards?": int, "gold?": int, "bp?": DICE, "spoils?": {"gold?": int}}},
    "events": {"*": {"place?": str, "square?": str, "gold?": int, "frenzy?": int}},
    "acid?": {"melts_first": str, "victims": [str]},
    "immortal?": {"respawn": str, "not_against": [str]},
}
CARD_SCHEMA: dict[str, Any] = {"id": str, "name": {"ja": str, "en": str}, "count?": Range(int, 1, 100),
                               "layout?": [str], "walls?": [dict], "warp?": str, "source": str}
CARDS_SCHEMA: dict[str, Any] = {"stairs": CARD_SCHEMA, "dungeon": [CARD_SCHEMA], "events": [CARD_SCHEMA]}
ARMY = ("king", "dragon", "golem", "knight", "magician", "slime")  # the play sheet's order
NEUTRAL = ("chest", "coin", "tentacle", "block", "fence")
SOURCES = ("source", "stand-in", "mixed")


@dataclass(frozen=True)
class Layout:
    """A dungeon card: terrain codes row by row, walls as pairs of (row, column) inside it."""

    id: str
    count: int
    rows: tuple[str, ...]
    walls: frozenset[tuple[tuple[int, int], tuple[int, int], str]]
    warp: str
    source: str
    event: bool = False


@dataclass(frozen=True)
class PieceKind:
    name: str
    code: str
    count: int
    bp: BP
    move: BP
    strength: str
    terrain: frozenset[str]
    stop: bool
    actions: tuple[str, ...]
    cost: int
    spoils_gold: int
    spoils_cards: int
    spoils_crystals: Fraction
    extra_cards: int = 0
    dash_dice: int = 0
    dash_bp: int = 0
    warp_cost: int = 0
    needs_card: str = ""
    attack: frozenset[str] = frozenset()
    resist: frozenset[str] = frozenset()
    weak: frozenset[str] = frozenset()
    gold_per_turn: int = 0
    plant_ap: int = 0
    acid: bool = False  # always-on acid (the water slime)
    immortal: bool = False  # 不死身 (from a worn card)


@dataclass(frozen=True)
class WarCard:
    id: str
    name_ja: str
    name_en: str
    count: int
    categories: tuple[str, ...]
    coins: int
    bp: BP
    element: str
    effect: str
    source: str

    def title(self, lang: str) -> str:
        """The card's name in `lang`, as war-cards.csv gives it."""
        return self.name_ja if lang == "ja" else self.name_en

    @property
    def effects(self) -> dict[str, str]:
        """The effect column as tokens: `shot:range:1-2 acid` -> {'shot': 'range:1-2', 'acid': ''}."""
        return dict((tok.split(":", 1) + [""])[:2] for tok in self.effect.split())  # type: ignore[misc]


@dataclass
class Config:
    die: int
    rows: int  # in cards
    columns: int
    card_rows: int
    card_columns: int
    stairs: tuple[int, int]  # card position, 0-based
    first_spots: int
    max_crystals: int
    max_boxes: int
    first_pieces: tuple[str, ...]
    start_gold: int
    start_fatigue: int
    start_element: str
    ap: int
    action_cost: int
    caps: dict[str, int]
    round_cap: int
    support: int
    fatigue_gap: int
    crystal_bp: int
    actions_a: dict[str, int]
    actions_b: dict[str, int]
    alchemy_gold: int
    summon_range: int
    change_cards: int
    elements: tuple[str, ...]
    cycle: tuple[str, ...]
    breaks: dict[str, frozenset[str]]
    terrain: dict[str, dict[str, Any]]
    king_never_stops: frozenset[str]
    pieces: dict[str, PieceKind]
    slimes: dict[str, PieceKind]
    block_range: tuple[int, int]
    fence_range: tuple[int, int]
    neutral: dict[str, dict[str, Any]]
    events: dict[str, dict[str, Any]]
    stairs_card: Layout
    layouts: tuple[Layout, ...]  # dungeon cards then event cards: the dungeon deck's kinds
    war_cards: tuple[WarCard, ...]
    slots: dict[str, int] = field(default_factory=dict)  # war-card slots of the play sheet
    wearers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # piece -> the slots it wears
    use: dict[str, str] = field(default_factory=dict)  # piece -> the action that fires a card
    action_effects: frozenset[str] = frozenset()
    breath: dict[str, Any] = field(default_factory=dict)
    by_code: dict[str, str] = field(default_factory=dict)
    acid: dict[str, Any] = field(default_factory=dict)  # melts_first (slot), victims (piece names)
    immortal: dict[str, Any] = field(default_factory=dict)  # respawn (terrain code), not_against (elements)

    @property
    def height(self) -> int:
        return self.rows * self.card_rows

    @property
    def width(self) -> int:
        return self.columns * self.card_columns


def _dice(value: Any) -> BP:
    return BP(int(value[0]), int(value[1]))


def _walls(card: dict[str, Any], rows: int, columns: int) -> frozenset[tuple[tuple[int, int], tuple[int, int], str]]:
    walls = set()
    for wall in card.get("walls") or []:
        check(wall, {"row?": int, "right_of?": int, "column?": int, "below?": int, "kind": str}, card, "walls")
        if "right_of" in wall and "row" in wall:
            a, b = (wall["row"] - 1, wall["right_of"] - 1), (wall["row"] - 1, wall["right_of"])
        elif "below" in wall and "column" in wall:
            a, b = (wall["below"] - 1, wall["column"] - 1), (wall["below"], wall["column"] - 1)
        else:
            raise ContentError("a wall is {row, right_of} or {column, below}", **where(wall))
        if not all(0 <= r < rows and 0 <= c < columns for r, c in (a, b)):
            raise ContentError("this wall is not inside the card", **where(wall))
        if wall["kind"] not in ("wall", "cracked"):
            raise ContentError(f"wall kind '{wall['kind']}' is neither wall nor cracked", **where(wall, "kind"))
        walls.add((a, b, "cracked_wall" if wall["kind"] == "cracked" else "wall"))
    return frozenset(walls)


def _layout(card: dict[str, Any], rules: dict[str, Any], event: bool = False) -> Layout:
    rows, columns = rules["grid"]["card_rows"], rules["grid"]["card_columns"]
    if card["source"] not in SOURCES:
        raise ContentError(f"source must be one of {', '.join(SOURCES)}", **where(card, "source", value=True))
    layout = tuple(card.get("layout") or ())
    if not event:
        if len(layout) != rows or any(len(r) != columns for r in layout):
            raise ContentError(f"a layout is {rows} rows of {columns} terrain codes", **where(card, "layout"))
        unknown = sorted({code for r in layout for code in r} - set(rules["terrain"]))
        if unknown:
            raise ContentError(f"unknown terrain code {unknown[0]}", **where(card, "layout"))
    elif card["id"] not in rules["events"]:
        raise ContentError(f"event '{card['id']}' has no effect in rules.events", **where(card, "id", value=True))
    return Layout(card["id"], int(card.get("count", 1)), layout, _walls(card, rows, columns),
                  str(card.get("warp", "")), card["source"], event)


def _war_cards(content: GameContent) -> tuple[WarCard, ...]:
    files = content.data["rules"]["files"]
    path = content.path(str(files["war_cards"]), files, "war_cards")
    text = read_text(path, limits.MAX_YAML_BYTES, "war card list")
    cards = []
    for line, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            card = WarCard(row["id"], row["name_ja"], row["name_en"], int(row["count"]),
                           tuple(row["categories"].split()), int(row["coins"]),
                           BP(int(row["bp_dice"]), int(row["bp_plus"])), row["element"], row["effect"],
                           row["source"])
        except (KeyError, TypeError, ValueError) as err:
            raise ContentError(f"war card row is incomplete or not a number ({err})", path, line, 1) from None
        if card.source not in SOURCES:
            raise ContentError(f"source must be one of {', '.join(SOURCES)}", path, line, 1)
        cards.append(card)
    return tuple(cards)


def _kind(name: str, spec: dict[str, Any], slime: dict[str, Any] | None = None) -> PieceKind:
    spoils = spec.get("spoils") or {}
    extra = slime or {}
    return PieceKind(
        name=name, code=spec["code"], count=spec["count"], bp=_dice(extra.get("bp", spec["bp"])),
        move=_dice(spec["move"]), strength=extra.get("strength", spec["strength"]),
        terrain=frozenset(extra.get("terrain", spec["terrain"])), stop=spec["stop"],
        actions=tuple(extra.get("actions", spec["actions"])), cost=int(spec.get("cost", 0)),
        spoils_gold=int(spoils.get("gold", 0)), spoils_cards=int(spoils.get("cards", 0)),
        spoils_crystals=Fraction(str(spoils.get("crystals", 0))),
        extra_cards=int(spec.get("extra_spoils_cards", 0)),
        dash_dice=int((spec.get("dash") or {}).get("dice", 0)), dash_bp=int((spec.get("dash") or {}).get("bp", 0)),
        warp_cost=int(spec.get("warp_cost", 0)), needs_card=str(spec.get("needs_card", "")),
        attack=frozenset(extra.get("attack", ())), resist=frozenset(extra.get("resist", ())),
        weak=frozenset(extra.get("weak", ())), gold_per_turn=int(extra.get("gold_per_turn", 0)),
        plant_ap=int(extra.get("plant_ap", 0)), acid=bool(extra.get("acid", False)),
    )


def load_config(content: GameContent) -> Config:
    rules = content.data["rules"]
    files = rules["files"]
    cards = load_yaml(content.path(str(files["dungeon_cards"]), files, "dungeon_cards"))
    if not isinstance(cards, dict):
        raise ContentError("dungeon_cards: name a YAML file with stairs, dungeon and events", **where(files))
    check(cards, CARDS_SCHEMA)
    missing = [p for p in ARMY if p not in rules["pieces"]] + [n for n in NEUTRAL if n not in rules["neutral"]]
    if missing:
        raise ContentError(f"rules: no entry for '{missing[0]}'", **where(rules))
    if set(rules["slimes"]) != set(rules["slime_cycle"]) or rules["start"]["element"] not in rules["slimes"]:
        raise ContentError("slime_cycle, slimes and start.element must name the same elements", **where(rules))
    pieces = {name: _kind(name, rules["pieces"][name]) for name in ARMY}
    slimes = {name: _kind("slime", rules["pieces"]["slime"], spec) for name, spec in rules["slimes"].items()}
    layouts = tuple(_layout(c, rules) for c in cards["dungeon"]) + tuple(_layout(c, rules, True)
                                                                           for c in cards["events"])
    grid = rules["grid"]
    config = Config(
        die=rules["die"], rows=grid["rows"], columns=grid["columns"], card_rows=grid["card_rows"],
        card_columns=grid["card_columns"], stairs=(grid["stairs"][0] - 1, grid["stairs"][1] - 1),
        first_spots=rules["setup"]["first_spots"], max_crystals=rules["setup"]["max_crystals"],
        max_boxes=rules["setup"]["max_empty_boxes"], first_pieces=tuple(rules["setup"]["first_pieces"]),
        start_gold=rules["start"]["gold"], start_fatigue=rules["start"]["fatigue"],
        start_element=rules["start"]["element"], ap=rules["turn"]["ap"], action_cost=rules["turn"]["action_cost"],
        caps=dict(rules["caps"]), round_cap=rules["round_cap"], support=rules["support"],
        fatigue_gap=rules["fatigue_gap"], crystal_bp=rules["king"]["crystal_bp"],
        actions_a=dict(rules["king"]["actions_a"]), actions_b=dict(rules["king"]["actions_b"]),
        alchemy_gold=rules["king"]["alchemy_gold"], summon_range=rules["king"]["summon_range"],
        change_cards=int(rules["king"].get("change_cards", 0)),
        elements=tuple(rules["elements"]), cycle=tuple(rules["slime_cycle"]),
        breaks={k: frozenset(v) for k, v in rules["strength"].items()}, terrain=dict(rules["terrain"]),
        king_never_stops=frozenset(rules["king_never_stops"]), pieces=pieces, slimes=slimes,
        block_range=tuple(rules["ranges"]["block"]), fence_range=tuple(rules["ranges"]["fence"]),  # type: ignore[arg-type]
        neutral={k: dict(v) for k, v in rules["neutral"].items()},
        events={k: dict(v) for k, v in rules["events"].items()},
        stairs_card=_layout(cards["stairs"], rules), layouts=layouts, war_cards=_war_cards(content),
    )
    config.by_code = {kind.code: name for name, kind in pieces.items()}
    gear = rules["equipment"]
    config.slots = dict(gear["slots"])
    config.wearers = {k: tuple(v) for k, v in gear["wearers"].items()}
    config.use = dict(gear["use"])
    config.action_effects = frozenset(gear["action_effects"])
    config.breath = dict(gear["breath"])
    config.acid = dict(rules.get("acid") or {"melts_first": "", "victims": []})
    config.immortal = dict(rules.get("immortal") or {"respawn": "", "not_against": []})
    for name, slots in config.wearers.items():
        if name not in pieces or any(slot not in config.slots for slot in slots):
            raise ContentError(f"equipment.wearers: '{name}' or one of its slots is unknown", **where(gear))
    for card in config.war_cards:
        if not any(cat in config.slots for cat in card.categories):
            raise ContentError(f"war card '{card.id}' fits no slot of equipment.slots", **where(gear))
    if not 0 <= config.stairs[0] < config.rows or not 0 <= config.stairs[1] < config.columns:
        raise ContentError("grid.stairs is outside the grid", **where(grid, "stairs"))
    for name, kind in [*pieces.items(), *slimes.items()]:
        if kind.strength not in config.breaks:
            raise ContentError(f"{name}: strength '{kind.strength}' is not in rules.strength", **where(rules))
    return config
