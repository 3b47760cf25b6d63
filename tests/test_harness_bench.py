"""The benchmark's hand-written loops play the same games as the engine: over many
seeded random games their mean number of steps and moves agree with play_game's."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from test_harness_toys import nim, pig

from pnpgen.content.game import load_games
from pnpgen.engine.simulate import derive_seed, play_game
from pnpgen.games import rules_for_content

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.loops import all_loops  # noqa: E402


def _real(game: str) -> object:
    (content,) = load_games(ROOT / "content", [game])
    return rules_for_content(content)[0]


@pytest.mark.parametrize(("name", "games", "tolerance"), [
    ("toy-nim", 3000, 0.03), ("toy-pig", 3000, 0.03), ("dice-road-race", 1500, 0.05), ("burning-desire", 150, 0.08),
])
def test_hand_loop_matches_engine(name: str, games: int, tolerance: float) -> None:
    rules = {"toy-nim": nim, "toy-pig": pig}.get(name, lambda: _real(name))()
    players = 2 if rules.max_players > 1 else 1  # type: ignore[attr-defined]
    loop = all_loops()[name](rules, players)
    hand = [loop(random.Random(derive_seed(1, i))) for i in range(games)]
    engine = [play_game(rules, ["uniform"] * players, derive_seed(2, i)) for i in range(games)]  # type: ignore[arg-type]
    for k, field in enumerate(("steps", "player_moves")):
        hand_mean = sum(h[k] for h in hand) / games
        engine_mean = sum(getattr(r, field) for r in engine) / games
        assert abs(hand_mean - engine_mean) <= tolerance * engine_mean, (field, hand_mean, engine_mean)
