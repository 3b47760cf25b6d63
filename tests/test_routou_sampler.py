"""ROUTOU DICE's lazy random move (sample_move): always one of the legal moves (a placement or
a clone: one with the same result as a listed one), deterministic in the rng, and every action kind
with a move can come out."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.protocol import CHANCE, TERMINAL
from pnpgen.games import rules_for_content
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    (content,) = load_games(Path(ROOT) / "content", ["routou-dice"])
    return rules_for_content(content)[0]


def test_sampled_moves_are_legal_and_seeded(rules) -> None:  # type: ignore[no-untyped-def]
    kinds: Counter[str] = Counter()
    for seed in range(12):
        rng, again = random.Random(seed), random.Random(seed)
        state = rules.initial_state(2)
        steps = 0
        while (player := rules.current_player(state)) != TERMINAL and steps < 400:
            if player == CHANCE:
                move = rules.sample_chance(state, rng)
                assert rules.sample_chance(state, again) == move
            else:
                move = rules.sample_move(state, rng)
                assert rules.sample_move(state, again) == move
                legal = rules.legal_moves(state)
                if move.kind in ("place", "clone"):  # listed once per distinct result
                    after = rules.apply(state, move)[0]
                    assert any(rules.apply(state, m)[0] == after for m in legal)
                else:
                    assert move in legal
                kinds[move.kind] += 1
            state = rules.apply(state, move)[0]
            steps += 1
    assert {"large", "small", "move", "place"} <= set(kinds)

