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


SIM_TRIALS = 20_000  # per fight: a 99.9% interval about ±0.012 wide at worst (p = 1/2)


def _roll(bp: BP, sides: int, rng: random.Random) -> int:
    """A BP rolled as the table does: `dice` dice of `sides` faces, one at a time, plus the constant."""
    return sum(rng.randint(1, sides) for _ in range(bp.dice)) + bp.plus


def _simulated(game, fight: str, rng: random.Random) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Seeded dice for one of the digest's fights, with the rules applied by hand (digest §6):
    support adds its BP per friend, the higher total wins, equal totals defeat both (melee) or
    hit (shots), a winning margin of at most the fatigue gap tires a King Dragon. The pieces,
    cards, die, support and gap come from the content; odds.py is not used."""
    cfg, sides = game.cfg, game.cfg.die
    king, golem = cfg.pieces["king"].bp, cfg.pieces["golem"].bp
    tongue = next(c for c in cfg.war_cards if c.id == "flame-tongue").bp
    magician = cfg.pieces["magician"].bp + tongue + tongue + tongue
    sides_of = {"king-golem": (king, golem, 0), "golem-king2": (golem, king, 2), "magician-golem": (magician, golem, 0)}
    counts = {"win": 0, "draw": 0, "loss": 0, "close-win": 0, "hit": 0}
    for _ in range(SIM_TRIALS):
        if fight == "shot":
            fire = cfg.slimes["fire"].bp
            counts["hit"] += _roll(fire, sides, rng) >= _roll(fire, sides, rng)
            continue
        a_bp, d_bp, friends = sides_of[fight]
        a, d = _roll(a_bp, sides, rng), _roll(d_bp, sides, rng) + cfg.support * friends
        result = "win" if a > d else "draw" if a == d else "loss"
        counts[result] += 1
        counts["close-win"] += 0 < a - d <= cfg.fatigue_gap
    return counts


SIM_CASES = [  # the digest's exact figures (DUNGEON-WAR.md §6)
    ("king-golem", {"win": F(181, 216), "draw": F(5, 72), "loss": F(5, 54), "close-win": F(59, 72)}),
    ("golem-king2", {"loss": F(215, 216), "draw": F(1, 216), "win": F(0)}),
    ("magician-golem", {"win": F(197, 1296), "draw": F(5, 72), "loss": F(1009, 1296)}),
    ("shot", {"hit": F(721, 1296)}),
]


@pytest.mark.parametrize(("fight", "exact"), SIM_CASES, ids=[c[0] for c in SIM_CASES])
def test_digest_odds_match_seeded_dice(game, fight: str, exact: dict[str, Fraction]) -> None:  # type: ignore[no-untyped-def]
    """Every exact figure of the digest lies in the 99.9% Wilson interval of 20,000 seeded
    fights or shots rolled die by die, and the interval is narrow enough to mean something."""
    counts = _simulated(game, fight, random.Random(f"dungeon-war odds {fight}"))
    for name, p in exact.items():
        low, high = wilson_interval(counts[name], SIM_TRIALS, z=3.29)  # 99.9%
        assert high - low < 0.025, (fight, name, low, high)
        assert low <= p <= high, (fight, name, float(p), counts[name] / SIM_TRIALS)
    # and the calculator gives the same exact figures for the same fights
    cfg = game.cfg
    if fight == "king-golem":
        odds = game.melee_odds(Fighter(cfg.pieces["king"].bp), Fighter(cfg.pieces["golem"].bp))
        assert (odds.win, odds.draw, odds.loss, odds.close_win) == tuple(exact[k] for k in ("win", "draw", "loss",
                                                                                           "close-win"))


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
    ("king vs golem", ["attacker wins: 181/216", "attacking King Dragon tires): 59/72"]),
    ("golem vs king support:2", ["attacker loses: 215/216"]),
    ("magician+flame-tongue+flame-tongue+flame-tongue vs golem", ["attacker wins: 197/1296"]),
    ("shot 2D+5 at fire-slime", ["target 1 falls: 721/1296"]),
    # crystals and fatigue: (2 - 1) x 2 BP, so 1D+22 against 2D+13
    ("king crystals:2 fatigue:1 vs golem", ["attacker wins: 103/108", "mutual defeat: 1/36"]),
    ("1D+22 vs 2D+13", ["attacker wins: 103/108", "mutual defeat: 1/36"]),
    # the knight's dash (-5 BP) with a flame tongue: 1D+5 against a bare knight's 5
    ("knight+flame-tongue dash vs knight", ["attacker wins: 1/2 (50.00%)", "mutual defeat: 1/6"]),
    ("knight+flame-tongue dash vs fire-slime", ["victory flags decide: the defender wins"]),
    ("2D+5 (fire) vs 1D+7 (fire) resist:fire", ["victory flags decide: the defender wins", "attacker loses: 1 (100%)"]),
]


BAD_ODDS = [("golem crystals:1 vs king", "name the King Dragon"), ("golem+plate vs king", "wears no cards"),
            ("wyvern vs king", "no piece 'wyvern'"), ("knight+excalibur vs king", "no war card 'excalibur'")]


@pytest.mark.parametrize(("fight", "says"), BAD_ODDS)
def test_referee_odds_rejects_bad_pieces(fight: str, says: str) -> None:
    from typer.testing import CliRunner

    from pnpgen.cli import app
    from pnpgen.errors import BadMove
    result = CliRunner().invoke(app, ["referee", "dungeon-war", "--odds", fight])
    assert isinstance(result.exception, BadMove) and says in str(result.exception)  # exit 2 at the command line


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
