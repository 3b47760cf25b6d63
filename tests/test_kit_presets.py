"""Printer presets (render/kit/presets.py) measured in the PDFs: the bleed around the
TrimBox, and the print-shop page size, for each preset named in YAML or on the command line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import CliRun
from tests.kit_pdf import MM, box_mm, game_yaml

GAME = game_yaml("tiny", "parts.yaml")
PARTS = """\
- type: deck
  id: cards
  title: Cards
  {preset}
  cards: [{{n: "1", quantity: 2}}]
  front: [{{shape: rect, fill: "#336699", bleed: true}}, {{text: "{{{{ n }}}}"}}]
  back: [{{shape: rect, fill: "#993333", bleed: true}}]
- type: board
  id: board
  title: Board
  {preset}
  grid: {{columns: 4, rows: 4, cell: 20}}
"""


def build(root: Path, run_pnpgen: CliRun, yaml_preset: str = "", *args: str) -> Path:
    folder = root / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    line = f"preset: {yaml_preset}" if yaml_preset else ""
    (folder / "parts.yaml").write_text(textwrap.dedent(PARTS.format(preset=line)), encoding="utf-8")
    code, _out, err = run_pnpgen("build", "--content", str(root / "content"), "--out", str(root / "b"),
                                 "--print-shop", *args)
    assert code == 0, err
    return root / "b" / "tiny"


def bleeds(path: Path) -> set[float]:
    """The bleed on each side of every page's TrimBox, mm."""
    found: set[float] = set()
    for page in PdfReader(path).pages:
        t, b = [float(v) / MM for v in page.trimbox], [float(v) / MM for v in page.bleedbox]
        found |= {round(t[0] - b[0], 3), round(t[1] - b[1], 3), round(b[2] - t[2], 3), round(b[3] - t[3], 3)}
    return found


@pytest.mark.parametrize(
    ("yaml_preset", "args", "bleed"),
    [
        ("", (), 3.0),                                       # standard, the default: poker 63 × 88 with 3 mm
        ("us-eighth-inch", (), 3.175),                        # 1/8 in = 3.175 mm
        ("", ("--preset", "us-eighth-inch"), 3.175),
        ("us-eighth-inch", ("--preset", "large-format"), 5.0),  # the build's preset wins over the YAML's
    ],
)
def test_preset_bleed_measured_in_every_file(tmp_path: Path, run_pnpgen: CliRun, yaml_preset: str,
                                             args: tuple[str, ...], bleed: float) -> None:
    out = build(tmp_path, run_pnpgen, yaml_preset, *args)
    for name in ("board.pdf", "cards-print-shop.pdf", "board-print-shop.pdf"):
        assert bleeds(out / name) == {bleed}, name
    # the home sheet of 3 × 3 cards on A4 leaves 10.5 mm beside the block: its crop marks take
    # 7.5 mm, so at most 3 mm of bleed is kept there (imposition.MARK_ROOM); 16.5 mm above
    assert bleeds(out / "cards.pdf") == {min(bleed, 3.0), bleed}
    shop = PdfReader(out / "cards-print-shop.pdf").pages[0]
    exact = bleed
    # the print-shop page is the poker card plus its bleed
    assert box_mm(shop.mediabox) == pytest.approx((0, 0, 63 + 2 * exact, 88 + 2 * exact), abs=0.01)
    assert box_mm(shop.trimbox) == pytest.approx((exact, exact, 63 + exact, 88 + exact), abs=0.01)


def test_large_format_keeps_the_board_content_inside_its_safe_zone(tmp_path: Path, run_pnpgen: CliRun) -> None:
    plain = build(tmp_path / "a", run_pnpgen)
    large = build(tmp_path / "b", run_pnpgen, "large-format")
    size = [box_mm(PdfReader(p / "board-print-shop.pdf").pages[0].trimbox) for p in (plain, large)]
    # 4 × 20 mm of grid plus padding each side: 4 mm by default, the 10 mm safe zone here
    assert round(size[0][2] - size[0][0], 2) == 88.0 and round(size[1][2] - size[1][0], 2) == 100.0


def test_unknown_preset_is_one_line(tmp_path: Path, run_pnpgen: CliRun) -> None:
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "parts.yaml").write_text(textwrap.dedent(PARTS.format(preset="preset: us-8th")), encoding="utf-8")
    code, _out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"))
    assert code == 2 and "parts.yaml:4:11: components[0] (cards).preset: expected one of standard, " in err, err
    code, _out, err = run_pnpgen("build", "--content", str(tmp_path / "content"), "--out", str(tmp_path / "b"),
                                 "--preset", "poster")
    assert code == 2 and "unknown preset 'poster'; presets: standard, us-eighth-inch, large-format" in err, err
