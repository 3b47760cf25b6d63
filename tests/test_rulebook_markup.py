"""Rulebooks and components read markup with one reader (render/markup.py)."""

from __future__ import annotations

from pnpgen.render.kit.richtext import tokenize
from pnpgen.render.markup import Style, scan
from pnpgen.render.rulebook.layout import EMPHASIS, NBSP, markup

# **bold**: the accent colour in the line's own face (no Mincho→Gothic switch mid-line)
BOLD = f'<font color="{EMPHASIS}">'


def test_rulebook_markup_is_read_by_the_kits_reader() -> None:
    assert markup("a **b & c** d\ne", "en") == f"a {BOLD}b &amp; c</font> d<br/>e"
    assert markup("[red]hot[/] and [nocolour] :icon:", "en") == '<font color="red">hot</font> and [nocolour] :icon:'
    assert markup("**[#c03020]x[/]**", "en") == f'{BOLD}<font color="#c03020">x</font></font>'


def test_japanese_folding_spaces_are_dropped_before_reading() -> None:
    assert markup("ダイスを 振る。 **残す** 。", "ja") == f"ダイスを振る。{BOLD}残す</font>。"


def test_equations_and_units_do_not_break() -> None:
    assert markup("total 10 − 2 = 8 s, then 5 × 10 − (7 − 4)", "en") == (
        f"total 10{NBSP}−{NBSP}2{NBSP}={NBSP}8{NBSP}s, then 5{NBSP}×{NBSP}10{NBSP}−{NBSP}(7{NBSP}−{NBSP}4)")


def test_cards_and_rulebooks_see_the_same_runs() -> None:
    runs = list(scan("**a** [red]b[/]\n", {}))
    assert [(r.kind, r.text, r.style) for r in runs] == [
        ("text", "a", Style(None, True)), ("text", " ", Style()), ("text", "b", Style("red")),
        ("break", "", Style()),
    ]
    assert [t.text for t in tokenize("**a** [red]b[/]", {})] == ["a", " ", "b"]


def test_one_table_model_for_every_renderer() -> None:
    from pnpgen.render.table import TableModel, UnknownTable, rules_table

    model = TableModel.of([["roll", "points"], [1, 100], ["6"]])
    assert model.header == ["roll", "points"] and model.rows == [["1", "100"], ["6"]]
    assert model.align == ["left", "center"] and model.aligned("right").align == ["left", "right"]
    assert model.grid() == [["roll", "points"], ["1", "100"], ["6", ""]]
    assert model.lines == [["roll", "points"], ["1", "100"], ["6"]]

    class NoTables:  # rules without the presentation capability publish no table
        id = "x"

    try:
        rules_table(NoTables(), "scores", "en")  # type: ignore[arg-type]
    except UnknownTable as err:
        assert err.args == ("scores",)
    else:
        raise AssertionError("expected UnknownTable")
