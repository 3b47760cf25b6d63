"""`pnpgen validate` checks every card as build will draw it: colours and fields that a CSV
row gives are checked per card, each problem said once per layout line (naming the first
card and how many more have it), with did-you-mean for an unknown field."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnpgen.render.colour import make_colour
from tests.conftest import ROOT, CliRun

DEMO = ROOT / "tests" / "fixtures" / "kit-demo"


def kit_demo(tmp_path: Path, old: str, new: str, file: str = "deck.yaml") -> Path:
    content = tmp_path / "content"
    shutil.copytree(DEMO, content / "kit-demo")
    path = content / "kit-demo" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return content


def failures(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.startswith("       ")]


def test_an_unknown_field_is_said_once_per_layout_line_with_did_you_mean(tmp_path: Path,
                                                                          run_pnpgen: CliRun) -> None:
    content = kit_demo(tmp_path, "{{ power }}", "{{ powr }}")
    code, out, _ = run_pnpgen("validate", "kit-demo", "--content", str(content))
    assert code == 1 and "FAIL kit-demo: components" in out
    [problem] = failures(out)  # 60 cards, one layout line: one problem
    assert problem.startswith(f"{content / 'kit-demo' / 'deck.yaml'}:20:14: game kit-demo, component spells, "
                              "card 1 ")
    assert "unknown field '{{ powr }}' (did you mean 'power'?)" in problem and problem.endswith("(and 59 more cards)")


def test_colours_from_csv_cells_are_checked_per_card(tmp_path: Path, run_pnpgen: CliRun) -> None:
    """The first two rows' colours made a typo and a five-digit hex: validate fails (it
    passed before), naming the layout line (the rect filled with '{{ colour }}') and each card."""
    content = kit_demo(tmp_path, "#e76f51,flame.svg,4", "grean,flame.svg,4", "cards.csv")
    csv = content / "kit-demo" / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("#e76f51,flame.svg,3", "#38664,flame.svg,3", 1),
                   encoding="utf-8")
    code, out, _ = run_pnpgen("validate", "kit-demo", "--content", str(content))
    assert code == 1
    deck = content / "kit-demo" / "deck.yaml"
    assert failures(out) == [
        f"{deck}:14:27: game kit-demo, component spells, card 1 '火の粉' (cards.csv:2): fill: unknown colour "
        "'grean' (use #rrggbb, a colour name or cmyk(c, m, y, k)) (and 3 more copies of this card)",
        f"{deck}:14:27: game kit-demo, component spells, card 5 'ファイアボール' (cards.csv:3): fill: unknown colour "
        "'#38664': a hex colour is '#' and 6 (or 3) hex digits, such as #e76f51 or #e75 (and 2 more copies of this "
        "card)"]


def test_a_colour_a_board_names_outright_is_checked_with_its_line(tmp_path: Path, run_pnpgen: CliRun) -> None:
    content = kit_demo(tmp_path, 'border: "#e76f51", label: {ja: 火の地', 'border: "blu", label: {ja: 火の地',
                       "board.yaml")
    code, out, _ = run_pnpgen("validate", "kit-demo", "--content", str(content))
    assert code == 1
    assert failures(out) == [f"{content / 'kit-demo' / 'board.yaml'}:15:59: components[1] (duel-board).regions[0]."
                             "border: unknown colour 'blu' (use #rrggbb, a colour name or cmyk(c, m, y, k))"]


def test_hex_colours_have_three_or_six_digits() -> None:
    assert make_colour("#e75") == make_colour("#ee7755")
    for wrong in ("#38664", "#3866", "#38", "#38664ab", "#38664abc", "#ggg", "#"):
        try:
            make_colour(wrong)
        except ValueError as error:
            assert f"unknown colour '{wrong}'" in str(error)
        else:
            raise AssertionError(f"{wrong} was read as a colour")
