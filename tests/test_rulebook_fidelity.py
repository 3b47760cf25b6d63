"""Fidelity fixes of issue 14, checked on the referee (the engine) and on the rulebook text.

- ±3/±2/±1 (Unification Complex, Pairing Five Expert): "制限事項は±3と同様" — a die on 1-3 only
  goes up, one on 4-6 only goes down; there is no choice of direction (GAMES.md D-FA-11).
- Growing Nine: a lost game scores minus the white dice never brought onto the board.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen.content.game import load_game
from pnpgen.engine.collection import pick_game
from pnpgen.games import rules_for_content

CONTENT = Path(__file__).resolve().parents[1] / "content"


@pytest.fixture(scope="module")
def fast_alone() -> list[Any]:
    content = load_game(CONTENT / "fast-alone")
    return rules_for_content(content)


def game(rules: list[Any], name: str) -> Any:
    picked = pick_game(rules, name, "fast-alone")
    assert picked is not None
    return picked


@pytest.mark.parametrize("by", [1, 2, 3])
def test_unification_plus_minus_has_no_choice(fast_alone: list[Any], by: int) -> None:
    rules = game(fast_alone, "unification-complex")
    effect = next(e for edge in rules.edges.values() for e in edge.effects
                  if e.effect == "shift" and e.by == by)
    for face in range(1, 7):
        expected = face + by if face <= 3 else face - by
        assert rules._changed(effect, face) == [expected], (by, face)


@pytest.mark.parametrize("by", [1, 2, 3])
def test_pairing_five_plus_minus_has_no_choice(fast_alone: list[Any], by: int) -> None:
    rules = game(fast_alone, "pairing-five-expert")
    area = next(a for a in rules.areas if a.effect == "shift" and a.by == by)
    for face in range(1, 7):
        expected = face + by if face <= 3 else face - by
        assert rules.changes(area, face) == [expected], (by, face)
