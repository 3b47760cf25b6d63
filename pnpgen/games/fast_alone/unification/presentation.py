"""UnificationPresentation: presentation."""

from __future__ import annotations

from typing import Any

from pnpgen.content.schema import text_for
from pnpgen.engine.protocol import CHANCE
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, collection_table, difficulty_table, settings
from pnpgen.games.fast_alone.puzzle import PuzzlePresentation
from pnpgen.games.fast_alone.unification.rules import (
    EDGE_NAMES,
    EDGES,
    WON,
    Effect,
    State,
)
from pnpgen.games.fast_alone.unification.solver import UnificationSolver


def effect_text(effect: Effect, faces: int, lang: str) -> str:
    """One sentence on an effect, written from its data (rulebook tables)."""
    ja = lang == "ja"
    by = abs(effect.by)
    texts = {
        "add": (f"押し出されたダイスの目を{effect.by:+d}する（1〜{faces}を出るなら押し出せない）",
                f"the pushed-out die's face {effect.by:+d} (no push if it would leave 1–{faces})"),
        "shift": (f"押し出されたダイスの目を{by}増やすか減らす（1〜{faces}に収まる方、両方なら選ぶ）",
                  f"the pushed-out die {by} up or down, the way that stays within 1–{faces} (your choice "
                  "when both do)"),
        "flip": (f"押し出されたダイスを上下逆さにする（合計{faces + 1}の目へ）",
                 f"the pushed-out die turned upside down (to the face making {faces + 1} with it)"),
        "reroll": ("押し出されたダイスを振り直す", "the pushed-out die is rolled again"),
        "rotate": ("押し出したあと、盤のダイス全体を左回りに90度回す",
                   "after the push, the whole grid turns a quarter counter-clockwise"),
        "paradigm": ("赤ダイスの目を押し出されたダイスの目にする（同じ目のダイスは押し出せない）",
                     "the red die takes the pushed-out die's face (a die already showing it cannot leave here)"),
    }
    return texts[effect.effect][0 if ja else 1]


class UnificationPresentation(UnificationSolver, PuzzlePresentation[State]):
    """The rulebook's values and tables, and a state described for the referee."""

    def describe(self, state: State) -> str | None:
        n = self.n
        lines = [text_for(self.side_name, "en")]
        edges = ", ".join(f"{EDGE_NAMES[k][1]} {text_for(e.name, 'en')}" for k, e in self.edges.items())
        lines.append(f"Edges (a die leaving by one gets its effect): {edges}")
        for r in range(n):
            row = []
            for c in range(n):
                i = r * n + c
                face = str(state.cells[i]) if state.cells[i] else "."
                row.append(f"[{face}]" if i == state.red else f" {face} ")
            lines.append("  " + "".join(row))
        lines.append(f"Push die: {state.push or 'to be rolled'}; pushes made: {state.pushes} of {self.push_limit}"
                     + (f"; no push from {state.banned}" if state.banned else ""))
        if state.end:
            lines.append(f"Game over ({state.end}): " + (f"won, score {self.score(state)}" if state.end == WON
                                                           else "lost"))
        elif self.current_player(state) == CHANCE:
            lines.append("Setup is under way" if not self.settled(state) else "The push die is to be rolled again")
        else:
            moves = self.legal_moves(state)
            lines.append(f"{len(moves)} pushes allowed: " + " ".join(self.format_move(m) for m in moves))
            lines.append(f"Effect steps still needed, at least: {self.distance(state)}")
        return "\n".join(lines)

    # --- rulebook ------------------------------------------------------------------------
    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self, self.data)
        ja = lang == "ja"
        edges = {f"edge_{k}": text_for(e.name, lang) for k, e in self.edges.items()}
        return {
            "difficulty_games": games,
            "difficulty_seed": seed,
            "grid": self.n,
            "cells": self.size,
            "white": self.size - 1,
            "faces": self.faces,
            "push_limit": self.push_limit,
            "side_name": text_for(self.side_name, lang),
            **edges,
            "solver_method": (f"重み付き A* 探索（結果の決まる押し出しだけで勝ちまでの手順を探し、1手順あたり最大"
                              f"{self.nodes}局面、評価は残りの効果の回数×{self.weight:g}。"
                              "勝ちを見つけたあとも赤が中央の勝ちを少し探す）") if ja else
            (f"weighted A* search for a winning line over the pushes whose result is certain (at most "
             f"{self.nodes} positions per plan, effect steps still needed weighted {self.weight:g}; after a "
             "first win it searches a little longer for a win with the red in the centre)"),
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == COLLECTION_TABLE:  # every side of the collection (intro chapter)
            return collection_table(self, lang)
        if name == "difficulty":
            games, seed, bots = settings(self, self.data)
            return difficulty_table([(text_for(r.side_name, lang), r) for r in self.siblings], games, seed,
                                    bots, lang)
        if name != "edges":
            raise KeyError(name)
        ja = lang == "ja"
        rows = [["辺", "効果", "内容"] if ja else ["Edge", "Effect", "What it does"]]
        for key in EDGES:
            edge = self.edges[key]
            what = ("、そのあと" if ja else "; then ").join(effect_text(e, self.faces, lang) for e in edge.effects)
            rows.append([EDGE_NAMES[key][0 if ja else 1], text_for(edge.name, lang), what])
        return rows
