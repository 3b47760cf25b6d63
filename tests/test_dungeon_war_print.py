"""Dungeon War's printable components, read back from the PDFs of one build: war cards per
category as in war-cards.csv, each dungeon tile's squares and walls as in the very
dungeon-cards.yaml the engine walks, fonts embedded, page boxes, byte-identical rebuilds."""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.errors import PnpgenError
from pnpgen.output import BuildOptions
from tests.conftest import ROOT
from tests.kit_pdf import MM, box_mm, drawing, texts, unembedded_fonts

GAME = ROOT / "content" / "dungeon-war"
WAR_ROWS = list(csv.DictReader((GAME / "war-cards.csv").open(encoding="utf-8")))
DUNGEON = yaml.safe_load((GAME / "dungeon-cards.yaml").read_text(encoding="utf-8"))
TILE_DECK = yaml.safe_load((GAME / "components" / "dungeon-cards.yaml").read_text(encoding="utf-8"))[0]
SQUARES = next(e for e in TILE_DECK["layouts"]["tile"] if "squares" in e)
EN_TAGS = {"sword": "sword", "helmet": "helmet", "armour": "armour", "shield": "shield", "tool": "tool",
           "magic": "magic", "dragon": "dragon", "trap": "trap", "disposable": "disposable"}
SIDE = 21.0  # mm: a square of a tile


def _build(out: Path, langs: tuple[str, ...]) -> Path:
    build_game(load_game(GAME), BuildOptions(out=out, langs=langs, content_root=GAME.parent))
    return out / "dungeon-war"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1767225600")
        return _build(tmp_path_factory.mktemp("dw"), ("ja", "en"))


def _fronts(reader: PdfReader, calibration: int = 2) -> list[int]:
    """Front pages of a duplex deck file: every other page before the calibration sheet."""
    return list(range(0, len(reader.pages) - calibration, 2))


@pytest.fixture(scope="module")
def war_fronts(built: Path) -> list[list[tuple[str, float, float]]]:
    """The text runs of each front page of war-cards-en.pdf, read once for the tests below."""
    reader = PdfReader(str(built / "war-cards-en.pdf"))
    return [texts(reader, page) for page in _fronts(reader)]


def test_war_cards_per_category_equal_the_csv(war_fronts: list[list[tuple[str, float, float]]]) -> None:
    found: Counter[str] = Counter()
    names: Counter[str] = Counter()
    for runs in war_fronts:
        for text, _, _ in runs:
            for tag in EN_TAGS if text.startswith("【") else ():  # the tags line, not the rules text
                found[tag] += text.count(f"【{tag}】")
            names.update(row["name_en"] for row in WAR_ROWS if text == row["name_en"])
    expected: Counter[str] = Counter()
    for row in WAR_ROWS:
        for tag in row["categories"].split():
            expected[tag] += int(row["count"])
    assert found == expected
    assert sum(int(row["count"]) for row in WAR_ROWS) == 120
    assert names == Counter({row["name_en"]: int(row["count"]) for row in WAR_ROWS})


def test_stand_in_and_disposable_marks(war_fronts: list[list[tuple[str, float, float]]]) -> None:
    words = [t for runs in war_fronts for t, _, _ in runs]
    marks = sum(1 for t in words if "STAND-IN" in t and "PART" not in t)
    part = sum(1 for t in words if "PART STAND-IN" in t)
    assert marks == sum(int(r["count"]) for r in WAR_ROWS if r["source"] == "stand-in")
    assert part == sum(int(r["count"]) for r in WAR_ROWS if r["source"] == "mixed")
    assert sum(1 for t in words if "DISPOSABLE" in t) == sum(
        int(r["count"]) for r in WAR_ROWS if "disposable" in r["categories"].split())


def _label(code: str) -> str:
    spec = SQUARES["codes"][code]
    label = spec.get("label", "")
    return label["en"] if isinstance(label, dict) else str(label)


def test_each_tile_draws_its_layout_rows(built: Path) -> None:
    """Every square's label read back from the PDF sits in the row and column the layout
    data gives its code; floors carry none. Cards come in the deck's order."""
    reader = PdfReader(str(built / "dungeon-cards-en.pdf"))
    cards = [DUNGEON["stairs"]] + [c for c in DUNGEON["dungeon"] for _ in range(c.get("count", 1))]
    names = {c["name"]["en"] for c in cards} | {c["name"]["en"] for c in DUNGEON["events"]}
    drawn: list[dict[tuple[int, int], set[str]]] = []
    for page in _fronts(reader):
        runs = texts(reader, page)
        # the name label, 3 mm inside the card's top-left corner (its safe zone): the card's corner
        tops = [(x / MM - 3, y / MM + 4.6) for t, x, y in runs if t.split(" · ")[0] in names and "·" in t
                or t in {c["name"]["en"] for c in cards}]
        slots: dict[tuple[float, float], dict[tuple[int, int], set[str]]] = {top: {} for top in tops}
        for text, x, y in runs:
            if text.split(" · ")[0] in names or text == "STAND-IN":  # the label (its second line)
                continue
            for left, top in tops:
                if left <= x / MM < left + 3 * SIDE and top - 2 * SIDE <= y / MM < top:
                    square = (int((top - y / MM) // SIDE), int((x / MM - left) // SIDE))
                    slots[(left, top)].setdefault(square, set()).add(text)
        drawn += [slots[top] for top in sorted(slots, key=lambda p: (-round(p[1]), p[0]))]
    assert len(drawn) == len(cards) == 43
    for card, squares in zip(cards, drawn, strict=True):
        expected: dict[tuple[int, int], set[str]] = {}
        for r, row in enumerate(card["layout"]):
            for c, code in enumerate(row):
                if _label(code):
                    expected[(r, c)] = {_label(code)} | ({card["warp"]} if code == "Z" else set())
        assert squares == expected, card["id"]


def test_walls_and_cracked_walls_are_drawn(built: Path) -> None:
    reader = PdfReader(str(built / "dungeon-cards-en.pdf"))
    kinds = SQUARES["wall_kinds"]
    width = round(kinds["wall"]["width"] * MM, 2)
    thick = sum(1 for page in _fronts(reader) for s in drawing(reader, page).segments
                if round(s.width, 2) == width and s.x1 != s.x2 or round(s.width, 2) == width and s.y1 != s.y2)
    walls = sum(len(c.get("walls") or []) * c.get("count", 1) for c in DUNGEON["dungeon"])
    assert walls == 16
    assert thick == walls


def test_49_dungeon_cards_with_one_back(built: Path) -> None:
    reader = PdfReader(str(built / "dungeon-cards-en.pdf"))
    total = 1 + sum(c.get("count", 1) for c in DUNGEON["dungeon"]) + sum(c.get("count", 1) for c in DUNGEON["events"])
    assert total == 49
    backs = [t for page in range(1, len(reader.pages) - 2, 2) for t, _, _ in texts(reader, page)]
    assert backs.count("ダンジョン大戦 DUNGEON WAR") == 2 * total  # once each way up (rotationally symmetric)
    assert not {c["name"]["en"] for c in DUNGEON["events"]} & set(backs)


def test_fonts_embedded_and_page_boxes(built: Path) -> None:
    pdfs = sorted(built.glob("*.pdf"))
    assert len(pdfs) >= 8
    for pdf in pdfs:
        assert not unembedded_fonts(pdf), pdf.name
        page = PdfReader(str(pdf)).pages[0]
        trim, bleed = box_mm(page.trimbox), box_mm(page.bleedbox)
        assert bleed[0] <= trim[0] and bleed[2] >= trim[2], pdf.name
        if not pdf.name.startswith(("rulebook", "companion")):  # books: trimmed to the paper
            assert trim != box_mm(page.mediabox), pdf.name


def test_rebuild_is_byte_identical(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    again = _build(tmp_path, ("en",))
    rebuilt = sorted(again.glob("*.pdf"))
    assert len(rebuilt) >= 4
    for pdf in rebuilt:
        first = built / pdf.name
        assert hashlib.sha256(pdf.read_bytes()).digest() == hashlib.sha256(first.read_bytes()).digest(), pdf.name


def test_pieces_and_markers_follow_game_yaml(built: Path) -> None:
    rules = yaml.safe_load((GAME / "game.yaml").read_text(encoding="utf-8"))["rules"]
    reader = PdfReader(str(built / "pieces-en.pdf"))
    words = Counter(t for page in range(len(reader.pages)) for t, _, _ in texts(reader, page))
    teams = 4
    for name, key in (("King Dragon", "king"), ("Golem", "golem"), ("Knight", "knight"), ("Slime", "slime")):
        assert words[name] == 2 * teams * rules["pieces"][key]["count"], name  # both faces of each standee
    assert words["Treasure chest"] + words["Chest"] == 2 * rules["neutral"]["chest"]["count"]
    total = teams * sum(p["count"] for p in rules["pieces"].values())
    total += sum(n["count"] for n in rules["neutral"].values())
    assert total == 72
    for mark in ("● B", "■ R", "▲ G", "◆ Y"):  # colour-blind players read a shape and a letter
        assert words[mark] == 2 * 12, mark  # both bases of each of the 12 standees of a team
    markers = PdfReader(str(built / "markers-en.pdf"))
    assert sum(1 for t, _, _ in texts(markers, 0) if t in ("Fatigue", "Gold", "Element")) == 12


def test_sheets_print_game_yaml(built: Path) -> None:
    text = " ".join(t for t, _, _ in texts(PdfReader(str(built / "play-sheet-red-en.pdf")), 0))
    assert "2D＋13" in text and "Trap (face down)" in text and "Magicians" in text
    assert "Play sheet" in text and "Red" in text
    terrain = " ".join(t for t, _, _ in texts(PdfReader(str(built / "summary-terrain-ja.pdf")), 0))
    assert "溶岩移動を持つ駒だけ" in terrain and "柵、ブロック、ヒビ割れ壁" in terrain
    neutral = " ".join(t for t, _, _ in texts(PdfReader(str(built / "summary-neutral-en.pdf")), 0))
    assert "BP 2D＋4" in neutral and "the taker draws 2 war cards" in neutral
    cards = " ".join(t for t, _, _ in texts(PdfReader(str(built / "card-list-en.pdf")), 0))
    assert all(row["name_en"] in cards for row in WAR_ROWS)
    guide = " ".join(t for t, _, _ in texts(PdfReader(str(built / "print-guide-en.pdf")), 0))
    assert "yellow" in guide and "8 white" in guide


TINY = """\
id: tiny
title: Tiny
players: {min: 2, max: 4}
time_minutes: 5
version: 1
components: parts.yaml
"""


def _tiny(tmp_path: Path, parts: str, data: str) -> Path:
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(TINY, encoding="utf-8")
    (folder / "parts.yaml").write_text(parts, encoding="utf-8")
    (folder / "tiles.yaml").write_text(data, encoding="utf-8")
    build_game(load_game(folder), BuildOptions(out=tmp_path / "b", langs=("en",), content_root=folder.parent))
    return tmp_path / "b" / "tiny"


PARTS = """\
- type: deck
  id: tiles
  title: Tiles
  size: {width: 40, height: 20}
  cards_from: [{file: tiles.yaml, at: tiles}]
  front:
    - squares: rows
      walls: walls
      wall_kinds: {wall: {width: 1}}
      codes: {F: {fill: "#eeeeee"}, W: {fill: "#88bbee", pattern: waves, label: WATER}}
"""


def test_squares_errors_name_the_card(tmp_path: Path) -> None:
    with pytest.raises(PnpgenError, match=r"card 1 'a'.*code 'X' has no entry in 'codes'"):
        _tiny(tmp_path / "1", PARTS, "tiles:\n  - {name: a, rows: [FWX, FFF]}\n")
    with pytest.raises(PnpgenError, match=r"the wall .* is not between two squares"):
        _tiny(tmp_path / "2", PARTS, "tiles:\n  - {name: a, rows: [FWF, FFF], walls: [{row: 1, right_of: 3}]}\n")
    with pytest.raises(PnpgenError, match=r"wall kind 'cracked' is not in wall_kinds"):
        _tiny(tmp_path / "3", PARTS,
              "tiles:\n  - {name: a, rows: FWF/FFF, walls: [{column: 1, below: 1, kind: cracked}]}\n")
    with pytest.raises(PnpgenError, match=r"cards_from: tiles.yaml has nothing at 'tiles'"):
        _tiny(tmp_path / "4", PARTS, "other: []\n")


def test_squares_from_a_csv_style_string(tmp_path: Path) -> None:
    out = _tiny(tmp_path, PARTS, "tiles:\n  - {name: a, rows: WFW/FWF, walls: [{row: 1, right_of: 1}]}\n")
    reader = PdfReader(str(out / "tiles.pdf")) if (out / "tiles.pdf").exists() else PdfReader(str(out / "tiles-en.pdf"))
    assert [t for t, _, _ in texts(reader, 0)].count("WATER") == 3
    assert sum(1 for s in drawing(reader, 0).segments if round(s.width, 2) == round(MM, 2)) == 1
