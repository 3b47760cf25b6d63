"""`pnpgen preflight`: a fixture of bad PDFs made here with ReportLab, one fault each, each
reported by its check (and a clean card that passes); our own print files pass; the CLI
exits 1 on a failure, 0 with warnings, 2 on a file that is not there."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.colors import CMYKColor
from reportlab.lib.units import inch, mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from pnpgen.preflight import DEFAULTS, FileReport, limits_for, preflight_pdf
from pnpgen.render.fonts import SANS, setup_fonts
from tests.conftest import CliRun

HAS_GS = shutil.which("gs") is not None
CARD = (63 * mm, 88 * mm)
BLEED = 3 * mm


def card_pdf(path: Path, draw: Callable[[Canvas], None], bleed: float = BLEED, trim_box: bool = True) -> Path:
    """A poker card with `bleed` around it (TrimBox, BleedBox), CMYK background, drawn by `draw`."""
    setup_fonts()
    canvas = Canvas(str(path), pagesize=(CARD[0] + 2 * bleed, CARD[1] + 2 * bleed), invariant=1)
    canvas.setFillColor(CMYKColor(0, 0.1, 0.3, 0))
    canvas.rect(0, 0, CARD[0] + 2 * bleed, CARD[1] + 2 * bleed, stroke=0, fill=1)
    canvas.setFillColor(CMYKColor(0, 0, 0, 1))
    canvas.setFont(SANS, 10)
    canvas.drawString(bleed + 8 * mm, bleed + 40 * mm, "Ember")
    draw(canvas)
    if trim_box:
        canvas.setTrimBox((bleed, bleed, bleed + CARD[0], bleed + CARD[1]))
        canvas.setBleedBox((0, 0, CARD[0] + 2 * bleed, CARD[1] + 2 * bleed))
    canvas.showPage()
    canvas.save()
    return path


def picture(size: int, mode: str = "RGB") -> ImageReader:
    image = Image.new(mode, (size, size), (200, 60, 40) if mode == "RGB" else (10, 80, 90, 0))
    return ImageReader(image)


def nothing(canvas: Canvas) -> None:
    pass


def rgb_image(canvas: Canvas) -> None:  # 600 px over 1 inch: 600 ppi, only RGB is wrong
    canvas.drawImage(picture(600), BLEED + 10 * mm, BLEED + 50 * mm, inch, inch)


def low_ppi(canvas: Canvas) -> None:  # 150 px over 1 inch, in CMYK
    canvas.drawImage(picture(150, "CMYK"), BLEED + 10 * mm, BLEED + 50 * mm, inch, inch)


def heavy_black(canvas: Canvas) -> None:  # 80 + 60 + 80 + 100 = 320 %
    canvas.setFillColor(CMYKColor(0.8, 0.6, 0.8, 1))
    canvas.rect(BLEED + 20 * mm, BLEED + 10 * mm, 20 * mm, 15 * mm, stroke=0, fill=1)


def tiny_text(canvas: Canvas) -> None:
    canvas.setFont(SANS, 4)
    canvas.drawString(BLEED + 10 * mm, BLEED + 30 * mm, "four point text")


def unembedded(canvas: Canvas) -> None:
    canvas.setFont("Helvetica", 10)  # one of the 14 standard fonts: ReportLab never embeds it
    canvas.drawString(BLEED + 10 * mm, BLEED + 20 * mm, "Helvetica")


def hairline(canvas: Canvas) -> None:
    canvas.setLineWidth(0.1)
    canvas.line(BLEED + 10 * mm, BLEED + 15 * mm, BLEED + 50 * mm, BLEED + 15 * mm)


def near_edge(canvas: Canvas) -> None:
    canvas.setFont(SANS, 8)
    canvas.drawString(BLEED + 0.8 * mm, BLEED + 80 * mm, "EDGE")


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FileReport]:
    folder = tmp_path_factory.mktemp("preflight")
    made = {name: card_pdf(folder / f"{name}.pdf", draw) for name, draw in [
        ("clean", nothing), ("rgb-image", rgb_image), ("low-ppi", low_ppi), ("heavy-black", heavy_black),
        ("tiny-text", tiny_text), ("unembedded", unembedded), ("hairline", hairline), ("near-edge", near_edge)]}
    made["no-bleed"] = card_pdf(folder / "no-bleed.pdf", nothing, bleed=0)
    made["no-trim"] = card_pdf(folder / "no-trim.pdf", nothing, bleed=0, trim_box=False)
    return {name: preflight_pdf(path) for name, path in made.items()}


def found(report: FileReport, check: str, severity: str) -> list[str]:
    return [f.message for f in report.findings if f.check == check and f.severity == severity]


def test_a_clean_card_passes(fixtures: dict[str, FileReport]) -> None:
    report = fixtures["clean"]
    assert report.ok and report.findings == [], report.findings
    assert report.facts["sizes"] == ["63 × 88 mm trim"] and report.facts["bleed_mm"] == 3.0
    assert report.facts["colour_spaces"] == ["cmyk"]


def test_each_fault_is_reported(fixtures: dict[str, FileReport]) -> None:
    assert found(fixtures["rgb-image"], "colour", "fail") == ["RGB colour in a CMYK file (a CMYK output intent or "
                                                              "CMYK colours beside it)"]
    (soft,) = found(fixtures["low-ppi"], "images", "fail")
    assert "150×150 px picture at 13, 53 mm: 150 ppi, under 225" in soft
    (text,) = found(fixtures["tiny-text"], "small text", "warn")
    assert "text 4.0 pt" in text
    (font,) = found(fixtures["unembedded"], "fonts", "fail")
    assert font.startswith("font Helvetica is not embedded")
    assert found(fixtures["no-bleed"], "bleed", "fail") == ["bleed 0 mm, under the 3 mm asked"]
    assert found(fixtures["no-trim"], "bleed", "fail")[0].startswith("no TrimBox")
    (thin,) = found(fixtures["hairline"], "hairlines", "warn")
    assert "the thinnest 0.100 pt" in thin
    (edge,) = found(fixtures["near-edge"], "safe zone", "warn")
    assert re.search(r"inside the 3 mm safe zone; the nearest, 'E' on page 1, [01]\.\d+ mm from the cut", edge), edge
    for name in ("rgb-image", "low-ppi", "unembedded", "no-bleed", "no-trim"):
        assert not fixtures[name].ok, name
    for name in ("tiny-text", "hairline", "near-edge"):  # warnings only
        assert fixtures[name].ok, name


@pytest.mark.skipif(not HAS_GS, reason="Ghostscript (gs) is not installed")
def test_total_ink_is_measured_with_where(fixtures: dict[str, FileReport]) -> None:
    report = fixtures["heavy-black"]
    assert 318 <= report.facts["max_ink_percent"] <= 321
    (ink,) = found(report, "ink", "fail")
    assert ink.startswith("total ink 320 %, over the 300 % limit, at page 1")
    assert fixtures["clean"].facts["max_ink_percent"] == pytest.approx(100, abs=1)  # black text, K only


@pytest.mark.skipif(not HAS_GS, reason="Ghostscript (gs) is not installed")
def test_a_vendor_sets_the_limits(fixtures: dict[str, FileReport], tmp_path: Path) -> None:
    dtc = limits_for("drivethrucards")
    assert (dtc.ink_limit, dtc.bleed_mm, dtc.colour) == (240, 3.175, "cmyk")
    path = card_pdf(tmp_path / "card.pdf", nothing)
    report = preflight_pdf(path, dtc)
    assert found(report, "bleed", "fail") == ["bleed 3 mm, under the 3.175 mm asked"]
    assert any("not PDF/X-1a" in m for m in found(report, "vendor", "fail"))
    assert DEFAULTS.ink_limit == 300


@pytest.mark.skipif(not HAS_GS, reason="Ghostscript (gs) is not installed")
def test_our_print_files_pass(run_pnpgen: CliRun) -> None:
    """Burning Desire's print-shop PDFs, and its DriveThruCards deck, pass."""
    code, out, _ = run_pnpgen("preflight", "burning-desire", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"], [f["findings"] for f in data["files"] if not f["ok"]]
    names = [f["file"] for f in data["files"]]
    assert names == ["player-aid-print-shop.pdf", "score-sheet-print-shop-ja.pdf", "score-sheet-print-shop-en.pdf",
                     "burning-desire (content colours)"]
    aid = data["files"][0]
    assert aid["pages"] == 10 and aid["facts"]["sizes"] == ["88 × 63 mm trim"] and aid["facts"]["bleed_mm"] == 3.0
    # CMYK, and the spot colour CutContour of the dieline (render/kit/page.draw_cut_path)
    assert aid["facts"]["colour_spaces"] == ["cmyk", "spot"] and aid["facts"]["max_ink_percent"] <= 300
    code, out, _ = run_pnpgen("preflight", "burning-desire", "--vendor", "drivethrucards", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"], [f["findings"] for f in data["files"] if not f["ok"]]
    deck = data["files"][0]
    assert deck["file"] == "drivethrucards/player-aid.pdf" and deck["findings"] == []
    assert deck["facts"]["max_ink_percent"] <= 240 and deck["facts"]["bleed_mm"] == 3.17


@pytest.mark.skipif(not HAS_GS, reason="Ghostscript (gs) is not installed")
def test_cli_exit_codes(run_pnpgen: CliRun, tmp_path: Path) -> None:
    bad = card_pdf(tmp_path / "bad.pdf", unembedded)
    code, out, _ = run_pnpgen("preflight", str(bad))
    assert code == 1 and "FAIL" in out and "Helvetica" in out
    warned = card_pdf(tmp_path / "warned.pdf", tiny_text)
    code, out, _ = run_pnpgen("preflight", str(warned), "--json")
    assert code == 0 and json.loads(out)["files"][0]["findings"][0]["check"] == "small text"
    code, _, err = run_pnpgen("preflight", str(tmp_path / "missing.pdf"))
    assert code == 2 and "missing.pdf: no such file" in err


def test_text_on_the_safe_line_is_not_in_the_safe_zone(tmp_path: Path) -> None:
    """A letter placed exactly 3 mm inside the cut (Dungeon War's 'Vault' at x 3) is on the
    safe line, not over it: PDFium's glyph box may start a hundredth of a millimetre nearer.
    0.2 mm further out is a breach."""
    def at(x: float) -> Callable[[Canvas], None]:
        def draw(canvas: Canvas) -> None:
            canvas.setFont(SANS, 8)
            canvas.drawString(BLEED + x * mm, BLEED + 60 * mm, "Vault")
        return draw

    assert found(preflight_pdf(card_pdf(tmp_path / "on.pdf", at(3.0))), "safe zone", "warn") == []
    (near,) = found(preflight_pdf(card_pdf(tmp_path / "over.pdf", at(2.8))), "safe zone", "warn")
    assert "'V' on page 1, 2.8 mm from the cut" in near, near
