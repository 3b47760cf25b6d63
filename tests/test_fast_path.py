"""The simulation fast path (Rules.apply_unchecked) against the checked path (apply): the
same seeded games, every state compared, for every built-in game (each Fast Alone puzzle
and side, Dungeon War at a small game count) and the harness's toy games."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_harness_toys import nim, pig

from pnpgen.content.game import load_games
from pnpgen.engine.bots import make_bot
from pnpgen.engine.chance import chance_sampler
from pnpgen.engine.protocol import CHANCE, TERMINAL, Rules
from pnpgen.engine.simulate import derive_seed, play_game
from pnpgen.games import rules_for_content

ROOT = Path(__file__).resolve().parent.parent
GAMES: list[Rules[Any, Any]] = [r for game in load_games(ROOT / "content") for r in rules_for_content(game)]
GAMES += [nim(), pig()]
SLOW = {"dungeon-war": 2, "routou-dice": 3}  # games (of 8) played for the long ones


def players_of(rules: Rules[Any, Any]) -> int:
    return rules.min_players if rules.min_players > 1 or rules.max_players == 1 else 2


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_fast_and_checked_paths_give_the_same_states(rules: Rules[Any, Any]) -> None:
    """Every step of seeded random games: apply_unchecked gives the state apply gives, and
    the kinds of apply's events, in order."""
    players = players_of(rules)
    sample = chance_sampler(rules)
    bot = make_bot(rules, "random")
    steps = 0
    for game in range(SLOW.get(rules.id, 8)):
        rng = random.Random(derive_seed(7, game))
        state = rules.initial_state(players)
        for _ in range(rules.max_steps):
            player = rules.current_player(state)
            if player == TERMINAL:
                break
            move = sample(state, rng) if player == CHANCE else bot(state, rng)
            checked, events = rules.apply(state, move)
            fast, kinds = rules.apply_unchecked(state, move)
            assert fast == checked, f"{rules.id} game {game}: {move!r} from {state!r}"
            assert tuple(kinds) == tuple(e.kind for e in events)
            state = checked
            steps += 1
    assert steps > 0


@pytest.mark.parametrize("rules", [r for r in GAMES if r.id in ("burning-desire", "dice-road-race")],
                         ids=lambda r: r.id)
def test_simulation_records_agree_on_both_paths(rules: Rules[Any, Any]) -> None:
    """play_game on the fast path and with every check (verification) plays the same games:
    outcome, length and event counts."""
    for index in range(20):
        seed = derive_seed(11, index)
        fast = play_game(rules, ["uniform", "random"], seed)
        checked = play_game(rules, ["uniform", "random"], seed, check_invariants=True)
        assert (fast.outcome, fast.steps, fast.player_moves, fast.events) == (
            checked.outcome, checked.steps, checked.player_moves, checked.events)
        assert not checked.problems
        assert fast.events["roll"] > 0
