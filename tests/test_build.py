"""A build's release notes: README.txt beside the PDFs, from templates/."""

from __future__ import annotations

from pathlib import Path

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.pdf import page_count
from tests.conftest import ROOT


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


def test_print_shop_files_are_added_beside_unchanged_home_files(tmp_path: Path) -> None:
    home = _build(tmp_path / "home")
    both = _build(tmp_path / "shop", print_shop=True)
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
    notes = (tmp_path / "shop" / "kit-demo" / "README.txt").read_text(encoding="utf-8")
    for name in added:
        line = next(x for x in notes.splitlines() if x.strip().startswith(name))
        assert line.rstrip().endswith("(print shop)")
    assert "for a print shop, not a home printer" in notes


def test_guides_proofs_have_their_own_names_and_say_so(tmp_path: Path) -> None:
    home = _build(tmp_path / "home")
    proofs = _build(tmp_path / "proof", guides=True)
    assert all("-proof" in n for n in proofs if not n.startswith(("rulebook", "companion")))
    assert {n.replace("-proof", "") for n in proofs} == set(home)
    notes = (tmp_path / "proof" / "kit-demo" / "README.txt").read_text(encoding="utf-8")
    for name in proofs:
        if "-proof" in name:
            line = next(x for x in notes.splitlines() if x.strip().startswith(name))
            assert "(PROOF, not for printing)" in line
    assert "Do not print or cut" in notes
