"""Every line `pnpgen referee --legal` prints can be pasted into `--move` as it is: a chance
outcome's 'p=1/6' and a view's '(if …)' are notes, not part of the move. Checked over every
game's legal moves from its example state, and at its first chance node from there."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pnpgen.content.game import load_games
from pnpgen.engine.capabilities import codec
from pnpgen.engine.protocol import CHANCE, TERMINAL, Rules
from pnpgen.games import rules_for_content
from pnpgen.referee import dump_state, judge, legal_move_texts, move_part
from tests.conftest import ROOT, CliRun

RULES: dict[str, Rules[Any, Any]] = {r.id: r for g in load_games(ROOT / "content") for r in rules_for_content(g)}


def first_chance_node(rules: Rules[Any, Any], state: Any, steps: int = 300) -> Any | None:
    """A state where chance moves, reached by seeded random legal moves (None if none soon)."""
    rng = random.Random(1)
    for _ in range(steps):
        player = rules.current_player(state)
        if player == CHANCE:
            return state
        if player == TERMINAL:
            return None
        state, _ = rules.apply(state, rng.choice(rules.legal_moves(state)))
    return None


def pasted_back(rules: Rules[Any, Any], state: Any) -> list[str]:
    """Every listed line judged as it is: each must be legal, as the move it lists."""
    lines = legal_move_texts(rules, state)
    assert lines or rules.current_player(state) == TERMINAL
    for line in lines:
        verdict = judge(rules, state, line)
        assert verdict.legal, (line, verdict.rule, verdict.reason)
        assert verdict.move == move_part(line)
    return lines


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_listed_line_is_a_move(game: str) -> None:
    rules = RULES[game]
    example = codec(rules).example_state()
    lines = pasted_back(rules, example)
    chance = first_chance_node(rules, example)
    if chance is not None:
        listed = pasted_back(rules, chance)
        assert all("  p=" in line for line in listed)
        lines += listed
    assert all(line == move_part(line) or "  p=" in line for line in lines)


def test_chance_lines_are_listed_and_pasted_on_the_cli(tmp_path: Path, run_pnpgen: CliRun) -> None:
    """The issue's case: a chance outcome listed as 'mult 0 0  p=1/6' pasted as it is."""
    chance = [(g, s) for g in sorted(RULES) if (s := first_chance_node(RULES[g], codec(RULES[g]).example_state()))]
    assert chance  # some game rolls dice from its example state
    game, state = chance[0]
    path = tmp_path / "state.yaml"
    path.write_text(dump_state(RULES[game], state), encoding="utf-8")
    code, out, err = run_pnpgen("referee", game, "--state", str(path), "--legal")
    assert code == 0 and err == ""
    line = out.splitlines()[0]
    assert "  p=" in line
    code, out, err = run_pnpgen("referee", game, "--state", str(path), "--move", line)
    assert code == 0 and err == "" and f"LEGAL {move_part(line)}" in out


def test_move_part_drops_only_the_notes() -> None:
    assert move_part("mult 0 0  p=1/6") == "mult 0 0"
    assert move_part("draw  p=0.25") == "draw"
    assert move_part("ambush pitfall  (if seat 2 holds a pitfall)") == "ambush pitfall"
    assert move_part("score 4-6") == "score 4-6"


def test_lines_listed_from_a_view_are_moves() -> None:
    """A view's lines ('… (if seat 2 holds …)') judged from the same view: never 'cannot
    read move', and never illegal (legal, or legal only if the fact holds)."""
    from pnpgen.referee import judge_position, load_position

    rules = RULES["dungeon-war"]
    noted = 0
    for path in sorted((ROOT / "tests" / "referee" / "dungeon-war").glob("view-*.yaml")):
        position = load_position(rules, path)
        for line in legal_move_texts(rules, position.state, position):
            if line.startswith("("):  # "(seat 2 is to move: …)": a note, not a move
                continue
            noted += line != move_part(line)
            assert judge_position(rules, position, line).legal is not False, (path.name, line)
    assert noted  # some view listed a move with its '(if …)'
