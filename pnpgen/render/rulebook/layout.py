"""A rulebook as data for Typst: the players' book or the companion of one language, as a
JSON tree (headings, paragraphs as runs of text, lists, tables, figures, boxes) and the
diagrams as SVG files. book.typ sets it; pnpgen.render.typeset compiles it sealed.

Content never becomes Typst markup: every text is a string in the JSON, and our own
markup (`**bold**`, `[red]…[/]`, line breaks) is read here by the one markup reader
(render/markup.py) into runs the template turns into Typst elements.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from reportlab.lib import colors

from pnpgen.content.yamlpos import YMap, where
from pnpgen.engine.capabilities import picture
from pnpgen.engine.protocol import Presentation, Rules
from pnpgen.errors import ContentError
from pnpgen.examples import positions
from pnpgen.render.colour import make_colour
from pnpgen.render.fonts import FONT_FILES, covers, setup_fonts
from pnpgen.render.markup import curly_quotes, scan
from pnpgen.render.publishing import alt_text, rulebook_figure
from pnpgen.render.rulebook.alt import scene_alt
from pnpgen.render.rulebook.model import Book, Resolver, Section, repeats_title
from pnpgen.render.words import WORDS
from pnpgen.scene import Label, Scene, to_svg, with_labels_inside

Node = dict[str, Any]  # a node of the document Typst reads (book.typ): JSON data
ACCENT = "#8a2b0e"  # chapter heads, example titles, emphasis
MM = 72 / 25.4
MARGIN_X = 18 * MM  # the page's side margins, pt
MARGIN_TOP = 22 * MM  # the running head sits in the top margin
MARGIN_BOTTOM = 26 * MM  # the page number sits in the bottom margin
HEADING_SIZES = (20.0, 14.0, 11.5)  # heading levels 1, 2, 3 (pt)
BOX_INSET = 8.0  # an example box's side padding, pt (book.typ)
MIN_LABEL_PT = 6.0  # no word in a diagram is printed smaller
TOC_CHARS = 300  # a longer heading is cut short in the contents and the PDF outline
# The longest text one paragraph holds; a longer one (20,000 characters of credits) is cut
# into paragraphs of about a page at a line break, a space or 。.
CHUNK_CHARS = 2_000
CHUNK_LINES = 30
WJ = "\u2060"  # word joiner: no line break on either side
NBSP = "\u00a0"


@dataclass(frozen=True)
class Typesetting:
    """How text in one language is set."""

    size: float  # body text, pt
    leading: float  # space between the lines of a paragraph, em
    spacing: float  # space between paragraphs, em
    unfold: bool  # drop the spaces YAML folding puts between lines (Japanese has none)
    serif: tuple[str, ...]  # Typst font families, first choice first
    sans: tuple[str, ...]
    bold: str | None  # a face for **bold**; None: the text face's own bold weight
    tail: int  # characters (ja) or words (en) the last line of a paragraph keeps together


TYPESETTING = {
    # IPAex has no bold face: emphasis is set in Gothic, in the accent colour (docs/rulebook.md)
    "ja": Typesetting(9.5, 0.85, 1.3, True, ("IPAexMincho",), ("IPAexGothic",), "IPAexGothic", 5),
    "en": Typesetting(10.0, 0.65, 1.0, False, ("Liberation Serif", "IPAexMincho"),
                      ("Liberation Sans", "IPAexGothic"), None, 2),
}


def label(name: str, lang: str, **values: Any) -> str:
    """A word the renderer prints (render.words.yaml)."""
    return WORDS(name, lang, **values)


# a space inside an equation (between a number or bracket and an operator) or between a
# number and its unit: a line must not break there ("10 − 2 = 8 s" stays whole)
_OPERATOR = r"[−+×÷=<>≤≥≈]"
_EQUATION = re.compile(rf"(?<=[\d)]) (?={_OPERATOR} )|(?<={_OPERATOR}) (?=[\d(−])")
_UNIT = re.compile(r"(?<=\d) (?=(?:s|min|mm|pt|%|×|points?|pips?|dice|die|rolls?|秒|分|点|個|回|人)(?![A-Za-z]))")
# a short bracketed formula with an operator, and what multiplies it: 「（クリスタル−疲労）×2」
_FORMULA = re.compile(r"[（(][^（）()\s]{1,24}[−+×÷=][^（）()\s]{0,24}[）)](?:[×÷][\d.]+)?")
_OPERAND = r"[−+]?[\dA-Za-z.]+"
# a formula written without spaces, and its unit: 「8−10＝−2秒」
_TIGHT_FORMULA = re.compile(rf"{_OPERAND}(?:[−+×÷=＝]{_OPERAND})+[秒分点個回人枚目]?")
_CJK_UNIT = re.compile(r"(?<![\d.,\u2060])[−+±]?\d[\d.,]*[秒分点個回人枚目]")  # 「2秒」: the number stays with its unit
_ONE_LETTER = re.compile(r"(?<![\w’'])([AI]) (?=\w)")  # "A white": no line ends on a one-letter word
_KANA_KANJI = "\u3041-\u30fa\u30fc-\u30ff\u3400-\u9fff\uf900-\ufaff"
_SPACED_NUMBER = re.compile(rf"(?<=[{_KANA_KANJI}]) +(?=[−+]?\d)|(?<=\d) +(?=[{_KANA_KANJI}])")
_KANA = re.compile(f"[{_KANA_KANJI}]")
_EMPTY_BRACKETS = re.compile(r"[（(「『【][\s\u3000]{0,2}[）)」』】]")  # 「（　）」 is one mark


def typeset(text: str, lang: str) -> str:
    """No-break spaces in equations and numbers with units, word joiners inside a formula
    written without spaces; curly quotes in English (set in Liberation, whose quotes are
    proportional: IPAex draws them full-width)."""
    text = _EQUATION.sub(NBSP, text)
    text = _UNIT.sub(NBSP, text)
    text = _FORMULA.sub(lambda m: WJ.join(m.group(0)), text)
    text = _TIGHT_FORMULA.sub(lambda m: WJ.join(m.group(0)), text)
    text = _CJK_UNIT.sub(lambda m: WJ.join(m.group(0)), text)
    text = _EMPTY_BRACKETS.sub(lambda m: WJ.join(m.group(0)), text)
    if lang == "en":
        text = _ONE_LETTER.sub(rf"\1{NBSP}", text)
    return curly_quotes(text) if lang == "en" else text


@lru_cache(maxsize=64)
def _hex(colour: str) -> str:
    value = make_colour(colour)
    return "#" + colors.Color.hexval(value)[2:] if isinstance(value, colors.Color) else colour


Runs = list[Node]
_GLUED = re.compile(r"[^\u2060](?:\u2060[^\u2060])+")  # characters typeset() joined with word joiners


def _is_cjk(ch: str) -> bool:
    return ord(ch) >= 0x2E80 and not ch.isspace()


def _unglue(piece: dict[str, Any]) -> Runs:
    """A run cut where typeset() glued characters together: each glued group becomes a run
    of its own marked `nb` (the template sets it in an unbreakable box), without the joiners,
    so the PDF's text holds no invisible characters."""
    text, out, start = piece["s"], [], 0
    for found in _GLUED.finditer(text):
        first, last = found.start(), found.end()
        # a Japanese character either side goes in the box too: Typst spaces Japanese from
        # Latin and digits inside a box, not across its edge (「全員 0 点」, not 「全員0 点」)
        # (before it a kana or kanji only: a box starting with 、 could start a line; after
        # it 。、 too: a line may break between a box and them)
        if first > start and _KANA.match(text[first - 1]):
            first -= 1
        if last < len(text) and _is_cjk(text[last]) and not _GLUED.match(text, last):
            last += 1
        if first > start:
            out.append({**piece, "s": text[start:first].replace(WJ, "")})
        out.append({**piece, "s": text[first:last].replace(WJ, ""), "nb": True})
        start = last
    if start < len(text):
        out.append({**piece, "s": text[start:].replace(WJ, "")})
    return [run for run in out if run["s"]]


def markup(text: str, lang: str) -> Runs:
    """Content text as runs for the template, read by the kit's one markup reader
    (markup.scan): {s: text, b: bold, c: colour} and {br: true} for a line break."""
    out = text.strip()
    if TYPESETTING[lang].unfold:  # YAML folding puts spaces between Japanese lines; drop them
        out = re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "", out)
        # (?<! ): a run of spaces is tried once, not from each of its spaces (quadratic)
        out = re.sub(r"(?<=[、。（「]) +|(?<! ) +(?=[、。）」])", "", out)
        # a number sits tight against the Japanese beside it (book.typ), so a space there,
        # typed or left by folding (「ものは\n1個」), goes too
        out = _SPACED_NUMBER.sub("", out)
    out = typeset(out, lang)
    out = out.replace(WJ + WJ, WJ)
    runs: Runs = []
    for run in scan(out, {}):
        if run.kind == "break":
            runs.append({"br": True})
        elif run.kind == "text" and run.text:
            piece: dict[str, Any] = {"s": run.text}
            if run.style.bold:
                piece["b"] = True
            if run.style.colour:
                piece["c"] = _hex(run.style.colour)
            if runs and "s" in runs[-1] and {k: v for k, v in runs[-1].items() if k != "s"} == \
                    {k: v for k, v in piece.items() if k != "s"}:
                runs[-1]["s"] += piece["s"]
            else:
                runs.append(piece)
    return [glued for run in runs for glued in (_unglue(run) if "s" in run else [run])]


def keep_tail(runs: Runs, lang: str) -> Runs:
    """The paragraph's last characters (Japanese) or last two words (English) kept on one
    line, so no paragraph ends on a line holding one syllable, a lone 。 or one short word."""
    if not runs or "s" not in runs[-1]:
        return runs
    last = runs[-1]
    text = last["s"]
    if lang == "ja":
        keep = TYPESETTING[lang].tail
        if last.get("nb") or len(text.rstrip()) <= keep:
            return runs
        cut = len(text.rstrip()) - keep
        while cut > 0 and not _is_cjk(text[cut]) and not text[cut - 1].isspace():
            cut -= 1  # the box starts at a Japanese character (Typst spaces 「の 3」 inside it)
        return [*runs[:-1], {**last, "s": text[:cut]}, {**last, "s": text[cut:], "nb": True}]
    stripped = text.rstrip()
    space = stripped.rfind(" ")
    if space > 0 and len(stripped) - space <= 12:
        last["s"] = text[:space] + NBSP + text[space + 1:]
    return runs


def decision_label(ident: str, lang: str) -> str:
    """A decision as printed: "Decision 4" for D-RR-4, "Decision E1" for D-RD-E1 (the id itself
    would read as rule RR-4)."""
    number = re.fullmatch(r"D-[A-Z0-9]+-(\w+)", ident)
    return label("decision", lang, n=number.group(1)) if number else ident


def pieces(text: str) -> list[str]:
    """`text` cut into pieces of at most CHUNK_CHARS characters and CHUNK_LINES line breaks,
    after a line break, a space or a Japanese full stop where one is near the limit."""
    out: list[str] = []
    start = 0
    while True:
        window = text[start:start + CHUNK_CHARS + 1]
        breaks = [i for i, ch in enumerate(window) if ch == "\n"]
        if len(window) <= CHUNK_CHARS and len(breaks) <= CHUNK_LINES:
            out.append(window)
            return out
        if len(breaks) > CHUNK_LINES:
            cut = breaks[CHUNK_LINES - 1] + 1
        else:
            window = window[:CHUNK_CHARS]
            cut = max(window.rfind(ch) for ch in "\n 。") + 1
            if cut < CHUNK_CHARS // 2:  # one long word: cut anywhere
                cut = CHUNK_CHARS
        out.append(text[start:start + cut])
        start += cut


def missing_glyphs(text: str) -> list[str]:
    """The characters of `text` that no bundled font draws (format characters such as the
    word joiner take no glyph)."""
    setup_fonts()
    missing = []
    for ch in dict.fromkeys(text):
        if ch in "\n\t" or unicodedata.category(ch) in ("Cf", "Zl", "Zp"):
            continue
        if not any(covers(font, ch) for font in FONT_FILES) and ch not in missing:
            missing.append(ch)
    return missing


@dataclass
class Document:
    """One PDF's data: the JSON tree and its figures (file name -> SVG)."""

    tree: dict[str, Any]
    figures: dict[str, bytes] = field(default_factory=dict)


class Writer:
    """Builds the players' book (`part="rulebook"`) or the companion (`part="companion"`)
    of one language."""

    def __init__(self, book: Book, res: Resolver, paper: tuple[float, float] = (595.28, 841.89),
                 part: str = "rulebook", players: Writer | None = None) -> None:
        """`players`: for the companion, the writer that laid out the players' book (else it
        is laid out again, for its rule ids and the examples' moves)."""
        self.book, self.res, self.lang, self.part = book, res, res.lang, part
        self.players = players
        self.paper = paper
        self.width = paper[0] - 2 * MARGIN_X
        self.shift = min((s.level for s in book.sections), default=0)
        self.last_level = 0
        self.figures: dict[str, bytes] = {}
        self.rule_refs: list[tuple[str, str]] = []  # (rule id, title) in order of appearance
        self.move_refs: list[tuple[str, str, str]] = []  # (example title, rule id, moves)
        self.cited: list[tuple[str, Any]] = []  # (rule id, where) an example cites or refuses under
        self.moved: list[tuple[Section, list[YMap]]] = []  # companion blocks of players' sections

    # --- text ------------------------------------------------------------------------
    def runs(self, text: str, parent: Any, key: Any, tail: bool = False) -> Runs:
        """`text` as runs, after checking every character has a glyph in a bundled font."""
        missing = missing_glyphs(text)
        if missing:
            shown = " ".join(f"U+{ord(ch):04X} {ch!r}" for ch in missing[:5])
            self.res.problem(f"no bundled font has a glyph for {shown}", parent, key, value=True)
        out = markup(text, self.lang)
        return keep_tail(out, self.lang) if tail else out

    def text(self, value: Any, parent: Any, key: Any, rules: Rules[Any, Any] | None) -> str:
        return self.res.text(value, parent, key, rules)

    def paragraphs(self, text: str, parent: Any, key: Any) -> list[Node]:
        """A text as paragraphs: each of its lines (a literal block's line breaks) is one,
        and a very long one is cut into pieces."""
        lines = [line for line in text.split("\n") if line.strip()] if len(text) <= CHUNK_CHARS else [text]
        return [{"t": "p", "c": self.runs(part, parent, key, tail=True)}
                for line in lines for part in pieces(line)]

    # --- the document ----------------------------------------------------------------
    def document(self) -> Document:
        sections = self.book.sections
        body: list[Node] = []
        if self.part == "rulebook":
            players = [s for s in sections if not self.for_companion(s) and not s.node.get("quick_reference")]
            # a heading whose every section went to the companion is left out
            players = [s for i, s in enumerate(players)
                       if s.blocks or (i + 1 < len(players) and players[i + 1].level > s.level)]
            for index, section in enumerate(players):
                body += self.section(section, first=index == 0)
            for section in sections:
                if section.node.get("quick_reference") and not self.for_companion(section):
                    body.append({"t": "quick", "c": self.section(section, first=True, floor=0)})
        else:
            body = self.companion()
        return Document(self.tree(body), self.figures)

    def for_companion(self, section: Section) -> bool:
        node = section.node
        return bool(node.get("notes") or node.get("companion"))

    def tree(self, body: list[Node]) -> Node:
        lang, res, content = self.lang, self.res, self.res.content
        data = content.data
        title = typeset(content.title(lang), lang)
        setting = TYPESETTING[lang]
        lo, hi = data["players"]["min"], data["players"]["max"]
        info = [[label("players", lang), label("players_one" if lo == hi else "players_value", lang, a=lo, b=hi)],
                [label("time", lang), label("time_value", lang, m=data["time_minutes"])]]
        if "ages" in data:
            info.append([label("ages", lang), label("ages_value", lang, a=str(data["ages"]).rstrip("+"))])
        info.append([label("version", lang), label("version_value", lang, v=str(data["version"]))])
        intro: list[Node] = []
        if self.book.intro is not None and self.part == "rulebook":
            text = res.text(self.book.intro, self.book.intro_parent, "intro", res.game(None, {}))
            intro = self.paragraphs(text, self.book.intro_parent, "intro")
        subtitle = res.plain(data["subtitle"]) if "subtitle" in data else None
        if self.part == "companion":
            subtitle = label("companion_subtitle", lang)
        credits = res.plain(data["credits"]) if "credits" in data else None
        kind = label("companion", lang) if self.part == "companion" else label("rulebook", lang)
        return {
            "title": f"{title} — {kind}" if self.part == "companion" else title,
            "author": "pnpgen",
            "lang": lang,
            "kind": self.part,
            "kind-label": kind,
            "running": title,
            "paper": [round(self.paper[0], 3), round(self.paper[1], 3)],
            "margin": {"x": MARGIN_X, "top": MARGIN_TOP, "bottom": MARGIN_BOTTOM},
            "heading-sizes": list(HEADING_SIZES),
            "size": setting.size,
            "leading": setting.leading,
            "spacing": setting.spacing,
            "fonts": {"serif": list(setting.serif), "sans": list(setting.sans)},
            "bold-font": setting.bold,
            "labels": {"contents": label("contents", lang)},
            "cover": {
                "title": title,
                "subtitle": self.runs(subtitle, data, "subtitle") if subtitle else None,
                "info": info,
                "intro": intro,
                "credits": self.runs(credits, data, "credits") if credits and self.part == "rulebook" else None,
            },
            "body": body,
        }

    def companion(self) -> list[Node]:
        """Designer notes, the sections and blocks marked for the companion, and the
        referees' chapter (how to use the referee, rule numbers, the examples' moves)."""
        sections = self.book.sections
        body: list[Node] = []
        # the players' book's rule ids and examples' moves are gathered by laying it out
        players = self.players
        if players is None:
            players = Writer(self.book, self.res, self.paper, "rulebook")
            players.document()
        notes = [s for s in sections if s.node.get("notes")]
        extra = [s for s in sections if s.node.get("companion") and not s.node.get("notes")]
        if notes:
            body += [{"t": "pagebreak"}, self.chapter(label("designer_notes", self.lang))]
            for section in notes:
                body += self.section(section, first=True, floor=1)
        if extra or players.moved:
            body += [{"t": "pagebreak"}, self.chapter(label("rules_in_detail", self.lang))]
            for section in extra:
                body += self.section(section, first=True, floor=1)
            for section, blocks in players.moved:
                body.append(self.heading(section, floor=1))
                rules = self.section_rules(section)
                for block in blocks:
                    body += self.block(block, rules, companion=True)
        body += self.referees(players)
        return body

    def chapter(self, text: str) -> Node:
        """A chapter heading the renderer supplies (no section behind it)."""
        self.last_level = 1
        return {"t": "h", "level": 1, "text": markup(text, self.lang), "toc": True}

    def sub_heading(self, text: str) -> Node:
        self.last_level = 2
        return {"t": "h", "level": 2, "text": markup(text, self.lang), "toc": True}

    def referees(self, players: Writer) -> list[Node]:
        """The referees' chapter: how to run the referee, rule numbers and the examples'
        moves in notation, kept out of the players' book."""
        lang = self.lang
        out: list[Node] = [{"t": "pagebreak"}, self.chapter(label("for_referees", lang))]
        game = self.res.content.id
        out.append(self.sub_heading(label("referee_howto", lang)))
        for line in label("referee_steps", lang, game=game).strip().splitlines():
            out.append({"t": "p", "c": markup(line, lang)})
        out.append({"t": "p", "c": markup(label("referee_intro", lang), lang)})
        seen: set[str] = set()
        rows = []
        for rule, title in players.rule_refs:
            if rule not in seen:
                seen.add(rule)
                rows.append([rule, title])
        for rule, where_ in players.cited:  # every id an example cites, sub-rules (NG-3.1) too
            if rule not in seen:
                seen.add(rule)
                rows.append([rule, self.res.rule_title(rule, where_) or ""])
        if rows:
            out += [self.sub_heading(label("rule_ids", lang)),
                    self.grid([label("rule_id", lang), label("rule_name", lang)], rows, [0.22, 0.78])]
        if players.move_refs:
            out += [self.sub_heading(label("example_moves", lang)),
                    self.grid([label("example", lang), label("rule_id", lang), label("notation", lang)],
                              [list(r) for r in players.move_refs], [0.42, 0.13, 0.45])]
        return out

    def grid(self, head: list[str], rows: list[list[str]], weights: list[float]) -> Node:
        return {"t": "table", "head": [markup(c, self.lang) for c in head],
                "rows": [[markup(c, self.lang) for c in row] for row in rows],
                "align": ["left"] * len(head), "widths": weights, "caption": None}

    # --- sections --------------------------------------------------------------------
    def section_rules(self, section: Section) -> Rules[Any, Any] | None:
        node = section.node
        return self.res.game(section.game, node) if section.game else self.res.game(None, node)

    def heading(self, section: Section, floor: int = 0) -> Node:
        node, res = section.node, self.res
        rule = node.get("rule")
        rules = self.section_rules(section)
        if "title" in node:
            title = res.text(node["title"], node, "title", rules)
        else:
            title = res.rule_title(str(rule), node) or ""
        if rule is not None and "title" in node:
            res.rule_title(str(rule), node)  # report unknown ids
        if rule:  # the id goes to the companion's referees' chapter, not into the heading
            self.rule_refs.append((str(rule), title))
        if len(title) > TOC_CHARS:  # a contents line must fit on a page
            title = title[:TOC_CHARS - 1] + "…"
        level = max(section.level, floor) - self.shift + 1
        if node.get("quick_reference"):
            level = 1
        level = max(1, min(level, self.last_level + 1))  # headings never skip a level (PDF/UA)
        self.last_level = level
        return {"t": "h", "level": level, "text": self.runs(title, *self.title_where(node)),
                "toc": bool(node.get("toc", True))}

    @staticmethod
    def title_where(node: Any) -> tuple[Any, Any]:
        title = node.get("title")
        if isinstance(title, dict):
            return title, next(iter(title))
        return node, "title" if "title" in node else "rule"

    def section(self, section: Section, first: bool, floor: int = 0) -> list[Node]:
        node = section.node
        out: list[Node] = []
        new_page = max(section.level, floor) == 0 or node.get("page_break")
        if new_page and not first:
            out.append({"t": "pagebreak"})
        heading = self.heading(section, floor)
        # "Designer notes" under the companion's chapter of that name: the chapter says it
        plain = "".join(r.get("s", "") for r in heading["text"])
        if not (floor and plain == label("designer_notes", self.lang)):
            out.append(heading)
        rules = self.section_rules(section)
        moved = []
        for block in section.blocks:
            if self.part == "rulebook" and not self.for_companion(section) and \
                    (block.get("companion") or "decisions" in block):
                moved.append(block)
                continue
            out += self.block(block, rules)
        if moved:
            self.moved.append((section, moved))
        return out

    # --- blocks ----------------------------------------------------------------------
    def block(self, block: YMap, default: Rules[Any, Any] | None, companion: bool = False) -> list[Node]:
        res = self.res
        rules = res.game(block["game"], block) if "game" in block else default
        if "text" in block:
            return self.paragraphs(res.text(block["text"], block, "text", rules), block, "text")
        if "list" in block or "steps" in block:
            key = "list" if "list" in block else "steps"
            items = block[key]
            return [{"t": "list" if key == "list" else "enum",
                     "items": [self.runs(res.text(item, items, i, rules), items, i, tail=True)
                               for i, item in enumerate(items)]}]
        if "table" in block:
            return self.table(block, rules)
        if "examples" in block:
            return [self.example(e) for e in res.select_examples(block, rules)]
        if "figure" in block:
            return self.figure(block, rules)
        if "image" in block:
            return self.image(block, rules)
        if "position" in block:
            return self.position(block, rules)
        if "decisions" in block:
            return self.decisions(block["decisions"], rules)
        if "components" in block:
            return self.components(block["components"], rules)
        if "callout" in block:
            text = res.text(block["callout"], block, "callout", rules)
            return [{"t": "box", "accent": True, "title": None, "c": self.paragraphs(text, block, "callout")}]
        if block.get("page_break"):
            return [{"t": "pagebreak"}]
        return []

    def image(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Node]:
        """An `image:` block: a checked picture of the game folder (kit/images.check_image), placed
        `width` mm wide at most (default the text width), never taller than 80 % of the text area."""
        image = self.res.picture(block)
        if image is None:
            return []
        described = block.get("alt", block.get("caption"))
        if described is None:
            self.res.problem("an image needs alt: (what it shows, for readers who cannot see it) or a caption",
                             block, "image", value=True)
            return []
        alt = self.res.text(described, block, "alt" if "alt" in block else "caption", rules)
        tallest = 0.8 * (self.paper[1] - MARGIN_TOP - MARGIN_BOTTOM)
        wanted = float(block["width"]) * MM if "width" in block else self.width
        width = min(wanted, self.width, tallest * image.width / image.height)
        # the checked file itself (an SVG's links reach nothing in the sealed compile root)
        name = f"img{len(self.figures) + 1}{image.path.suffix.lower()}"
        self.figures[name] = image.path.read_bytes()
        return [{"t": "fig", "file": name, "width": round(width, 3), "alt": alt,
                 "caption": self.caption(block, rules)}]

    def caption(self, block: YMap | dict[str, Any], rules: Rules[Any, Any] | None) -> Runs | None:
        if "caption" not in block:
            return None
        return self.runs(self.res.text(block["caption"], block, "caption", rules), block, "caption")

    def table(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Node]:
        model = self.res.table(block["table"], rules, block)
        if model is None or not model.lines:
            return []
        rows = model.grid()
        weights = block.get("widths")
        if weights is not None and len(weights) != model.columns:
            self.res.problem(f"widths: {len(weights)} given for {model.columns} columns", block, "widths")
            weights = None
        cells = [[self.runs(cell, block, "table") for cell in row] for row in rows]
        return [{"t": "table", "head": cells[0], "rows": cells[1:], "align": list(model.align),
                 "widths": [float(w) for w in weights] if weights else None,
                 "caption": self.caption(block, rules)}]

    def example(self, example: dict[str, Any]) -> Node:
        res, lang = self.res, self.lang
        rules = res.example_rules(example)
        plain_title = res.plain(example["title"])
        rule = ""
        if "rule" in example:
            res.rule_title(str(example["rule"]), example)  # reports an unknown id
            rule = str(example["rule"])
            self.cited.append((rule, example))
        parts: list[Node] = []
        if "text" in example:
            text = res.text(example["text"], example, "text", rules)
            parts += self.paragraphs(text, example, "text")
        diagram = self.diagram(rules, example)
        if diagram is not None:
            parts.append(diagram)
        moves = example.get("moves") or []
        if moves:  # the notation goes to the companion
            line = " · ".join(str(m) for m in moves)
            refused = example.get("expect", {}).get("illegal")
            if refused:
                line += label("refused", lang, rule=refused)
                self.cited.append((str(refused), example))
            self.move_refs.append((plain_title, rule, line))
        title = self.runs(plain_title, *self.title_where(example))
        # the example follows its rule and stays whole, its diagram beside its words; the
        # template lets it run on to the next page only where moving it whole would leave the
        # page too empty (book.typ, may-split: it measures the box and the room left)
        return {"t": "box", "accent": False, "title": title, "c": parts}

    def add_figure(self, scene: Scene, width: float, alt: str, caption: Runs | None,
                   where_: tuple[Any, Any]) -> Node:
        """The scene as an SVG file of the document, `width` pt wide at most."""
        labels = " ".join(s.text for s in scene.shapes if isinstance(s, Label))
        missing = missing_glyphs(labels)
        if missing:
            chars = " ".join(f"U+{ord(ch):04X} {ch!r}" for ch in missing[:5])
            self.res.problem(f"no bundled font has a glyph for {chars} (in a diagram)", *where_)
        if self.lang == "en":  # curly quotes in a diagram's words too
            scene = Scene(scene.width, scene.height, tuple(
                replace(s, text=curly_quotes(s.text)) if isinstance(s, Label) else s for s in scene.shapes))
        scene = with_labels_inside(scene)
        shown = min(width, scene.width)
        least = MIN_LABEL_PT * scene.width / shown if shown > 0 else MIN_LABEL_PT
        if any(isinstance(s, Label) and s.size < least for s in scene.shapes):  # readable printed
            scene = with_labels_inside(Scene(scene.width, scene.height, tuple(
                replace(s, size=least) if isinstance(s, Label) and s.size < least else s for s in scene.shapes)))
        name = f"fig{len(self.figures) + 1}.svg"
        sans = ", ".join(f"'{f}'" for f in TYPESETTING[self.lang].sans)
        self.figures[name] = to_svg(scene, scale=1.0, pad=0.0, font=sans, background=False).encode()
        if not alt.strip():
            raise ContentError("a diagram has no description", **where(*where_))
        return {"t": "fig", "file": name, "width": round(min(width, scene.width), 3), "alt": alt,
                "caption": caption}

    def diagram(self, rules: Rules[Any, Any] | None, example: dict[str, Any]) -> Node | None:
        """The example's position drawn by the game: before and after when its moves change it,
        the move marked; the position alone when the move is refused or there is none."""
        replayed = positions(rules, example) if rules is not None else None
        if rules is None or replayed is None:
            return None
        before, moves, after = replayed
        refused = after is None and bool(moves)
        captions = (label("before", self.lang), label("after", self.lang))
        width = self.width - 2 * BOX_INSET
        scene = picture(rules, before, moves, after, captions, self.lang, max_width=width)
        if scene is None:
            return None
        alt = self.alt(rules, before, moves, after, refused)
        # the caption says in players' words what the picture shows (why a move fails); one
        # that only repeats the example's title says nothing and is left out
        caption = self.caption(example, rules)
        if caption is not None and repeats_title("".join(r.get("s", "") for r in caption),
                                                 self.res.plain(example["title"])):
            return self.add_figure(scene, width, alt, None, (example, "state"))
        if caption is None and refused:
            caption = self.runs(label("attempted", self.lang), example, "state")
        return self.add_figure(scene, width, alt, caption, (example, "state"))

    def alt(self, rules: Rules[Any, Any], before: Any, moves: list[Any], after: Any, refused: bool) -> str:
        """The diagram in words, in the book's language: the game's own description of each
        state drawn (Presentation.alt_text), else one built from the picture's labels."""
        lang = self.lang

        def words(state: Any, marked: list[Any]) -> str:
            own = alt_text(rules, state, marked, lang)
            if own:
                return own
            drawn = rules.draw(state, marked, lang) if isinstance(rules, Presentation) else None
            return scene_alt(drawn, lang) if drawn is not None else ""

        first = words(before, moves)
        if refused:
            return label("alt_refused", lang, state=first)
        if after is None or not moves:
            return first
        return label("alt_before_after", lang, before=first, after=words(after, []))

    def figure(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Node]:
        """A picture the game draws for the book, row by row, its caption below the last row."""
        if rules is None:
            return []
        try:
            rows = rulebook_figure(rules, str(block["figure"]), self.lang)
        except KeyError:
            self.res.problem(f"unknown figure '{block['figure']}' for game '{rules.id}'", block, "figure",
                             value=True)
            return []
        caption = self.caption(block, rules)
        out = []
        for index, row in enumerate(rows):
            out.append(self.add_figure(row, self.width, scene_alt(row, self.lang),
                                       caption if index == len(rows) - 1 else None, (block, "figure")))
        return out

    def position(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Node]:
        """A position the game draws (components, setup): `position:` holds a state in the
        examples' state format, drawn with no move, under its caption."""
        replayed = positions(rules, {"state": block["position"]}) if rules is not None else None
        scene = picture(rules, replayed[0], lang=self.lang) if rules is not None and replayed else None
        if scene is None or rules is None or replayed is None:
            self.res.problem("this position does not load (or the game draws none)", block, "position",
                             value=True)
            return []
        alt = self.alt(rules, replayed[0], [], None, False)
        return [self.add_figure(scene, self.width, alt, self.caption(block, rules), (block, "position"))]

    def decisions(self, items: list[Any], rules: Rules[Any, Any] | None) -> list[Node]:
        res, lang = self.res, self.lang
        out: list[Node] = []
        for item in items:
            text = res.text(item["text"], item, "text", rules)
            source = None
            if "source" in item:
                source = self.runs(res.text(item["source"], item, "source", rules), item, "source")
            out.append({"t": "decision", "label": decision_label(str(item["id"]), lang),
                        "c": self.runs(text, item, "text", tail=True), "source": source,
                        "source-label": label("source", lang)})
        return out

    def components(self, items: list[Any], rules: Rules[Any, Any] | None) -> list[Node]:
        res, lang = self.res, self.lang
        rows = []
        for item in items:
            name = self.runs(res.text(item["name"], item, "name", rules), item, "name")
            note = self.runs(res.text(item["note"], item, "note", rules), item, "note") if "note" in item else []
            count = res.text(item["count"], item, "count", rules)
            rows.append([markup(label("count_value", lang, n=count), lang), name, note])
        head = [markup(label(word, lang), lang) for word in ("count", "component", "note")]
        return [{"t": "table", "head": head, "rows": rows, "align": ["center", "left", "left"],
                 "widths": [0.14, 0.34, 0.52], "caption": None}]

