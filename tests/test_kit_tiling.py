"""Tiling geometry: a board that fits is never tiled; a larger one is cut with exact overlaps."""

from __future__ import annotations

import pytest

from pnpgen.render.kit.tiling import alignment_marks, column_letter, plan_tiles

A4_AREA = (190.0, 277.0)  # A4 less 10 mm margins


def test_a_board_that_fits_is_one_page() -> None:
    plan = plan_tiles(180, 270, A4_AREA)
    assert not plan.tiled and len(plan.tiles) == 1 and not plan.landscape
    tile = plan.tiles[0]
    assert (tile.x, tile.y, tile.width, tile.height) == (0, 0, 180, 270)


def test_exact_fit_is_not_tiled() -> None:
    assert not plan_tiles(190, 277, A4_AREA).tiled


def test_a_wide_board_turns_the_paper_instead_of_tiling() -> None:
    plan = plan_tiles(260, 180, A4_AREA)
    assert len(plan.tiles) == 1 and plan.landscape


def test_forced_portrait_tiles_a_wide_board() -> None:
    plan = plan_tiles(260, 180, A4_AREA, overlap=10, orientation="portrait")
    assert (plan.columns, plan.rows) == (2, 1)
    left, right = plan.tiles
    assert left.width == pytest.approx(135) and right.width == pytest.approx(135)
    assert left.x + left.width - right.x == pytest.approx(10)  # the overlap, exactly
    assert right.x + right.width == pytest.approx(260)


def test_large_board_tiles_cover_it_with_overlap() -> None:
    plan = plan_tiles(500, 500, A4_AREA, overlap=12)
    # portrait: ceil(488/178)=3 x ceil(488/265)=2 = 6; landscape: ceil(488/265)=2 x ceil(488/178)=3 = 6
    assert len(plan.tiles) == 6 and not plan.landscape
    assert (plan.columns, plan.rows) == (3, 2)
    for t in plan.tiles:
        assert t.width <= 190 + 1e-9 and t.height <= 277 + 1e-9
    xs = sorted({(t.x, t.width) for t in plan.tiles})
    for (x0, w0), (x1, _) in zip(xs, xs[1:], strict=False):
        assert x0 + w0 - x1 == pytest.approx(12)
    assert xs[0][0] == 0 and xs[-1][0] + xs[-1][1] == pytest.approx(500)
    assert [t.name for t in plan.tiles] == ["A1", "B1", "C1", "A2", "B2", "C2"]


def test_fewest_pages_orientation() -> None:
    # 400 x 250: portrait 3x1 (ceil(390/180)=3) vs landscape ceil(390/267)=2 x ceil(240/180)=2 = 4
    plan = plan_tiles(400, 250, A4_AREA, overlap=10)
    assert len(plan.tiles) == 3 and not plan.landscape
    # 350 x 180: portrait ceil(340/180)=2 x 1; landscape ceil(340/267)=2 x 1: equal, portrait kept
    assert not plan_tiles(350, 180, A4_AREA, overlap=10).landscape
    # 560 x 180: portrait ceil(550/180)=4 x 1; landscape ceil(550/267)=3 x 1: paper turned
    assert plan_tiles(560, 180, A4_AREA, overlap=10).landscape
    # 520 x 260: portrait ceil(510/180)=3 x 1 = 3; landscape 2 x 2 = 4
    assert len(plan_tiles(520, 260, A4_AREA, overlap=10).tiles) == 3


def test_alignment_marks_are_shared_by_both_tiles_of_a_seam() -> None:
    plan = plan_tiles(300, 500, A4_AREA, overlap=10)
    marks = alignment_marks(plan)
    assert (plan.columns, plan.rows) == (2, 2)
    # each tile of a 2x2 has two seams, two marks each
    assert all(len(points) == 4 for points in marks.values())
    for tile in plan.tiles:
        for x, y in marks[(tile.column, tile.row)]:
            assert tile.contains(x, y)
            # the mark is in an overlap strip: another tile shows it too
            assert sum(t.contains(x, y) for t in plan.tiles) >= 2
    a1, b1 = plan.tile(0, 0), plan.tile(1, 0)
    seam_x = (b1.x + a1.x + a1.width) / 2
    assert any(x == pytest.approx(seam_x) for x, _ in marks[(0, 0)])


def test_untiled_board_has_no_marks() -> None:
    assert alignment_marks(plan_tiles(100, 100, A4_AREA)) == {(0, 0): []}


def test_overlap_too_large_is_refused() -> None:
    with pytest.raises(ValueError, match="overlap"):
        plan_tiles(1000, 100, (50, 50), overlap=60, orientation="portrait")


def test_column_letters() -> None:
    assert [column_letter(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]
