"""Dungeon War's exact combat odds: every figure of the digest (DUNGEON-WAR.md §6), computed
from the content's piece data, and one cross-checked by seeded simulation."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.metrics import wilson_interval
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war.odds import BP, Fighter, bp_distribution, melee, shot, volley

ROOT = Path(__file__).resolve().parents[1]
F = Fraction


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def test_bp_distribution_is_exact() -> None:
    dist = dict(bp_distribution(2, 13))
    assert min(dist) == 15 and max(dist) == 25 and dist[20] == F(1, 6) and sum(dist.values()) == 1


def test_king_dragon_attacks_golem(game) -> None:  # type: ignore[no-untyped-def]
    king, golem = game.cfg.pieces["king"].bp, game.cfg.pieces["golem"].bp
    odds = game.melee_odds(Fighter(king), Fighter(golem))
    assert (odds.win, odds.draw, odds.loss) == (F(181, 216), F(5, 72), F(5, 54))
    assert odds.close_win == F(59, 72)  # wins by 9 or less: the King Dragon tires (D-DW-4)


def test_golem_attacks_supported_king_dragon(game) -> None:  # type: ignore[no-untyped-def]
    king, golem = game.cfg.pieces["king"].bp, game.cfg.pieces["golem"].bp
    odds = game.melee_odds(Fighter(golem), Fighter(king, support=2))  # 1D+24 with two friends
    assert (odds.win, odds.draw, odds.loss) == (0, F(1, 216), F(215, 216))


def test_magician_with_three_flame_tongues_attacks_golem(game) -> None:  # type: ignore[no-untyped-def]
    tongue = next(c for c in game.cfg.war_cards if c.id == "flame-tongue")
    magician = game.cfg.pieces["magician"].bp + tongue.bp + tongue.bp + tongue.bp  # 3D+6
    assert magician == BP(3, 6)
    odds = game.melee_odds(Fighter(magician, attack=frozenset({tongue.element})), Fighter(game.cfg.pieces["golem"].bp))
    assert (odds.win, odds.draw, odds.loss) == (F(197, 1296), F(5, 72), F(1009, 1296))


def test_shot_of_equal_bp_hits_on_ties(game) -> None:  # type: ignore[no-untyped-def]
    fire = game.cfg.slimes["fire"]
    assert fire.bp == BP(2, 5)
    assert game.shot_odds(BP(2, 5), frozenset(), Fighter(fire.bp)).hit == F(721, 1296)


def test_fire_slime_beats_flame_tongue_knight_on_flags(game) -> None:  # type: ignore[no-untyped-def]
    fire = game.cfg.slimes["fire"]
    tongue = next(c for c in game.cfg.war_cards if c.id == "flame-tongue")
    knight = Fighter(game.cfg.pieces["knight"].bp + tongue.bp, attack=frozenset({"fire"}))
    slime = Fighter(fire.bp, fire.attack, fire.resist, fire.weak)
    odds = game.melee_odds(knight, slime)
    assert odds.by_flags == "defender" and odds.loss == 1


def test_flags_decide_shots_both_ways() -> None:
    assert shot(BP(2, 4), {"fire"}, Fighter(BP(2, 5), resist=frozenset({"fire"}))).hit == 0
    assert shot(BP(0, 1), {"water"}, Fighter(BP(2, 5), weak=frozenset({"water"}))).hit == 1


def test_volley_shares_one_shooter_roll() -> None:
    targets = [Fighter(BP(2, 5)), Fighter(BP(2, 5))]
    joint = volley(BP(2, 5), (), targets)
    assert sum(joint.values()) == 1
    single = F(721, 1296)
    both = joint[(True, True)]
    assert joint[(True, True)] + joint[(True, False)] == single
    assert both > single * single  # correlated through the shooter's roll
    assert both == F(6097, 15552)


def test_melee_odds_match_seeded_simulation(game) -> None:  # type: ignore[no-untyped-def]
    """King Dragon (1D+20) attacks a golem (2D+13): 4000 seeded fights land in the Wilson
    interval around the exact 181/216."""
    rng = random.Random(13)
    wins, trials = 0, 4000
    for _ in range(trials):
        king = rng.randint(1, 6) + 20
        golem = rng.randint(1, 6) + rng.randint(1, 6) + 13
        wins += king > golem
    low, high = wilson_interval(wins, trials, z=3.29)  # 99.9%
    assert low <= 181 / 216 <= high


def test_engine_fight_node_uses_the_exact_odds(game) -> None:  # type: ignore[no-untyped-def]
    state = game.example_state()
    # seat 1's knight on l5 attacks seat 2's slime on m5, which the slime on n5 supports
    for text in ("l5 roll", "roll 1", "go m5"):
        state, _ = game.apply(state, game.parse_move(text, state))
    after = state
    assert after.phase == "fight"
    expected = melee(Fighter(BP(0, 5)), Fighter(BP(0, 0), support=1))  # 5 against 0 + 2
    assert game.chance_outcomes(after) == [(("fight", name), p) for name, p in expected.outcomes()]
    assert expected.outcomes() == [("close-win", 1)]


def test_shot_outcomes_agree_with_volley_and_breath_range() -> None:
    from pnpgen.games.dungeon_war.odds import shot_outcomes, volley
    two = [Fighter(BP(2, 5))] * 2
    joint = shot_outcomes(BP(2, 5), (), two, [1, 1], [False, False])
    assert {tuple(s == "hit" for s in k): p for k, p in joint.items()} == volley(BP(2, 5), (), two)
    assert sum(joint.values()) == 1
    reach = shot_outcomes(BP(0, 99), (), [Fighter(BP(0, 0))], [4], [False], range_dice=1)
    assert reach[("hit",)] == F(3, 6)  # a 1D range reaches 4 squares on 4, 5 or 6


def test_equipment_dresses_the_knight(game) -> None:  # type: ignore[no-untyped-def]
    rules = game
    state = rules.initial_state(2)
    war = [c.id for c in rules.cfg.war_cards]
    gear = (("armour", war.index("plate")), ("sword", war.index("flame-tongue")))
    state = state._replace(equip=(gear, ()))
    knight = rules.kind(state, 0, "knight")
    assert knight.bp == BP(1, 11) and knight.attack == frozenset({"fire"}) and knight.cost == 5
    assert rules.kind(state, 1, "knight").bp == BP(0, 5)


ODDS_CASES = [
    ("1D+20 vs 2D+13", ["attacker wins: 181/216", "mutual defeat: 5/72", "attacker loses: 5/54",
                        "attacking King Dragon tires): 59/72"]),
    ("2D+13 vs 1D+20 support:2", ["attacker loses: 215/216", "mutual defeat: 1/216"]),
    ("3D+6 (fire) vs 2D+13", ["attacker wins: 197/1296", "mutual defeat: 5/72", "attacker loses: 1009/1296"]),
    ("shot 2D+5 at 2D+5", ["target 1 falls: 721/1296 (55.63%)"]),
    ("shot 2D+5 at 2D+5, 2D+5", ["target 2 falls: 721/1296", "joint: 1 falls, 2 falls: 6097/15552"]),
    ("2D+5 (fire) vs 1D+7 (fire) resist:fire", ["victory flags decide: the defender wins", "attacker loses: 1 (100%)"]),
]


@pytest.mark.parametrize(("fight", "says"), ODDS_CASES)
def test_referee_odds_through_the_cli(fight: str, says: list[str]) -> None:
    from typer.testing import CliRunner

    from pnpgen.cli import app
    result = CliRunner().invoke(app, ["referee", "dungeon-war", "--odds", fight])
    assert result.exit_code == 0, result.output
    for text in says:
        assert text in result.output


def test_referee_odds_json_and_bad_fight() -> None:
    import json

    from typer.testing import CliRunner

    from pnpgen.cli import app
    result = CliRunner().invoke(app, ["referee", "dungeon-war", "--odds", "1D+20 vs 2D+13", "--json"])
    data = json.loads(result.output)
    assert data["odds"][0] == {"label": "attacker wins", "fraction": "181/216", "percent": round(181 / 216 * 100, 4)}
    from pnpgen.errors import BadMove
    bad = CliRunner().invoke(app, ["referee", "dungeon-war", "--odds", "1D+20 vs"])
    assert isinstance(bad.exception, BadMove)  # the command line turns it into exit 2
