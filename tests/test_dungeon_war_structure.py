"""Dungeon War's rules by family: typed moves and pending decisions, one apply core, shared gates.

Seeded random walks from rule-rich referee states check that every listed move is of its
class (and of a kind its phase takes), reads back from its plain tuple, survives pickling,
and applies the same checked, unchecked and as a plain tuple; that every state's pending
reads as its phase's class; and that the piece-action gate the move generator uses is the
referee's verdict for the same piece.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
import yaml

from pnpgen.content.game import load_games
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war import moves, turn
from pnpgen.games.dungeon_war.pending import ANSWERS, PENDING, Pending

ROOT = Path(__file__).resolve().parents[1]
STATES = ["path-ambush-first-square", "mirror-window", "acid-shower-choice", "immortal-revives", "charm-use",
          "window-frenzy-spores"]


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def _start(game, name: str):  # type: ignore[no-untyped-def]
    path = ROOT / "tests" / "referee" / "dungeon-war" / f"{name}.yaml"
    return game.from_data(yaml.safe_load(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", STATES)
def test_typed_moves_and_pending_on_random_walks(game, name: str) -> None:  # type: ignore[no-untyped-def]
    rng, state = random.Random(7), _start(game, name)
    phases = set()
    for _ in range(80):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if state.phase in PENDING:
            phases.add(state.phase)
            typed = PENDING[state.phase].of(state)
            assert isinstance(typed, Pending) and typed == state.pending
        if player == CHANCE:
            listed = [m for m, _ in game.chance_outcomes(state)]
        else:
            listed = game.legal_moves(state)
            answers = ANSWERS.get(state.phase)
            assert all(isinstance(m, answers) for m in listed) if answers else True
        for m in listed:
            assert isinstance(m, moves.Move) and type(m) is not moves.Move, m
            plain = tuple(m)
            again = moves.typed(plain)
            assert type(again) is type(m) and again == m and hash(again) == hash(m) and repr(m) == repr(plain)
            assert pickle.loads(pickle.dumps(m)) == m
        move = rng.choice(listed) if player != CHANCE else rng.choices(
            listed, [float(p) for _, p in game.chance_outcomes(state)])[0]
        after, events = game.apply(state, move)
        fast, kinds = game.apply_unchecked(state, move)
        plain_after, _ = game.apply(state, tuple(move))  # a plain tuple is read as its class
        assert fast == after == plain_after and kinds == tuple(e.kind for e in events)
        state = after
    assert phases


def test_the_piece_gate_is_the_generator_and_the_verdict(game) -> None:  # type: ignore[no-untyped-def]
    """Each piece on the board either has its actions listed (the gate lets it act) or a move
    of it is refused with exactly the gate's rule and reason."""
    state = game.example_state()
    seen = set()
    for seat in (0, 1):
        s = state._replace(seat=seat)
        listed = game.legal_moves(s)
        occ = game.occupants(s)
        for r, c, _owner, name in s.board:
            if name == "king":
                continue
            refused = turn.action_refusal(game, s, (r, c), occ[(r, c)])
            acts = any(isinstance(m, moves.Walk | moves.Roll | moves.Dash) and m[1:3] == (r, c) for m in listed)
            assert acts == (refused is None), (seat, r, c)
            seen.add(acts)
            if refused is not None:
                with pytest.raises(IllegalMove) as err:
                    game.apply(s, moves.Walk(r, c, r, c + 1))
                assert (err.value.rule, err.value.reason) == refused
    assert seen == {True, False}


def test_a_plain_tuple_of_no_kind_is_refused(game) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as err:
        game.apply(game.example_state(), ("nonsense", 1))
    assert err.value.rule == "DW-TURN"
