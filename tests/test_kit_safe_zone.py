"""The safe zone is enforced on every card face: text nearer the cut than `safe` (3 mm by
default) is a problem at its file:line, unless the element says `safe: off`; the shipped
games pass. Print-shop files keep the preset's 3 mm bleed even where a deck asks for less
at home. The dungeon-card back looks the same either way up."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.kit import check_components, components
from tests.conftest import ROOT
from tests.kit_pdf import game_yaml

MM = 72 / 25.4
GAME = game_yaml("tiny", "deck.yaml", "{ja: 小さな, en: Tiny}", (2, 3))


def problems_of(tmp_path: Path, layout: str, safe: str = "") -> list[str]:
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(textwrap.dedent("""\
        - type: deck
          id: d
          title: D
          %s
          cards: [{name: Ember}, {name: Gust}]
          front:
        """) % safe + textwrap.indent(textwrap.dedent(layout), "    "), encoding="utf-8")
    return check_components(load_game(folder), [])


def test_text_in_the_safe_zone_is_reported_at_its_line(tmp_path: Path) -> None:
    problems = problems_of(tmp_path, """\
        - {shape: rect, fill: "#ccddee", bleed: true}
        - {text: "{{ name }}", x: 0.8, y: 5, w: 30, h: 5, size: 8}
        - {text: "fine", x: 3, y: 10, w: 30, h: 5, size: 8}
        """)
    assert len(problems) == 1, problems
    assert "deck.yaml:8:" in problems[0] and "'Ember' comes 0.8 mm from the trim" in problems[0]
    assert "3 mm safe zone" in problems[0] and "(and 1 more card)" in problems[0]


def test_letters_are_measured_where_they_are_aligned(tmp_path: Path) -> None:
    """A box from edge to edge is fine when its centred letters keep 3 mm; turned upside
    down, a label at the top of its box lands at the bottom."""
    assert problems_of(tmp_path / "a", """\
        - {text: "{{ name }}", x: 0, y: 40, w: 63, h: 6, size: 8, align: center}
        """) == []
    turned = problems_of(tmp_path / "b", """\
        - {text: "{{ name }}", x: 10, y: 80, w: 30, h: 7.5, size: 8, upside_down: true}
        """)
    assert len(turned) == 1 and "comes 0." in turned[0]  # its letters at the box's bottom edge, 0.5 mm from the cut


def test_safe_off_and_a_smaller_safe_zone_let_text_nearer(tmp_path: Path) -> None:
    layout = """\
        - {text: "{{ name }}", x: 1.5, y: 5, w: 30, h: 5, size: 8%s}
        """
    assert problems_of(tmp_path / "a", layout % ", safe: off") == []
    assert problems_of(tmp_path / "b", layout % "", safe="safe: 1") == []
    assert len(problems_of(tmp_path / "c", layout % "")) == 1


def test_print_shop_markers_have_the_presets_3mm_bleed(tmp_path: Path) -> None:
    """Markers (and pieces) ask for 2 mm of bleed (packed tight on a home sheet); their
    print-shop file has the standard preset's 3 mm: a 12 mm marker is an 18 mm page, its
    TrimBox 3 mm in. The home sheet keeps 2 mm above and below its block."""
    content = load_game(ROOT / "content" / "dungeon-war")
    options = BuildOptions(out=tmp_path, langs=("en",), print_shop=True, content_root=ROOT / "content")
    from dataclasses import replace

    from pnpgen.render.kit import deck
    from pnpgen.render.kit.page import KitJob

    markers = next(c for c in components(content) if c["id"] == "markers")
    assert markers["bleed"] == 2
    built = deck.render(markers, KitJob(content, rules_for_content(content), options, "en"))
    page = PdfReader(built[0].path).pages[0]
    media = [float(v) / MM for v in page.mediabox]
    trim = [float(v) / MM for v in page.trimbox]
    assert media[2] - media[0] == pytest.approx(12 + 6, abs=0.01)
    assert trim[0] - media[0] == pytest.approx(3, abs=0.01) and trim[1] - media[1] == pytest.approx(3, abs=0.01)
    home = deck.render(markers, KitJob(content, rules_for_content(content), replace(options, print_shop=False), "en"))
    bleed = [float(v) / MM for v in PdfReader(home[0].path).pages[0].bleedbox]
    trim = [float(v) / MM for v in PdfReader(home[0].path).pages[0].trimbox]
    assert trim[1] - bleed[1] == pytest.approx(2, abs=0.01)  # the home sheet keeps its own 2 mm


def test_the_dungeon_card_back_looks_the_same_either_way_up() -> None:
    """The back drawn at 8 px/mm, softened by 0.4 mm (so anti-aliasing and a pixel's shift
    do not count), and turned half round: no pixel differs from itself by more than 32 of
    255. The old back, with upright text only, differed by up to 132."""
    from PIL import ImageChops, ImageFilter

    from pnpgen.render.kit.deck import element_context, expand_cards
    from pnpgen.render.kit.elements import draw_elements
    from pnpgen.render.kit.page import KitJob, Rect
    from pnpgen.render.kit.preview import Recorder, to_image

    content = load_game(ROOT / "content" / "dungeon-war")
    item = next(c for c in components(content) if c["id"] == "dungeon-cards")
    job = KitJob(content, rules_for_content(content), BuildOptions(langs=("en",)), "en")
    card = expand_cards(item, job)[0]
    w, h = 63 * MM, 42 * MM
    rec = Recorder(w, h)
    draw_elements(rec, card.back, Rect(0, 0, w, h), element_context(item, job, card, 0))  # type: ignore[arg-type]
    image = to_image(rec, 8 / MM).convert("L").filter(ImageFilter.GaussianBlur(3))
    largest = ImageChops.difference(image, image.rotate(180)).getextrema()[1]
    assert largest < 32, f"turned, the back differs by {largest} of 255"
    assert len([op for op in rec.ops if type(op).__name__ == "TextOp"]) >= 2  # it has text, both ways up


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game", ["burning-desire", "dice-road-race", "dungeon-war", "routou-dice", "fast-alone"])
def test_every_shipped_component_fits_a4_and_letter(game: str, paper: str) -> None:
    """Every component of every shipped game builds on A4 and on Letter (a component that
    names its own paper, on that one), its text in the safe zone: no problem at all. Dungeon
    War's play sheet used to be 237.3 mm tall where Letter leaves 234.9 mm (it stopped the
    all-games build); its dungeon-card names sat 0.8 mm from the cut at 4.5 pt and its piece
    labels 0.6 mm at 6 pt (moved inward)."""
    content = load_game(ROOT / "content" / game)
    assert check_components(content, rules_for_content(content), BuildOptions(paper=paper)) == []


def test_a_sheet_padding_inside_the_safe_zone_is_reported(tmp_path: Path) -> None:
    """Boards and sheets keep their content `padding` inside the trim: a padding narrower
    than the preset's safe zone (routou-dice's board had 2 mm) is a problem at its line."""
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(textwrap.dedent("""\
        - type: sheet
          id: s
          title: S
          padding: 2
          blocks: [{text: "Score"}]
        """), encoding="utf-8")
    problems = check_components(load_game(folder), [])
    assert len(problems) == 1 and "deck.yaml:4:" in problems[0] and "3 mm safe zone" in problems[0], problems
    (folder / "deck.yaml").write_text((folder / "deck.yaml").read_text().replace("padding: 2", "padding: 3"))
    assert check_components(load_game(folder), []) == []


BOARD = """\
- type: board
  id: b
  title: B
  padding: 3
  grid: {columns: 4, rows: 3, cell: 12}
  labels:
    - {axis: columns, sides: [top], size: 3, font_size: %s}
  decorations:
    - {text: "Start here", x: %s, y: 20, w: 20, h: 5, size: 7%s}
"""


def board_problems(tmp_path: Path, font: float = 6, x: float = 5, extra: str = "") -> list[str]:
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(BOARD % (font, x, extra), encoding="utf-8")
    return check_components(load_game(folder), [])


def test_board_labels_and_decorations_keep_to_the_safe_zone(tmp_path: Path) -> None:
    """A board's own text (its column labels, 14 pt in a 3 mm band, reach past the 3 mm
    padding to 1.9 mm from the cut: the font's ascent) and its decorations' text (at x 1 mm) are held to the
    safe zone, each at its line with how near it comes; `safe: off` lets a decoration in."""
    assert board_problems(tmp_path / "clean") == []
    labels = board_problems(tmp_path / "labels", font=14)
    assert len(labels) == 1, labels
    assert "deck.yaml:6:" in labels[0] and "component b" in labels[0]
    assert "'1' comes 1.9 mm from the trim, inside the 3 mm safe zone (and 3 more texts)" in labels[0]
    decoration = board_problems(tmp_path / "decoration", x=1)
    assert len(decoration) == 1 and "deck.yaml:9:" in decoration[0], decoration
    assert "'Start here' comes 1.0 mm from the trim" in decoration[0]
    assert board_problems(tmp_path / "off", x=1, extra=", safe: off") == []


def test_square_labels_keep_to_the_safe_zone(tmp_path: Path) -> None:
    """A `squares` element's labels at the foot of the bottom row (baseline 10 % of a 21 mm
    square up: their letters 1.8 mm from the cut) are a problem at the element's line; a
    `label_offset` of 3.6 mm clears them (Dungeon War's dungeon cards); `safe: off` too."""
    layout = """\
        - squares: rows
          x: 0
          y: 0
          w: 63
          h: 42%s
          codes: {F: {fill: "#eeeeee"}, W: {fill: "#88ccee", label: WATER, label_size: 6.5}}
        """
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")

    def problems(extra: str) -> list[str]:
        (folder / "deck.yaml").write_text(textwrap.dedent("""\
            - type: deck
              id: d
              title: D
              size: {width: 63, height: 42}
              cards: [{name: A, rows: [FWF, WWW]}]
              front:
            """) + textwrap.indent(textwrap.dedent(layout) % extra, "    "), encoding="utf-8")
        return check_components(load_game(folder), [])

    found = problems("")
    assert len(found) == 1 and "deck.yaml:7:" in found[0], found
    assert "the label 'WATER' comes 1.8 mm from the trim, inside the 3 mm safe zone (and 2 more of its labels)" \
        in found[0]
    assert problems("\n  label_offset: 3.6") == []
    assert problems("\n  safe: off") == []


def test_a_build_warns_of_board_text_in_the_safe_zone(tmp_path: Path) -> None:
    """The build prints the breach as a warning naming the file, component, text and mm,
    and README.txt lists it; the PDF is still written."""
    from typer.testing import CliRunner

    from pnpgen.app import app

    board_problems(tmp_path, x=1)
    result = CliRunner().invoke(app, ["build", "tiny", "--content", str(tmp_path / "content"), "--out",
                                      str(tmp_path / "out"), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "warning: b.pdf: " in result.output and "'Start here' comes 1.0 mm from the trim" in result.output
    assert "'Start here' comes 1.0 mm" in (tmp_path / "out" / "tiny" / "README.txt").read_text(encoding="utf-8")


def test_preflight_of_a_game_names_the_element_in_the_safe_zone(tmp_path: Path) -> None:
    """`pnpgen preflight GAME` lists the content's own breach beside the PDF's: file:line,
    component, text and mm (a warning: exit 0)."""
    import json
    import shutil

    from typer.testing import CliRunner

    from pnpgen.app import app

    if shutil.which("gs") is None:
        pytest.skip("Ghostscript (gs) is not installed")
    board_problems(tmp_path, x=1)
    result = CliRunner().invoke(app, ["preflight", "tiny", "--content", str(tmp_path / "content"), "--json"])
    assert result.exit_code == 0, result.output
    files = json.loads(result.stdout)["files"]
    found = [f["message"] for f in files[0]["findings"] if f["check"] == "safe zone"]
    assert files[0]["file"] == "b-print-shop.pdf"
    assert any("deck.yaml:9:" in m and "component b" in m and "'Start here' comes 1.0 mm" in m for m in found), found
