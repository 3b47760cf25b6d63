"""The new designer's slips of issue 25, made while `pnpgen watch` runs: each rebuild says
the slip in one line naming its file and line, and the last good files stay. (Validate's
exit code and line for each slip are cases in tests/bad_input/content: field-typo-did-you-mean,
yaml-unquoted-hash, csv-unquoted-comma, csv-colour-typo, csv-colour-bad-hex,
csv-colour-five-digits, csv-nul-cell, yaml-nul, yaml-one-and-true-keys.)"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnpgen.output import BuildOptions
from pnpgen.watch import Watcher
from tests.conftest import ROOT

# slip -> (file edited, text replaced, replacement, file the error names first, words it must hold);
# a colour from the CSV is named at the layout line that draws it, with the card's CSV row
SLIPS = {
    "unknown field": ("deck.yaml", '"{{ cost }}"', '"{{ costs }}"', "deck.yaml", "did you mean 'cost'?"),
    "unquoted hash": ("deck.yaml", 'fill: "#2b2d42", bleed', "fill: #2b2d42, bleed", "deck.yaml", "quote it"),
    "unquoted comma": ("cards.csv", "Deal 1 damage. Draw", "Deal 1 damage, then draw", "cards.csv",
                       "quote a cell that holds a comma"),
    "colour typo": ("cards.csv", ",#e76f51,flame.svg,4", ",grean,flame.svg,4", "deck.yaml",
                    "(cards.csv:2): fill: unknown colour 'grean'"),
    "bad hex": ("cards.csv", ",#e76f51,flame.svg,4", ",#ggg,flame.svg,4", "deck.yaml",
                "(cards.csv:2): fill: unknown colour '#ggg'"),
    "five hex digits": ("cards.csv", ",#e76f51,flame.svg,4", ",#38664,flame.svg,4", "deck.yaml",
                        "(cards.csv:2): fill: unknown colour '#38664'"),
    "NUL in a cell": ("cards.csv", "Ember,火の粉", "Em\x00ber,火の粉", "cards.csv", "NUL"),
    "NUL in YAML": ("deck.yaml", "safe: 3", "safe: 3\x00", "deck.yaml", "U+0000"),
    "1 and true keys": ("deck.yaml", "  safe: 3\n", "  safe: 3\n  1: x\n  true: y\n", "deck.yaml", "same key"),
}


@pytest.fixture(scope="module")
def watcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watcher]:
    """kit-demo copied and built once (English only) for every slip."""
    root = tmp_path_factory.mktemp("slips")
    folder = root / "content" / "kit-demo"
    shutil.copytree(ROOT / "tests" / "fixtures" / "kit-demo", folder)
    watched = Watcher(folder, BuildOptions(out=root / "build", content_root=folder.parent, langs=("en",)),
                      say=lambda _: None)
    assert watched.build_all()
    yield watched


def _pdfs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pdf"))}


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_watch_survives_the_slip_and_keeps_the_last_good_files(watcher: Watcher, slip: str) -> None:
    name, old, new, named, words = SLIPS[slip]
    path = watcher.folder / name
    good = path.read_text(encoding="utf-8")
    before = _pdfs(watcher.game_dir)
    assert old in good
    path.write_text(good.replace(old, new, 1), encoding="utf-8")
    try:
        watcher.rebuild({path})
        error = watcher.status.error or ""
        where = f"{watcher.folder / named}:"
        assert error.startswith(where) and error[len(where):].split(":")[0].isdigit(), error  # file:line first
        assert words in error and "\n" not in error and "internal error" not in error, error
        assert _pdfs(watcher.game_dir) == before  # the last good files stay
    finally:
        path.write_text(good, encoding="utf-8")
    watcher.rebuild({path})
    assert watcher.status.error is None  # mended: the watch goes on
