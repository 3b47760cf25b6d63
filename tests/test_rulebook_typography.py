"""Typography and fidelity of every real rulebook (issues 14 and 26), measured on the PDFs
Typst sets, with pdfplumber (character positions; each book parsed once per session, tests/pdfpages.py)
and pypdf (outline, fonts):

- kinsoku on every Japanese line: none starts with a closing bracket, small kana or 。、,
  none ends with an opening bracket 「（『【; Japanese justified;
- no line of either language past the right margin;
- no paragraph ends on a line holding a lone syllable, a lone 。 or one short word;
- no formula broken across lines; no text under 6 pt (diagram labels included);
- English: curly quotes only, set in the bundled Latin face; every font embedded, subset;
  bold in a real bold face;
- page fill: no page more than 40 % empty but the cover, chapter ends and the back, and no
  example title or heading ends a page;
- every rule id an example cites is listed in the companion; decisions do not print as rule ids.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.examples import load_examples
from pnpgen.render.fonts import covers, setup_fonts
from pnpgen.render.linebreak import NO_END, NO_START
from pnpgen.render.linebreak import segments as segments_of
from pnpgen.render.rulebook.layout import ACCENT, HEADING_SIZES, MARGIN_BOTTOM, MARGIN_TOP, MARGIN_X, TYPESETTING
from tests import pdfpages

GAMES = ["burning-desire", "dice-road-race", "dungeon-war", "fast-alone", "routou-dice"]
MARGIN = MARGIN_X
CONTENT = Path(__file__).resolve().parents[1] / "content"
# Glyph edges come from the fonts' advance widths, positions are rounded; 0.5 pt covers
# rounding only.
TOLERANCE = 0.5
CELL_GAP = 8.0  # pt: a wider gap on one baseline is a new table cell, not a space in a line
CHAPTER_SIZE = HEADING_SIZES[0]  # a page whose first line is this big starts a chapter
BODY_FACE = {"ja": "IPAexMincho", "en": "LiberationSerif"}
SANS_FACE = {"ja": "IPAexGothic", "en": "LiberationSans"}


def accent(char: dict[str, Any]) -> bool:
    """Set in the accent colour (layout.ACCENT)."""
    colour = char.get("non_stroking_color")
    want = tuple(int(ACCENT[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return isinstance(colour, (tuple, list)) and len(colour) == 3 and all(
        abs(float(a) - b) < 0.01 for a, b in zip(colour, want, strict=True))


def opened(path: Path | str) -> contextlib.AbstractContextManager[Any]:
    """The PDF at `path` as pdfplumber reads it, parsed once per test session (tests/pdfpages):
    `.pages`, each with its characters and shapes."""
    return contextlib.nullcontext(SimpleNamespace(pages=pdfpages.pages(path)))


def segments(page: Any) -> Iterator[list[dict[str, Any]]]:
    """Each line of text on the page, cut where a table's vertical rule (or a gap wider than
    three cell gaps) lies between two characters, as lists of pdfplumber chars (spaces
    dropped: the ideographic space in 「（　）」 is no column gap)."""
    rules = [e for e in page.edges if e["orientation"] == "v"]
    for line in page.extract_text_lines(return_chars=True):
        run: list[dict[str, Any]] = []
        edge = None  # where the last character, space or not, ended
        for char in line["chars"]:
            gap = char["x0"] - edge if edge is not None else 0.0
            ruled = gap > 0 and any(edge <= r["x0"] <= char["x0"] and r["top"] <= char["top"] + 1
                                    and r["bottom"] >= char["bottom"] - 1 for r in rules)
            if run and (ruled or gap > 3 * CELL_GAP):  # a table's rule, or a wide gap: a new cell
                yield run
                run = []
            edge = char["x1"]
            if char["text"].strip():
                run.append(char)
        if run:
            yield run


@pytest.mark.parametrize("game", GAMES)
def test_japanese_lines_keep_kinsoku(rulebook_pdfs: Any, game: str) -> None:
    faults = []
    with opened(rulebook_pdfs[game]["ja"]) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            for run in segments(page):
                text = "".join(c["text"] for c in run)
                if re.fullmatch(r"\.+\d*|[–—]", text):  # a contents line's dot leader; a table's "none"
                    continue
                if text[0] in NO_START:
                    faults.append(f"p{number} starts with {text[0]}: {text[:40]}")
                if text[-1] in NO_END:
                    faults.append(f"p{number} ends with {text[-1]}: {text[-40:]}")
    assert faults == [], "\n".join(faults)


HALF_WIDTH_END = set("。、，．」』）】〕〉》")  # full-width marks whose ink fills the left half only


def ink_right(char: dict[str, Any]) -> float:
    """Where a character's ink ends: a full-width closing mark at a line's end is set in half
    its width (Typst trims its empty right half), so its box is counted to its middle."""
    if char["text"] in HALF_WIDTH_END:
        return float(char["x0"] + char["size"] / 2)
    return float(char["x1"])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_line_past_the_margin(rulebook_pdfs: Any, game: str, lang: str) -> None:
    faults = []
    with opened(rulebook_pdfs[game][lang]) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            right = page.width - MARGIN + TOLERANCE
            faults += [f"p{number} +{ink_right(c) - right + TOLERANCE:.1f} pt: {c['text']}"
                       for c in page.chars if c["text"].strip() and ink_right(c) > right]
    assert faults == []


@pytest.mark.parametrize("game", GAMES)
def test_english_has_curly_quotes_only(rulebook_pdfs: Any, game: str) -> None:
    with opened(rulebook_pdfs[game]["en"]) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    straight = [line for line in text.splitlines() if '"' in line or "'" in line]
    assert straight == []
    assert "’" in text  # apostrophes are curly, not dropped


def test_curly_quotes_are_proportional_in_the_latin_face(rulebook_pdfs: Any) -> None:
    """The reason for the Latin face: IPAex draws “ ” ’ an em wide ("stage’ s")."""
    with opened(rulebook_pdfs["burning-desire"]["en"]) as pdf:
        quotes = [c for page in pdf.pages for c in page.chars if c["text"] in "“”’"]
    assert quotes
    assert all("Liberation" in c["fontname"] and c["x1"] - c["x0"] < 0.5 * c["size"] for c in quotes)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_fonts_embedded_subset_and_the_right_face(rulebook_pdfs: Any, game: str, lang: str) -> None:
    path = rulebook_pdfs[game][lang]
    names = set()
    for page in PdfReader(path).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            name = str(font["/BaseFont"]).lstrip("/")
            names.add(name.split("+")[-1])
            assert re.fullmatch(r"[A-Z]{6}\+[\w-]+", name), name  # a subset
            descriptor = (font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font
                          else font)["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name
    if lang == "ja":
        assert names == {"IPAexGothic", "IPAexMincho"}
    else:  # Latin text in Liberation (bold in its bold faces); IPAex only for what Liberation lacks
        assert {"LiberationSerif", "LiberationSans"} <= names <= {
            "LiberationSerif", "LiberationSans", "LiberationSerif-Bold", "LiberationSans-Bold", "IPAexGothic",
            "IPAexMincho"}, names
        setup_fonts()
        with opened(path) as pdf:
            fallback = [c for p in pdf.pages for c in p.chars if "IPAex" in c["fontname"]]
        # a diagram label holding a symbol Liberation lacks ("≦14") is set whole in IPAex
        labels = {(c["page_number"], round(c["top"])) for c in fallback if not covers("LiberationSerif", c["text"])}
        assert not [c["text"] for c in fallback if covers("LiberationSerif", c["text"]) and c["text"].strip()
                    and (c["page_number"], round(c["top"])) not in labels]


def chapter_starts(path: Path) -> set[int]:
    """Pages (1-based) whose first line is a chapter heading."""
    starts = set()
    with opened(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            chars = [c for c in page.chars if c["size"] > 8.01]  # not the running head (8 pt)
            if chars:
                first = min(chars, key=lambda c: (round(c["top"]), c["x0"]))
                if first["size"] >= CHAPTER_SIZE - 0.5:
                    starts.add(number)
    return starts


def filled(page: Any) -> float:
    """How much of the text frame (between the running head and the page number) is used: the
    lowest text, box or picture on the page, as a fraction of the frame's height."""
    top, bottom = MARGIN_TOP, page.height - MARGIN_BOTTOM
    marks = [o["bottom"] for o in (*page.chars, *page.rects, *page.curves, *page.lines)
             if top < o["bottom"] <= bottom + 1]
    return (max(marks, default=top) - top) / (bottom - top)


FILL = 0.6  # the least part of a page's text frame a page fills (an example box runs on rather)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_page_more_than_40_percent_empty_but_chapter_ends(rulebook_pdfs: Any, game: str, lang: str) -> None:
    """Allowed: the cover, the last page (the quick reference), the page before it (the end
    of the back matter: the quick reference always starts a page), the page before a
    chapter heading (a chapter starts a page), and the contents when it is one page."""
    path = rulebook_pdfs[game][lang]
    reader = PdfReader(path)
    outline = [reader.get_destination_page_number(item) + 1 for item in reader.outline
               if not isinstance(item, list)]
    body = min(outline)
    starts = chapter_starts(path)
    with opened(path) as pdf:
        count = len(pdf.pages)
        allowed = {1, count, count - 1} | {n - 1 for n in starts}
        if body == 3:
            allowed.add(2)  # the contents, on one page
        empty = [f"p{n} {filled(page):.0%} filled" for n, page in enumerate(pdf.pages, 1)
                 if n not in allowed and filled(page) < FILL]
    assert empty == []


def rule_ids(game: str) -> set[str]:
    """Every rule id a game's content defines (game.yaml `rule_ids`)."""
    return set(load_game(CONTENT / game).labels("rule_ids"))


def cited_ids(game: str) -> set[str]:
    """Every rule id a printed example of the game cites (`rule:`) or expects a refusal under."""
    cited = set()
    for example in load_examples(load_game(CONTENT / game)):
        if "text" not in example:  # not printed
            continue
        if "rule" in example:
            cited.add(str(example["rule"]))
        refused = (example.get("expect") or {}).get("illegal")
        if refused:
            cited.add(str(refused))
    return cited


def rule_table(path: Path, lang: str) -> str:
    """The text of the companion's "Rule numbers" table (up to the examples' moves)."""
    from pnpgen.render.words import WORDS

    with opened(path) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    start = text.rindex(WORDS("rule_ids", lang))
    end = text.find(WORDS("example_moves", lang), start)
    return text[start:end if end > 0 else None]


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_rule_id_is_a_rule_listed_in_the_companion(rulebook_pdfs: Any, game: str) -> None:
    cited = cited_ids(game)
    assert cited, game
    assert cited <= rule_ids(game), sorted(cited - rule_ids(game))
    for lang in ("ja", "en"):
        table = rule_table(rulebook_pdfs[game][f"companion-{lang}"], lang)
        listed = set(re.findall(r"(?m)^([A-Z][A-Z0-9]{0,2}-[A-Z0-9.]+)\b", table))
        assert cited <= listed, (lang, sorted(cited - listed))


@pytest.mark.parametrize("game", GAMES)
def test_decisions_do_not_print_as_rule_ids(rulebook_pdfs: Any, game: str) -> None:
    """"D-RR-4" read as rule RR-4: decisions print as "Decision 4", in the companion."""
    with opened(rulebook_pdfs[game]["companion-en"]) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    assert not re.search(r"\bD-[A-Z0-9]+-\w+", text)
    assert re.search(r"Decision \d+", text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_heading_at_a_page_foot(rulebook_pdfs: Any, game: str, lang: str) -> None:
    """The last line in a page's text frame is never a heading (heading size, sans face) nor
    an example's title (the accent colour at the text size: a box that runs on keeps its
    title with its first line). The quick reference (last page) is scaled as a whole and
    skipped."""
    faults = []
    with opened(rulebook_pdfs[game][lang]) as pdf:
        for number, page in enumerate(pdf.pages[1:-1], 2):
            lines = [line for line in page.extract_text_lines(return_chars=True)
                     if MARGIN_TOP < line["bottom"] <= page.height - MARGIN_BOTTOM + 3]  # descenders
            if not lines:
                continue
            first = lines[-1]["chars"][0]
            titled = abs(first["size"] - TYPESETTING[lang].size) < 0.05 and first["fontname"].endswith(
                SANS_FACE[lang]) and accent(first)
            if titled or any(abs(first["size"] - s) < 0.05 for s in HEADING_SIZES):
                faults.append(f"p{number}: {lines[-1]['text']}")
    assert faults == []


def body_lines(page: Any, lang: str) -> list[list[dict[str, Any]]]:
    """The page's lines of running text: the body face at the body size (not headings,
    tables, captions, diagrams, running heads)."""
    size = TYPESETTING[lang].size
    return [run for run in segments(page)
            if run[0]["fontname"].endswith(BODY_FACE[lang]) and abs(run[0]["size"] - size) < 0.05]


MARKER = re.compile(r"^(?:•|\d+\.)")  # a list item's bullet or number


def text_of(run: list[dict[str, Any]]) -> str:
    return "".join(c["text"] for c in run)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_paragraph_ends_on_a_lone_syllable(rulebook_pdfs: Any, game: str, lang: str) -> None:
    """No line of running text holds only one or two characters (Japanese: 「す。」) or one
    short word (English)."""
    faults = []
    with opened(rulebook_pdfs[game][lang]) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            for run in body_lines(page, lang):
                text = MARKER.sub("", "".join(c["text"] for c in run)).strip()
                if not text:
                    continue
                lone = len(text) <= 2 if lang == "ja" else (len(text) <= 4 and " " not in text)
                if lone:
                    faults.append(f"p{number}: {text!r}")
    assert faults == []


@pytest.mark.parametrize("game", GAMES)
def test_japanese_is_justified(rulebook_pdfs: Any, game: str) -> None:
    """Every line of a Japanese paragraph but its last reaches the right edge of its column
    (the page's margin, or an example box's padding inside it). The cover (centred) is not
    justified."""
    ragged, lines_checked = [], 0
    with opened(rulebook_pdfs[game]["ja"]) as pdf:
        pages = [(page, body_lines(page, "ja")) for page in pdf.pages]
        # baseline to baseline inside a paragraph: the shortest step between body lines that
        # recurs (between paragraphs it is longer)
        steps = Counter(round(b[0]["bottom"] - a[0]["bottom"], 1) for _, lines in pages
                        for a, b in zip(lines, lines[1:], strict=False))
        step = min(s for s, n in steps.items() if n >= 3 and s > 0)
        for number, (page, lines) in enumerate(pages, 1):
            right = page.width - MARGIN
            for line, below in zip(lines, lines[1:], strict=False):
                if number == 1 or abs(below[0]["bottom"] - line[0]["bottom"] - step) > 0.3 \
                        or abs(below[0]["x0"] - line[0]["x0"]) > 20 or MARKER.match(text_of(below)):
                    continue  # the line is a paragraph's (or a list item's) last
                lines_checked += 1
                end = ink_right(line[-1])
                if min(abs(end - right), abs(end - (right - 8))) > 1.5:
                    text = "".join(c["text"] for c in line)[-20:]
                    ragged.append(f"p{number} ends {right - end:.1f} pt short: {text} / {text_of(below)[:10]}")
    assert lines_checked > 20
    assert ragged == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_formula_or_number_and_unit_broken(rulebook_pdfs: Any, game: str, lang: str) -> None:
    """No line of running text ends or starts on an operator, and none starts with a unit
    whose number ended the line before."""
    unit = re.compile(r"^(?:点|個|回|人|秒|分|mm|pt|points?|pips?|dice|rolls?)\b")
    faults = []
    with opened(rulebook_pdfs[game][lang]) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            lines = ["".join(c["text"] for c in run).strip() for run in body_lines(page, lang)]
            for line, after in zip(lines, [*lines[1:], ""], strict=False):
                if line[-1:] in "−+×÷=＝" or line[:1] in "×÷=＝":  # (a line may start with a negative number)
                    faults.append(f"p{number}: {line[-30:]!r} / {after[:20]!r}")
                if line[-1:].isdigit() and unit.match(after):
                    faults.append(f"p{number}: {line[-30:]!r} / {after[:20]!r}")
    assert faults == []


def test_dungeon_war_formula_stays_on_one_line(rulebook_pdfs: Any) -> None:
    """Issue 26's example: 「（クリスタル−疲労）×2」 was broken after −."""
    with opened(rulebook_pdfs["dungeon-war"]["ja"]) as pdf:
        lines = [line["text"] for page in pdf.pages for line in page.extract_text_lines()]
    assert any("（クリスタル−疲労）×" in line.replace("\u2060", "") for line in lines)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("doc", ["ja", "en", "companion-ja", "companion-en"])
def test_no_text_under_6_pt(rulebook_pdfs: Any, game: str, doc: str) -> None:
    """Diagram labels included (their text is set in the book's fonts, at print size)."""
    with opened(rulebook_pdfs[game][doc]) as pdf:
        small = {(n, c["text"], round(c["size"], 2)) for n, page in enumerate(pdf.pages, 1)
                 for c in page.chars if c["text"].strip() and c["size"] < 5.99}
    assert sorted(small)[:10] == []


def test_bold_is_a_real_bold_face(rulebook_pdfs: Any) -> None:
    """**bold** in English is set in Liberation's bold cut; in Japanese (IPAex has no bold) in
    Gothic, in the accent colour, beside Mincho text."""
    with opened(rulebook_pdfs["burning-desire"]["en"]) as pdf:
        faces = {c["fontname"].split("+")[-1] for page in pdf.pages for c in page.chars}
    assert "LiberationSerif-Bold" in faces


def test_line_breaker_keeps_kinsoku_and_no_break_spaces() -> None:
    """The print kit's line breaker (cards, sheets)."""
    parts = segments_of("「ダイス」を振る。10\u00a0点 and more")
    assert "「ダ" in parts and "す。" not in parts and "る。" in parts  # 「 glued after, 。 before
    assert "10\u00a0点" in parts  # a no-break space never breaks
    assert "and" in parts and " " in parts


# --- Japanese spacing and emphasis (issue 27) ---------------------------------------------

CJ = re.compile(r"[\u3041-\u30fa\u30fc\u3400-\u9fff々]")  # kana and kanji (not ・, brackets, 〜)


def neighbours(path: Path) -> Iterator[tuple[dict[str, Any], dict[str, Any], int]]:
    """Each two characters set side by side on one line in one size, with no space and no
    table column between them (a gap under half an em), and the page they are on."""
    with opened(path) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            for a, b in zip(page.chars, page.chars[1:], strict=False):
                if abs(a["top"] - b["top"]) < 1 and abs(a["size"] - b["size"]) < 0.1 and \
                        0 <= b["x0"] - a["x1"] < a["size"] / 2 and a["text"].strip() and b["text"].strip():
                    yield a, b, number


@pytest.mark.parametrize("game", GAMES)
def test_japanese_numbers_sit_tight_against_japanese(rulebook_pdfs: Any, game: str) -> None:
    """No space between a number and the Japanese beside it (2〜4人, 1000点, 第1版), as the
    source and the Japanese-conventions lint write it; Typst's automatic CJK-Latin spacing
    put a quarter em there ("2〜4 人")."""
    pairs, spaced = 0, []
    for a, b, number in neighbours(rulebook_pdfs[game]["ja"]):
        if (a["text"].isdigit() and CJ.match(b["text"])) or (CJ.match(a["text"]) and b["text"].isdigit()):
            pairs += 1
            if b["x0"] - a["x1"] > 0.5:
                spaced.append(f"p{number} {a['text']}{b['text']} {b['x0'] - a['x1']:.1f} pt")
    assert pairs > 50
    assert spaced == []


def test_latin_words_in_japanese_keep_a_quarter_em(rulebook_pdfs: Any) -> None:
    """A Latin word inside Japanese keeps the usual spacing (の BP は, 「G を」)."""
    gaps = [b["x0"] - a["x1"] for a, b, _ in neighbours(rulebook_pdfs["dungeon-war"]["ja"])
            if (a["text"].isascii() and a["text"].isalpha() and CJ.match(b["text"]))
            or (CJ.match(a["text"]) and b["text"].isascii() and b["text"].isalpha())]
    assert len(gaps) > 10
    assert sum(gap > 1.5 for gap in gaps) >= 0.9 * len(gaps), sorted(gaps)


@pytest.mark.parametrize("game", GAMES)
def test_japanese_bold_is_not_coloured_like_an_example_title(rulebook_pdfs: Any, game: str) -> None:
    """Japanese **bold** is Gothic in the text's colour; an example's title is Gothic in the
    accent colour: no line of running text holds accent-coloured Gothic (it would read as a
    title), while titles (lines all in Gothic) do."""
    mixed, titles = [], 0
    size = TYPESETTING["ja"].size
    with opened(rulebook_pdfs[game]["ja"]) as pdf:
        for number, page in enumerate(pdf.pages[1:], 2):
            for line in page.extract_text_lines(return_chars=True):
                chars = [c for c in line["chars"] if c["text"].strip() and abs(c["size"] - size) < 0.05]
                gothic = [c for c in chars if c["fontname"].endswith("IPAexGothic")]
                if not gothic:
                    continue
                if len(gothic) == len(chars):
                    titles += all(accent(c) for c in gothic)
                elif any(accent(c) for c in gothic):
                    mixed.append(f"p{number}: {line['text'][:40]}")
    assert titles > 0
    assert mixed == []
