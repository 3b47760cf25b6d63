"""Marks a printer can print, measured from the PDFs: every crop mark and check ruler of
every home-print component page lies at least 5 mm inside the paper, on A4 and Letter;
home files ask viewers not to scale, and duplex decks name their flip edge."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from tests import pdfpages
from tests.conftest import ROOT

MM = 72 / 25.4
GAMES = [ROOT / "tests" / "fixtures" / "kit-demo", ROOT / "content" / "burning-desire",
         ROOT / "content" / "dice-road-race", ROOT / "content" / "routou-dice",
         ROOT / "tests" / "fixtures" / "full-tiles",  # tiles as large as the printable area: no room above
         ROOT / "tests" / "fixtures" / "cut-lines"]  # cards, pieces, tiles and markers outlined at their trims


def mark_points(reader: PdfReader, page_number: int) -> list[tuple[float, float]]:
    """Every point the page's marks form (crop marks, ruler lines, ruler label origins)
    draws, in page coordinates."""
    page = reader.pages[page_number]
    xobjects = page["/Resources"].get_object().get("/XObject") or {}
    points: list[tuple[float, float]] = []
    for name, ref in xobjects.items():
        if not name.startswith("/FormXob.pnpgenMarks") and "pnpgenMarks" not in name:
            continue
        form = ref.get_object()
        ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        stack: list[list[float]] = []

        def apply(x: float, y: float, ctm: list[float]) -> tuple[float, float]:
            a, b, c, d, e, f = ctm
            return (a * x + c * y + e, b * x + d * y + f)

        for operands, op in ContentStream(form, reader).operations:
            if op == b"q":
                stack.append(list(ctm))
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                a2, b2, c2, d2, e2, f2 = (float(v) for v in operands)
                a, b, c, d, e, f = ctm
                ctm = [a2 * a + b2 * c, a2 * b + b2 * d, c2 * a + d2 * c, c2 * b + d2 * d,
                       e2 * a + f2 * c + e, e2 * b + f2 * d + f]
            elif op in (b"m", b"l"):
                points.append(apply(float(operands[0]), float(operands[1]), ctm))
            elif op == b"Tm":
                points.append(apply(float(operands[4]), float(operands[5]), ctm))
    return points


HomeBuild = Callable[[str], tuple[Path, list[Path]]]


@pytest.fixture(scope="module")
def home_build(tmp_path_factory: pytest.TempPathFactory) -> HomeBuild:
    """The games' home-print files on a paper (English), built once per paper for this module:
    (the folder, every component PDF)."""
    built: dict[str, tuple[Path, list[Path]]] = {}

    def build(paper: str) -> tuple[Path, list[Path]]:
        if paper not in built:
            out = tmp_path_factory.mktemp(paper)
            pdfs: list[Path] = []
            for folder in GAMES:
                files = build_game(load_game(folder), BuildOptions(out=out, paper=paper, langs=("en",),
                                                                   content_root=folder.parent))
                pdfs += [f.path for f in files if f.path.suffix == ".pdf" and not f.kind.startswith("rulebook")]
            built[paper] = (out, pdfs)
        return built[paper]

    return build


@pytest.fixture(scope="module", params=["A4", "Letter"])
def component_pdfs(request: pytest.FixtureRequest, home_build: HomeBuild) -> list[Path]:
    """Every home-print component PDF of the games, built once per paper (English)."""
    return home_build(request.param)[1]


def test_every_mark_is_at_least_5mm_from_the_paper_edge(component_pdfs: list[Path]) -> None:
    measured = 0
    nearest = 1e9
    for path in component_pdfs:
        reader = PdfReader(path)
        for number, page in enumerate(reader.pages):
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            for x, y in mark_points(reader, number):
                gap = min(x, y, width - x, height - y) / MM
                nearest = min(nearest, gap)
                measured += 1
                assert gap >= 5.0 - 0.01, f"{path.name} page {number + 1}: a mark {gap:.2f} mm from the edge"
    assert measured > 500 and nearest < 8  # marks were found, and some sit near the limit


def test_no_text_is_within_5mm_of_the_paper_edge(component_pdfs: list[Path]) -> None:
    """Every letter on a home-print component page (tile captions, notes, card text) is
    where an inkjet prints: at least 5 mm from every paper edge (measured by the font's
    box, as pdfplumber gives it). The full-tiles fixture's tiles fill the printable area,
    so their captions have no room above the bleed: 2.8 mm from the edge with the old
    caption placement (3 mm to its baseline), 4.8 mm with its top guessed at 0.8 × size."""
    checked = 0
    nearest = 1e9
    for path in component_pdfs:
        for number, page in enumerate(pdfpages.pages(path)):
            for char in page.chars:
                x0, x1, y0, y1 = char["x0"], char["x1"], page.height - char["bottom"], page.height - char["top"]
                gap = min(x0, y0, page.width - x1, page.height - y1) / MM
                if gap < 0:
                    continue  # a board's letters beyond this tile, clipped away
                checked += 1
                nearest = min(nearest, gap)
                assert gap >= 5.0 - 0.05, (f"{path.name} page {number + 1}: {char['text']!r} "
                                           f"{gap:.2f} mm from the paper edge")
    assert checked > 100
    assert nearest < 5.1  # full-tiles: a caption above a tile as tall as the printable area sits at the limit


CUT = (1, 0, 1)  # the cut-lines fixture outlines every trim in magenta


def cut_lines(page: Any) -> tuple[list[float], list[float], tuple[float, float, float, float]] | None:
    """The x of every vertical and y of every level cut line of a page (points, origin
    bottom-left), read from the trims outlined in magenta, and the block they span."""
    trims = [r for r in page.rects if tuple(r.get("stroking_color") or ()) == CUT]
    if not trims:
        return None
    height = page.height
    xs = sorted({round(v, 2) for r in trims for v in (r["x0"], r["x1"])})
    ys = sorted({round(height - v, 2) for r in trims for v in (r["top"], r["bottom"])})
    return xs, ys, (xs[0], ys[0], xs[-1], ys[-1])


def test_every_cut_line_is_marked_at_both_ends(component_pdfs: list[Path]) -> None:
    """Every cut line of every sheet of cards, pieces, tiles and markers (the cut-lines
    fixture) has a crop mark at both ends, in the margin, on A4 and on Letter; a fold line
    has its dashed stubs instead. On Letter a 3 × 3 sheet of poker cards leaves 7.7 mm
    above and below: the marks there used to be dropped (no room beyond a 3 mm bleed), and
    the bleed at that edge now gives way to them. The backs-shifted files are left out:
    their marks stay where the fronts' cut is, by design, while their backs move."""
    checked = 0
    for path in component_pdfs:
        if path.parent.name != "cut-lines" or "backs-shifted" in path.name:
            continue
        for number, page in enumerate(pdfpages.pages(path)):
            found = cut_lines(page)
            if found is None:
                continue  # the calibration sheet
            xs, ys, (x0, y0, x1, y1) = found
            height = page.height
            crops = [(ln["x0"], height - ln["bottom"], ln["x1"], height - ln["top"]) for ln in page.lines
                     if abs(ln["linewidth"] - 0.25) < 0.01]
            folds = [(ln["x0"], height - ln["bottom"], ln["x1"], height - ln["top"]) for ln in page.lines
                     if abs(ln["linewidth"] - 0.4) < 0.01]
            for x in xs:
                on = [m for m in crops
                      if abs(m[0] - x) < 0.1 and abs(m[2] - x) < 0.1 and m[3] - m[1] >= 1.5 * MM - 0.1]
                if any(abs(m[0] - x) < 0.1 and abs(m[2] - x) < 0.1 for m in folds):
                    continue  # the fold line of a fold-over page
                assert any(m[3] <= y0 for m in on) and any(m[1] >= y1 for m in on), (
                    f"{path.parent.parent.name}/{path.name} page {number + 1}: the cut at x = {x / MM:.1f} mm "
                    "lacks a crop mark at one end")
                checked += 1
            for y in ys:
                on = [m for m in crops
                      if abs(m[1] - y) < 0.1 and abs(m[3] - y) < 0.1 and m[2] - m[0] >= 1.5 * MM - 0.1]
                if any(abs(m[1] - y) < 0.1 and abs(m[3] - y) < 0.1 for m in folds):
                    continue
                assert any(m[2] <= x0 for m in on) and any(m[0] >= x1 for m in on), (
                    f"{path.parent.parent.name}/{path.name} page {number + 1}: the cut at y = {y / MM:.1f} mm "
                    "lacks a crop mark at one end")
                checked += 1
    assert checked > 100


def test_letter_poker_sheets_give_the_bleed_up_for_the_marks(component_pdfs: list[Path]) -> None:
    """Letter, 3 × 3 poker cards: 7.7 mm from the trims to the paper edge above and below.
    The BleedBox shows the bleed kept there: the crop marks need 7.5 mm (5 mm the printer
    cannot print, 1 mm gap, 1.5 mm of mark), so 0.2 mm is left; left and right keep 3 mm."""
    path = next(p for p in component_pdfs if p.name == "poker-cards.pdf")
    page = PdfReader(path).pages[0]
    trim = [float(v) / MM for v in page.trimbox]
    bleed = [float(v) / MM for v in page.bleedbox]
    media = [float(v) / MM for v in page.mediabox]
    if abs(media[3] - 279.4) > 0.1:
        assert bleed[1] == pytest.approx(trim[1] - 3, abs=0.01)  # A4: room for the full bleed
        return
    assert trim[1] == pytest.approx(7.7, abs=0.01)
    assert trim[1] - bleed[1] == pytest.approx(0.2, abs=0.01)
    assert trim[0] - bleed[0] == pytest.approx(3.0, abs=0.01)


def test_viewer_preferences_ask_for_actual_size_and_the_duplex_edge(home_build: HomeBuild) -> None:
    out = home_build("A4")[0]  # the default paper: kit-demo as `build --lang en` makes it
    for path in sorted((out / "kit-demo").glob("*.pdf")):
        if path.name.startswith(("rulebook", "companion")):
            continue
        prefs = PdfReader(path).trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None", path.name
        if path.name.startswith("spells") and "backs-shifted" not in path.name:  # a duplex deck, long edge
            assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
        else:
            assert "/Duplex" not in prefs, path.name


SLUG = {"en": "PROOF — do not print", "ja": "校正刷り — 印刷しないでください"}


def slugs(path: Path, slug: str) -> list[list[tuple[float, float, float]]]:
    """Each page's printings of `slug` (case kept), each as the origin of its first letter in
    page coordinates and its font size, read by pypdfium2: on the proofs the same printings
    and numbers (to 0.0001 pt) as pypdf's text visitor gives, for a fiftieth of the CPU."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(path)
    pages = []
    for index in range(len(doc)):
        text = doc[index].get_textpage()
        found = []
        search = text.search(slug, match_case=True)
        while (hit := search.get_next()) is not None:
            x, y = ctypes.c_double(), ctypes.c_double()
            assert raw.FPDFText_GetCharOrigin(text, hit[0], x, y)
            found.append((x.value, y.value, float(raw.FPDFText_GetFontSize(text, hit[0]))))
        pages.append(found)
    doc.close()
    return pages


def test_every_proof_page_carries_the_slug_outside_the_trim(tmp_path: Path) -> None:
    demo = GAMES[0]
    build_game(load_game(demo), BuildOptions(out=tmp_path, guides=True, content_root=demo.parent))
    proofs = sorted((tmp_path / "kit-demo").glob("*-proof-*.pdf"))
    assert len(proofs) == 12 and not list((tmp_path / "kit-demo").glob("*[!f]-en.pdf"))  # proofs only
    for path in proofs:
        reader = PdfReader(path)
        found = slugs(path, SLUG[path.stem.rsplit("-", 1)[1]])  # x, y of the text origin, its font size
        assert len(found) == len(reader.pages), path.name
        for number, page in enumerate(reader.pages):
            assert len(found[number]) == 1, (path.name, number)
            x, y, size = found[number][0]
            trim = [float(v) for v in page.trimbox]
            media = [float(v) for v in page.mediabox]
            above_or_below = y > trim[3] + 1 or y + size < trim[1] - 1
            beside = x > trim[2] + 1 or x + size < trim[0] - 1
            assert above_or_below or beside, (path.name, number, x / MM, y / MM, [t / MM for t in trim])
            assert media[0] + 5 * MM - 1 <= x <= media[2] - 5 * MM + 1, (path.name, number)
            assert media[1] + 5 * MM - 1 <= y <= media[3] - 5 * MM + 1, (path.name, number)


def test_home_files_carry_no_proof_slug(home_build: HomeBuild) -> None:
    for path in sorted((home_build("A4")[0] / "kit-demo").glob("*.pdf")):
        assert not any(slugs(path, SLUG["en"])), path.name
