"""PairingFivePresentation: presentation."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pnpgen.content.schema import text_for
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, collection_table, difficulty_table, settings
from pnpgen.games.fast_alone.pairing_five.rules import (
    WON,
    Area,
    State,
)
from pnpgen.games.fast_alone.pairing_five.solver import PairingFiveSolver
from pnpgen.games.fast_alone.puzzle import PuzzlePresentation


def effect_text(spec: Area, faces: int, lang: str) -> str:
    """One sentence on an effect, written from its data (rulebook tables)."""
    ja = lang == "ja"
    texts = {
        "down": ("未使用のダイス1個を、今より小さい好きな目にする", "one unused die to any lower face"),
        "up": ("未使用のダイス1個を、今より大きい好きな目にする", "one unused die to any higher face"),
        "flip": (f"未使用のダイス1個を上下逆さにする（合計{faces + 1}の目へ）",
                 f"one unused die turned upside down (the face making {faces + 1} with it)"),
        "reroll": ("未使用のダイス1個を振り直す", "one unused die rolled again"),
        "reroll_same": (f"同じ目の未使用ダイスをすべて振り直す（その目が{spec.least}個以上あること）",
                        f"every unused die of one face rolled again (at least {spec.least} must show it)"),
        "shift": (f"未使用のダイス1個の目を{spec.by}増やすか減らす（1〜{faces}に収まる方）",
                  f"one unused die {spec.by} up or down, staying within 1–{faces}"),
        "any": ("未使用のダイス1個を、別の好きな目にする", "one unused die to any other face"),
        "swap": ("ダイスのある2つのエリアの中身を入れ替える", "the dice of two areas that hold dice change places"),
    }
    return texts[spec.effect][0 if ja else 1]


class PairingFivePresentation(PairingFiveSolver, PuzzlePresentation[State]):
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
    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self, self.data)
        ja = lang == "ja"
        return {
            "difficulty_games": games,
            "difficulty_seed": seed,
            "white": self.white,
            "dice": self.white + 1,
            "areas": self.n,
            "faces": self.faces,
            "side_name": text_for(self.side_name, lang),
            "effects": ("・" if ja else ", ").join(text_for(a.name, lang) for a in self.areas),
            **{f"area_{a.label}": text_for(a.name, lang) for a in self.areas},
            "solver_method": (f"期待値最大化探索（残り{self.exact_from}個以下は最後まで厳密、それ以前は"
                              f"{self.depth}手先まで読み、合わないダイスの数で評価）") if ja else
            (f"expectimax over every placement, effect and exact reroll outcome: exact to the end once "
             f"{self.exact_from} or fewer dice are unused, {self.depth} placement(s) deep before that, "
             "leaves valued by the dice no area could take"),
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == COLLECTION_TABLE:  # every side of the collection (intro chapter)
            return collection_table(self, lang)
        if name == "difficulty":
            games, seed, bots = settings(self, self.data)
            return difficulty_table([(text_for(r.side_name, lang), r) for r in self.siblings], games, seed,
                                    bots, lang)
        if name != "areas":
            raise KeyError(name)
        ja = lang == "ja"
        rows = [["エリア", "効果", "内容"] if ja else ["Area", "Effect", "What it does"]]
        for spec in self.areas:
            rows.append([spec.label, text_for(spec.name, lang), effect_text(spec, self.faces, lang)])
        return rows
