"""HorizontalVerticalPresentation: presentation."""

from __future__ import annotations

from typing import Any

from pnpgen.content.schema import text_for
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, collection_table, difficulty_table, settings
from pnpgen.games.fast_alone.horizontal_vertical.rules import (
    WON,
    State,
)
from pnpgen.games.fast_alone.horizontal_vertical.solver import HorizontalVerticalSolver
from pnpgen.games.fast_alone.puzzle import PuzzlePresentation


class HorizontalVerticalPresentation(HorizontalVerticalSolver, PuzzlePresentation[State]):
    """The rulebook's values and tables, and a state described for the referee."""

    def describe(self, state: State) -> str | None:
        lines = [f"{text_for(self.board.name, 'en')}; rows {', '.join(map(str, self.row_labels))} top to "
                 f"bottom, columns {', '.join(map(str, self.col_labels))} left to right"]
        header = "      " + " ".join(f"{c:>2}" for c in self.col_labels)
        lines.append(header)
        for r, text in enumerate(self._grid_lines(state.cells)):
            cond = self.board.lines[r].label
            lines.append(f"  {self.row_labels[r]:>2}  " + " ".join(f"{w:>2}" for w in text.split())
                         + f"   {cond}")
        lines.append("      " + " ".join(f"{self.board.lines[self.n_rows + c].label:>2}"
                                         for c in range(self.n_cols)))
        rows, cols = self.met_lines(state.cells)
        met = ", ".join(self.line_name(m) for m in rows + cols) or "none"
        lines.append(f"Lines meeting their condition: {met}")
        lines.append(f"Passes used: {state.passes} of {self.max_passes}; turns: {state.turns}")
        if state.end:
            result = "won" if state.end == WON else "lost"
            lines.append(f"Game over ({state.end}): {result}, score {self.outcome(state).scores[0]:g}")
        elif state.dice:
            writes = self.writes(state)
            lines.append(f"Dice {' '.join(map(str, state.dice))}: {len(writes)} possible writes")
            for (value, cell), cost in sorted(writes.items(), key=lambda w: (w[0][0], w[0][1])):
                lines.append(f"  write {value} at {self.cell_name(cell)}" + (f" (+{cost} x)" if cost else ""))
        else:
            lines.append("A roll is due")
        return "\n".join(lines)

    # --- rulebook ------------------------------------------------------------------------
    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self, self.data)
        return {
            "difficulty_games": games,
            "difficulty_seed": seed,
            "dice": self.count,
            "faces": self.faces,
            "rows": self.n_rows,
            "columns": self.n_cols,
            "row_labels": f"{self.row_labels[0]}–{self.row_labels[-1]}",
            "column_labels": f"{self.col_labels[0]}–{self.col_labels[-1]}",
            "wild_faces": "/".join(map(str, sorted(self.wild))),
            "x_per_wild": self.x_per_wild,
            "passes": self.max_passes,
            "pass_x": self.pass_x,
            "win_rows": self.win_rows,
            "win_columns": self.win_cols,
            "side_name": text_for(self.board.name, lang),
            "row_conditions": "・".join(c.label for c in self.board.lines[:self.n_rows]) if lang == "ja"
            else ", ".join(c.label for c in self.board.lines[:self.n_rows]),
            "column_conditions": "・".join(c.label for c in self.board.lines[self.n_rows:]) if lang == "ja"
            else ", ".join(c.label for c in self.board.lines[self.n_rows:]),
            "same_needed": next((c.value for c in self.board.lines if c.measure == "same"), 0),
            # one label per line for the board sheet: row_condition_1 .. and column_condition_1 ..
            **{f"row_condition_{i + 1}": c.label for i, c in enumerate(self.board.lines[:self.n_rows])},
            **{f"column_condition_{i + 1}": c.label for i, c in enumerate(self.board.lines[self.n_rows:])},
            "solver_method": "1手先だけを見る貪欲法（各列の見込みで局面を評価し、x は損の少ないマスへ）" if lang == "ja"
            else "one-move greedy search on a line-promise heuristic, x placed where they cost least",
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == COLLECTION_TABLE:  # every side of the collection (intro chapter)
            return collection_table(self, lang)
        if name == "difficulty":  # every side of the puzzle, random player and solver
            games, seed, bots = settings(self, self.data)
            return difficulty_table([(text_for(r.side.name, lang), r) for r in self.siblings], games, seed, bots, lang)
        if name != "conditions":
            raise KeyError(name)
        ja = lang == "ja"
        head = ["列", "ラベル", "成立条件"] if ja else ["Line", "Label", "Condition"]
        rows = [head]
        for line, cond in enumerate(self.board.lines):
            if line < self.n_rows:
                where_ = f"横 {self.row_labels[line]}" if ja else f"row {self.row_labels[line]}"
            else:
                where_ = f"縦 {self.col_labels[line - self.n_rows]}" if ja else \
                    f"column {self.col_labels[line - self.n_rows]}"
            rows.append([where_, cond.label, cond.describe(lang)])
        return rows
