"""Page fill: no page left more than half empty except where a chapter ends.

Two general rules, not tuned to any page:

- A heading or caption keeps with the *start* of what follows, not all of it. ReportLab's
  keepWithNext moves the heading and the whole next flowable to a new page when they do not
  fit together, which leaves most of a page empty before a page-long table. Where what
  follows can split (a table of several rows, a paragraph of several lines), the heading
  instead asks for room for itself and the first rows or lines (a CondPageBreak), and the
  rest flows on. A box that cannot split stays kept with its heading as before.
- The contents: a contents list that runs a little over its page (up to OVERFLOW) is set
  smaller to fit the page, rather than spilling a line or two onto a page of its own.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import CondPageBreak, Flowable, Paragraph, Table
from reportlab.platypus.tableofcontents import TableOfContents

from pnpgen.render.rulebook.tables import FitTable

FIRST_ROWS = 3  # a table's heading needs room for the header and this many rows below it
FIRST_LINES = 3  # a paragraph's heading, for this many lines
OVERFLOW = 1.3  # a contents list up to this many times its room is shrunk to fit


def _keeps(flowable: Flowable) -> bool:
    return bool(flowable.getKeepWithNext())


def _start_height(flowable: Flowable, width: float) -> float | None:
    """The height of the start of `flowable` that its heading must share a page with, or
    None when it cannot split (then keepWithNext keeps it whole)."""
    if isinstance(flowable, FitTable):  # built for the width it is laid out in
        flowable = flowable.table(width)
    if isinstance(flowable, Table):
        flowable.wrap(width, 1e6)
        rows = getattr(flowable, "_rowHeights", [])
        if len(rows) <= FIRST_ROWS + 1:
            return None
        return float(sum(rows[:FIRST_ROWS + 1])) + flowable.getSpaceBefore()
    if isinstance(flowable, Paragraph):
        flowable.wrap(width, 1e6)
        lines = len(getattr(flowable.blPara, "lines", []))
        if lines <= FIRST_LINES + 1:
            return None
        return flowable.style.leading * FIRST_LINES + flowable.getSpaceBefore()
    return None


def keep_with_start(story: list[Flowable], width: float) -> list[Flowable]:
    """`story` with each run of kept-with-next flowables (headings, captions) followed by a
    splittable flowable turned into a CondPageBreak for the run plus the flowable's start."""
    out: list[Flowable] = []
    index = 0
    while index < len(story):
        end = index
        while end < len(story) and _keeps(story[end]):
            end += 1
        heads = story[index:end]
        if not heads or end == len(story):
            out.append(story[index])
            index += 1
            continue
        start = _start_height(story[end], width)
        if start is not None:
            need = start
            for head in heads:
                need += head.wrap(width, 1e6)[1] + head.getSpaceBefore() + head.getSpaceAfter()
                head.keepWithNext = 0
            out.append(CondPageBreak(need))
        out += heads
        index = end
    return out


class FittedContents(TableOfContents):
    """A TableOfContents set smaller when it runs a little over the room it has."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.base_styles: list[ParagraphStyle] = list(self.levelStyles)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self.levelStyles = self.base_styles
        width, height = super().wrap(availWidth, availHeight)
        if availHeight < height <= availHeight * OVERFLOW:
            scale = availHeight / height * 0.97
            self.levelStyles = [ParagraphStyle(f"{s.name}-fit", parent=s, fontSize=s.fontSize * scale,
                                               leading=s.leading * scale, spaceBefore=s.spaceBefore * scale,
                                               spaceAfter=s.spaceAfter * scale) for s in self.base_styles]
            width, height = super().wrap(availWidth, availHeight)
        return width, height
