"""Dungeon War's hidden information: views hide the others' cards, determinised states fit
their view, bots act on views, and the referee judges a view honestly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.bots import make_bot
from pnpgen.engine.hidden import DeterminisedMCTS, drawn_world
from pnpgen.engine.protocol import CHANCE, TERMINAL
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war.hidden import FACE_DOWN
from pnpgen.referee import Position, judge_position
from tests.sampling import sample

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def seeded_states(game, games: int, every: int = 9):  # type: ignore[no-untyped-def]
    """States along seeded random games at 2, 3 and 4 players (the round cap lowered)."""
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state(2 + seed % 3)
        step = 0
        while game.current_player(state) != TERMINAL and step < 700:
            if step % every == 0:
                yield state, rng
            player = game.current_player(state)
            move = game.sample_chance(state, rng) if player == CHANCE else rng.choice(game.legal_moves(state))
            state = game.apply(state, move)[0]
            step += 1


def test_a_view_never_holds_another_seats_cards_and_a_drawn_state_fits_it(game) -> None:  # type: ignore[no-untyped-def]
    checked = hidden_seen = 0
    for state, rng in seeded_states(game, 9):
        for seat in range(state.players):
            view = game.view(state, seat)
            for other in range(state.players):
                if other != seat:
                    assert view.state.hands[other] == ()
                    assert all(slot != FACE_DOWN for slot, _ in view.state.equip[other])
                    hidden_seen += len(state.hands[other])
            assert sum(view.state.war_deck) == 0
            assert view.hands == tuple(len(h) for h in state.hands) and view.deck == sum(state.war_deck)
            data = game.view_to_data(view)
            assert data["view"] == seat + 1 and all(type(data["hands"][o]) is int for o in range(state.players)
                                                    if o != seat)
            world = game.determinise(view, seat, rng)
            assert world is not None
            assert game.view(world, seat) == view  # consistent, and the view shows nothing more
            assert game.check(world) == []
            if game.current_player(state) == seat:  # the seat's moves rest on its view alone
                assert game.legal_moves(world) == game.legal_moves(state)
            checked += 1
    assert checked > 300 and hidden_seen > 50


def test_view_files_round_trip(game) -> None:  # type: ignore[no-untyped-def]
    for state, _ in seeded_states(game, 3, every=40):
        for seat in range(state.players):
            view = game.view(state, seat)
            assert game.view_from_data(game.view_to_data(view)) == view


def test_determinised_deals_vary_and_stay_uniform_in_count(game) -> None:  # type: ignore[no-untyped-def]
    state = next(s for s, _ in seeded_states(game, 1, every=1) if s.round >= 3 and any(s.hands[1:]))
    view = game.view(state, 0)
    deals = {game.determinise(view, 0, random.Random(k)).hands for k in range(30)}
    assert len(deals) > 5


def test_bots_act_on_views_only(game) -> None:  # type: ignore[no-untyped-def]
    """Two states that differ only in seat 2's hidden cards get the same choice from every bot
    with the same rng: the bots cannot see the difference."""
    states = [s for s, _ in seeded_states(game, 3, every=25) if game.current_player(s) >= 0 and s.round >= 2
              and any(s.hands[o] for o in range(s.players) if o != game.current_player(s))][:4]
    assert len(states) == 4
    for state in states:
        seat = game.current_player(state)
        other = game.determinise(game.view(state, seat), seat, random.Random(99))
        for name in ("random", "greedy", "mcts:8"):
            bot = make_bot(game, name)
            assert bot(state, random.Random(5)) == bot(other, random.Random(5)), name


def test_determinised_mcts_picks_a_legal_move(game) -> None:  # type: ignore[no-untyped-def]
    state, rng = next((s, r) for s, r in seeded_states(game, 2, every=30) if game.current_player(s) >= 0
                      and s.phase == "turn")
    search = DeterminisedMCTS(game, game, 12, 3)
    assert search.choose(state, rng) in game.legal_moves(state)
    assert game.view(drawn_world(game, game, state, rng), game.current_player(state)) == game.view(
        state, game.current_player(state))


def test_referee_on_a_view_versus_the_full_state(game) -> None:  # type: ignore[no-untyped-def]
    """The same moves judged by the umpire (full state) and from a view: a move resting only on
    the view gets the same verdict; a move resting on a hidden card cannot be told from the
    other seat's view, but can from the holder's. Sampled: every third position (tests/sampling.py)."""
    for state, _ in sample(list(seeded_states(game, 6, every=13)), 3):
        player = game.current_player(state)
        if player < 0:
            continue
        for move in game.legal_moves(state)[:6]:
            text = game.format_move(move)
            full = judge_position(game, Position(state), text)
            assert full.legal is True and full.judged == "full state"
            for seat in range(state.players):
                view = game.view(state, seat)
                world = game.determinise(view, seat, random.Random(0))
                verdict = judge_position(game, Position(world, view, seat), text)
                assert verdict.judged == f"view of seat {seat + 1}"
                if seat == player:
                    assert verdict.legal is True
                    if verdict.then is None:  # the same resulting view as the umpire's state gives
                        umpire = game.view(game.apply(state, move)[0], seat)
                        assert verdict.state == game.view_to_data(umpire)
                else:
                    assert verdict.legal in (True, None)  # legal, or "legal if" a hidden fact
                    assert verdict.legal is True or verdict.legal_if


def test_verification_catches_a_leaking_view(game, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """pnpgen.verify's view check fails a view that shows another seat's hand."""
    from pnpgen.games.dungeon_war import hidden
    from pnpgen.verify import view_problems

    state = next(s for s, _ in seeded_states(game, 3, every=5) if s.players == 2 and s.hands[1])
    assert view_problems(game, state, random.Random(1)) == []
    honest = hidden.view

    def leaky(rules, s, seat):  # type: ignore[no-untyped-def]
        v = honest(rules, s, seat)
        return v._replace(state=v.state._replace(hands=s.hands))

    monkeypatch.setattr(hidden, "view", leaky)
    assert any("no drawn state has the same view" in p for p in view_problems(game, state, random.Random(1)))
