"""Decks: the kit-demo deck (60 cards from a CSV) built and read back with pypdf, and small
decks written into tmp_path for duplex, fold-over, print-shop and error cases."""

from __future__ import annotations

import csv
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from tests.conftest import ROOT, CliRun
from tests.kit_pdf import MM, all_text, box_mm, colour_operators, drawing, game_yaml, texts, unembedded_fonts

DEMO = ROOT / "tests" / "fixtures" / "kit-demo"
CARDS = list(csv.DictReader((DEMO / "cards.csv").open(encoding="utf-8")))
A4 = (210.0, 297.0)


@pytest.fixture(scope="module")
def demo(kit_demo_print_shop: Path) -> Path:
    return kit_demo_print_shop


def close(a: tuple[float, ...], b: tuple[float, ...], tol: float = 0.1) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_demo_has_at_least_50_cards_from_csv_quantities() -> None:
    assert sum(int(row["quantity"]) for row in CARDS) == 60


def test_page_size_and_boxes_on_every_page(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-en.pdf"))
    # 60 cards, 9 per sheet: 7 sheets of fronts and backs, then the calibration sheet
    assert len(reader.pages) == 16
    for index, page in enumerate(reader.pages):
        assert close(box_mm(page.mediabox), (0, 0, *A4))
        # 3×3 poker cards butt together: a 189×264 mm block centred on A4, 3 mm bleed around;
        # the last sheet holds 6 cards (two rows)
        bottom = 104.5 if index in (12, 13) else 16.5
        assert close(box_mm(page.trimbox), (10.5, bottom, 199.5, 280.5))
        assert close(box_mm(page.bleedbox), (7.5, bottom - 3, 202.5, 283.5))


def test_first_and_last_card_positions_to_a_tenth_of_a_mm(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-en.pdf"))
    clips = [tuple(round(v / MM, 2) for v in c) for c in drawing(reader, 0).clips]
    assert len(clips) == 9  # one drawing area per card
    # card 1, top-left: bleed on its outer sides (left, top) only
    assert close(clips[0], (7.5, 192.5, 66.0, 91.0))
    # card 9, bottom-right
    assert close(clips[-1], (136.5, 13.5, 66.0, 91.0))
    # the card's own content sits where the layout puts it: the name 5 mm in, 5 mm down
    names = {text: (x / MM, y / MM) for text, x, y in texts(reader, 0)}
    assert abs(names["Ember"][0] - (10.5 + 5)) < 0.1
    last_page = 12  # sheet 7 holds cards 55-60: the last card is in slot 6 (middle row, right)
    last = [tuple(round(v / MM, 2) for v in c) for c in drawing(reader, last_page).clips]
    assert len(last) == 6
    assert close(last[-1], (136.5, 104.5, 66.0, 88.0))


def test_backs_follow_fronts_mirrored_for_long_edge_flip(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-en.pdf"))
    fronts = [tuple(round(v / MM, 2) for v in c) for c in drawing(reader, 0).clips]
    backs = [tuple(round(v / MM, 2) for v in c) for c in drawing(reader, 1).clips]
    assert len(backs) == len(fronts) == 9
    for front, back in zip(fronts, backs, strict=True):
        # same height on the sheet, x mirrored about the page's vertical centre line
        assert close((back[1], back[2], back[3]), (front[1], front[2], front[3]))
        assert abs(back[0] + back[2] - (A4[0] - front[0])) < 0.1
    assert "KIT DEMO" in reader.pages[1].extract_text()


def test_crop_marks_stay_outside_every_card(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-en.pdf"))
    page = reader.pages[0]
    x0, y0, x1, y1 = (float(v) for v in (page.bleedbox.left, page.bleedbox.bottom, page.bleedbox.right,
                                         page.bleedbox.top))
    marks = [s for s in drawing(reader, 0).segments if abs(s.width - 0.25) < 1e-6]
    # 4 vertical cut lines marked above and below, 4 horizontal ones left and right
    assert len(marks) == 16
    for m in marks:
        outside = max(m.x1, m.x2) <= x0 or min(m.x1, m.x2) >= x1 or max(m.y1, m.y2) <= y0 or min(m.y1, m.y2) >= y1
        assert outside, m
        assert min(m.x1, m.x2) >= 0 and max(m.x1, m.x2) <= A4[0] * MM
    # every cut line is marked: x of the vertical marks are the card edges
    xs = sorted({round(m.x1 / MM, 1) for m in marks if m.x1 == m.x2})
    assert xs == [10.5, 73.5, 136.5, 199.5]


def test_check_ruler_is_50_mm_on_every_page(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-en.pdf"))
    for index in range(len(reader.pages)):
        lengths = [abs(s.x2 - s.x1) + abs(s.y2 - s.y1) for s in drawing(reader, index).segments
                   if abs(s.width - 0.3) < 1e-6]
        assert any(abs(length / MM - 50) < 0.01 for length in lengths), index
        assert "print at 100%" in reader.pages[index].extract_text()


def test_every_card_text_is_present_in_both_languages(demo: Path) -> None:
    en, ja = all_text(demo / "spells-en.pdf"), all_text(demo / "spells-ja.pdf")
    for row in CARDS:
        assert row["name_en"] in en
        assert row["name_ja"] in ja
        first_words = " ".join(row["text_en"].split(":")[0].split()[:3])  # before any :icon:
        assert first_words in en
    for index in range(1, 61):
        assert f"{index}/60" in en


def test_every_font_is_embedded(demo: Path) -> None:
    for name in ("spells-en.pdf", "spells-ja.pdf", "spells-print-shop-en.pdf"):
        assert unembedded_fonts(demo / name) == []


def test_calibration_sheet_closes_the_duplex_file(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-ja.pdf"))
    front, back = drawing(reader, 14), drawing(reader, 15)
    assert "spells-backs-shifted-ja.pdf" in reader.pages[14].extract_text()  # no YAML to edit
    # the back's crosses (19 mm lines) sit at the mirror image of the front's scales' centres;
    # the first slot holds the instructions and the table of readings instead of a scale
    crosses = [s for s in back.segments if abs(abs(s.x2 - s.x1) - 19 * MM) < 0.01]
    centres = sorted(round((s.x1 + s.x2) / 2 / MM, 1) for s in crosses)
    assert centres == sorted([42.0, 105.0, 168.0] * 3)[:-1]
    # the front's x scales: ticks every 0.25 mm within ±1.5 mm of 0, every 0.5 mm beyond
    ticks = sorted({round(s.x1 / MM, 2) for s in front.segments
                    if s.x1 == s.x2 and abs(s.width - 0.12) < 1e-6 and 100 < s.x1 / MM < 110 and s.y1 < s.y2})
    steps = {round(b - a, 2) for a, b in zip(ticks, ticks[1:], strict=False)}
    assert steps == {0.25, 0.5} and {103.5, 104.75, 105.0, 105.25, 106.5, 107.0, 110.0} <= set(ticks)


def page_images(page: Any) -> list[Any]:
    """Every image a page draws, also those inside the forms it places."""
    found: list[Any] = []

    def visit(resources: Any) -> None:
        for ref in (resources or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if obj["/Subtype"] == "/Image":
                found.append(obj)
            elif obj["/Subtype"] == "/Form":
                visit(obj.get("/Resources"))

    visit(page["/Resources"])
    return found


def test_print_shop_file_one_face_per_page_cmyk(demo: Path) -> None:
    path = demo / "spells-print-shop-en.pdf"
    reader = PdfReader(str(path))
    assert len(reader.pages) == 120  # front and back of 60 cards
    for page in reader.pages[:4]:
        assert close(box_mm(page.mediabox), (0, 0, 69, 94))
        assert close(box_mm(page.bleedbox), (0, 0, 69, 94))
        assert close(box_mm(page.trimbox), (3, 3, 66, 91))
    assert colour_operators(path) <= {"k", "K", "spot:CutContour"}  # CMYK only, and the dieline
    text = all_text(path)
    assert "print at 100%" not in text  # no annotations
    assert not any(abs(s.width - 0.25) < 1e-6 for s in drawing(reader, 0).segments)  # no crop marks
    spark = 2 * 10  # card 11 (the first Spark, with a PNG picture): pages 21 and 22
    assert "Spark" in reader.pages[spark].extract_text()
    images = page_images(reader.pages[spark])  # the picture sits in a form the page places
    assert images and all(img["/ColorSpace"] == "/DeviceCMYK" for img in images)


def test_previews_svg_and_contact_sheet(demo: Path) -> None:
    import xml.etree.ElementTree as ET

    from PIL import Image

    root = ET.parse(demo / "preview" / "spells-ja.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = {el.text for el in root.iter("{http://www.w3.org/2000/svg}text")}
    for row in CARDS:
        assert row["name_ja"] in words
    assert "キット見本" in words  # the shared back, once
    with Image.open(demo / "preview" / "contact-sheet.png") as image:
        assert image.width == 1600 and image.height > 400
        colours = image.convert("RGB").getcolors(1 << 20) or []
        assert len(colours) > 20  # cards drawn, not a blank page


def test_rebuild_is_byte_identical(demo: Path, kit_demo_print_shop_rebuilt: Path) -> None:
    assert kit_demo_print_shop_rebuilt != demo  # the same build made again, into another folder
    for name in ("spells-en.pdf", "spells-ja.pdf", "spells-print-shop-ja.pdf"):
        assert (kit_demo_print_shop_rebuilt / name).read_bytes() == (demo / name).read_bytes()


# --- small decks written for one test ---------------------------------------------------


GAME = game_yaml("tiny", "deck.yaml", "{ja: 小さな, en: Tiny}", (2, 3))


def write_game(root: Path, deck: str, files: dict[str, str] | None = None) -> Path:
    folder = root / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(textwrap.dedent(deck), encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def build_tiny(root: Path, **options: object) -> Path:
    build_game(load_game(root / "content" / "tiny"),
               BuildOptions(out=root / "build", content_root=root / "content", **options))  # type: ignore[arg-type]
    return root / "build" / "tiny"


PER_CARD_BACK = """\
- type: deck
  id: numbers
  title: Numbers
  size: {width: 50, height: 70}
  cards:
    - {n: "1", quantity: players.max}
    - {n: "2", quantity: 2}
  front: [{text: "F{{ n }}-{{ copy }}", size: 8}]
  back: [{text: "B{{ index }}", size: 8}]
"""


def test_per_card_backs_land_behind_their_fronts(tmp_path: Path) -> None:
    write_game(tmp_path, PER_CARD_BACK)
    out = build_tiny(tmp_path, paper="Letter")
    reader = PdfReader(str(out / "numbers.pdf"))  # language-neutral: one file
    assert close(box_mm(reader.pages[0].mediabox), (0, 0, 215.9, 279.4))
    fronts = {t: (x, y) for t, x, y in texts(reader, 0) if not t.startswith("50 mm")}
    backs = {t: (x, y) for t, x, y in texts(reader, 1) if not t.startswith("50 mm")}
    # players.max = 3 copies of card 1, then 2 of card 2: five cards, backs B1..B5
    assert set(fronts) == {"F1-1", "F1-2", "F1-3", "F2-1", "F2-2"}
    assert set(backs) == {f"B{i}" for i in range(1, 6)}
    page_w = 215.9 * MM
    order = ["F1-1", "F1-2", "F1-3", "F2-1", "F2-2"]
    for index, name in enumerate(order, start=1):
        fx, fy = fronts[name]
        bx, by = backs[f"B{index}"]
        # the back's card is the front's card mirrored: its left edge at page_w - right edge
        assert abs(by - fy) < 0.01
        assert abs((bx - 0) - (page_w - (fx + 50 * MM))) < 0.1 * MM


def test_back_offset_moves_the_backs(tmp_path: Path) -> None:
    write_game(tmp_path, PER_CARD_BACK.replace("  size:", "  back_offset: {x: 1, y: -0.5}\n  size:"))
    out = build_tiny(tmp_path)
    shifted = {t: (x, y) for t, x, y in texts(PdfReader(str(out / "numbers.pdf")), 1)}
    plain_root = tmp_path / "plain"
    write_game(plain_root, PER_CARD_BACK)
    plain = {t: (x, y) for t, x, y in texts(PdfReader(str(build_tiny(plain_root) / "numbers.pdf")), 1)}
    # seen from the front the back sat 1 mm right and 0.5 mm low: on the back page (flipped
    # left-right) it moves 1 mm right and 0.5 mm up
    dx, dy = shifted["B1"][0] - plain["B1"][0], shifted["B1"][1] - plain["B1"][1]
    assert abs(dx / MM - 1) < 0.01 and abs(dy / MM - 0.5) < 0.01


def test_fold_over_layout_mirrors_backs_about_the_fold(tmp_path: Path) -> None:
    write_game(tmp_path, PER_CARD_BACK.replace("  front:", "  layout: foldover\n  front:"))
    out = build_tiny(tmp_path)
    reader = PdfReader(str(out / "numbers.pdf"))
    assert len(reader.pages) == 1  # 50×70 cards: 5 fronts and their backs fit one A4 sheet
    clips = [tuple(v / MM for v in c) for c in drawing(reader, 0).clips]
    assert len(clips) == 10
    page = reader.pages[0]
    trim = box_mm(page.trimbox)
    width = float(page.mediabox.right) / MM
    height = float(page.mediabox.top) / MM
    fronts, backs = clips[0::2], clips[1::2]
    # 50×70 mm on A4: the fold is level (3 columns × 2 rows above it beat any upright fold)
    fold = height / 2
    for front, back in zip(fronts, backs, strict=True):
        assert abs(front[0] - back[0]) < 0.01 and abs(front[2] - back[2]) < 0.01
        assert front[1] >= fold - 0.01 and back[1] + back[3] <= fold + 0.01
        # the back is the front's mirror image about the fold line
        assert abs((front[1] + back[1] + back[3]) / 2 - fold) < 0.1
        assert abs((front[1] + front[3] + back[1]) / 2 - fold) < 0.1
    # the fold is marked (dashed), never given a crop mark: it is folded, not cut
    marks = [m for m in drawing(reader, 0).segments if abs(m.width - 0.25) < 1e-6]
    assert marks and not any(m.y1 == m.y2 and abs(m.y1 / MM - fold) < 0.01 for m in marks)
    assert any(m.y1 == m.y2 and abs(m.y1 / MM - fold) < 0.01 for m in drawing(reader, 0).segments)
    # backs are turned by 180° (upright when the card is turned over sideways)
    tm = next(ops for ops, op in drawing(reader, 0).ops if op == b"cm" and float(ops[0]) < 0)
    assert [round(float(v)) for v in tm[:4]] == [-1, 0, 0, -1]
    assert trim[0] >= 0 and trim[2] <= width


def test_overflow_is_an_error_naming_game_component_and_card(tmp_path: Path, run_pnpgen: CliRun) -> None:
    write_game(tmp_path, """\
        - type: deck
          id: wordy
          title: Wordy
          cards:
            - {name: Short, text: "Fits."}
            - {name: Long, text: "%s"}
          front:
            - {text: "{{ name }}", h: 10}
            - {text: "{{ text }}", y: 20, h: 10, size: 9}
        """ % ("many words " * 40))
    code, out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"), "tiny")
    assert code == 2
    lines = [line for line in err.strip().splitlines() if "overflows" in line]
    assert len(lines) == 1
    assert "deck.yaml:9:" in lines[0] and "game tiny" in lines[0] and "component wordy" in lines[0]
    assert "card 2 'Long'" in lines[0]
    assert "Traceback" not in out + err
    assert not (tmp_path / "b" / "tiny" / "wordy.pdf").exists()
    # the same card fits with shrink-to-fit
    deck = (tmp_path / "content" / "tiny" / "deck.yaml")
    deck.write_text(deck.read_text().replace("size: 9}", "size: 9, shrink: true, min_size: 2}"))
    code, out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"), "tiny")
    assert code == 0, err
    assert "many words" in all_text(tmp_path / "b" / "tiny" / "wordy.pdf")


def test_validate_reports_overflow_as_a_problem(tmp_path: Path) -> None:
    from pnpgen.render.kit import check_components

    folder = write_game(tmp_path, """\
        - type: deck
          id: wordy
          title: Wordy
          cards: [{text: "%s"}]
          front: [{text: "{{ text }}", h: 5}]
        """ % ("word " * 200))
    problems = check_components(load_game(folder), [])  # a print-only game: no rules
    assert len(problems) == 1 and "overflows" in problems[0] and "card 1" in problems[0]


@pytest.mark.parametrize(
    ("csv_text", "expected"),
    [
        ("name,quantity\nA,two\n", "cards.csv:2: quantity: expected a whole number of copies, found 'two'"),
        ("name,quantity\nA,1,extra\n",
         'cards.csv:2: this row has more cells than the header row (2) (quote a cell that holds a comma: "one, two")'),
    ],
)
def test_bad_csv_names_file_and_line(tmp_path: Path, run_pnpgen: CliRun, csv_text: str, expected: str) -> None:
    write_game(tmp_path, """\
        - type: deck
          id: d
          title: D
          csv: cards.csv
          front: [{text: "{{ name }}"}]
        """, {"cards.csv": csv_text})
    code, _out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"))
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and expected in errors[0]


def test_unknown_key_and_type_have_did_you_mean(tmp_path: Path, run_pnpgen: CliRun) -> None:
    write_game(tmp_path, """\
        - type: deck
          id: d
          title: D
          cards: [{name: A}]
          frnt: [{text: "{{ name }}"}]
        """)
    code, _out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"))
    assert code == 2 and "deck.yaml:5:3: unknown key 'frnt' (did you mean 'front'?)" in err
    (tmp_path / "content" / "tiny" / "deck.yaml").write_text("- {type: dek, id: d, title: D}\n")
    code, _out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"))
    assert code == 2 and "unknown component type 'dek' (did you mean 'deck'?)" in err


def test_guides_draw_trim_and_safe_zone(tmp_path: Path) -> None:
    write_game(tmp_path, PER_CARD_BACK)
    out = build_tiny(tmp_path, guides=True)
    reader = PdfReader(str(out / "numbers-proof.pdf"))
    rects = [ops for ops, op in drawing(reader, 0).ops if op == b"re"]
    sizes = {(round(float(r[2]) / MM, 2), round(float(r[3]) / MM, 2)) for r in rects}
    assert (50.0, 70.0) in sizes  # trim
    assert (44.0, 64.0) in sizes  # safe zone, 3 mm in


def test_backs_shifted_file_moves_the_backs_for_every_reading(tmp_path: Path) -> None:
    write_game(tmp_path, PER_CARD_BACK)
    out = build_tiny(tmp_path)
    plain = {t: (x, y) for t, x, y in texts(PdfReader(str(out / "numbers.pdf")), 1)}
    shifted = PdfReader(str(out / "numbers-backs-shifted.pdf"))
    assert len(shifted.pages) == 81  # five cards on one sheet: one backs page per reading
    steps = [k / 4 for k in range(-4, 5)]  # −1 … +1 mm, 0.25 mm apart: a 0.25 mm offset is corrected
    readings = [(x, y) for y in reversed(steps) for x in steps]
    for number, (rx, ry) in enumerate(readings):
        found = {t: (x, y) for t, x, y in texts(shifted, number)}
        label = f"Backs for a reading of x {rx:+.2f} mm, y {ry:+.2f} mm · page {number + 1}/81"
        assert label in found
        # the backs page is one form, drawn once and moved on each page: where it is moved to
        ops = ContentStream(shifted.pages[number].get_contents(), shifted).operations
        [(tx, ty)] = [(float(ops[i - 1][0][4]), float(ops[i - 1][0][5])) for i, (operands, op) in enumerate(ops)
                      if op == b"Do" and str(operands[0]).startswith("/FormXob.pnpgenBacks")]
        trim = [float(v) for v in shifted.pages[number].trimbox]
        plain_trim = [float(v) for v in PdfReader(str(out / "numbers.pdf")).pages[1].trimbox]
        for name in ("B1", "B5"):
            # the back sat rx right and ry up, seen from the front; on the back page (flipped
            # left-right) it moves rx to the right and ry down
            dx, dy = (found[name][0] + tx - plain[name][0]) / MM, (found[name][1] + ty - plain[name][1]) / MM
            assert abs(dx - rx) < 0.01 and abs(dy + ry) < 0.01, (rx, ry, dx, dy)
        # the TrimBox follows the backs
        assert abs((trim[0] - plain_trim[0]) / MM - rx) < 0.01 and abs((trim[1] - plain_trim[1]) / MM + ry) < 0.01
    calibration = " ".join(t for t, _x, _y in texts(PdfReader(str(out / "numbers.pdf")), 2))
    assert "numbers-backs-shifted.pdf" in calibration and "back_offset" not in calibration
    assert "rebuild" not in calibration.replace("no rebuild needed", "")


def test_a_shared_back_needs_one_page_per_reading(demo: Path) -> None:
    reader = PdfReader(str(demo / "spells-backs-shifted-en.pdf"))
    assert len(reader.pages) == 81
    first = [t for t, _x, _y in texts(reader, 0)]
    assert first.count("KIT DEMO") == 9  # a full page of backs, whatever sheet it goes behind
