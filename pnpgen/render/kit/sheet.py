"""Sheets: score sheets and play aids made of tables, checkbox rows, write-in boxes and text.

A sheet is a list of blocks laid out top to bottom inside its trim (the whole page
less the margins, or a smaller `size` imposed as many times as fit on the paper).
Boards reuse the same blocks under their grid. All lengths are millimetres in drawing
space (see tiling.Box / tiling.Frame); font sizes are points.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.schema import Any_, Choice, Each, OneOf, Range, Schema, Text
from pnpgen.content.yamlpos import YMap, where
from pnpgen.errors import BuildError
from pnpgen.limits import MAX_COPIES, MAX_PER_PAGE
from pnpgen.render.kit.blocks import (
    GAP,
    Stack,
    TextBlock,
    TextCtx,
    check_blocks,
    component_text,
    finish_page,
    heading,
    localized,
    make_stack,
    overflow,
    printable,
)
from pnpgen.render.kit.bounds import (
    FONT,
    LENGTH,
    SIZE,
    check_draws,
    check_pages,
)
from pnpgen.render.kit.page import (
    KitJob,
    Rect,
    marked_bleed,
    problems_of,
    union,
    write_pdf,
)
from pnpgen.render.kit.presets import PRESETS, bleed_safe, drawn_text_problems, padding, padding_problem
from pnpgen.render.kit.preview import Recorder, save_preview, tile_sheet
from pnpgen.render.kit.tiling import Box, Frame

# --- schema -----------------------------------------------------------------------------


SIZES: dict[str, tuple[float, float]] = {"A5": (148, 210), "A6": (105, 148), "B6": (128, 182),
                                         "postcard": (100, 148)}

SCHEMA: Schema = {
    "type": str,
    "id": str,
    "title": Text,
    "game?": str,  # a collection: the game whose rules fill {{ fields }} and from_rules tables
    "paper?": str,
    "landscape?": bool,
    "size?": OneOf(Choice(*SIZES), {"width": float, "height": float}),
    "copies?": int,
    "preset?": Choice(*PRESETS),
    "bleed?": float,
    "padding?": float,
    "font_size?": float,
    "show_title?": bool,
    "blocks": Each(Any_, min=1),
}
BOUNDS: dict[str, object] = {  # see bounds.py; blocks have BLOCK_BOUNDS
    "size": {"width": SIZE, "height": SIZE},
    "copies": Range(int, 0, MAX_COPIES),
    "bleed": LENGTH,
    "padding": LENGTH,
    "font_size": FONT,
}


# --- pages ------------------------------------------------------------------------------


def impose(area: Rect, width: float, height: float, gap: float, count: int) -> list[Rect]:
    """Up to `count` trims of width x height (points) in a centred grid inside `area`."""
    cols = max(int((area.w + gap + 1e-6) // (width + gap)), 0)
    rows = max(int((area.h + gap + 1e-6) // (height + gap)), 0)
    cols, rows = min(cols, count), min(rows, -(-count // max(cols, 1)))
    used_w, used_h = cols * width + (cols - 1) * gap, rows * height + (rows - 1) * gap
    x0, top = area.x + (area.w - used_w) / 2, area.top - (area.h - used_h) / 2
    return [Rect(x0 + c * (width + gap), top - (r + 1) * height - r * gap, width, height)
            for r in range(rows) for c in range(cols)][:count]


def sheet_size(component: YMap) -> tuple[float, float] | None:
    """The trim size in mm of a sheet smaller than the paper (`size:`), else None."""
    size = component.get("size")
    if size is None:
        return None
    if isinstance(size, str):
        return SIZES[size]
    return float(size["width"]), float(size["height"])


@dataclass
class SheetPlan:
    page: Rect  # the paper, points
    trims: list[Rect]  # trims on a full page, points
    pages: int
    copies: int  # in all (the last page may hold fewer)
    content: Box  # the content box inside one trim, mm relative to the trim's top-left
    stack: Stack
    title: Stack | None
    bleed: float = 0.0  # points
    scale: float = 1.0  # content drawn at this scale to fit the trim (a warning says so)
    note: str = ""  # the warning when scaled


def plan_sheet(component: YMap, job: KitJob) -> tuple[SheetPlan, TextCtx]:
    """Paper, trims and content of a sheet; BuildError when the content does not fit."""
    check_blocks(component["blocks"], "blocks")
    ctx = TextCtx(job, job.label(component), font_size=float(component.get("font_size", 9.0)))
    bleed = bleed_safe(component, job.options.preset, job.options.print_shop)[0] * mm
    size = sheet_size(component)
    pad = padding(component, job.options.preset)
    paper = component.get("paper")
    copies = int(component.get("copies", 0))
    landscape = component.get("landscape")
    if size is not None:
        w, h = size[0] * mm, size[1] * mm
        if job.options.print_shop:
            page = Rect(0, 0, w + 2 * bleed, h + 2 * bleed)
            trims = [page.inset(bleed)]
        else:
            options = [bool(landscape)] if landscape is not None else [False, True]
            best: tuple[Rect, list[Rect]] | None = None
            for turned in options:
                page = job.paper(paper, turned)
                found = impose(printable(page), w, h, 2 * bleed, copies or MAX_PER_PAGE)
                if best is None or len(found) > len(best[1]):
                    best = (page, found)
            assert best is not None
            page, trims = best
            if not trims:
                raise BuildError(f"{ctx.label}: a {size[0]:g}×{size[1]:g} mm sheet does not fit on "
                                 f"{paper or job.options.paper} paper", **where(component, "size", value=True))
        copies = copies or len(trims)  # default: one page full
        pages = -(-copies // len(trims))
    else:
        page = job.paper(paper, bool(landscape))
        trim = printable(page)
        if job.options.print_shop:
            trim = Rect(bleed, bleed, trim.w, trim.h)
            page = trim.outset(bleed)
        copies = max(copies, 1)
        trims, pages = [trim], copies
    title = None
    if component.get("show_title", True):
        title = Stack([TextBlock(heading(component, ctx), ctx.font_size * 1.5,
                                 rule=True)])
    check_pages(pages, "the sheet", where(component))
    stack = make_stack(component["blocks"], ctx)
    check_draws(copies * ctx.drawn.used, f"{copies:,} copies × {ctx.drawn.used:,} cells, boxes and texts",
                where(component))
    inner = (trims[0].w / mm - 2 * pad, trims[0].h / mm - 2 * pad)
    scale, content = fit_scale(stack, title, pad, inner)
    note = ""
    if scale < 1:
        full = _content_box(title, pad, inner, 1.0)
        note = "warning: " + str(BuildError(
            f"{ctx.label}: the content is {stack.height(full.width):.1f} mm tall but only {full.height:.1f} mm fit "
            f"on {paper or job.options.paper} paper: printed at {scale:.1%} of its size", **where(component, "blocks")))
    overflow(stack, content, ctx, "the sheet's content", component, "blocks")
    return SheetPlan(page, trims, pages, copies, content, stack, title, bleed, scale, note), ctx


MIN_SCALE = 0.85  # a sheet's content is scaled down to fit its trim by at most this much (a warning says so)


def _content_box(title: Stack | None, pad: float, inner: tuple[float, float], scale: float) -> Box:
    """The blocks' box (mm, drawing space) when the content is drawn at `scale` inside the
    trim less its padding (`inner`, mm): the padding stays, the rest grows by 1 / scale."""
    w, h = inner[0] / scale, inner[1] / scale
    box = Box(pad / scale, pad / scale, w, h)
    if title is not None:
        used = title.height(w) + GAP
        box = Box(box.x, box.y + used, w, h - used)
    return box


def fit_scale(stack: Stack, title: Stack | None, pad: float, inner: tuple[float, float]) -> tuple[float, Box]:
    """The largest scale (1 or, down to MIN_SCALE, less) at which the blocks fit their box,
    and that box; at 1 when nothing fits even at MIN_SCALE (the caller reports the overflow)."""
    scale = 1.0
    for _ in range(8):  # wider text wraps less: a few rounds settle it
        box = _content_box(title, pad, inner, scale)
        need = stack.height(box.width)
        if need <= box.height + 1e-6:
            return scale, box
        scale *= max(box.height, 1e-6) / need * 0.999
        if scale < MIN_SCALE:
            break
    return 1.0, _content_box(title, pad, inner, 1.0)


# --- the component type interface -----------------------------------------------------


def check(component: YMap, job: KitJob) -> list[str]:
    """Build-time problems: bad blocks, unknown fields or tables, content too tall."""
    return problems_of(lambda: plan_sheet(component, job))


def safe_zone(component: YMap, job: KitJob, planned: tuple[SheetPlan, TextCtx] | None = None) -> list[str]:
    """Text nearer the cut than the safe zone (validate's problems; a build warns): a
    padding narrower than it, else any text one copy of the sheet draws, measured where
    its letters land. `planned`: the sheet's plan when the caller has it (drawing leaves
    a plan as it was)."""
    problems = padding_problem(component, job.options.preset)
    if problems:
        return problems
    plan, ctx = planned or plan_sheet(component, job)
    trim = plan.trims[0]
    rec = Recorder(plan.page.w, plan.page.h)
    draw_sheet(rec, trim, plan, ctx)  # type: ignore[arg-type]
    safe = bleed_safe(component, job.options.preset)[1]
    return drawn_text_problems(rec, trim.box(), safe, ctx.label, component, "padding" if "padding" in component
                               else "blocks")


def render(component: YMap, job: KitJob) -> list[Any]:
    """The sheet's PDF: build/<game>/<id>[-<lang>].pdf."""
    plan, ctx = plan_sheet(component, job)
    pad = padding(component, job.options.preset)

    def draw(canvas: Canvas) -> int:
        for index in range(plan.pages):
            trims = plan.trims[:plan.copies - index * len(plan.trims)]
            for trim in trims:
                draw_sheet(canvas, trim, plan, ctx)
            edge = plan.bleed if job.options.print_shop else marked_bleed(plan.page, union(trims), plan.bleed)
            finish_page(canvas, plan.page, trims, edge, job, pad * mm)
        return plan.pages

    w, h = plan.trims[0].w / mm, plan.trims[0].h / mm
    note = f"{len(plan.trims)} per page" if len(plan.trims) > 1 else "one per page"
    notes = [f"{w:.0f}×{h:.0f} mm, {note}"] + ([plan.note] if plan.note else [])
    notes += [f"warning: {problem}" for problem in safe_zone(component, job, (plan, ctx))]
    return [write_pdf(job, component, (plan.page.w, plan.page.h), draw, "sheet", notes)]


def draw_sheet(canvas: Canvas, trim: Rect, plan: SheetPlan, ctx: TextCtx) -> None:
    frame = Frame(trim.x, trim.top)
    if plan.scale != 1:  # drawn smaller, about the trim's top-left corner
        canvas.saveState()
        canvas.translate(trim.x, trim.top)
        canvas.scale(plan.scale, plan.scale)
        frame = Frame(0, 0)
    if plan.title is not None:
        top = plan.content.y - plan.title.height(plan.content.width) - GAP
        plan.title.draw(canvas, frame, Box(plan.content.x, top, plan.content.width, 0), ctx)
    plan.stack.draw(canvas, frame, plan.content, ctx)
    if plan.scale != 1:
        canvas.restoreState()


def preview(component: YMap, job: KitJob) -> list[Path]:
    """preview/<id>[-<lang>].svg (and its PNG twin): one copy of the sheet."""
    plan, ctx = plan_sheet(component, job)
    trim = plan.trims[0]
    rec = Recorder(trim.w, trim.h)
    draw_sheet(rec, Rect(0, 0, trim.w, trim.h), plan, ctx)  # type: ignore[arg-type]
    name = Path(job.out_path(str(component["id"])).name).with_suffix(".svg")
    return [save_preview(tile_sheet([(rec, component_text(component["title"], ctx, component, "title"))], columns=1),
                         job.preview_dir() / name)]

__all__ = ["BOUNDS", "SCHEMA", "check", "localized", "preview", "render", "safe_zone"]
