"""Dungeon War engine: referee scenarios through the real CLI (tests/referee/dungeon-war),
checked playthroughs at 2, 3 and 4 players with every invariant, hidden hands, notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen.cli import app
from pnpgen.content.game import load_games
from pnpgen.engine.protocol import CHANCE
from pnpgen.errors import ImpossibleState
from pnpgen.games import rules_for_content
from pnpgen.verify import Verification, playthrough, protocol_checks

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
SCENARIOS = sorted((ROOT / "tests" / "referee" / "dungeon-war").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    (content,) = load_games(CONTENT, ["dungeon-war"])
    (rules,) = rules_for_content(content)
    return rules


def test_there_are_at_least_40_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_verdict(path: Path) -> None:
    expected_path = path.with_suffix(".expected")
    args = ["referee", "dungeon-war", "--state", str(path), "--content", str(CONTENT)]
    if not expected_path.exists():  # an impossible state: exit 2 naming the file and line
        result = CliRunner().invoke(app, args)
        assert isinstance(result.exception, ImpossibleState), result.output
        assert str(result.exception).startswith(f"{path}:")
        return
    expected = yaml.safe_load(expected_path.read_text(encoding="utf-8"))
    args += ["--move", str(expected["move"])]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == expected["exit"], result.output
    said = " ".join(result.output.split())
    for text in expected["says"]:
        assert " ".join(text.split()) in said, said
    if "rule" in expected:
        assert f"rule {expected['rule']} (" in said
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["legal"] is {0: True, 1: False, 4: None}[expected["exit"]]
    assert data["judged"] == ("full state" if "view:" not in path.read_text(encoding="utf-8") else
                              f"view of seat {yaml.safe_load(path.read_text(encoding='utf-8'))['view']}")
    assert data["rule"] == expected.get("rule")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_checked_playthroughs(game, players: int) -> None:  # type: ignore[no-untyped-def]
    """Seeded random games, every step checked by pnpgen.verify (pieces and cards conserved,
    caps, one piece per square, exact chance, notation and state files round-trip); the round
    cap is lowered so the games stay short."""
    game.cfg.round_cap, saved = 3, game.cfg.round_cap
    try:
        result = Verification(game.id, 1)
        for seed in range(2):
            playthrough(game, players, 1000 * players + seed, result)
        assert result.problems == []
        assert sum(result.ends.values()) == 2
    finally:
        game.cfg.round_cap = saved


def test_protocol_checks(game) -> None:  # type: ignore[no-untyped-def]
    assert protocol_checks(game) == []


def test_setup_deals_under_the_crystal_and_box_caps(game) -> None:  # type: ignore[no-untyped-def]
    state = game.initial_state(3)
    assert game.current_player(state) == CHANCE
    outcomes = game.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    names = {game.cfg.layouts[m[1]].id for m, _ in outcomes}
    assert "vault" not in names and "treasure" not in names and "crystal" in names
    crystal = next(m for m, _ in outcomes if game.cfg.layouts[m[1]].id == "crystal")
    state, _ = game.apply(state, crystal)
    assert "crystal" not in {game.cfg.layouts[m[1]].id for m, _ in game.chance_outcomes(state)}


def test_every_card_says_where_it_comes_from(game) -> None:  # type: ignore[no-untyped-def]
    assert sum(card.count for card in game.cfg.war_cards) == 120
    assert sum(layout.count for layout in game.cfg.layouts if not layout.event) == 42
    assert sum(layout.count for layout in game.cfg.layouts if layout.event) == 6
    assert {card.source for card in game.cfg.war_cards} <= {"source", "stand-in", "mixed"}
    assert all(layout.source == "stand-in" for layout in game.cfg.layouts)


RICH = ["path-ambush-first-square", "path-knight-go-ambush", "window-frenzy-spores", "window-at-turn-change",
        "mirror-window", "acid-slime-defender-chooses", "acid-shower-choice", "immortal-revives", "charm-use",
        "summon-reuses-board-piece", "change-one-card", "rockfall-reuses-block"]


@pytest.mark.parametrize("name", RICH)
def test_random_walks_from_rule_rich_states(game, name: str) -> None:  # type: ignore[no-untyped-def]
    """Seeded random walks from states where traps, acid, immortality, brainwashing and paths are in
    play: every step keeps the invariants (pieces and cards conserved - face-down traps and worn
    cards counted among placed cards -, caps, one piece per square), round-trips its state file,
    and every legal move's notation parses back; chance sums to 1."""
    import random

    from pnpgen.engine.protocol import TERMINAL

    data = yaml.safe_load((ROOT / "tests" / "referee" / "dungeon-war" / f"{name}.yaml").read_text(encoding="utf-8"))
    start = game.from_data(data)
    seen_phases: set[str] = set()
    for seed in range(3):
        rng, state = random.Random(seed), start
        for _ in range(120):
            assert game.check(state) == []
            assert game.from_data(json.loads(json.dumps(game.to_data(state)))) == state
            held = sum(len(h) for h in state.hands) + sum(len(g) for g in state.equip)
            assert sum(state.war_deck) + sum(state.war_discard) + held == 120
            seen_phases.add(state.phase)
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcomes = game.chance_outcomes(state)
                assert sum(p for _, p in outcomes) == 1
                move = rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                moves = game.legal_moves(state)
                assert moves
                for m in moves:
                    assert game.parse_move(game.format_move(m)) == m
                move = rng.choice(moves)
            state, _ = game.apply(state, move)
    assert start.phase in seen_phases


def test_dungeon_reverse_when_content_grants_it(game) -> None:  # type: ignore[no-untyped-def]
    """Dungeon Reverse (digest §5): no base piece has it, so a content that gives it to the earth
    slime is simulated; it turns an empty dungeon card 180° (walls move with it), 1 AP."""
    from dataclasses import replace

    from pnpgen.engine.protocol import IllegalMove

    saved = game.cfg.slimes["earth"]
    game.cfg.slimes["earth"] = replace(saved, actions=(*saved.actions, "reverse"))
    try:
        state = game.example_state()._replace(seat=1)  # seat 2's earth slimes on m5 and n5
        move = game.parse_move("m5 reverse 2.4")
        assert game.format_move(move) == "m5 reverse 2.4" and move in game.legal_moves(state)
        after, _ = game.apply(state, move)
        walls = game.dungeon(after).walls
        assert walls[frozenset({(3, 10), (3, 11)})] == "wall"  # was row 1, columns 1|2 (j3|k3)
        assert walls[frozenset({(2, 9), (2, 10)})] == "cracked_wall"
        hall = next(i for i, x in enumerate(game.cfg.layouts) if x.id == "hall")
        assert after.ap == state.ap - 1 and (1, 3, hall, True) in after.cards
        with pytest.raises(IllegalMove) as err:  # the crystal card holds pieces
            game.apply(state, game.parse_move("m5 reverse 3.5"))
        assert err.value.rule == "DW-BUILD"
    finally:
        game.cfg.slimes["earth"] = saved
    assert not any(m[0] == "reverse" for m in game.legal_moves(game.example_state()._replace(seat=1)))


def test_a_worn_card_may_grant_stop(game) -> None:  # type: ignore[no-untyped-def]
    """【ストップ！】 can come from cards (digest §4); no stand-in card grants it, so one is simulated:
    every knight then stops an enemy passing through its square."""
    from dataclasses import replace

    saved = game.cfg.war_cards
    helm = next(i for i, card in enumerate(saved) if card.id == "helm")
    game.cfg.war_cards = tuple(replace(c, effect="stop") if i == helm else c for i, c in enumerate(saved))
    game._dressed.clear()
    try:
        state = game.example_state()
        assert not game.kind(state, 0, "knight").stop
        worn = state._replace(equip=((("helmet", helm),), ()))
        assert game.kind(worn, 0, "knight").stop
        # seat 2's slime may pass seat 1's bare knight on l5, but must stop (and fight) at a Stop! one
        slime = game.kind(worn, 1, "slime")
        occ = game.occupants(worn)
        assert game._entry(state, occ, (4, 11), slime, 1, False) == (True, True, False, "")
        assert game._entry(worn, occ, (4, 11), slime, 1, False) == (True, False, True, "")
    finally:
        game.cfg.war_cards = saved
        game._dressed.clear()
