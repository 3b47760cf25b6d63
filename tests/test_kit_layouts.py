"""Per-type card layouts (render/kit/layouts.py): the harbour fixture's 54 cards of three
types from one CSV, each front read back from the PDF in its slot; a second deck sharing
the layouts file; errors naming file and line."""

from __future__ import annotations

import csv
import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from tests.conftest import ROOT, CliRun
from tests.kit_pdf import MM, game_yaml, texts

HARBOUR = ROOT / "tests" / "fixtures" / "harbour"
ROWS = list(csv.DictReader((HARBOUR / "cards.csv").open(encoding="utf-8")))
MARKERS = {"ship": "SHIP", "lighthouse": "LIGHTHOUSE", "storm": "STORM"}


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("harbour")
    build_game(load_game(HARBOUR), BuildOptions(out=out, langs=("en",), content_root=HARBOUR.parent))
    return out / "harbour"


def test_the_csv_has_54_cards_of_three_types() -> None:
    assert sum(int(row["quantity"]) for row in ROWS) >= 54
    assert {row["type"] for row in ROWS} == set(MARKERS)


def test_every_front_is_drawn_with_its_types_layout(harbour: Path) -> None:
    reader = PdfReader(str(harbour / "harbour-en.pdf"))
    cards = [row for row in ROWS for _ in range(int(row["quantity"]))]
    # poker 3×3 on A4: trims from x 10.5 mm, top 280.5 mm; fronts on even pages
    seen = 0
    for sheet in range(-(-len(cards) // 9)):
        slots: dict[int, list[str]] = {}
        for text, x, y in texts(reader, 2 * sheet):
            col, row = int((x / MM - 10.5) // 63), int((280.5 - y / MM) // 88)
            if 0 <= col < 3 and 0 <= row < 3:
                slots.setdefault(row * 3 + col, []).append(text)
        for slot, found in sorted(slots.items()):
            card = cards[sheet * 9 + slot]
            words = " ".join(found)
            assert card["name_en"] in words
            assert MARKERS[card["type"]] in found, (card["name_en"], found)
            others = set(MARKERS.values()) - {MARKERS[card["type"]]}
            assert not others & set(found), (card["name_en"], found)
            if card["type"] == "ship":
                assert f"Speed {card['speed']}" in found
            seen += 1
    assert seen == len(cards) == 54


def test_a_second_deck_shares_the_layouts_file(harbour: Path) -> None:
    reader = PdfReader(str(harbour / "storm-promo-en.pdf"))
    found = [t for t, _x, _y in texts(reader, 0)]
    assert found.count("STORM") == 2 and "Maelstrom" in found and "Dead calm" in found
    backs = [t for t, _x, _y in texts(reader, 1)]
    assert backs.count("HARBOUR NIGHT") == 2


GAME = game_yaml("tiny", "deck.yaml")
LAYOUTS = """\
ship: [{text: "SHIP {{ name }}"}]
storm: [{text: "STORM {{ name }}"}]
"""
CSV = "type,name\nship,Cog\nstorm,Gale\n"


def write_game(root: Path, deck: str, files: dict[str, str]) -> Path:
    folder = root / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(textwrap.dedent(deck), encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


DECK = """\
- type: deck
  id: d
  title: D
  csv: cards.csv
  layouts: layouts.yaml
  front:
    by: type
    layouts: {ship: ship, storm: storm}
"""


@pytest.mark.parametrize(
    ("deck", "files", "expected"),
    [
        (DECK.replace("storm: storm}", "storm: strom}"), {},
         "deck.yaml:8:34: front.layouts.storm: unknown layout 'strom' (did you mean 'storm'?); layouts: ship, storm"),
        (DECK, {"cards.csv": CSV + "kraken,Ink\n"},
         "cards.csv:4: card 3 'Ink' (cards.csv:4): type 'kraken' has no front layout; front layouts: ship, storm"),
        (DECK, {"cards.csv": CSV + ",Blank\n"},
         "cards.csv:4: card 3 'Blank' (cards.csv:4): the field 'type' that chooses its front layout is empty"),
        (DECK.replace("layouts: layouts.yaml", "layouts: ../x.yaml"), {},
         "deck.yaml:5:12: path '../x.yaml' leaves the game folder"),
        (DECK.replace("layouts: layouts.yaml", "layouts: [layouts.yaml, {ship: [{text: x}]}]"), {},
         "layouts: the layout 'ship' is named twice"),
        (DECK.replace("layouts: layouts.yaml", "layouts: missing.yaml"), {},
         "deck.yaml:5:12: layouts: file not found: missing.yaml"),
        (DECK.replace("    by: type\n    layouts: {ship: ship, storm: storm}\n", "    - {text: x}\n")
         + "  back: sea-back\n", {}, "deck.yaml:8:9: back: unknown layout 'sea-back'"),
    ],
)
def test_layout_errors_name_file_and_line(tmp_path: Path, run_pnpgen: CliRun, deck: str, files: dict[str, str],
                                          expected: str) -> None:
    write_game(tmp_path, deck, {"layouts.yaml": LAYOUTS, "cards.csv": CSV, **files})
    code, _out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"))
    assert code == 2, err
    errors = [line for line in err.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and expected in errors[0], err
    assert "Traceback" not in err


def test_by_without_a_map_uses_the_value_as_the_layout_name(tmp_path: Path) -> None:
    deck = DECK.replace("    layouts: {ship: ship, storm: storm}\n", "")
    write_game(tmp_path, deck, {"layouts.yaml": LAYOUTS, "cards.csv": CSV})
    build_game(load_game(tmp_path / "content" / "tiny"),
               BuildOptions(out=tmp_path / "b", content_root=tmp_path / "content"))
    found = [t for t, _x, _y in texts(PdfReader(str(tmp_path / "b" / "tiny" / "d.pdf")), 0)]
    assert "SHIP Cog" in found and "STORM Gale" in found
