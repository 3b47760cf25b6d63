"""Dielines: a deck's `corner_radius` rounds its cut. A print-shop file strokes every card's
cut path in the Separation spot colour CutContour, overprinting; a home file draws a faint
grey guide of a rounded cut. Measured from the PDFs."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pikepdf
import pytest

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.errors import PnpgenError
from pnpgen.output import BuildOptions
from pnpgen.render.kit import components
from pnpgen.render.kit.deck import corner_radius
from tests import pdfpages
from tests.conftest import ROOT

MM = 72 / 25.4
FIXTURE = ROOT / "tests" / "fixtures" / "cut-lines"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dielines")
    build_game(load_game(FIXTURE), BuildOptions(out=out, langs=("en",), print_shop=True, content_root=FIXTURE.parent))
    return out / "cut-lines"


def corner_gap(points: list[tuple[float, float]], trim: tuple[float, float, float, float]) -> float:
    """How far (mm) a path keeps from the trim's nearest corner."""
    x0, y0, x1, y1 = trim
    return min(math.dist(p, c) for p in points for c in ((x0, y0), (x0, y1), (x1, y0), (x1, y1))) / MM


def test_print_shop_cards_carry_a_rounded_cutcontour_that_overprints(built: Path) -> None:
    path = built / "poker-cards-print-shop.pdf"
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            spaces = [list(cs) for cs in page.Resources.ColorSpace.values()]
            assert any(cs[0] == "/Separation" and cs[1] == "/CutContour" for cs in spaces)
            states = list(page.Resources.ExtGState.values())
            assert any(s.get("/OP") is True for s in states) and any(s.get("/OPM") == 1 for s in states)
    for page in pdfpages.pages(path):
        trim = (page.trimbox[0], page.height - page.trimbox[3], page.trimbox[2], page.height - page.trimbox[1])
        cut = [c for c in page.curves if abs(c["x0"] - trim[0]) < 0.2 and abs(c["x1"] - trim[2]) < 0.2
               and abs(c["linewidth"] - 0.25) < 0.01]
        assert len(cut) == 1, page.page_number
        points = [(x, page.height - y) for x, y in cut[0]["pts"]]
        # the path's straight sides stop 3 mm short of each corner of the trim, where its arcs begin
        assert corner_gap(points, (trim[0], page.height - trim[3], trim[2], page.height - trim[1])) == \
            pytest.approx(3.0, abs=0.02)


def test_square_cards_and_pieces_carry_a_rectangular_cutcontour(built: Path) -> None:
    """A piece's print-shop page: 20 × 62 mm plus the preset's 3 mm bleed (it asks for 2 mm
    at home), its cut path a rectangle on the TrimBox in CutContour."""
    path = built / "pieces-print-shop.pdf"
    with pikepdf.open(path) as pdf:
        page = pdf.pages[0]
        assert any(list(cs)[1] == "/CutContour" for cs in page.Resources.ColorSpace.values())
    page = pdfpages.pages(path)[0]
    assert page.width == pytest.approx(26 * MM, abs=0.01) and page.height == pytest.approx(68 * MM, abs=0.01)
    cut = [r for r in page.rects if abs(r["linewidth"] - 0.25) < 0.01]
    assert len(cut) == 1
    assert (cut[0]["x0"], cut[0]["x1"]) == pytest.approx((3 * MM, 23 * MM), abs=0.01)
    assert (cut[0]["top"], cut[0]["bottom"]) == pytest.approx((3 * MM, 65 * MM), abs=0.01)


def test_home_files_draw_a_faint_guide_of_the_rounded_cut_and_no_spot_colour(built: Path) -> None:
    path = built / "poker-cards.pdf"
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            spaces = page.Resources.get("/ColorSpace") or {}
            assert not any("/CutContour" in str(list(cs)) for cs in spaces.values())
    page = pdfpages.pages(path)[0]
    guides = [c for c in page.curves if c["stroking_color"] == (0.72, 0.72, 0.72)]
    assert len(guides) == 9  # one per card of the 3 × 3 sheet
    for guide in guides:
        assert guide["x1"] - guide["x0"] == pytest.approx(63 * MM, abs=0.1)
        assert guide["bottom"] - guide["top"] == pytest.approx(88 * MM, abs=0.1)
    tiles = pdfpages.pages(built / "tiles.pdf")[0]  # square corners: the crop marks are enough
    assert not [c for c in tiles.curves if c["stroking_color"] == (0.72, 0.72, 0.72)]


@pytest.mark.parametrize(("value", "expected"), [(3, 3.0), ("3mm", 3.0), ("2.5 mm", 2.5), (0, 0.0)])
def test_corner_radius_is_a_number_or_a_length_in_mm(value: object, expected: float) -> None:
    assert corner_radius({"corner_radius": value}, (63, 88)) == expected


@pytest.mark.parametrize(("value", "message"), [("3in", "is not a length"), (40, "half the card's shorter side")])
def test_a_bad_corner_radius_is_an_error_at_its_line(tmp_path: Path, value: object, message: str) -> None:
    folder = tmp_path / "cut-lines"
    folder.mkdir()
    (folder / "game.yaml").write_text((FIXTURE / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "components.yaml").write_text(textwrap.dedent(f"""\
        - type: deck
          id: d
          title: D
          corner_radius: {value}
          cards: [{{n: 1}}]
          front: [{{text: "x", x: 5, y: 5, w: 10, h: 5}}]
        """), encoding="utf-8")
    content = load_game(folder)
    with pytest.raises(PnpgenError) as error:
        build_game(content, BuildOptions(out=tmp_path / "out", langs=("en",), content_root=tmp_path))
    assert "components.yaml:4:" in str(error.value) and message in str(error.value)
    assert components(content)  # the schema takes both forms
