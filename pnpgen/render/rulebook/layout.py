"""Rulebook layout with ReportLab platypus: title page, contents, sections, footer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from pnpgen.content.game import GameContent
from pnpgen.content.yamlpos import YMap
from pnpgen.engine.capabilities import picture
from pnpgen.engine.protocol import Rules
from pnpgen.examples import positions
from pnpgen.render.diagram import drawing
from pnpgen.render.fonts import faces, setup_fonts
from pnpgen.render.kit.images import Image, draw_image_file
from pnpgen.render.kit.page import Rect
from pnpgen.render.linebreak import KinsokuParagraph as Paragraph  # kinsoku, nothing past the measure
from pnpgen.render.markup import curly_quotes, scan
from pnpgen.render.publishing import rulebook_figure
from pnpgen.render.rulebook.model import Book, Resolver, Section
from pnpgen.render.rulebook.pagefill import FittedContents, keep_with_start
from pnpgen.render.rulebook.tables import FitTable, text_table
from pnpgen.render.words import WORDS
from pnpgen.scene import beside

MARGIN = 18 * mm
FOOTER = 10 * mm
ACCENT = colors.HexColor("#8a2b0e")
RULE_GREY = colors.HexColor("#555555")
SHADE = colors.HexColor("#f1ece6")
HEADER_SHADE = colors.HexColor("#e2d8cc")
EMPHASIS = "#8a2b0e"  # **bold** in content text: the accent colour, same face as the line



# The longest text one Paragraph holds. ReportLab re-breaks the whole rest of a paragraph on
# every page it continues onto, which is quadratic in its length (200 KB of credits took 22 s,
# 5 MB over an hour), so longer text is cut into Paragraphs of about a page each. Real texts
# are under 500 characters and 5 lines, and stay one Paragraph.
CHUNK_CHARS = 2_000
CHUNK_LINES = 30
TOC_CHARS = 300  # a longer heading is cut short in the contents and the PDF outline


@dataclass(frozen=True)
class Typesetting:
    """How text in one language is set."""

    wrap: str | None  # ReportLab's wordWrap: "CJK" breaks between any two characters
    size: float  # body text, pt
    unfold: bool  # drop the spaces YAML folding puts between lines (Japanese has none)


TYPESETTING = {"ja": Typesetting("CJK", 9.5, True), "en": Typesetting(None, 10, False)}


def label(name: str, lang: str, **values: Any) -> str:
    """A word the renderer prints (render.words.yaml)."""
    return WORDS(name, lang, **values)


NBSP = "\u00a0"
# a space inside an equation (between a number or bracket and an operator) or between a
# number and its unit: a line must not break there ("10 − 2 = 8 s" stays whole)
_OPERATOR = r"[−+×÷=<>≤≥≈]"
_EQUATION = re.compile(rf"(?<=[\d)]) (?={_OPERATOR} )|(?<={_OPERATOR}) (?=[\d(−])")
_UNIT = re.compile(r"(?<=\d) (?=(?:s|min|mm|pt|%|×|points?|pips?|dice|die|rolls?|秒|分|点|個|回|人)(?![A-Za-z]))")


def typeset(text: str, lang: str) -> str:
    """No-break spaces in equations and numbers with units; curly quotes in English (set in
    Liberation, whose quotes are proportional: IPAex draws them full-width)."""
    text = _EQUATION.sub(NBSP, text)
    text = _UNIT.sub(NBSP, text)
    return curly_quotes(text) if lang == "en" else text


def markup(text: str, lang: str) -> str:
    """Content text to Paragraph markup, read by the kit's one markup reader (richtext.scan):
    escaped, `**x**` in the accent colour (same face), `[red]x[/]` coloured, line breaks kept."""
    out = text.strip()
    if TYPESETTING[lang].unfold:  # YAML folding puts spaces between Japanese lines; drop them
        out = re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "", out)
        # (?<! ): a run of spaces is tried once, not from each of its spaces (quadratic)
        out = re.sub(r"(?<=[、。（「]) +|(?<! ) +(?=[、。）」])", "", out)
    out = typeset(out, lang)
    parts: list[str] = []
    runs = [run for run in scan(out, {}) if run.kind != "icon"]
    for style, group in groupby(runs, key=lambda run: run.style if run.kind == "text" else None):
        if style is None:  # line breaks
            parts += ["<br/>" for _ in group]
            continue
        piece = escape("".join(run.text for run in group))
        if style.colour:
            piece = f'<font color="{style.colour}">{piece}</font>'
        if style.bold:  # no bold face is bundled: emphasis keeps the line's face, in the accent
            piece = f'<font color="{EMPHASIS}">{piece}</font>'
        parts.append(piece)
    return "".join(parts)


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


def paragraphs(text: str, lang: str, style: ParagraphStyle, bullet: str | None = None,
               prefix: str = "") -> list[Paragraph]:
    """Content text (plain) as Paragraphs: one, unless it is longer than CHUNK_CHARS or
    CHUNK_LINES. `prefix` (markup) starts the first; `bullet` is its bullet."""
    parts = pieces(text)
    if len(parts) == 1:
        return [Paragraph(prefix + markup(text, lang), style, bulletText=bullet)]
    out = []
    for index, part in enumerate(parts):
        first, last = index == 0, index == len(parts) - 1
        piece_style = ParagraphStyle(f"{style.name}-{index}", parent=style,
                                     spaceBefore=style.spaceBefore if first else 0,
                                     spaceAfter=style.spaceAfter if last else 0)
        out.append(Paragraph((prefix if first else "") + markup(part, lang), piece_style,
                             bulletText=bullet if first else None))
    return out


class Styles:
    """Paragraph styles for one language (CJK wrapping for Japanese)."""

    def __init__(self, lang: str) -> None:
        wrap, size = TYPESETTING[lang].wrap, TYPESETTING[lang].size
        SERIF, SANS = faces(lang)  # noqa: N806
        self.sans = SANS

        def style(name: str, **kw: Any) -> ParagraphStyle:
            if "parent" in kw:
                return ParagraphStyle(name, **kw)
            base: dict[str, Any] = {"fontName": SERIF, "fontSize": size, "leading": size * 1.6,
                                    "wordWrap": wrap, "bulletFontName": SANS}
            base.update(kw)
            return ParagraphStyle(name, **base)

        self.body = style("body", spaceAfter=4)
        self.bullet = style("bullet", leftIndent=14, bulletIndent=3, spaceAfter=2)
        self.cell = style("cell", fontName=SANS, fontSize=size - 1, leading=(size - 1) * 1.35)
        self.cell_head = style("cell_head", parent=self.cell, textColor=colors.black)
        self.caption = style("caption", fontName=SANS, fontSize=size - 1, textColor=RULE_GREY,
                             spaceBefore=4, spaceAfter=2, keepWithNext=1)
        self.example_title = style("example_title", fontName=SANS, textColor=ACCENT,
                                   spaceAfter=2)
        self.small = style("small", fontName=SANS, fontSize=size - 1.5,
                           leading=(size - 1.5) * 1.4, textColor=RULE_GREY)
        self.h = [
            style("h0", fontName=SANS, fontSize=20, leading=26, spaceBefore=0, spaceAfter=12,
                  textColor=ACCENT, keepWithNext=1),
            style("h1", fontName=SANS, fontSize=14, leading=19, spaceBefore=12, spaceAfter=5,
                  textColor=colors.black, keepWithNext=1),
            style("h2", fontName=SANS, fontSize=11.5, leading=16, spaceBefore=8, spaceAfter=3,
                  textColor=colors.black, keepWithNext=1),
        ]
        self.title = style("title", fontName=SANS, fontSize=32, leading=42, alignment=TA_CENTER,
                           textColor=ACCENT)
        for heading in (*self.h, self.title, self.example_title):  # lines of even length (Japanese)
            heading.balance = True
        self.subtitle = style("subtitle", fontName=SANS, fontSize=14, leading=20,
                              alignment=TA_CENTER)
        self.centered = style("centered", alignment=TA_CENTER)
        self.toc_head = style("toc_head", parent=self.h[1], spaceBefore=0)
        self.toc = [
            style("toc0", fontName=SANS, fontSize=11, leading=16, leftIndent=0, spaceBefore=5),
            style("toc1", fontName=SANS, fontSize=10, leading=14, leftIndent=14),
            style("toc2", fontName=SANS, fontSize=9, leading=12.5, leftIndent=28,
                  textColor=RULE_GREY),
        ]


def grid_style(commands: list[tuple[Any, ...]], lang: str) -> TableStyle:
    """A TableStyle whose cells use the bundled font (ReportLab's default is Helvetica)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), faces(lang)[1]), *commands])


class Heading(Paragraph):
    """A heading that becomes a contents line and a PDF bookmark."""

    def __init__(self, text: str | None, style: ParagraphStyle,
                 toc: tuple[int, str, str] | None = None, **kw: Any) -> None:
        super().__init__(text, style, **kw)  # (ReportLab's split passes more keywords)
        self.toc_entry = toc  # (outline level, plain text, bookmark key)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        """A heading too long for the page: the entry stays with its first part."""
        parts: list[Flowable] = super().split(availWidth, availHeight)
        for index, part in enumerate(parts):
            part.toc_entry = self.toc_entry if index == 0 else None
        return parts


class FitPage(Flowable):
    """Flowables scaled as one block to fill the space left on the page (shrinking when
    too long, enlarging up to `max_scale` when short): the one-page quick reference. The
    content is laid out at the width divided by the scale (tables are built for it,
    tables.FitTable, and it is enlarged no further than their longest words fit);
    something of a fixed width (a drawing) caps the scale, so that nothing is enlarged
    past the margin."""

    def __init__(self, content: list[Flowable], max_scale: float = 1.35) -> None:
        super().__init__()
        self.content, self.max_scale, self.scale = content, max_scale, 1.0

    def _measure(self, width: float) -> list[tuple[Flowable, float, float, float]]:
        """(flowable, space above, height, width) for each flowable wrapped at `width`."""
        out = []
        previous_after = 0.0
        for index, flowable in enumerate(self.content):
            wide, height = flowable.wrap(width, 1e6)
            before = flowable.getSpaceBefore() if index else 0.0
            out.append((flowable, max(before, previous_after), height, wide))
            previous_after = flowable.getSpaceAfter()
        return out

    def _height(self, width: float, scale: float) -> float:
        return scale * sum(gap + h for _, gap, h, _ in self._measure(width / scale))

    def _fits(self, width: float, height: float, scale: float) -> bool:
        """Does the content, laid out at `width / scale` and scaled, fit `width` × `height`?"""
        measured = self._measure(width / scale)
        widest = max((wide for *_, wide in measured), default=0.0)
        return widest * scale <= width + 0.01 and scale * sum(gap + h for _, gap, h, _ in measured) <= height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        # enlarged no further than a table keeps its longest words whole (tables.FitTable)
        least = max((getattr(f, "least_width", 0.0) for f in self.content), default=0.0)
        low, high = 0.2, min(self.max_scale, max(1.0, availWidth / least)) if least > 0 else self.max_scale
        if self._fits(availWidth, availHeight, high):
            low = high
        else:
            for _ in range(12):  # bisection on the scale factor
                mid = (low + high) / 2
                if self._fits(availWidth, availHeight, mid):
                    low = mid
                else:
                    high = mid
        self.scale, self.width = low, availWidth
        self.height = self._height(availWidth, low)
        return availWidth, self.height

    def draw(self) -> None:
        canvas, scale = self.canv, self.scale
        canvas.saveState()
        canvas.scale(scale, scale)
        y = self.height / scale
        for flowable, gap, height, _ in self._measure(self.width / scale):
            y -= gap + height
            flowable.drawOn(canvas, 0, y)
        canvas.restoreState()


class RulebookDoc(BaseDocTemplate):
    def __init__(self, filename: str, pagesize: tuple[float, float], title: str, lang: str,
                 footer: str) -> None:
        super().__init__(filename, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN,
                         topMargin=MARGIN, bottomMargin=MARGIN + FOOTER, title=title,
                         author="pnpgen", creator="pnpgen", lang=lang, invariant=1)
        self.footer, self.lang = footer, lang
        # no frame padding: the measure is exactly the page between the margins, the width the
        # Writer sizes tables to (ReportLab's default 6 pt padding put tables 6 pt past it)
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("title", [frame]),
            PageTemplate("body", [frame], onPage=self._footer),
        ])

    def beforePage(self) -> None:  # noqa: N802 (ReportLab's hook)
        """Every page's /TrimBox and /BleedBox: the whole page (no bleed; a print shop's
        preflight asks for a TrimBox on every page)."""
        w, h = self.pagesize
        self.canv.setTrimBox((0, 0, w, h))
        self.canv.setBleedBox((0, 0, w, h))

    def _footer(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(faces(self.lang)[1], 8)
        canvas.setFillColor(RULE_GREY)
        y = MARGIN
        width = self.pagesize[0]
        canvas.setStrokeColor(colors.lightgrey)
        canvas.setLineWidth(0.4)
        canvas.line(MARGIN, y + 10, width - MARGIN, y + 10)
        canvas.drawString(MARGIN, y, self.footer)
        canvas.drawRightString(width - MARGIN, y, str(doc.page))
        canvas.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:
        entry = getattr(flowable, "toc_entry", None)
        if entry is None:
            return
        level, text, key = entry
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(text, key, level=level, closed=level > 0)
        self.notify("TOCEntry", (level, escape(text), self.page, key))


class Writer:
    """Builds the story (list of flowables) of one language's rulebook."""

    def __init__(self, book: Book, res: Resolver, width: float, height: float) -> None:
        setup_fonts()
        self.book, self.res, self.lang = book, res, res.lang
        self.st = Styles(res.lang)
        self.width, self.height = width, height
        self.keys = 0
        self.last_level = -1
        self.shift = min((s.level for s in book.sections), default=0)

    # --- top level -------------------------------------------------------------------
    def story(self) -> list[Flowable]:
        story = self.title_page()
        story += [NextPageTemplate("body"), PageBreak()]
        toc = FittedContents(levelStyles=self.st.toc, dotsMinLevel=0, tableStyle=grid_style([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ], self.lang))
        story += [Paragraph(label("contents", self.lang), self.st.toc_head), toc, PageBreak()]
        self.rule_refs: list[tuple[str, str]] = []  # (rule id, title) in order of appearance
        self.move_refs: list[tuple[str, str, str]] = []  # (example title, rule id, moves)
        self.cited: list[tuple[str, Any]] = []  # (rule id, where) an example cites or refuses under
        sections = self.book.sections
        body = [s for s in sections if not s.node.get("notes") and not s.node.get("quick_reference")]
        notes = [s for s in sections if s.node.get("notes")]
        for index, section in enumerate(body):
            story += self.section(section, first=index == 0)
        # back matter: designer notes, the referees' appendix, then the quick reference last
        if notes:
            story += [PageBreak(), self.chapter(label("designer_notes", self.lang))]
            for section in notes:
                story += self.section(section, first=True, floor=1)
        story += self.referees()
        for section in sections:
            if section.node.get("quick_reference") and not section.node.get("notes"):
                story += self.section(section, first=False)
        return keep_with_start(story, self.width)  # headings kept with the start of long tables

    def chapter(self, text: str) -> Heading:
        """A back-matter chapter heading the renderer supplies (no section behind it)."""
        self.keys += 1
        self.last_level = 0
        return Heading(escape(text), self.st.h[0], (0, text, f"s{self.keys}"))

    def referees(self) -> list[Flowable]:
        """The "For referees" appendix: rule numbers and the examples' moves in notation,
        kept out of the players' text."""
        if not self.rule_refs and not self.move_refs:
            return []
        st, lang = self.st, self.lang
        out: list[Flowable] = [PageBreak(), self.chapter(label("for_referees", lang)),
                               Paragraph(markup(label("referee_intro", lang), lang), st.body)]
        seen: set[str] = set()
        rows = [[label("rule_id", lang), label("rule_name", lang)]]
        for rule, title in self.rule_refs:
            if rule not in seen:
                seen.add(rule)
                rows.append([rule, title])
        # every id an example cites is listed too (a sub-rule such as NG-3.1 has no section)
        for rule, where in self.cited:
            if rule not in seen:
                seen.add(rule)
                rows.append([rule, self.res.rule_title(rule, where) or ""])
        if len(rows) > 1:
            out += [*self.sub_heading(label("rule_ids", lang)), self.grid(rows, [0.22, 0.78])]
        if self.move_refs:
            rows = [[label("example", lang), label("rule_id", lang), label("notation", lang)]]
            rows += [list(r) for r in self.move_refs]
            out += [*self.sub_heading(label("example_moves", lang)),
                    self.grid(rows, [0.42, 0.13, 0.45])]
        return out

    def sub_heading(self, text: str) -> list[Flowable]:
        """A heading over a long table: kept with the table's first rows by a conditional page
        break, not keepWithNext (which would push a heading and a page-long table to the next
        page together, leaving this one empty)."""
        self.keys += 1
        self.last_level = 1
        style = ParagraphStyle("h1-table", parent=self.st.h[1], keepWithNext=0)
        return [CondPageBreak(60 * mm), Heading(escape(text), style, (1, text, f"s{self.keys}"))]

    def grid(self, rows: list[list[str]], weights: list[float]) -> FitTable:
        data = [[markup(cell, self.lang) for cell in row] for row in rows]
        style = grid_style([
            ("GRID", (0, 0), (-1, -1), 0.5, RULE_GREY),
            ("BACKGROUND", (0, 0), (-1, 0), HEADER_SHADE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ], self.lang)
        return text_table(data, [self.st.cell] * len(weights), style, weights, repeatRows=1,
                          space_before=2, space_after=8)

    def title_page(self) -> list[Flowable]:
        content, res, st = self.res.content, self.res, self.st
        data = content.data
        title = content.title(self.lang)
        out: list[Flowable] = [Spacer(1, self.height * 0.22),
                               *paragraphs(title, self.lang, self.title_style(title))]
        if "subtitle" in data:
            out += [Spacer(1, 10), *paragraphs(res.plain(data["subtitle"]), self.lang,
                                               st.subtitle)]
        lo, hi = data["players"]["min"], data["players"]["max"]
        players = label("players_one" if lo == hi else "players_value", self.lang, a=lo, b=hi)
        rows = [[label("players", self.lang), players],
                [label("time", self.lang), label("time_value", self.lang,
                                                 m=data["time_minutes"])]]
        if "ages" in data:
            rows.append([label("ages", self.lang), str(data["ages"])])
        rows.append([label("version", self.lang), str(data["version"])])
        cells = [[Paragraph(markup(a, self.lang), st.cell), Paragraph(markup(b, self.lang),
                                                                     st.cell)]
                 for a, b in rows]
        info = Table(cells, colWidths=[40 * mm, 60 * mm])
        info.setStyle(grid_style([
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.lightgrey),
            ("TEXTCOLOR", (0, 0), (0, -1), RULE_GREY),
        ], self.lang))
        out += [Spacer(1, 30), info]
        if self.book.intro is not None:
            intro = res.text(self.book.intro, self.book.intro_parent, "intro", res.game(None, {}))
            style = ParagraphStyle("intro", parent=st.centered, leftIndent=20 * mm,
                                   rightIndent=20 * mm)
            out += [Spacer(1, 24), *paragraphs(intro, self.lang, style)]
        if "credits" in data:
            style = ParagraphStyle("credits", parent=st.small, alignment=TA_CENTER)
            out += [Spacer(1, 40), *paragraphs(res.plain(data["credits"]), self.lang, style)]
        return out

    def title_style(self, title: str) -> ParagraphStyle:
        """The cover title on one line when it fits at 20 pt or more (a title must not break
        inside a word, as 「ステージレー／ス」 did); a longer one wraps at the smallest size."""
        st = self.st.title
        natural = stringWidth(title, st.fontName, st.fontSize)
        if natural <= self.width:
            return st
        size = max(20.0, st.fontSize * self.width / natural * 0.98)
        return ParagraphStyle("title-fit", parent=st, fontSize=size, leading=size * 1.3)

    # --- sections --------------------------------------------------------------------
    def heading(self, section: Section, floor: int = 0) -> Heading:
        node, res = section.node, self.res
        rule = node.get("rule")
        rules = res.game(section.game, node) if section.game else res.game(None, node)
        if "title" in node:
            title = res.text(node["title"], node, "title", rules)
        else:
            title = res.rule_title(str(rule), node) or ""
        if rule is not None and "title" in node:
            res.rule_title(str(rule), node)  # report unknown ids
        if rule:  # the id goes to the referees' appendix, not into the players' heading
            self.rule_refs.append((str(rule), title))
        plain = typeset(title, self.lang)  # the contents line and bookmark: quotes as in the text
        if len(plain) > TOC_CHARS:  # a contents line must fit on a page
            plain = plain[:TOC_CHARS - 1] + "…"
        text = markup(title, self.lang)
        level = max(section.level, floor)
        entry = None
        if node.get("toc", True):
            outline = max(0, level - self.shift)
            outline = min(outline, self.last_level + 1)
            if node.get("quick_reference"):  # printed last, after the back matter
                outline = 0
            self.last_level = outline
            self.keys += 1
            entry = (outline, plain, f"s{self.keys}")
        return Heading(text, self.st.h[level], entry)

    def section(self, section: Section, first: bool, floor: int = 0) -> list[Flowable]:
        node = section.node
        heading = self.heading(section, floor)
        entry = heading.toc_entry
        # "Designer notes" under the back-matter chapter of that name: the chapter says it
        repeat = bool(floor) and entry is not None and entry[1] == label("designer_notes",
                                                                          self.lang)
        rules = self.res.game(section.game, node) if section.game else self.res.game(None, node)
        body: list[Flowable] = []
        for block in section.blocks:
            body += self.block(block, rules)
        out: list[Flowable] = []
        new_page = max(section.level, floor) == 0 or node.get("page_break") or node.get("quick_reference")
        if new_page and not first:
            out.append(PageBreak())
        if node.get("quick_reference"):
            heading.style = ParagraphStyle("hq", parent=heading.style, keepWithNext=0)
            out += [heading, FitPage(body), PageBreak()]
            return out
        return out + ([] if repeat else [heading]) + body

    # --- blocks ----------------------------------------------------------------------
    def block(self, block: YMap, default: Rules[Any, Any] | None) -> list[Flowable]:
        res, st, lang = self.res, self.st, self.lang
        rules = res.game(block["game"], block) if "game" in block else default
        if "text" in block:
            return paragraphs(res.text(block["text"], block, "text", rules), lang, st.body)
        if "list" in block or "steps" in block:
            key = "list" if "list" in block else "steps"
            items = block[key]
            out: list[Flowable] = []
            for i, item in enumerate(items):
                bullet = "•" if key == "list" else f"{i + 1}."
                out += paragraphs(res.text(item, items, i, rules), lang, st.bullet, bullet)
            return out + [Spacer(1, 3)]
        if "table" in block:
            return self.table(block, rules)
        if "examples" in block:
            return [self.example(e) for e in res.select_examples(block, rules)]
        if "figure" in block:
            return self.figure(block, rules)
        if "image" in block:
            image = res.picture(block)
            caption = res.text(block["caption"], block, "caption", rules) if "caption" in block else None
            if image is None:
                return []
            return picture_block(image, float(block.get("width", 0)) * mm, self.height * 0.8, caption, lang,
                                 st.caption)
        if "position" in block:
            return self.position(block, rules)
        if "decisions" in block:
            return self.decisions(block["decisions"], rules)
        if "components" in block:
            return self.components(block["components"], rules)
        if "callout" in block:
            text = res.text(block["callout"], block, "callout", rules)
            parts = paragraphs(text, lang, st.body)
            return [self.boxed(parts, border=True, split=len(parts) > 1)]
        if block.get("page_break"):
            return [PageBreak()]
        return []

    def boxed(self, flowables: list[Flowable], border: bool = False,
              split: bool = False) -> FitTable:
        """A shaded box. With `split` (long text cut into pieces) each flowable is a row of its
        own, so the box can continue onto the next page."""
        rows = [[f] for f in flowables] if split else [[flowables]]
        commands: list[tuple[Any, ...]] = [
            ("BACKGROUND", (0, 0), (-1, -1), SHADE),
            ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
            ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
        ]
        if split:  # no padding between the rows: one box
            commands += [("TOPPADDING", (0, 1), (-1, -1), 0),
                         ("BOTTOMPADDING", (0, 0), (-1, -2), 0)]
        if border:
            commands.append(("LINEBEFORE", (0, 0), (0, -1), 2.5, ACCENT))
        style = grid_style(commands, self.lang)

        def box(width: float) -> Table:  # as wide as the frame it is laid out in
            table = Table(rows, colWidths=[width])
            table.setStyle(style)
            return table

        return FitTable(box, space_before=4, space_after=6)

    def table(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Flowable]:
        st = self.st
        model = self.res.table(block["table"], rules, block)
        if model is None or not model.lines:
            return []
        rows = model.grid()
        weights = block.get("widths")
        if weights is not None and len(weights) != model.columns:
            self.res.problem(f"widths: {len(weights)} given for {model.columns} columns", block, "widths")
            weights = None
        centred = ParagraphStyle("cc", parent=st.cell, alignment=TA_CENTER)
        styles = {"left": st.cell, "center": centred}
        data = [[markup(cell, self.lang) for cell in row] for row in rows]
        style = grid_style([
            ("GRID", (0, 0), (-1, -1), 0.5, RULE_GREY),
            ("BACKGROUND", (0, 0), (-1, 0), HEADER_SHADE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ], self.lang)
        table = text_table(data, [styles[align] for align in model.align], style,
                           [float(w) for w in weights] if weights else None, repeatRows=1,
                           space_before=2, space_after=8)
        out: list[Flowable] = []
        if "caption" in block:
            text = self.res.text(block["caption"], block, "caption", rules)
            out += paragraphs(text, self.lang, st.caption)
        return out + [table]

    def example(self, example: dict[str, Any]) -> Flowable:
        res, st, lang = self.res, self.st, self.lang
        rules = res.example_rules(example)
        plain_title = res.plain(example["title"])
        title = markup(plain_title, lang)
        rule = ""
        if "rule" in example:
            res.rule_title(str(example["rule"]), example)  # reports an unknown id
            rule = str(example["rule"])
            self.cited.append((rule, example))
        parts: list[Flowable] = [Paragraph(title, st.example_title)]
        split = False
        if "text" in example:
            text = paragraphs(res.text(example["text"], example, "text", rules), lang, st.body)
            parts += text
            split = len(text) > 1
        diagram = self.diagram(rules, example)
        if diagram is not None:
            parts += [Spacer(1, 4), diagram]
        moves = example.get("moves") or []
        if moves:  # the notation goes to the referees' appendix
            line = " · ".join(str(m) for m in moves)
            refused = example.get("expect", {}).get("illegal")
            if refused:
                line += label("refused", lang, rule=refused)
                self.cited.append((str(refused), example))
            self.move_refs.append((plain_title, rule, line))
        return self.boxed(parts, split=split)

    def diagram(self, rules: Rules[Any, Any] | None, example: dict[str, Any]) -> Flowable | None:
        """The example's position drawn by the game: before and after when its moves change it,
        the move marked; the position alone when the move is refused or there is none."""
        replayed = positions(rules, example) if rules is not None else None
        if rules is None or replayed is None:
            return None
        before, moves, after = replayed
        refused = after is None and bool(moves)
        captions = (label("before", self.lang), label("after", self.lang))
        scene = picture(rules, before, moves, after, captions, self.lang, max_width=self.width - 16)
        if scene is None:
            return None
        if refused:
            scene = beside([scene], captions=[label("attempted", self.lang)])
        return drawing(scene, self.width - 16, font=self.st.sans)

    def figure(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Flowable]:
        """A picture the game draws for the book, row by row (a page may break between rows),
        under its caption."""
        if rules is None:
            return []
        try:
            rows = rulebook_figure(rules, str(block["figure"]), self.lang)
        except KeyError:
            self.res.problem(f"unknown figure '{block['figure']}' for game '{rules.id}'", block, "figure",
                             value=True)
            return []
        out: list[Flowable] = []
        if "caption" in block:
            out += paragraphs(self.res.text(block["caption"], block, "caption", rules), self.lang, self.st.caption)
        for row in rows:
            art = drawing(row, self.width, font=self.st.sans)
            art.hAlign = "LEFT"
            out.append(art)
        return out + [Spacer(1, 8)]

    def position(self, block: YMap, rules: Rules[Any, Any] | None) -> list[Flowable]:
        """A position the game draws (components, setup): `position:` holds a state in the
        examples' state format, drawn with no move, under its caption."""
        replayed = positions(rules, {"state": block["position"]}) if rules is not None else None
        scene = picture(rules, replayed[0], lang=self.lang) if rules is not None and replayed else None
        if scene is None:
            self.res.problem("this position does not load (or the game draws none)", block, "position",
                             value=True)
            return []
        out: list[Flowable] = []
        if "caption" in block:
            out += paragraphs(self.res.text(block["caption"], block, "caption", rules), self.lang, self.st.caption)
        art = drawing(scene, self.width, font=self.st.sans)
        art.hAlign = "LEFT"
        return out + [art, Spacer(1, 8)]

    def decisions(self, items: list[Any], rules: Rules[Any, Any] | None) -> list[Flowable]:
        res, st, lang = self.res, self.st, self.lang
        out: list[Flowable] = []
        for item in items:
            text = res.text(item["text"], item, "text", rules)
            out += paragraphs(text, lang, st.body, prefix=f'<font name="{st.sans}" color="#8a2b0e">'
                              f'{escape(decision_label(str(item["id"]), lang))}</font>&nbsp;&nbsp;')
            if "source" in item:
                src = res.text(item["source"], item, "source", rules)
                out += paragraphs(src, lang, ParagraphStyle("src", parent=st.small, leftIndent=14,
                                                            spaceAfter=4),
                                  prefix=label("source", lang))
        return out

    def components(self, items: list[Any], rules: Rules[Any, Any] | None) -> list[Flowable]:
        res, st, lang = self.res, self.st, self.lang
        rows = []
        for item in items:
            name = markup(res.text(item["name"], item, "name", rules), lang)
            note = markup(res.text(item["note"], item, "note", rules), lang) if "note" in item \
                else ""
            count = res.text(item["count"], item, "count", rules)
            rows.append([f"{escape(count)} ×", name, note])
        style = grid_style([
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.lightgrey),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ], self.lang)
        rest = self.width - 16 * mm  # the count 16 mm wide on the page, the rest 38:62
        return [text_table(rows, [st.cell] * 3, style, [16 * mm, 0.38 * rest, 0.62 * rest], space_after=8)]


def write_pdf(path: Path, content: GameContent, book: Book, res: Resolver,
              pagesize: tuple[float, float]) -> int:
    """Write the PDF; returns its page count."""
    setup_fonts()
    title = typeset(content.title(res.lang), res.lang)
    doc = RulebookDoc(str(path), pagesize, title, res.lang, title)
    story = Writer(book, res, doc.width, doc.height).story()
    doc.multiBuild(story)
    return int(doc.page)


# --- pictures from the game folder (an `image:` block) ------------------------------------


class Picture(Flowable):
    """A checked picture of the game folder, `width` points wide (0: the frame's width), never
    wider than the frame nor taller than `tallest`, its height from its proportions; drawn as
    the print kit draws it (kit/images.draw_image_file)."""

    def __init__(self, image: Image, width: float, tallest: float) -> None:
        super().__init__()
        self.image, self.wanted, self.tallest = image, width, tallest
        self.hAlign = "CENTER"

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        ratio = self.image.height / self.image.width
        self.width = min(self.wanted or availWidth, availWidth, self.tallest / ratio)
        self.height = self.width * ratio
        return self.width, self.height

    def draw(self) -> None:
        draw_image_file(self.canv, self.image, Rect(0, 0, self.width, self.height), "contain", False)


def picture_block(image: Image, width: float, tallest: float, caption: str | None, lang: str,
                  style: ParagraphStyle) -> list[Flowable]:
    """An `image:` block: its caption, then the picture."""
    out: list[Flowable] = paragraphs(caption, lang, style) if caption else []
    return out + [Picture(image, width, tallest), Spacer(1, 8)]
