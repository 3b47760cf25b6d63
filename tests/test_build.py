"""A build's release notes: README.txt beside the PDFs, from templates/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.pdf import page_count
from tests.conftest import ROOT
from tests.kit_pdf import game_yaml


def test_release_notes_list_every_file_with_its_pages(tmp_path: Path) -> None:
    content = load_game(ROOT / "content" / "burning-desire")
    options = BuildOptions(out=tmp_path, langs=("en",), content_root=ROOT / "content")
    built = build_game(content, options)
    notes = built[-1]
    assert notes.path == tmp_path / "burning-desire" / "README.txt"
    text = notes.path.read_text(encoding="utf-8")
    assert text.startswith("Burning Desire / バーニング・ディザイア\n")
    for pdf in built[:-1]:
        line = next(x for x in text.splitlines() if x.strip().startswith(pdf.path.name))
        assert line.split()[1] == str(page_count(pdf.path)) == str(pdf.pages)
    assert "Print at 100%" in text and "実際のサイズ（100%）" in text


DEMO = ROOT / "tests" / "fixtures" / "kit-demo"


def _build(out: Path, **options: object) -> dict[str, bytes]:
    content = load_game(DEMO)
    build_game(content, BuildOptions(out=out, content_root=DEMO.parent, **options))  # type: ignore[arg-type]
    folder = out / content.id
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """kit-demo's home-print PDFs, built once for the tests below (read only)."""
    return _build(tmp_path_factory.mktemp("home"))


def test_print_shop_files_are_added_beside_unchanged_home_files(home: dict[str, bytes],
                                                                kit_demo_print_shop: Path) -> None:
    both = {p.name: p.read_bytes() for p in sorted(kit_demo_print_shop.glob("*.pdf"))}  # built with print_shop=True
    for name, data in home.items():
        if name.startswith(("rulebook", "companion")):  # books: no print-shop edition
            continue
        assert both[name] == data, f"{name} changed by --print-shop"
        shop = [n for n in both if "-print-shop" in n and n.startswith(name.split("-")[0])]
        assert shop, f"no print-shop file beside {name}"
    added = sorted(set(both) - set(home))
    assert added and all("-print-shop" in n for n in added)
    kinds = {n.split("-print-shop")[0] for n in added}
    assert len(kinds) >= 3  # deck, board and sheet alike
    notes = (kit_demo_print_shop / "README.txt").read_text(encoding="utf-8")
    for name in added:
        line = next(x for x in notes.splitlines() if x.strip().startswith(name))
        assert line.rstrip().endswith("(print shop)")
    assert "for a print shop, not a home printer" in notes


def test_guides_proofs_have_their_own_names_and_say_so(home: dict[str, bytes], tmp_path: Path) -> None:
    proofs = _build(tmp_path / "proof", guides=True)
    assert all("-proof" in n for n in proofs if not n.startswith(("rulebook", "companion")))
    assert {n.replace("-proof", "") for n in proofs} == set(home)
    notes = (tmp_path / "proof" / "kit-demo" / "README.txt").read_text(encoding="utf-8")
    for name in proofs:
        if "-proof" in name:
            line = next(x for x in notes.splitlines() if x.strip().startswith(name))
            assert "(PROOF, not for printing)" in line
    assert "Do not print or cut" in notes


PARTS = """\
- type: deck
  id: cards
  title: Cards
  cards: [{{name: A, text: ok}}, {{name: B, text: "{text}"}}]
  front: [{{text: "{{{{ name }}}}", h: 10}}, {{text: "{{{{ text }}}}", y: 20, h: 6, size: 9}}]
- type: sheet
  id: scores
  title: Scores
  blocks: [{{text: "Score"}}]
"""


def test_an_all_games_build_builds_every_game_it_can_and_lists_the_failures(tmp_path: Path, run_pnpgen: Any) -> None:
    """Three games, the middle one with a card whose text overflows: the other two are
    built in full, the broken one has every other part built and a README.txt that lists
    them and the failure; the failures are listed at the end and the exit code is 2."""
    content = tmp_path / "content"
    for ident, text in (("alpha", "ok"), ("broken", "many words " * 40), ("omega", "ok")):
        (content / ident).mkdir(parents=True)
        game = game_yaml(ident, "parts.yaml", f"{{ja: {ident}, en: {ident}}}", (2, 2))
        (content / ident / "game.yaml").write_text(game, encoding="utf-8")
        (content / ident / "parts.yaml").write_text(PARTS.format(text=text), encoding="utf-8")
    out = tmp_path / "build"
    code, _stdout, err = run_pnpgen("build", "--content", str(content), "--out", str(out), "--lang", "en")
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "parts.yaml:5:" in errors[0] and "component cards" in errors[0], err
    assert "1 of 3 game(s) failed: broken" in err
    for ident in ("alpha", "omega"):
        assert {p.name for p in (out / ident).glob("*.pdf")} == {"cards.pdf", "scores.pdf"}
        assert "INCOMPLETE" not in (out / ident / "README.txt").read_text(encoding="utf-8")
    broken = out / "broken"
    assert [p.name for p in broken.glob("*.pdf")] == ["scores.pdf"]
    readme = (broken / "README.txt").read_text(encoding="utf-8")
    assert "scores.pdf" in readme and "cards" not in readme.split("THIS BUILD IS INCOMPLETE")[0].split("Files")[1]
    assert "THIS BUILD IS INCOMPLETE" in readme and "overflows" in readme


def test_a_sheet_a_little_too_tall_for_letter_is_scaled_with_a_warning(tmp_path: Path) -> None:
    """Dungeon War's play sheet is 237.3 mm of content where Letter leaves 234.9 mm: it is
    printed at 98.9% (the build used to stop there with exit 2), the warning names the
    sheet and the factor, and README.txt repeats it."""
    from pypdf import PdfReader

    content = load_game(ROOT / "content" / "dungeon-war")
    options = BuildOptions(out=tmp_path, langs=("en",), paper="Letter", content_root=ROOT / "content")
    from pnpgen.games import rules_for_content
    from pnpgen.render.kit import render_components

    built = [f for f in render_components(content, rules_for_content(content), options)
             if f.path.name == "play-sheet-blue-en.pdf"]
    assert len(built) == 1
    warning = next(n for n in built[0].notes if n.startswith("warning: "))
    assert "sheets.yaml:" in warning and "printed at 98.9%" in warning and "Letter" in warning
    page = PdfReader(built[0].path).pages[0]
    assert float(page.mediabox.height) / (72 / 25.4) == pytest.approx(279.4, abs=0.01)
    text = page.extract_text()
    assert "Army pieces" in text and "Slime" in text  # the last rows are there
