"""The guided MCTS (`guided:N`, pnpgen.engine.mcts.GuidedMCTS): it finds a won end its
ranking sees, beats random at windy Nim, and in Dungeon War (determinised on the seat's
view) picks legal moves, the same ones for the same seed. Its strength against greedy is a
benchmark (benchmarks/bench_dungeon_war_mcts.py), not a test."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_harness_toys import NimState, nim

from pnpgen.content.game import load_games
from pnpgen.engine.bots import make_bot, parse_bot
from pnpgen.engine.mcts import GuidedMCTS, _Guided
from pnpgen.engine.metrics import wilson_interval
from pnpgen.engine.protocol import CHANCE, TERMINAL
from pnpgen.engine.simulate import simulate
from pnpgen.games import rules_for_content

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dungeon_war() -> Any:
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    return rules_for_content(content)[0]


def test_guided_takes_the_winning_stones() -> None:
    rules = nim()
    for seed in range(5):  # 3 stones left: taking all 3 wins; any other take lets the wind or the rival win
        assert GuidedMCTS(rules, 12).choose(NimState(3, 0, 1), random.Random(seed)) == "t3"
        assert GuidedMCTS(rules, 12).choose(NimState(2, 1, 0), random.Random(seed)) == "t2"


def test_guided_beats_random_at_nim() -> None:
    summary = simulate(nim(), 40, 3, ["guided:30", "random"])
    wins = summary.bot_wins["guided:30"]
    low, _ = wilson_interval(wins, 40)
    assert low > 0.6, f"guided won {wins} of 40"


def test_guided_is_a_sized_bot(dungeon_war: Any) -> None:
    assert parse_bot(dungeon_war, "guided:40") == ("guided", 40)


def test_guided_picks_legal_moves_deterministically_in_dungeon_war(dungeon_war: Any) -> None:
    rng = random.Random(3)
    state, chosen = dungeon_war.initial_state(2), 0
    while dungeon_war.current_player(state) != TERMINAL and chosen < 4:
        player = dungeon_war.current_player(state)
        if player == CHANCE:
            move = dungeon_war.sample_chance(state, rng)
        else:
            legal = dungeon_war.legal_moves(state)
            picks = [make_bot(dungeon_war, "guided:10")(state, random.Random(11)) for _ in range(2)]
            assert picks[0] == picks[1] and picks[0] in legal
            chosen += len(legal) > 1
            move = picks[0]
        state = dungeon_war.apply(state, move)[0]
    assert chosen == 4


def test_guided_reads_its_settings_and_widens_progressively() -> None:
    search = GuidedMCTS(nim(simulation={"mcts_exploration": 0.5, "mcts_widen": 2}), 10)
    assert (search.exploration, search.widen) == (0.5, 2.0)
    narrow = GuidedMCTS(nim(rules={"pile": 9}, simulation={"mcts_widen": 0.001}), 30)
    root = _Guided(narrow.rules, NimState(9, 0, 1), 2)
    for _ in range(30):
        narrow._descend(root, random.Random(1), 2)
    assert len(root.children) == 1 and root.visits == 30  # only the best-ranked move is ever tried
    wide = GuidedMCTS(nim(rules={"pile": 9}), 30)
    root = _Guided(wide.rules, NimState(9, 0, 1), 2)
    for _ in range(30):
        wide._descend(root, random.Random(1), 2)
    assert len(root.children) == 3  # ceil(sqrt(v + 1)) reaches all 3 takes
