"""Imposition: how many cards a sheet takes, where they sit, where their backs go."""

from __future__ import annotations

import pytest

from pnpgen.render.kit.imposition import CARD_SIZES, best_fold, best_grid, card_size, flips_left_right
from pnpgen.render.kit.page import MM
from pnpgen.render.paper import paper_mm


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_poker_is_three_by_three_on_a4_and_letter(paper: str) -> None:
    grid = best_grid(paper, card_size("poker"), bleed_mm=3)
    assert (grid.cols, grid.rows, grid.landscape) == (3, 3, False)


@pytest.mark.parametrize(
    ("size", "paper", "expected"),
    [
        # 5 × 2 landscape would leave 6 mm beside the block: no room for crop marks (7.5 mm)
        ("bridge", "A4", (3, 3, False)),
        ("euro", "A4", (3, 3, False)),
        ("mini", "A4", (6, 3, True)),  # 18 landscape beat 16 portrait
        ("tarot", "A4", (2, 2, False)),  # 4 either way: portrait on a tie
        ("square", "A4", (2, 4, False)),
        ("poker", "B5", (2, 2, False)),
        ("poker", "A3", (6, 3, True)),
        ("poker", "B4", (5, 2, True)),  # 3 × 4 would leave 6 mm above and below: no room for marks
    ],
)
def test_layout_fitting_the_most_cards(size: str, paper: str, expected: tuple[int, int, bool]) -> None:
    grid = best_grid(paper, card_size(size), bleed_mm=3)
    assert (grid.cols, grid.rows, grid.landscape) == expected
    # nothing more would fit in the other orientation
    other = best_grid(paper, card_size(size), 3, orientation="landscape" if not grid.landscape else "portrait")
    assert other.per_page <= grid.per_page


def test_presets_are_the_standard_sizes() -> None:
    assert CARD_SIZES["poker"] == (63, 88)
    assert CARD_SIZES["euro"] == (59, 92)
    assert card_size("poker", landscape=True) == (88, 63)
    assert card_size((40, 30)) == (40, 30)


def test_block_is_centred_and_cards_butt_together() -> None:
    grid = best_grid("A4", card_size("poker"), 3)
    block = grid.block
    assert abs(block.x / MM - 10.5) < 1e-6 and abs(block.y / MM - 16.5) < 1e-6
    first, last = grid.trim(0), grid.trim(8)
    assert abs(first.x / MM - 10.5) < 1e-6 and abs(first.top / MM - 280.5) < 1e-6
    assert abs(last.right / MM - 199.5) < 1e-6 and abs(last.y / MM - 16.5) < 1e-6
    # bleed only outside the block when cards butt together
    middle = grid.bleed_rect(4)
    assert middle == grid.trim(4)
    corner = grid.bleed_rect(0)
    assert abs((corner.w - first.w) / MM - 3) < 1e-6 and abs((corner.h - first.h) / MM - 3) < 1e-6


def test_gap_gives_each_card_half_of_it_as_bleed() -> None:
    grid = best_grid("A4", card_size("mini"), bleed_mm=3, gap_mm=4, orientation="portrait")
    inner = grid.bleed_rect(grid.cols + 1)
    trim = grid.trim(grid.cols + 1)
    assert abs((inner.w - trim.w) / MM - 4) < 1e-6  # 2 mm each side
    assert abs((grid.trim(1).x - grid.trim(0).right) / MM - 4) < 1e-6


def test_margin_and_bleed_always_fit_on_the_paper() -> None:
    for paper in ("A4", "Letter", "B5", "A3", "B4"):
        for size in CARD_SIZES:
            grid = best_grid(paper, card_size(size), 3)
            width, height = paper_mm(paper, grid.landscape)
            box = grid.bleed_box
            assert box.x / MM >= 3 - 1e-6 and box.y / MM >= 3 - 1e-6
            assert box.right / MM <= width - 3 + 1e-6 and box.top / MM <= height - 3 + 1e-6


@pytest.mark.parametrize(
    ("landscape", "duplex", "left_right"),
    [(False, "long", True), (False, "short", False), (True, "long", False), (True, "short", True)],
)
def test_duplex_mirror_axis(landscape: bool, duplex: str, left_right: bool) -> None:
    assert flips_left_right(landscape, duplex) is left_right


def test_back_slots_mirror_the_fronts() -> None:
    grid = best_grid("A4", card_size("poker"), 3)
    assert [grid.back_slot(s, "long") for s in range(9)] == [2, 1, 0, 5, 4, 3, 8, 7, 6]
    assert [grid.back_slot(s, "short") for s in range(9)] == [6, 7, 8, 3, 4, 5, 0, 1, 2]
    width = grid.page.w
    for slot in range(9):
        front, back = grid.trim(slot), grid.trim(grid.back_slot(slot, "long"))
        assert abs(back.x - (width - front.right)) < 1e-6 and abs(back.y - front.y) < 1e-6


def test_fold_over_puts_fronts_and_backs_either_side_of_the_fold() -> None:
    fold = best_fold("A4", card_size("poker"), 3)
    # poker on A4: landscape with a level fold, 4 fronts above it (portrait fits 3)
    assert fold.per_page == 4 and not fold.vertical_fold and fold.page.w > fold.page.h
    middle = fold.page.h / 2
    for slot in range(fold.per_page):
        front, back = fold.front(slot), fold.back(slot)
        assert abs(front.y - middle) < 1e-6 and abs(back.top - middle) < 1e-6
        assert front.x == back.x
        assert fold.front_bleed(slot).y >= middle - 1e-6  # nothing drawn past the fold
        assert fold.back_bleed(slot).top <= middle + 1e-6


def test_card_too_big_for_the_paper_fits_nothing() -> None:
    assert best_grid("B5", (200, 300), 3).per_page == 0
