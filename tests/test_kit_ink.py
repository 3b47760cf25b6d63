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
from tests import pdfpages
from tests.conftest import ROOT
from tests.kit_pdf import game_yaml

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
    return {tuple(round(float(v), 3) for v in c["non_stroking_color"]) for c in pdfpages.pages(path)[page].chars}


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


def test_press_colours_and_pictures_stay_under_the_ink_limit() -> None:
    """FOGRA39 turns a near-black teal (0, 17, 17) into 302% of ink; the limit brings it to
    300% by lowering C, M and Y (K kept). A vendor's lower limit (DriveThruCards: 240%) is a
    parameter."""
    from PIL import Image

    from pnpgen.render.press import INK_LIMIT, cmyk_picture, limit_ink, rgb_to_cmyk

    assert INK_LIMIT == 3.0
    teal = rgb_to_cmyk(0, 17 / 255, 17 / 255)
    assert sum(teal) == pytest.approx(3.0, abs=0.001) and teal[3] > 0.98
    assert sum(rgb_to_cmyk(0, 17 / 255, 17 / 255, 2.4)) == pytest.approx(2.4, abs=0.001)
    assert limit_ink((0.2, 0.3, 0.1, 0.5)) == (0.2, 0.3, 0.1, 0.5)  # under the limit: unchanged
    picture = Image.new("RGB", (4, 4), (0, 17, 17))
    picture.putpixel((0, 0), (200, 120, 40))
    def totals(image: Image.Image) -> list[int]:
        data = image.tobytes()
        return [sum(data[i:i + 4]) for i in range(0, len(data), 4)]

    ink = totals(cmyk_picture(picture))
    assert max(ink) <= round(INK_LIMIT * 255) and max(ink) >= round(INK_LIMIT * 255) - 3
    assert max(totals(cmyk_picture(picture, 2.4))) <= round(2.4 * 255)


def separations(path: Path, pages: tuple[int, int], out: Path) -> dict[str, list[list[int]]]:
    """Each plate of the pages as ink per pixel, 0..255 (Ghostscript's tiffsep at 30 dpi)."""
    from PIL import Image

    subprocess.run(["gs", "-q", "-o", str(out / "p%02d.tif"), "-sDEVICE=tiffsep", "-r30", f"-dFirstPage={pages[0]}",
                    f"-dLastPage={pages[1]}", str(path)], check=True)
    plates: dict[str, list[list[int]]] = {}
    for tif in sorted(out.glob("p*(*).tif")):
        name = tif.name.split("(")[1].split(")")[0]
        plates.setdefault(name, []).append([255 - v for v in Image.open(tif).convert("L").tobytes()])
    return plates


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed")
def test_print_shop_ink_is_under_300_percent_and_the_cut_is_its_own_plate(tmp_path: Path) -> None:
    """The dungeon cards' print-shop file, first front and back, separated by Ghostscript:
    C + M + Y + K at most 300% in every pixel (measured 231%), and the cut path alone on a
    CutContour plate, never on the process plates."""
    path = build(tmp_path, "dungeon-cards", print_shop=True)
    plates = separations(path, (1, 2), tmp_path)
    assert set(plates) == {"Cyan", "Magenta", "Yellow", "Black", "CutContour"}
    for page in range(2):
        total = [sum(px) for px in zip(*(plates[n][page] for n in ("Cyan", "Magenta", "Yellow", "Black")),
                                       strict=True)]
        assert max(total) <= 3.0 * 255 + 2
        cut = plates["CutContour"][page]
        assert 100 < sum(1 for v in cut if v > 128) < 0.1 * len(cut)  # a thin outline, not an area


TINY = game_yaml("tiny", "parts.yaml", "{ja: 小さな, en: Tiny}", (2, 3))
PARTS = """\
- type: deck
  id: spells
  title: Spells
  calibration: false
  cards: [{name: Ember}, {name: Gust}]
  front:
    - {shape: rect, fill: "#3a2f4a", bleed: true}
    - {text: "{{ name }}", x: 5, y: 10, w: 50, h: 8, size: 10, color: "#f4eee2"}
  back:
    - {shape: rect, fill: "#4a3f2c", bleed: true}
- type: sheet
  id: score
  title: Score
  blocks: [{text: "Score"}]
"""


def test_ink_saver_files_sit_beside_the_full_ink_files(tmp_path: Path) -> None:
    """`--ink-saver` names its copies `<id>-ink-saver[-<lang>].pdf` and writes them beside the
    full-ink home files, which it leaves byte for byte as a plain build makes them: a plain
    build and then an ink-saver build into one --out keep every file, and README.txt lists
    both (the ink-saver ones marked). A plain build after it removes the ink-saver copies
    again (the folder holds what its README lists)."""
    from typer.testing import CliRunner

    from pnpgen.app import app

    game = tmp_path / "content" / "tiny"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(TINY, encoding="utf-8")
    (game / "parts.yaml").write_text(PARTS, encoding="utf-8")

    def run(*extra: str) -> dict[str, bytes]:
        result = CliRunner().invoke(app, ["build", "tiny", "--content", str(tmp_path / "content"),
                                          "--out", str(tmp_path / "out"), "--lang", "en", *extra])
        assert result.exit_code == 0, result.output
        return {p.name: p.read_bytes() for p in (tmp_path / "out" / "tiny").glob("*.pdf")}

    plain = run()
    assert sorted(plain) == ["score.pdf", "spells.pdf"]
    both = run("--ink-saver")
    assert sorted(both) == ["score-ink-saver.pdf", "score.pdf", "spells-ink-saver.pdf", "spells.pdf"]
    assert all(both[name] == data for name, data in plain.items())  # the full-ink files, untouched
    assert both["spells-ink-saver.pdf"] != both["spells.pdf"]  # the deck's copy drops its fills
    readme = (tmp_path / "out" / "tiny" / "README.txt").read_text(encoding="utf-8")
    assert all(name in readme for name in both)
    assert readme.count("(ink saver)") == 4 and "*-ink-saver*.pdf" in readme  # two files; the note in en and ja
    assert run() == plain  # a plain build again: exactly the plain files
