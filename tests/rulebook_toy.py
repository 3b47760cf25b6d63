"""A tiny Rules object for the rulebook renderer's tests (no real game behind it)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

from pnpgen.content.game import GameContent, load_game
from pnpgen.engine.protocol import TERMINAL, Outcome, Rules

FIXTURE = Path(__file__).parent / "fixtures" / "rulebook-toy"


class ToyRules(Rules[int, str]):
    """Only the rulebook hooks matter here; the numbers come from the fixture's YAML."""

    def __init__(self, content: GameContent, suffix: str = "") -> None:
        self.content = content
        self.id = content.id + suffix
        self.target = int(content.data["rules"]["target"])

    def initial_state(self, players: int, rng: random.Random) -> int:
        return 0

    def current_player(self, state: int) -> int:
        return TERMINAL

    def legal_moves(self, state: int) -> list[str]:
        return []

    def chance_outcomes(self, state: int) -> list[tuple[str, Fraction]]:
        return []

    def apply(self, state: int, move: str) -> tuple[int, list[Any]]:
        return state, []

    def outcome(self, state: int) -> Outcome:
        return Outcome((0,), (float(state),), "done")

    def parse_move(self, text: str, state: int | None = None) -> str:
        return text

    def format_move(self, move: str) -> str:
        return move

    def to_data(self, state: int) -> dict[str, Any]:
        return {"score": state}

    def from_data(self, data: Any) -> int:
        return int(data["score"])

    def example_state(self) -> int:
        return 0

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        return {"target": self.target, "ev": 3.5}

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name != "points":
            raise KeyError(name)
        head = {"ja": "出目", "en": "Face"}[lang]
        return [[head, "1", "2", "3", "4", "5", "6"], ["pts", "1", "2", "3", "4", "5", "60"]]


def toy(folder: Path = FIXTURE) -> tuple[GameContent, list[Rules[Any, Any]]]:
    content = load_game(folder)
    return content, [ToyRules(content)]
