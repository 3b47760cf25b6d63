"""Dungeon War's search evaluation (evaluation.py, the guided MCTS's only): pieces closing in
on the enemy King Dragon raise it, a piece able to strike adds its exact chance to win, it
reads the rules' numbers, and it is the game's evaluation once the game is over. The guided
search judges an unfinished game below a won one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_harness_toys import NimState, nim

from pnpgen.content.game import load_games
from pnpgen.engine.capabilities import search_evaluation
from pnpgen.engine.mcts import MCTS, UNFINISHED, GuidedMCTS
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war import evaluation
from pnpgen.games.dungeon_war.config import ARMY
from pnpgen.games.dungeon_war.evaluation import pressure, search_evaluate
from pnpgen.games.dungeon_war.odds import BP, Fighter, melee
from pnpgen.games.dungeon_war.state import State

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def game() -> Any:
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    return rules_for_content(content)[0]


def with_golem(state: State, square: tuple[int, int]) -> State:
    """The example state (seat 1: King Dragon on 4,10 and a knight; seat 2: King Dragon on
    5,14 and two slimes) with a golem of seat 1 on `square`."""
    return state._replace(board=tuple(sorted((*state.board, (*square, 0, "golem")))))


def test_pressure_grows_as_a_golem_closes_in(game: Any) -> None:
    state = game.example_state()
    state = state._replace(gold=(0, *state.gold[1:]))  # no gold: no reserve piece to count
    far, near, next_to = (with_golem(state, sq) for sq in [(2, 9), (5, 12), (5, 13)])
    values = [pressure(game, s, 0, 1) for s in (state, far, near, next_to)]
    assert values[0] == values[1] < values[2] < values[3]  # 8 squares away: beyond REACH, no pressure
    # next to the King Dragon, unsupported: the squares closed, the siege, and KILL x the exact
    # chance that the golem (2D+13) defeats the King Dragon (1D+20, +2 per crystal held) or both fall
    cfg = game.cfg
    king = cfg.pieces["king"].bp
    odds = melee(Fighter(cfg.pieces["golem"].bp),
                 Fighter(BP(king.dice, king.plus + cfg.crystal_bp * game.crystals(next_to, 1))))
    closed = evaluation.APPROACH * (evaluation.REACH - 1) + evaluation.SIEGE
    expected = closed + evaluation.KILL * float(odds.win + odds.draw)
    assert 0 < odds.win < 1 and values[3] - values[1] == pytest.approx(expected)
    assert search_evaluate(game, next_to, 0) - game.evaluate(next_to, 0) > search_evaluate(game, far, 0) - \
        game.evaluate(far, 0)


def test_a_supporter_on_its_way_counts_for_the_strike(game: Any) -> None:
    state = with_golem(game.example_state()._replace(gold=(0, 3)), (5, 13))
    helped = state._replace(board=tuple(sorted((*state.board, (5, 12, 0, "slime")))))  # 2 squares from the King
    cfg, king = game.cfg, game.cfg.pieces["king"].bp
    defender = Fighter(BP(king.dice, king.plus + cfg.crystal_bp * game.crystals(state, 1)))
    chance = [float(o.win + o.draw) for o in (melee(Fighter(cfg.pieces["golem"].bp, support=k), defender)
                                              for k in (0, 1))]
    closed = evaluation.APPROACH * (evaluation.REACH - 2)  # the slime's own approach
    assert pressure(game, helped, 0, 1) - pressure(game, state, 0, 1) == pytest.approx(
        closed + evaluation.KILL * (chance[1] - chance[0]))
    assert chance[1] > 2 * chance[0]


def test_gold_toward_a_reserve_golem_counts_up_to_its_cost(game: Any) -> None:
    state = game.example_state()
    assert state.pools[0][ARMY.index("golem")] == 1
    cost = game.cfg.pieces["golem"].cost
    values = [pressure(game, state._replace(gold=(gold, 3)), 0, 1) for gold in (0, cost // 2, cost, cost + 2)]
    assert values[0] < values[1] < values[2] == values[3]


def test_pressure_reads_the_support_bp_from_the_rules(game: Any) -> None:
    state = with_golem(game.example_state(), (5, 13))
    state = state._replace(board=tuple(sorted((*state.board, (4, 14, 0, "slime")))))  # a supporter beside the King
    before = pressure(game, state, 0, 1)
    game.cfg.support += 3  # a bigger support bonus: the golem, supported, strikes harder
    assert pressure(game, state, 0, 1) > before


def test_no_pressure_without_a_king_and_none_after_the_end(game: Any) -> None:
    state = game.example_state()
    no_king = state._replace(board=tuple(p for p in state.board if p[2:] != (1, "king")))
    assert pressure(game, no_king, 0, 1) == 0.0
    over = state._replace(phase="over", fallen=frozenset({1}), kings_beaten=(1, 0), board=no_king.board)
    assert game.is_terminal(over)
    assert search_evaluate(game, over, 0) == game.evaluate(over, 0) > 0 > search_evaluate(game, over, 1)


def test_the_guided_search_uses_the_search_evaluation(game: Any) -> None:
    assert search_evaluation(game) == game.search_evaluate
    state = with_golem(game.example_state(), (5, 13))
    assert GuidedMCTS(game, 10).evaluate(state, 0) == search_evaluate(game, state, 0)
    assert MCTS(game, 10).evaluate(state, 0) == game.evaluate(state, 0)  # plain MCTS keeps the game's


def test_an_unfinished_game_is_judged_below_a_won_one() -> None:
    rules = nim()
    state = NimState(9, 0, 1)
    plain, guided = MCTS(rules, 10)._judge(state, 2), GuidedMCTS(rules, 10)._judge(state, 2)
    assert guided == pytest.approx([UNFINISHED * share for share in plain])
    assert max(guided) < 1.0
    assert GuidedMCTS(rules, 12).choose(NimState(3, 0, 1), random.Random(0)) == "t3"  # the win, still taken
