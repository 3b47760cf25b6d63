"""Rulebooks and components read markup with one reader (render/markup.py)."""

from __future__ import annotations

from pnpgen.render.kit.richtext import tokenize
from pnpgen.render.markup import Style, scan
from pnpgen.render.rulebook.layout import NBSP, WJ, keep_tail, markup


def test_rulebook_markup_is_read_by_the_kits_reader() -> None:
    """Content text becomes runs of plain strings for the Typst template (never markup):
    bold and colour are flags, line breaks are their own runs."""
    assert markup("a **b & c** d\ne", "en") == [{"s": "a "}, {"s": "b & c", "b": True}, {"s": " d"}, {"br": True},
                                                {"s": "e"}]
    assert markup("[red]hot[/] and [nocolour] :icon:", "en") == [{"s": "hot", "c": "#ff0000"},
                                                                  {"s": " and [nocolour] :icon:"}]
    assert markup("**[#c03020]x[/]**", "en") == [{"s": "x", "b": True, "c": "#c03020"}]
    assert markup("#let x $ *a* _b_ <c> @d", "en") == [{"s": "#let x $ *a* _b_ <c> @d"}]


def test_japanese_folding_spaces_are_dropped_before_reading() -> None:
    assert markup("ダイスを 振る。 **残す** 。", "ja") == [{"s": "ダイスを振る。"}, {"s": "残す", "b": True},
                                                        {"s": "。"}]


def test_equations_and_units_do_not_break() -> None:
    assert markup("total 10 − 2 = 8 s, then 5 × 10 − (7 − 4)", "en") == [{"s": (
        f"total 10{NBSP}−{NBSP}2{NBSP}={NBSP}8{NBSP}s, then 5{NBSP}×{NBSP}10{NBSP}−{NBSP}(7{NBSP}−{NBSP}4)")}]
    # a bracketed formula written without spaces is held together, with what multiplies it
    # (with the Japanese character either side: Typst spaces Japanese from digits inside a box)
    assert markup("BP（クリスタル−疲労）×2。", "ja") == [{"s": "BP"}, {"s": "（クリスタル−疲労）×2。", "nb": True}]
    assert markup("P2は8−10＝−2秒", "ja") == [{"s": "P2"}, {"s": "は8−10＝−2秒", "nb": True}]
    assert markup("合計1000点、+20秒", "ja") == [{"s": "合"}, {"s": "計1000点、", "nb": True},
                                               {"s": "+20秒", "nb": True}]
    assert not any(WJ in run.get("s", "") for run in markup("（　）の属性、+20秒", "ja"))  # no joiner in the PDF


def test_a_paragraph_keeps_its_last_characters_together() -> None:
    ja = keep_tail(markup("ダイスを振って出た目を得点に加えます。", "ja"), "ja")
    assert ja[-1] == {"s": "加えます。", "nb": True} and ja[0]["s"] == "ダイスを振って出た目を得点に"
    en = keep_tail(markup("Roll the die and add the points to your total.", "en"), "en")
    assert en[-1]["s"].endswith(f"your{NBSP}total.")


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
