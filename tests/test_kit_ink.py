"""--ink-saver: home files without backgrounds and full-bleed fills, art kept, light text on
them turned dark; measured with Ghostscript's inkcov where it is installed. Print-shop
files keep every fill, and their total ink stays under the press limit (press.INK_LIMIT)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.kit import components, deck
from pnpgen.render.kit.page import KitJob
from tests.conftest import ROOT

GAME = ROOT / "content" / "dungeon-war"


def build(tmp_path: Path, ident: str, **options: object) -> Path:
    content = load_game(GAME)
    item = next(c for c in components(content) if c["id"] == ident)
    opts = BuildOptions(out=tmp_path, langs=("en",), content_root=GAME.parent)
    job = KitJob(content, rules_for_content(content), replace(opts, **options), "en")  # type: ignore[arg-type]
    built = deck.render(item, job)
    return built[0].path


def fills(path: Path, page: int) -> set[tuple[float, ...]]:
    """Every fill colour (rg) set on a page or in the forms it places, rounded."""
    reader = PdfReader(path)
    found: set[tuple[float, ...]] = set()

    def scan(content: object, resources: dict) -> None:  # type: ignore[type-arg]
        for operands, op in ContentStream(content, reader).operations:
            if op == b"rg":
                found.add(tuple(round(float(v), 3) for v in operands))
        for ref in (resources or {}).get("/XObject", {}).values():
            form = ref.get_object()
            if form["/Subtype"] == "/Form":
                scan(form, form.get("/Resources"))

    scan(reader.pages[page].get_contents(), reader.pages[page]["/Resources"])
    return found


def text_colours(path: Path, page: int) -> set[tuple[float, ...]]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return {tuple(round(float(v), 3) for v in c["non_stroking_color"]) for c in pdf.pages[page].chars}


BACK = (round(0x4A / 255, 3), round(0x3F / 255, 3), round(0x2C / 255, 3))  # the dungeon-card back's brown
TEXT = (round(0xD9 / 255, 3), round(0xCB / 255, 3), round(0xB0 / 255, 3))  # its light text


def test_ink_saver_drops_the_full_bleed_back_and_darkens_its_text(tmp_path: Path) -> None:
    plain = build(tmp_path / "plain", "dungeon-cards")
    saver = build(tmp_path / "saver", "dungeon-cards", ink_saver=True)
    assert BACK in fills(plain, 1) and BACK not in fills(saver, 1)
    assert TEXT in text_colours(plain, 1) and TEXT not in text_colours(saver, 1)
    assert (round(0x22 / 255, 3),) * 3 in text_colours(saver, 1)  # the back's text, dark on white paper
    # the fronts' terrain (art) is kept: the lava and water fills are still drawn
    for colour in ("#f08a4b", "#8ec5e8"):
        rgb = tuple(round(int(colour[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))
        assert rgb in fills(saver, 0) or rgb in fills(saver, 2) or rgb in fills(saver, 4)


def inkcov(path: Path) -> list[float]:
    """Each page's C + M + Y + K coverage (Ghostscript's inkcov: 1.0 = one ink over the page)."""
    out = subprocess.run(["gs", "-q", "-o", "-", "-sDEVICE=inkcov", "-r36", str(path)], capture_output=True,
                         text=True, check=True).stdout
    return [sum(float(v) for v in line.split()[:4]) for line in out.splitlines() if line.strip().endswith("OK")]


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")
def test_ink_saver_halves_the_ink_of_the_war_cards(tmp_path: Path) -> None:
    """Measured: war cards 234% -> 76% of a page (mean C+M+Y+K coverage of their pages)."""
    plain = inkcov(build(tmp_path / "plain", "war-cards"))
    saver = inkcov(build(tmp_path / "saver", "war-cards", ink_saver=True))
    assert len(plain) == len(saver) == 30
    assert sum(saver) < 0.5 * sum(plain), (sum(plain) / 30, sum(saver) / 30)


def test_print_shop_files_ignore_the_ink_saver(tmp_path: Path) -> None:
    shop = build(tmp_path, "dungeon-cards", ink_saver=True, print_shop=True)
    reader = PdfReader(shop)
    ops = {op for page in list(reader.pages)[:2] for _o, op in ContentStream(page.get_contents(), reader).operations}
    assert b"k" in ops  # CMYK fills still drawn: the back's brown is in the file
    assert len(reader.pages) == 2 * 49
