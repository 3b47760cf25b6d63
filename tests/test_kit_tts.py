"""Tabletop Simulator export (`build --tts`): the saved-object JSON read back against the
fields TTS documents (kb.tabletopsimulator.com: Custom Deck, Save File Format), the sheets
measured (grid × card pixels) and sampled cell by cell for card order."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.kit.tts import COLUMNS, ROWS, SHEET_SIDE, card_pixels, grid_for
from tests.conftest import CliRun
from tests.kit_pdf import game_yaml

GAME = game_yaml("tiny", "[decks.yaml, board.yaml]", "{ja: 小さな, en: Tiny}")
DECKS = """\
- type: deck          # 75 cards, each its own colour: two sheets (69 + 6)
  id: colours
  title: Colours
  csv: colours.csv
  front: [{shape: rect, fill: "{{ colour }}", bleed: true}]
  back: [{shape: rect, fill: "#102030", bleed: true}]
- type: deck          # 3 kinds × 18 copies: one small sheet, CardIDs repeated
  id: kinds
  title: Kinds
  size: {width: 88, height: 63}
  cards:
    - {name: Ship, colour: "#aa0000", quantity: 18}
    - {name: Lighthouse, colour: "#00aa00", quantity: 18}
    - {name: Storm, colour: "#0000aa", quantity: 18}
  front: [{shape: rect, fill: "{{ colour }}", bleed: true}, {text: "{{ name }}", x: 5, y: 5, w: 60, h: 10}]
- type: deck          # backs that differ per card: back sheets
  id: numbered
  title: Numbered
  size: mini
  cards: [{n: "1", quantity: 2}, {n: "2"}]
  front: [{shape: rect, fill: "#ffffff"}, {text: "F{{ n }}", size: 8}]
  back: [{shape: rect, fill: "#333333", bleed: true}, {text: "B{{ index }}", size: 8, color: white}]
"""
BOARD = """\
- type: board
  id: track
  title: Track
  grid: {columns: 4, rows: 3, cell: 20}
"""


def colour(i: int) -> tuple[int, int, int]:
    return (i * 3 % 256, 255 - i * 3 % 256, i * 37 % 256)


def hexcolour(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def write_game(root: Path) -> Path:
    folder = root / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "decks.yaml").write_text(textwrap.dedent(DECKS), encoding="utf-8")
    (folder / "board.yaml").write_text(textwrap.dedent(BOARD), encoding="utf-8")
    rows = "".join(f"{i},{hexcolour(colour(i))}\n" for i in range(75))
    (folder / "colours.csv").write_text("id,colour\n" + rows, encoding="utf-8")
    return folder


def build(root: Path, out: Path, **options: Any) -> Path:
    build_game(load_game(root / "content" / "tiny"),
               BuildOptions(out=out, content_root=root / "content", tts=True, langs=("en",), **options))
    return out / "tiny" / "tts"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tts")
    write_game(root)
    return build(root, root / "build")


def saved(tts: Path, name: str) -> dict[str, Any]:
    data = json.loads((tts / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(unquote(parsed.path))


def check_custom_deck(entry: dict[str, Any]) -> None:
    """One CustomDeck entry: the fields and types TTS's Custom Deck documents."""
    assert set(entry) == {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}
    assert isinstance(entry["FaceURL"], str) and isinstance(entry["BackURL"], str)
    assert type(entry["NumWidth"]) is int and 1 <= entry["NumWidth"] <= COLUMNS
    assert type(entry["NumHeight"]) is int and 1 <= entry["NumHeight"] <= ROWS
    assert entry["BackIsHidden"] is True and isinstance(entry["UniqueBack"], bool)
    assert entry["Type"] == 0


def deck_object(data: dict[str, Any], cards: int) -> dict[str, Any]:
    assert isinstance(data["SaveName"], str) and len(data["ObjectStates"]) == 1
    deck = data["ObjectStates"][0]
    assert deck["Name"] == "Deck"
    assert set(deck["Transform"]) == {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == cards
    for entry in deck["CustomDeck"].values():
        check_custom_deck(entry)
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"], strict=True):
        assert card["Name"] == "Card" and card["CardID"] == card_id and type(card_id) is int
        ident, slot = divmod(card_id, 100)
        entry = deck["CustomDeck"][str(ident)]
        assert card["CustomDeck"] == {str(ident): entry}
        assert slot < entry["NumWidth"] * entry["NumHeight"] - 1  # never the hidden slot
    return deck


def cell_centre(sheet: Image.Image, slot: int, columns: int, size: tuple[int, int]) -> tuple[int, int, int]:
    x, y = (slot % columns) * size[0] + size[0] // 2, (slot // columns) * size[1] + size[1] // 2
    pixel = sheet.getpixel((x, y))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def test_card_pixels_fit_a_full_sheet_under_4096() -> None:
    assert card_pixels((63, 88)) == (409, 571)  # poker, about 165 ppi
    for card in ((63, 88), (88, 63), (44, 63), (70, 120), (120, 70), (50, 50)):
        w, h = card_pixels(card)
        assert w * COLUMNS <= SHEET_SIDE and h * ROWS <= SHEET_SIDE
        assert abs(w / h - card[0] / card[1]) < 0.01
    assert card_pixels((63, 88), (4, 1)) == (744, 1039)  # a small deck: 300 ppi
    assert card_pixels((88, 63), (6, 1)) == (682, 488)  # ... unless 6 across would pass 4096
    assert grid_for(69) == (10, 7) and grid_for(6) == (4, 2) and grid_for(12) == (5, 3)
    # the grid giving the most pixels a card: a 16-card deck is 5 × 4, not 10 × 2 (409 × 571 px)
    assert grid_for(16) == (5, 4) and card_pixels((63, 88), (5, 4)) == (733, 1024)
    assert grid_for(3, (88, 63)) == (2, 2) and card_pixels((88, 63), (2, 2)) == (1039, 744)


def test_75_cards_split_over_two_sheets_in_card_order(built: Path) -> None:
    deck = deck_object(saved(built, "colours"), 75)  # CSV rows × copies
    entries = deck["CustomDeck"]
    assert list(entries) == ["1", "2"]  # deck ids, one per sheet
    assert deck["DeckIDs"] == [100 + i for i in range(69)] + [200 + i for i in range(6)]
    assert (entries["1"]["NumWidth"], entries["1"]["NumHeight"]) == (10, 7)
    assert (entries["2"]["NumWidth"], entries["2"]["NumHeight"]) == (4, 2)  # 6 cards + the hidden slot
    size = card_pixels((63, 88))
    sizes = {"1": size, "2": card_pixels((63, 88), (4, 2))}  # each sheet at its own grid's best
    sheets = {key: Image.open(local(entry["FaceURL"])) for key, entry in entries.items()}
    back = Image.open(local(entries["1"]["BackURL"]))
    assert back.size == size and back.mode == "RGB" and back.getpixel((size[0] // 2, size[1] // 2)) == (16, 32, 48)
    for key, sheet in sheets.items():
        entry = entries[key]
        assert sheet.mode == "RGB"
        assert sheet.size == (entry["NumWidth"] * sizes[key][0], entry["NumHeight"] * sizes[key][1])
        hidden = entry["NumWidth"] * entry["NumHeight"] - 1
        assert cell_centre(sheet, hidden, entry["NumWidth"], sizes[key]) == (16, 32, 48)  # the back
    for index, card_id in enumerate(deck["DeckIDs"]):
        ident, slot = divmod(card_id, 100)
        size = sizes[str(ident)]
        assert cell_centre(sheets[str(ident)], slot, entries[str(ident)]["NumWidth"], size) == colour(index)
        # the whole cell is the card, cut at the trim: its corners carry its colour too
        x0, y0 = (slot % entries[str(ident)]["NumWidth"]) * size[0], (slot // entries[str(ident)]["NumWidth"]) * size[1]
        assert sheets[str(ident)].getpixel((x0 + 1, y0 + 1)) == colour(index)
        assert sheets[str(ident)].getpixel((x0 + size[0] - 2, y0 + size[1] - 2)) == colour(index)


def test_copies_share_a_slot_and_deck_ids_run_on(built: Path) -> None:
    deck = deck_object(saved(built, "kinds"), 54)
    assert list(deck["CustomDeck"]) == ["3"]  # after the colours deck's 1 and 2
    assert deck["DeckIDs"] == [300] * 18 + [301] * 18 + [302] * 18
    assert [c["Nickname"] for c in deck["ContainedObjects"][::18]] == ["Ship", "Lighthouse", "Storm"]
    assert deck["SidewaysCard"] is True  # an 88×63 card lies sideways
    entry = deck["CustomDeck"]["3"]
    assert (entry["NumWidth"], entry["NumHeight"], entry["UniqueBack"]) == (2, 2, False)
    size = card_pixels((88, 63), (2, 2))  # 3 different cards (copies drawn alike) and the hidden slot
    sheet = Image.open(local(entry["FaceURL"]))
    assert sheet.size == (2 * size[0], 2 * size[1]) and size == (1039, 744)
    # sample below the name, where only the kind's colour is
    assert [sheet.getpixel((k % 2 * size[0] + size[0] // 2, k // 2 * size[1] + size[1] * 3 // 4))
            for k in range(3)] == [
        (170, 0, 0), (0, 170, 0), (0, 0, 170)]


def test_per_card_backs_go_on_back_sheets(built: Path) -> None:
    deck = deck_object(saved(built, "numbered"), 3)
    entry = deck["CustomDeck"]["4"]
    assert entry["UniqueBack"] is True and deck["DeckIDs"] == [400, 401, 402]  # backs B1, B2 differ
    faces, backs = Image.open(local(entry["FaceURL"])), Image.open(local(entry["BackURL"]))
    size = card_pixels((44, 63), (4, 1))
    assert size == (519, 743)  # 300 ppi (44 mm = 519.7 px, down to whole pixels)
    assert faces.size == backs.size == (4 * size[0], size[1])
    assert local(entry["BackURL"]).name == "numbered-backs-1.png"


def test_board_image_and_custom_board(built: Path) -> None:
    data = saved(built, "track")
    board = data["ObjectStates"][0]
    assert board["Name"] == "Custom_Board" and board["Nickname"] == "Track"
    image = Image.open(local(board["CustomImage"]["ImageURL"]))
    assert image.mode == "RGB" and max(image.size) <= SHEET_SIDE


def test_files_listed_in_readme_and_nothing_else_written(built: Path) -> None:
    readme = (built.parent / "README.txt").read_text(encoding="utf-8")
    names = sorted(p.name for p in built.iterdir())
    assert names == sorted(["colours-back.png", "colours-faces-1.png", "colours-faces-2.png", "colours.json",
                            "kinds-back.png", "kinds-faces-1.png", "kinds.json", "numbered-faces-1.png",
                            "numbered-backs-1.png", "numbered.json", "track.png", "track.json", "table.json"])
    for name in names:
        assert f"tts/{name}" in readme
    assert "Tabletop Simulator" in readme and "--tts-base-url" in readme


def test_rebuild_is_byte_identical_and_base_url_is_used(built: Path, tmp_path: Path) -> None:
    root = tmp_path
    write_game(root)
    first = build(root, root / "a", tts_base_url="https://example.org/tiny")
    second = build(root, root / "b", tts_base_url="https://example.org/tiny")
    for path in sorted(p for p in first.rglob("*") if p.is_file()):
        assert (second / path.relative_to(first)).read_bytes() == path.read_bytes(), path.name
    for path in sorted(built.glob("*.png")):  # the default build's pictures: the same bytes
        assert (first / path.name).read_bytes() == path.read_bytes(), path.name
    entry = saved(first, "colours")["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/tiny/colours-faces-1.png"
    assert b"tEXt" not in (first / "colours-faces-1.png").read_bytes()  # no date or text chunks
    # packed for TTS's local mod folder: each picture under the name TTS's cache gives its URL
    cached = first / "Mods" / "Images" / "httpsexampleorgtinycoloursfaces1png.png"
    assert cached.read_bytes() == (first / "colours-faces-1.png").read_bytes()
    pictures = sorted(p.name for p in first.glob("*.png"))
    assert len(list((first / "Mods" / "Images").iterdir())) == len(pictures)
    readme = (first.parent / "README.txt").read_text(encoding="utf-8")
    assert "tts/Mods/Images/httpsexampleorgtinycoloursfaces1png.png" in readme


def test_cli_flags_and_bad_base_url_is_one_line_exit_2(run_pnpgen: CliRun, tmp_path: Path) -> None:
    write_game(tmp_path)
    args = ("build", "tiny", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "build"), "--lang", "en")
    code, _out, err = run_pnpgen(*args, "--tts-base-url", "ftp://host/x")
    assert code == 2 and "--tts-base-url" in err and "Traceback" not in err
    assert not (tmp_path / "build" / "tiny").exists()  # refused before anything is written
    code, _out, _err = run_pnpgen(*args, "--tts-base-url", "https://example.org/t")  # implies --tts
    entry = saved(tmp_path / "build" / "tiny" / "tts", "kinds")["ObjectStates"][0]["CustomDeck"]["3"]
    assert code == 0 and entry["BackURL"] == "https://example.org/t/kinds-back.png"
    code, _out, _err = run_pnpgen(*args)  # without --tts: the TTS files go
    assert code == 0 and not (tmp_path / "build" / "tiny" / "tts").exists()


def test_per_type_layouts_are_exported_card_by_card(tmp_path: Path) -> None:
    """The harbour deck picks each card's front by its type (layouts.yaml): 54 cards, and
    the cells of a ship, a lighthouse and a storm are drawn from three different layouts."""
    fixture = Path(__file__).parent / "fixtures" / "harbour"
    build_game(load_game(fixture), BuildOptions(out=tmp_path, content_root=fixture.parent, tts=True, langs=("en",)))
    tts = tmp_path / "harbour" / "tts"
    deck = deck_object(saved(tts, "harbour-en"), 54)
    ((ident, entry),) = deck["CustomDeck"].items()
    sheet = Image.open(local(entry["FaceURL"])).convert("RGB")
    size = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
    cells = [sheet.crop(((slot % entry["NumWidth"]) * size[0], (slot // entry["NumWidth"]) * size[1],
                         (slot % entry["NumWidth"] + 1) * size[0], (slot // entry["NumWidth"] + 1) * size[1]))
             for slot in sorted({card_id % 100 for card_id in deck["DeckIDs"]})]
    assert len(cells) == 18  # 18 kinds of card (3 copies each) in the CSV
    kinds = {cell.getpixel((2, 2)) for cell in cells}  # the card's edge: each layout's own colour
    assert len(kinds) == 3, kinds


PIECES_GAME = game_yaml("figures", "[parts.yaml]", "{ja: 駒, en: Figures}", (2, 2))
PARTS = """\
- type: deck                # fold-over standees: the face above the fold is drawn upside down
  id: pieces
  title: Pieces
  size: {width: 20, height: 44}
  cards:
    - {team: Red, piece: Knight, colour: "#cc0000", quantity: 2}
    - {team: Blue, piece: Knight, colour: "#0000cc"}
  front:
    - {shape: rect, x: 0, y: 0, w: 20, h: 22, fill: "#00cc00", upside_down: true}
    - {shape: rect, x: 0, y: 22, w: 20, h: 22, fill: "{{ colour }}"}
    - {text: "{{ piece }} {{ team }}", x: 0, y: 30, w: 20, h: 5, size: 6, align: center}
- type: deck                # round markers
  id: markers
  title: Markers
  size: {width: 12, height: 12}
  cards: [{track: Gold, colour: "#ddaa00"}]
  front:
    - {shape: circle, x: 0.5, y: 0.5, w: 11, h: 11, fill: "{{ colour }}"}
    - {text: "{{ track }}", x: 1, y: 4, w: 10, h: 4, size: 5, align: center}
- type: sheet
  id: aid
  title: "[#aa0000]Player[/] aid"
  size: {width: 100, height: 70}
  blocks: [{text: "Hello"}]
"""


@pytest.fixture(scope="module")
def figures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("figures")
    folder = root / "content" / "figures"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(PIECES_GAME, encoding="utf-8")
    (folder / "parts.yaml").write_text(textwrap.dedent(PARTS), encoding="utf-8")
    build_game(load_game(folder), BuildOptions(out=root / "build", content_root=root / "content", tts=True,
                                               langs=("en",)))
    return root / "build" / "figures" / "tts"


def test_standees_are_figurines_with_both_faces_named_from_content(figures: Path) -> None:
    bag = saved(figures, "pieces")["ObjectStates"][0]
    assert bag["Name"] == "Bag" and bag["Nickname"] == "Pieces"
    objects = bag["ContainedObjects"]
    assert [o["Name"] for o in objects] == ["Figurine_Custom"] * 3  # one per copy
    assert [o["Nickname"] for o in objects] == ["Red Knight", "Red Knight", "Blue Knight"]
    first, copy, blue = (o["CustomImage"] for o in objects)
    assert first == copy and first["ImageURL"] != blue["ImageURL"]  # copies share their pictures
    front, back = Image.open(local(first["ImageURL"])), Image.open(local(first["ImageSecondaryURL"]))
    assert front.mode == back.mode == "RGBA" and front.size == back.size == (400, 440)  # the 20 × 22 mm face
    assert front.getpixel((200, 400))[:3] == (204, 0, 0) and back.getpixel((200, 220))[:3] == (0, 204, 0)


def test_markers_are_round_tokens_cut_out(figures: Path) -> None:
    bag = saved(figures, "markers")["ObjectStates"][0]
    (token,) = bag["ContainedObjects"]
    assert token["Name"] == "Custom_Token" and token["Nickname"] == "Gold"
    assert token["CustomImage"]["CustomToken"]["Stackable"] is True
    image = Image.open(local(token["CustomImage"]["ImageURL"]))
    assert image.mode == "RGBA" and image.size == (220, 220)
    assert image.getpixel((1, 1))[3] == 0  # the corner: transparent
    assert image.getpixel((110, 30)) == (221, 170, 0, 255)  # inside the circle: the colour, opaque


def test_sheets_are_tiles_and_the_table_holds_everything(figures: Path) -> None:
    tile = saved(figures, "aid")["ObjectStates"][0]
    assert tile["Name"] == "Custom_Tile" and tile["Nickname"] == "Player aid"
    assert Image.open(local(tile["CustomImage"]["ImageURL"])).size == (1000, 700)  # 10 px/mm
    table = saved(figures, "table")["ObjectStates"]
    assert [(o["Name"], o["Nickname"]) for o in table] == [("Bag", "Pieces"), ("Bag", "Markers"),
                                                           ("Custom_Tile", "Player aid")]
    assert len({(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in table}) == 3  # laid apart
