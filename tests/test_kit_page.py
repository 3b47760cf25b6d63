"""Page engineering: rectangles, page boxes, crop marks in the margins, the check ruler."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from pnpgen.render.kit.imposition import best_grid, card_size
from pnpgen.render.kit.page import (
    MM,
    RULER_LENGTH,
    Rect,
    crop_mark_lines,
    draw_check_ruler,
    open_canvas,
    place_ruler,
    ruler_rect,
    set_page_boxes,
)
from tests.kit_pdf import box_mm, drawing


def test_rect_helpers() -> None:
    r = Rect.mm(10, 20, 63, 88)
    assert r.in_mm() == (10, 20, 63, 88) or all(abs(a - b) < 1e-9 for a, b in zip(r.in_mm(), (10, 20, 63, 88),
                                                                                    strict=True))
    again = r.inset(3 * MM).outset(3 * MM)
    assert all(abs(a - b) < 1e-9 for a, b in zip(again.in_mm(), r.in_mm(), strict=True))
    assert r.mirrored(210 * MM).x / MM == 210 - 73
    assert r.contains(r.inset(1)) and not r.inset(1).contains(r)
    assert r.overlaps(Rect.mm(72, 100, 5, 5)) and not r.overlaps(Rect.mm(73, 20, 5, 5))


def test_page_boxes_written_per_page(tmp_path: Path) -> None:
    path = tmp_path / "boxes.pdf"
    canvas = open_canvas(path, (210 * MM, 297 * MM), "boxes")
    for offset in (0, 5):
        trim = Rect.mm(20 + offset, 30, 100, 150)
        set_page_boxes(canvas, trim, trim.outset(3 * MM))
        canvas.showPage()
    canvas.save()
    pages = PdfReader(str(path)).pages
    assert box_mm(pages[0].trimbox) == (20, 30, 120, 180)
    assert box_mm(pages[0].bleedbox) == (17, 27, 123, 183)
    assert box_mm(pages[1].trimbox) == (25, 30, 125, 180)


def test_crop_marks_only_in_the_margins() -> None:
    for paper in ("A4", "Letter", "B5", "A3"):
        grid = best_grid(paper, card_size("poker"), 3)
        trims = [grid.trim(s) for s in range(grid.per_page)]
        page = grid.page
        lines = crop_mark_lines(trims, grid.bleed, page)
        assert lines, paper
        for x1, y1, x2, y2 in lines:
            mark = Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
            assert page.contains(mark)
            assert not any(t.outset(grid.bleed).overlaps(mark.outset(0.01)) for t in trims), (paper, mark)
            assert not grid.bleed_box.overlaps(mark)


def test_crop_marks_line_up_with_every_cut() -> None:
    grid = best_grid("A4", card_size("poker"), 3)
    trims = [grid.trim(s) for s in range(9)]
    lines = crop_mark_lines(trims, grid.bleed, grid.page)
    vertical = {round(x1 / MM, 2) for x1, _y1, x2, _y2 in lines if x1 == x2}
    level = {round(y1 / MM, 2) for _x1, y1, _x2, y2 in lines if y1 == y2}
    assert vertical == {10.5, 73.5, 136.5, 199.5}
    assert level == {16.5, 104.5, 192.5, 280.5}


def test_no_room_no_mark() -> None:
    page = Rect.mm(0, 0, 100, 100)
    assert crop_mark_lines([Rect.mm(1, 1, 98, 98)], 0, page) == []


def test_ruler_is_fifty_millimetres(tmp_path: Path) -> None:
    path = tmp_path / "ruler.pdf"
    canvas = open_canvas(path, (210 * MM, 297 * MM))
    draw_check_ruler(canvas, 20 * MM, 10 * MM)
    canvas.showPage()
    canvas.save()
    reader = PdfReader(str(path))
    # drawn in its own coordinates (translated): the base line is 50 mm long
    base = [s for s in drawing(reader, 0).segments if s.y1 == s.y2]
    assert any(abs((s.x2 - s.x1) / MM - 50) < 0.001 for s in base)
    ticks = [s for s in drawing(reader, 0).segments if s.x1 == s.x2]
    assert len(ticks) == 11
    assert "print at 100%" in reader.pages[0].extract_text()
    assert abs(RULER_LENGTH / MM - 50) < 1e-9


def test_ruler_finds_a_free_margin() -> None:
    # A4: room below the cards
    grid = best_grid("A4", card_size("poker"), 3)
    trims = [grid.trim(s) for s in range(9)]
    marks = crop_mark_lines(trims, grid.bleed, grid.page)
    spot = place_ruler(grid.page, grid.bleed_box, marks)
    assert spot is not None and spot[2] is False
    area = ruler_rect(*spot)
    assert not area.overlaps(grid.bleed_box) and grid.page.contains(area)
    # Letter: 4.7 mm above and below the cards is too little; the ruler stands in a side margin
    grid = best_grid("Letter", card_size("poker"), 3)
    trims = [grid.trim(s) for s in range(9)]
    marks = crop_mark_lines(trims, grid.bleed, grid.page)
    spot = place_ruler(grid.page, grid.bleed_box, marks)
    assert spot is not None and spot[2] is True
    area = ruler_rect(*spot)
    assert not area.overlaps(grid.bleed_box) and grid.page.inset(2 * MM).contains(area)
    for x1, y1, x2, y2 in marks:
        assert not area.overlaps(Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)).outset(0.1))
