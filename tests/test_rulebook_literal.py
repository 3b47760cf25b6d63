"""A print-only game's rulebook holds literal tables (`table: {rows: …}`) and pictures of
its game folder (`image:`), under the components' path and size rules (docs/rulebook.md).
Built once from tests/fixtures/print-rulebook."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.rulebook import check_rulebook
from tests import pdfpages
from tests.conftest import ROOT, CliRun

FIXTURE = ROOT / "tests" / "fixtures" / "print-rulebook"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("print-rulebook")
    build_game(load_game(FIXTURE), BuildOptions(out=out, content_root=FIXTURE.parent))
    return out / "print-rulebook"


def test_the_literal_table_prints_its_rows_and_caption(built: Path) -> None:
    text = "\n".join(page.extract_text() for page in PdfReader(built / "rulebook-en.pdf").pages)
    assert "Card counts" in text
    assert "Card Copies Effect" in " ".join(text.split())
    assert "Deal 3 damage (4 players: 2)" in text  # a cell is a text like any other: filled in
    ja = "\n".join(page.extract_text() for page in PdfReader(built / "rulebook-ja.pdf").pages)
    assert "カードの枚数" in ja and "火の粉" in ja


def test_pictures_print_at_their_width(built: Path) -> None:
    pages = pdfpages.pages(built / "rulebook-en.pdf")
    images = [image for page in pages for image in page.images]
    curves = sum(len(page.curves) for page in pages)
    assert [round((i["x1"] - i["x0"]) / 72 * 25.4, 1) for i in images] == [30.0]  # the PNG, width: 30
    assert curves > 0  # the SVG, drawn as vectors
    assert "The card’s art" in PdfReader(built / "rulebook-en.pdf").pages[-1].extract_text()


def game_with(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "content" / "print-rulebook"
    shutil.copytree(FIXTURE, folder)
    book = folder / "rulebook.yaml"
    text = book.read_text(encoding="utf-8")
    assert old in text
    book.write_text(text.replace(old, new), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("old", "new", "problem"), [
    ("image: art/bolt.png", "image: ../print-rulebook/../secret.png", "image: image '../print-rulebook/../secret.png' "
     "leaves the game folder"),
    ("image: art/bolt.png", "image: art/none.png", "image: image not found: art/none.png"),
    ("image: art/bolt.png", "image: art", "image: image 'art' is a folder, not a file"),
    ("image: art/bolt.png", "image: rulebook.yaml", "image: image 'rulebook.yaml' must be a .png, .jpg or .svg file"),
    ("width: 30", "width: 900", "blocks[1].width: 900 is out of range; expected a number from 5 to 500 mm"),
])
def test_a_bad_picture_is_one_line_at_its_place(tmp_path: Path, old: str, new: str, problem: str) -> None:
    folder = game_with(tmp_path, old, new)
    line = next(n for n, text in enumerate((folder / "rulebook.yaml").read_text().splitlines(), 1)
                if text.strip().lstrip("- ") == new)
    problems = check_rulebook(load_game(folder), [])
    assert len(problems) == 1 and problems[0].startswith(f"{folder / 'rulebook.yaml'}:{line}:")
    assert problems[0].endswith(problem)


def test_a_picture_without_alt_or_caption_is_one_line_at_its_place(tmp_path: Path) -> None:
    folder = game_with(tmp_path, "        alt: {ja: 稲妻の絵, en: A lightning bolt}\n", "")
    line = next(n for n, text in enumerate((folder / "rulebook.yaml").read_text().splitlines(), 1)
                if text.strip() == "- image: art/bolt.png")
    problems = check_rulebook(load_game(folder), [])
    assert len(problems) == 1 and problems[0].startswith(f"{folder / 'rulebook.yaml'}:{line}:"), problems
    assert problems[0].endswith("an image needs alt: (what it shows, for readers who cannot see it) or a caption")


def test_a_short_row_of_a_literal_table(tmp_path: Path, run_pnpgen: CliRun) -> None:
    folder = game_with(tmp_path, "            - [{ja: 火の粉, en: Ember}, 3, {ja: 1ダメージ, en: Deal 1 damage}]",
                       "            - [{ja: 火の粉, en: Ember}, 3]")
    code, _, err = run_pnpgen("build", "print-rulebook", "--content", str(folder.parent), "--out",
                              str(tmp_path / "out"), "--quiet")
    assert code == 2
    assert err.splitlines() == [f"error: {folder / 'rulebook.yaml'}:7:15: blocks[0].table.rows[1]: 2 cells; "
                                "the header row has 3"]
