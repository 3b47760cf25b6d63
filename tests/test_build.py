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
