"""Layout elements: rich text, line breaking (Japanese and English), fields, overflow and
shrink-to-fit, colours (CMYK for print shops), and drawing on a page."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.content.yamlpos import load_yaml
from pnpgen.errors import BuildError, ContentError
from pnpgen.output import BuildOptions
from pnpgen.render.colour import make_colour, to_cmyk
from pnpgen.render.fonts import SANS, setup_fonts
from pnpgen.render.kit.elements import ElementContext, check_elements, draw_elements, fill_fields
from pnpgen.render.kit.page import MM, KitJob, Rect, open_canvas
from pnpgen.render.kit.richtext import break_lines, tokenize
from pnpgen.render.text import OldPlaceholder, TemplateRefused
from tests.conftest import ROOT
from tests.kit_pdf import texts

DEMO = ROOT / "tests" / "fixtures" / "kit-demo"


@pytest.fixture(scope="module")
def job() -> KitJob:
    setup_fonts()
    return KitJob(load_game(DEMO), [], BuildOptions(), "en")


def ctx_for(job: KitJob, **fields: object) -> ElementContext:
    return ElementContext(job, "game kit-demo, component t, card 1 'X'", fields, {"star": {"shape": "circle"}})


def elements(text: str) -> list[object]:
    return load_yaml("t.yaml", text)  # type: ignore[no-any-return]


def test_tokens_rich_text() -> None:
    tokens = tokenize("**Big** [#c00000]red[/] :star: x", {"star": {}})
    assert [(t.kind, t.text, t.style.bold, t.style.colour) for t in tokens if t.kind != "space"] == [
        ("word", "Big", True, None), ("word", "red", False, "#c00000"), ("icon", "star", False, None),
        ("word", "x", False, None)]
    # an unknown icon or colour name stays as text
    assert "".join(t.text for t in tokenize(":nope: [zzz]", {})) == ":nope: [zzz]"


def test_japanese_breaks_anywhere_but_before_closing_punctuation() -> None:
    setup_fonts()
    tokens = tokenize("ダイスを振って、残して、賭ける。「1」の2倍。", {})
    lines, fits = break_lines(tokens, SANS, 10, 10 * 5.2)  # about five characters a line
    assert fits
    for line in lines[1:]:
        assert line.items[0][0].text[0] not in "、。」"
    for line in lines:
        assert line.items[-1][0].text[-1] != "「"
    assert "".join(t.text for line in lines for t, _w in line.items) == "ダイスを振って、残して、賭ける。「1」の2倍。"


def test_english_breaks_between_words() -> None:
    setup_fonts()
    lines, fits = break_lines(tokenize("the quick brown fox jumps", {}), SANS, 10, 60)
    assert fits
    words = [" ".join(t.text for t, _w in line.items if t.kind == "word") for line in lines]
    assert " ".join(words) == "the quick brown fox jumps" and len(words) > 1
    _lines, fits = break_lines(tokenize("incomprehensibilities", {}), SANS, 10, 30)
    assert not fits  # one word wider than the line


def test_fields_are_filled_and_unknown_ones_named(job: KitJob) -> None:
    ctx = ctx_for(job, name={"ja": "火", "en": "Fire"}, cost=3)
    assert fill_fields("{{ name }} costs {{cost}} {no field}", ctx) == "Fire costs 3 {no field}"
    with pytest.raises(BuildError,
                       match=r"card 1 'X': unknown field '\{\{ cots \}\}' \(did you mean 'cost'\?\) \(fields: cost, "):
        fill_fields("{{ cots }}", ctx)


def test_fields_render_in_the_rulebook_sandbox(job: KitJob) -> None:
    ctx = ctx_for(job, name={"ja": "火", "en": "Fire"}, cost=3)
    assert fill_fields("{{ name | upper }} {% if cost > 2 %}costs {{ cost + 1 }}{% endif %}", ctx) == "FIRE costs 4"
    assert fill_fields("{{ game_title }}", ctx) == job.content.title("en")  # one context: game values too
    with pytest.raises(TemplateRefused, match="calling functions"):
        fill_fields("{{ name.upper() }}", ctx)
    with pytest.raises(BuildError, match="unknown field '\\{\\{ nope \\}\\}'"):
        fill_fields("{{ nope | upper }}", ctx)


def test_the_old_placeholder_is_refused_with_what_to_write(job: KitJob) -> None:
    with pytest.raises(OldPlaceholder, match=r"'\{name\}' is the old placeholder syntax; write \{\{ name \}\}"):
        fill_fields("**{name}**", ctx_for(job, name="Fire"))


def test_overflow_names_the_card_and_shrink_fits(job: KitJob) -> None:
    long = "word " * 60
    layout = elements(f"- {{text: '{long}', w: 30, h: 10, size: 9}}\n")
    box = Rect.mm(0, 0, 63, 88)
    with pytest.raises(BuildError) as failure:
        draw_elements(None, layout, box, ctx_for(job))
    assert str(failure.value).startswith("t.yaml:1:10: game kit-demo, component t, card 1 'X': text overflows")
    layout = elements(f"- {{text: '{long}', w: 30, h: 10, size: 9, shrink: true, min_size: 2}}\n")
    draw_elements(None, layout, box, ctx_for(job))
    layout = elements(f"- {{text: '{long}', w: 30, h: 10, size: 9, shrink: true, min_size: 8}}\n")
    with pytest.raises(BuildError):
        draw_elements(None, layout, box, ctx_for(job))


def test_check_elements_did_you_mean() -> None:
    with pytest.raises(ContentError, match="found 'txt' \\(did you mean 'text'\\?\\)"):
        check_elements(elements("- {txt: a}\n"), "front")
    with pytest.raises(ContentError, match="unknown colour 'reddish'"):
        check_elements(elements("- {shape: rect, fill: reddish}\n"), "front")
    with pytest.raises(ContentError, match="expected one of rect, rounded"):
        check_elements(elements("- {shape: star}\n"), "front")


def test_colours_and_cmyk() -> None:
    assert make_colour("#f00").hexval() == "0xff0000"
    cmyk = make_colour("#ff0000", cmyk=True)  # through the FOGRA39 press profile, not a formula
    assert cmyk.cyan < 0.02 and cmyk.magenta > 0.9 and cmyk.yellow > 0.85 and cmyk.black < 0.02
    brick = make_colour("#b5171f", cmyk=True)  # the naive formula gave 0/87/83/29
    assert (round(brick.cyan, 2), round(brick.magenta, 2)) != (0, 0.87) and brick.black < 0.29
    black = make_colour("#000000", cmyk=True)  # text black: black ink only, no rich black
    assert (black.cyan, black.magenta, black.yellow, black.black) == (0, 0, 0, 1)
    grey = to_cmyk(make_colour("#808080"))
    assert grey.cyan == grey.magenta == grey.yellow == 0 and abs(grey.black - 0.498) < 0.01
    explicit = make_colour("cmyk(10, 20, 30, 40)")
    assert (explicit.cyan, explicit.black) == (0.1, 0.4)


def test_drawn_positions_follow_the_layout(job: KitJob, tmp_path: Path) -> None:
    path = tmp_path / "face.pdf"
    canvas = open_canvas(path, (100 * MM, 100 * MM))
    layout = elements(
        "- {text: 'Left', x: 5, y: 5, w: 40, h: 10, size: 10}\n"
        "- {text: 'Right', x: 5, y: 20, w: 40, h: 10, size: 10, align: right}\n"
        "- {text: 'Mid', x: 5, y: 35, w: 40, h: 10, size: 10, align: center, valign: middle}\n"
        "- {text: 'ja', lang: ja, x: 5, y: 50, w: 40, h: 10}\n"
        "- {text: {ja: 日本語, en: English}, x: 5, y: 60, w: 40, h: 10}\n")
    draw_elements(canvas, layout, Rect.mm(10, 10, 63, 88), ctx_for(job))
    canvas.showPage()
    canvas.save()
    found = {t: (x / MM, y / MM) for t, x, y in texts(PdfReader(str(path)), 0)}
    assert abs(found["Left"][0] - 15) < 0.05  # box x 10 + element x 5
    assert found["Left"][1] < 98 - 5 and found["Left"][1] > 98 - 15  # baseline inside its 10 mm row
    from reportlab.pdfbase.pdfmetrics import stringWidth

    right_edge = found["Right"][0] + stringWidth("Right", SANS, 10) / MM
    assert abs(right_edge - 55) < 0.05
    mid = found["Mid"][0] + stringWidth("Mid", SANS, 10) / MM / 2
    assert abs(mid - 35) < 0.05
    assert "English" in found and "日本語" not in found
