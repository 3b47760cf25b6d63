"""Dungeon War analysis: the evaluation follows its YAML weights and public facts only, the
greedy bot takes what the evaluation prizes, tallies count what a step used."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.bots import make_bot
from pnpgen.engine.protocol import CHANCE, TERMINAL
from pnpgen.engine.simulate import TALLY, play_game, tally_groups
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war import analysis

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def game():  # type: ignore[no-untyped-def]
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def test_weights_come_from_yaml(game) -> None:  # type: ignore[no-untyped-def]
    state = game.example_state()
    before = game.evaluate(state, 0)
    game.simulation["evaluation"] = {**game.simulation["evaluation"], "piece": 101.0}
    game._evaluation_weights = None
    # seat 1 has 1 piece besides its King Dragon, seat 2 has 2: the gap grows by 100 per piece
    assert game.evaluate(state, 0) == pytest.approx(before - 100.0)
    del game.simulation["evaluation"]["crystal"]
    game._evaluation_weights = None
    with pytest.raises(ValueError, match="simulation.evaluation: missing crystal"):
        game.evaluate(state, 0)


def test_evaluation_ignores_hidden_cards(game) -> None:  # type: ignore[no-untyped-def]
    state = game.example_state()
    dealt = state._replace(hands=((), (0, 0, 3)))  # seat 2 holds three cards: which ones, seat 1 cannot see
    other = state._replace(hands=((), (3, 3, 5)))
    assert game.evaluate(dealt, 0) == game.evaluate(other, 0) < game.evaluate(state, 0)


def test_a_crystal_is_worth_its_weight(game) -> None:  # type: ignore[no-untyped-def]
    state = game.example_state()
    crystal = next(sq for sq, code in game.dungeon(state).terrain.items() if code == "C")
    board = tuple(p for p in state.board if p[2] != 0 or p[3] != "knight")
    on = state._replace(board=tuple(sorted((*board, (crystal[0], crystal[1], 0, "knight")))))
    w = analysis.weights(game)
    gain = game.evaluate(on, 0) - game.evaluate(state._replace(board=tuple(sorted((*board, (3, 12, 0, "knight"))))), 0)
    assert gain >= w["crystal"] + w["king_bp"] - w["guard"] - 1e-9


def test_tallies_name_pieces_cards_and_fights(game) -> None:  # type: ignore[no-untyped-def]
    record = play_game(game, ["random"] * 3, 11)
    groups = tally_groups({k: float(v) for k, v in record.events.items()})
    assert {"piece", "action"} <= set(groups)
    assert dict(groups["piece"])["king"] > 0
    moves = sum(v for k, v in record.events.items() if k.startswith(TALLY + "action: "))
    assert 0 < moves <= record.player_moves
    fights = sum(v for k, v in record.events.items() if k.startswith(TALLY + "fight: "))
    assert fights == record.events.get("fight", 0)


def test_greedy_beats_random_more_often_than_not(game) -> None:  # type: ignore[no-untyped-def]
    """Four short games (round cap 4): the greedy seat ends ahead on the evaluation in most."""
    game.cfg.round_cap = 4
    ahead = 0
    for seed in range(4):
        bots = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        seat = bots.index("greedy")
        rng = random.Random(seed)
        players = [make_bot(game, b) for b in bots]
        state = game.initial_state(2)
        while (p := game.current_player(state)) != TERMINAL:
            move = game.sample_chance(state, rng) if p == CHANCE else players[p](state, rng)
            state = game.apply(state, move)[0]
        w = analysis.weights(game)
        values = [analysis.seat_value(game, state, s, w) for s in (0, 1)]
        ahead += values[seat] > values[1 - seat] or seat in game.outcome(state).winners
    assert ahead >= 3


def test_report_says_stand_in_and_ranks_the_tallies(game, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    from pypdf import PdfReader

    from pnpgen.report import ReportOptions, write_report

    game.cfg.round_cap = 3  # short games; the figures themselves are not under test
    pdf, data_path = write_report(game, ReportOptions(games=6, seed=2, bots=["random"] * 3, workers=1,
                                                      skill_bot=None, skill_games=0, out=tmp_path))
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    text = " ".join(text.split())
    assert "STAND-IN" in text and "seat 3 win rate" in text
    for label in ("piece: (most used|share)", "action: most used", "action: least used", "rounds"):
        assert re.search(label, text), label
    assert re.search(r"king \d+\.\d%", text)
    events = json.loads(data_path.read_text())["summary"]["events_per_game"]
    assert events["tally piece: king"] > 0
