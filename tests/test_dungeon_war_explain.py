"""The referee's reasons come from the move generators' own gates (explain.py).

For positions along seeded games, every candidate move (each listed one, near misses of
them, random moves of every kind) is legal by explain exactly when legal_moves lists it (a
declared path: when the path check passes), and a refused one is refused by apply with
explain's rule and words. Then a few verdicts whose reasons the shared gates changed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war import movement, moves
from pnpgen.games.dungeon_war.config import ARMY
from pnpgen.games.dungeon_war.explain import explain
from pnpgen.games.dungeon_war.pending import PENDING


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return rules_for_content(load_games(Path(__file__).resolve().parents[1] / "content", ["dungeon-war"])[0])[0]


def positions(game, seeds: range, every: int):  # type: ignore[no-untyped-def]
    """Player decisions along seeded random games (2 and 3 players)."""
    for seed in seeds:
        rng = random.Random(seed)
        state, step = game.initial_state(2 + seed % 2), 0
        while game.current_player(state) != TERMINAL and step < 600:
            player = game.current_player(state)
            if player >= 0 and step % every == 0:
                yield state, random.Random(seed * 1000 + step)
            move = game.sample_chance(state, rng) if player == CHANCE else rng.choice(game.legal_moves(state))
            state = game.apply(state, move)[0]
            step += 1


def candidates(game, state, rng: random.Random) -> list[tuple[Any, ...]]:  # type: ignore[no-untyped-def]
    """Listed moves, near misses of some (a number one off, a declared path), and random
    moves of every kind near the pieces."""
    cfg, listed = game.cfg, game.legal_moves(state)
    found = [tuple(m) for m in listed]
    for m in rng.sample(listed, min(6, len(listed))):
        for k, v in enumerate(m):
            if isinstance(v, int) and not isinstance(v, bool):
                found += [(*m[:k], v + d, *m[k + 1:]) for d in (-1, 1)]
        if isinstance(m, moves.Walk | moves.Go):
            r, c = m[-2:]
            found += [(*m, r + 1, c, r, c), (*m, r, c), (*m, *(v for _ in range(6) for v in (r, c)))]
    for _ in range(40):
        r, c, *_ = rng.choice(state.board)
        sq = (r + rng.randint(-2, 2), c + rng.randint(-2, 2))
        i, slot = rng.randrange(len(cfg.war_cards)), rng.choice(list(cfg.slots))
        found += [rng.choice([
            ("move", r, c, *sq), ("roll", r, c), ("dash", r, c), ("warp", r, c, *sq), ("make", r, c, *sq),
            ("reverse", r, c, 0, 0), ("block", r, c, *sq), ("fence", r, c, *sq), ("summon", rng.choice(ARMY), *sq),
            ("alchemy",), ("remake", *sq), ("draw",), ("element", rng.randrange(len(cfg.cycle))), ("change", i),
            ("equip", i, slot), ("unequip", i, slot), ("use", r, c, i), ("use", r, c, i, *sq), ("shoot", r, c, i, *sq),
            ("trap", i), ("trap", i, *sq), ("pass",), ("ambush", i), ("acid", i), ("dispose", i), ("revive", *sq),
            ("place", "S", *sq), ("go", *sq), ("lay", True), ("discard",), ("put", *sq), ("end",)])]
    return list(dict.fromkeys(found))


def test_explain_says_legal_exactly_for_the_listed_moves(game) -> None:  # type: ignore[no-untyped-def]
    rules_seen: set[str] = set()
    checked = 0
    for state, rng in positions(game, range(2), 45):
        listed = set(game.legal_moves(state))
        for k, move in enumerate(candidates(game, state, rng)):
            verdict = explain(game, state, move)
            typed = moves.typed(move)
            if isinstance(typed, moves.Walk | moves.Go) and len(typed) > (5 if isinstance(typed, moves.Walk) else 3):
                legal = movement.declared_path_refusal(game, state, typed) is None
            else:
                legal = typed in listed
            assert (verdict is None) == legal, (state.phase, move, verdict)
            checked += 1
            if verdict is not None:
                rules_seen.add(verdict[0])
                assert verdict[1], (move, verdict)  # a reason in words, never empty
                if k % 4 == 0:  # the referee refuses it with the same rule and words
                    with pytest.raises(IllegalMove) as err:
                        game.apply(state, move)
                    assert (err.value.rule, err.value.reason) == verdict
    assert checked > 600
    assert len(rules_seen) >= 12, rules_seen


def test_reasons_the_shared_gates_give(game) -> None:  # type: ignore[no-untyped-def]
    """Verdicts the second encoding used to get wrong: a card offered to a slot not of its
    category, the King Dragon summoned, a summon with every piece of a kind on the board."""
    cfg = game.cfg
    state = game.example_state()
    helm = next(i for i, card in enumerate(cfg.war_cards) if card.id == "helm")
    held = state._replace(hands=((helm,), ()))
    assert explain(game, held, ("equip", helm, "sword")) == ("DW-EQUIP", "helm goes in the helmet slot")
    assert explain(game, held, ("equip", helm, "helmet")) is None
    king = next((r, c) for r, c, o, k in state.board if o == 0 and k == "king")
    target = (king[0] - 2, king[1])
    assert explain(game, state, ("summon", "king", *target)) == ("DW-SUMMON", "the King Dragon is never summoned")
    knights = ARMY.index("knight")
    none_left = state._replace(pools=(tuple(0 if i == knights else n for i, n in enumerate(state.pools[0])),
                                      state.pools[1]), gold=(9, 9))
    assert explain(game, none_left, ("summon", "knight", *target)) == (
        "DW-SUMMON", "no unused knight is left: name one of yours on the board to re-place (D-DW-22)")
    assert explain(game, none_left, ("summon", "knight", *target, 4, 11)) is None  # the knight on l5 re-placed


def test_entry_refusals_have_words_and_classes_are_bare_tuples() -> None:
    assert set(movement.REFUSALS) == {"terrain", "never-stops", "friend-stop", "friend", "kings", "unbreakable"}
    lava = {"name": "lava", "needs": "fire"}
    said = {why: movement.refusal_words(why, "golem", lava, "k5", "weak", "block") for why in movement.REFUSALS}
    assert said == {
        "terrain": "a golem cannot enter lava (no fire movement)",
        "never-stops": "the King Dragon never stops on lava",
        "friend-stop": "k5 holds a friendly Stop! piece: it can be neither passed nor stopped on (D-DW-7)",
        "friend": "k5 holds a friendly piece: pass through, never stop",
        "kings": "King Dragons never fight each other",
        "unbreakable": "a weak piece cannot break a block",
    }
    assert all(rule.startswith("DW-") for rule in movement.REFUSALS.values())
    for cls in [*moves.KINDS.values(), moves.Brainwash, *PENDING.values()]:
        value = tuple.__new__(cls, ("x", 1, 2, 3, 4, 5, 6))
        assert not hasattr(value, "__dict__"), cls  # __slots__ = () from the Bare metaclass
        assert value == ("x", 1, 2, 3, 4, 5, 6) and hash(value) == hash(("x", 1, 2, 3, 4, 5, 6))
