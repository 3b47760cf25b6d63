"""HorizontalVertical: presentation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.horizontal_vertical.rules import (
    WON,
    Condition,
    Move,
    State,
    X,
)
from pnpgen.words import COMMON

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.horizontal_vertical import HorizontalVertical


# The rulebook's values and tables, and a state described for the referee.


def describe(rules: HorizontalVertical, state: State) -> str | None:
    lines = [f"{text_for(rules.board.name, 'en')}; rows {', '.join(map(str, rules.row_labels))} top to "
             f"bottom, columns {', '.join(map(str, rules.col_labels))} left to right"]
    lines.append("      " + " ".join(f"{c:>2}" for c in rules.col_labels))
    for r, text in enumerate(rules._grid_lines(state.cells)):
        cond = rules.board.lines[r].label
        lines.append(f"  {rules.row_labels[r]:>2}  " + " ".join(f"{w:>2}" for w in text.split())
                     + f"   {cond}")
    lines.append("      " + " ".join(f"{rules.board.lines[rules.n_rows + c].label:>2}"
                                     for c in range(rules.n_cols)))
    rows, cols = rules.met_lines(state.cells)
    met = ", ".join(rules.line_name(m) for m in rows + cols) or "none"
    lines.append(f"Lines meeting their condition: {met}")
    lines.append(f"Passes used: {state.passes} of {rules.max_passes}; turns: {state.turns}")
    if state.end:
        result = "won" if state.end == WON else "lost"
        lines.append(f"Game over ({state.end}): {result}, score {rules.outcome(state).scores[0]:g}")
    elif state.dice:
        writes = rules.writes(state)
        lines.append(f"Dice {' '.join(map(str, state.dice))}: {len(writes)} possible writes")
        for (value, cell), cost in sorted(writes.items(), key=lambda w: (w[0][0], w[0][1])):
            lines.append(f"  write {value} at {rules.cell_name(cell)}" + (f" (+{cost} x)" if cost else ""))
    else:
        lines.append("A roll is due")
    return "\n".join(lines)


def draw(rules: HorizontalVertical, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The sheet: row and column numbers, each line's condition at its end, the numbers
    and x written, the pass boxes; the dice below. A write outlines its cell and the
    cells its x go to."""
    cell = 20.0
    grid = sc.Grid(rules.n_cols, rules.n_rows, cell, x=14, y=11)
    shapes: list[sc.Shape] = [*grid.cells(), *grid.labels(
        cols=[str(c) for c in rules.col_labels], rows=[str(r) for r in rules.row_labels], size=6.5,
        right=[rules.board.lines[r].label for r in range(rules.n_rows)],
        bottom=[rules.board.lines[rules.n_rows + c].label for c in range(rules.n_cols)])]
    for i, value in enumerate(state.cells):
        x, y = grid.at(i % rules.n_cols, i // rules.n_cols)
        if value == X:
            shapes += sc.cross(x, y, cell)
        elif value:
            shapes.append(sc.Label(x + cell / 2, y + cell / 2, str(value), 10))
    marks: list[sc.Shape] = []
    for m in moves:
        for target in ([m.cell] if m.kind == "write" else []) + list(m.xs):
            marks.append(grid.highlight(target % rules.n_cols, target // rules.n_cols))
    bottom = grid.y + rules.n_rows * cell + 15
    box = 8.0
    for k in range(rules.max_passes):  # the pass boxes, ticked ones crossed
        bx = grid.x + k * (box + 3)
        shapes.append(sc.Rect(bx, bottom, box, box, None, sc.GREY, 0.6))
        if k < state.passes:
            shapes += sc.cross(bx, bottom, box, width=0.8, inset=0.15)
    right = grid.x + rules.n_cols * cell + 34
    if state.dice:
        shapes += sc.dice_row(state.dice, grid.x + rules.max_passes * (box + 3) + 8, bottom - 2, 13)
        right = max(right, grid.x + rules.max_passes * (box + 3) + 8 + len(state.dice) * 16)
    return sc.Scene(right, bottom + 14, tuple(shapes + marks))


# --- rulebook ------------------------------------------------------------------------
def values(rules: HorizontalVertical, lang: str) -> dict[str, object]:
    rows, columns = rules.board.lines[:rules.n_rows], rules.board.lines[rules.n_rows:]
    return {
        "dice": rules.count,
        "faces": rules.faces,
        "rows": rules.n_rows,
        "columns": rules.n_cols,
        "row_labels": COMMON("range", lang, a=rules.row_labels[0], b=rules.row_labels[-1]),
        "column_labels": COMMON("range", lang, a=rules.col_labels[0], b=rules.col_labels[-1]),
        "wild_faces": "/".join(map(str, sorted(rules.wild))),
        "x_per_wild": rules.x_per_wild,
        "passes": rules.max_passes,
        "pass_x": rules.pass_x,
        "win_rows": rules.win_rows,
        "win_columns": rules.win_cols,
        "row_conditions": WORDS("list_separator", lang).join(c.label for c in rows),
        "column_conditions": WORDS("list_separator", lang).join(c.label for c in columns),
        "same_needed": next((c.value for c in rules.board.lines if c.measure == "same"), 0),
        # one label per line for the board sheet: row_condition_1 .. and column_condition_1 ..
        **{f"row_condition_{i + 1}": c.label for i, c in enumerate(rows)},
        **{f"column_condition_{i + 1}": c.label for i, c in enumerate(columns)},
    }


def tables(rules: HorizontalVertical) -> dict[str, Callable[[str], list[list[str]]]]:
    return {**puzzle.tables(rules), "conditions": rules.conditions_table}


def conditions_table(rules: HorizontalVertical, lang: str) -> list[list[str]]:
    rows = [header(lang, "hv.line", "hv.label", "hv.condition")]
    for line, cond in enumerate(rules.board.lines):
        where_ = (WORDS("hv.row", lang, n=rules.row_labels[line]) if line < rules.n_rows else
                  WORDS("hv.column", lang, n=rules.col_labels[line - rules.n_rows]))
        rows.append([where_, cond.label, condition_text(cond, lang)])
    return rows


def condition_text(cond: Condition, lang: str) -> str:
    """A line's condition in words ('the sum at most 12', '合計が12以下')."""
    what = WORDS(f"hv.{cond.measure}", lang)
    if cond.test == "parity":
        return WORDS("hv.parity", lang, what=what, word=WORDS("hv.odd" if cond.value else "hv.even", lang))
    unit = WORDS("hv.pieces", lang) if cond.measure == "same" else ""
    return WORDS(f"hv.{cond.test}", lang, what=what, value=cond.value, unit=unit)
