"""PairingFivePresentation: presentation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from pnpgen.content.schema import text_for
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.pairing_five.rules import (
    WON,
    Area,
    Move,
    State,
)
from pnpgen.games.fast_alone.pairing_five.solver import PairingFiveSolver
from pnpgen.games.fast_alone.puzzle import PuzzlePresentation


def effect_text(spec: Area, faces: int, lang: str) -> str:
    """One sentence on an effect, written from its data (rulebook tables)."""
    return WORDS(f"pf.{spec.effect}", lang, total=faces + 1, least=spec.least, by=spec.by, faces=faces)


class PairingFivePresentation(PairingFiveSolver, PuzzlePresentation[State, Move]):
    """The rulebook's values and tables, and a state described for the referee."""

    def describe(self, state: State) -> str | None:
        lines = [f"{text_for(self.side_name, 'en')}"]
        for a, spec in enumerate(self.areas):
            dice = [str(f) for f in state.cells[2 * a:2 * a + 2] if f]
            red = " (red)" if a == state.red_area else ""
            lines.append(f"  area {spec.label} [{text_for(spec.name, 'en')}]: {' '.join(dice) or '-'}{red}")
        if state.red:
            lines.append(f"Red die {state.red} waits to be placed")
        lines.append(f"Unused: {self._shown(state.pool)}; dice placed: {state.turns}")
        if state.end:
            lines.append(f"Game over ({state.end}): {'won' if state.end == WON else 'lost'}")
        elif not self.rolled(state):
            lines.append("The ten dice are to be rolled")
        elif state.pending:
            lines.append(f"{state.pending} dice are being rerolled")
        else:
            moves = self.legal_moves(state)
            by_spot = Counter((m.face, m.area) for m in moves)
            lines.append(f"{len(by_spot)} placements, {len(moves)} moves with their effects:")
            for (face, area), count in sorted(by_spot.items()):
                lines.append(f"  place {face} in {self.label(area)}: {count} way(s) to fire "
                             f"{text_for(self.areas[area].name, 'en')}")
        return "\n".join(lines)

    # --- rulebook ------------------------------------------------------------------------
    def values(self, lang: str) -> dict[str, Any]:
        return {
            "white": self.white,
            "dice": self.white + 1,
            "areas": self.n,
            "faces": self.faces,
            "effects": WORDS("list_separator", lang).join(text_for(a.name, lang) for a in self.areas),
            **{f"area_{a.label}": text_for(a.name, lang) for a in self.areas},
        }

    def solver_method(self, lang: str) -> str:
        return WORDS("pairing-five.solver_method", lang, exact_from=self.exact_from, depth=self.depth)

    def tables(self) -> dict[str, Callable[[str], list[list[str]]]]:
        return {**super().tables(), "areas": self.areas_table}

    def areas_table(self, lang: str) -> list[list[str]]:
        rows = [header(lang, "pf.area", "effect", "what_it_does")]
        for spec in self.areas:
            rows.append([spec.label, text_for(spec.name, lang), effect_text(spec, self.faces, lang)])
        return rows
