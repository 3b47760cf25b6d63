"""The Dice Road Race stage race: standings arithmetic, errors, CLI and simulation."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pnpgen.cli import app, main
from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.protocol import CHANCE, TERMINAL
from pnpgen.engine.simulate import simulate
from pnpgen.errors import ImpossibleState, PnpgenError
from pnpgen.examples import check_examples, load_examples, replay
from pnpgen.games import find_rules
from pnpgen.games.dice_road_race import StageRace
from pnpgen.games.dice_road_race.model import roll_outcomes

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "content"
REFEREE = ROOT / "tests" / "referee" / "dice-road-race"


@pytest.fixture(scope="module")
def rules() -> StageRace:
    found = find_rules(CONTENT, "dice-road-race")
    assert isinstance(found, StageRace)
    return found


def race(rules: StageRace, text: str, tmp_path: Path, name: str = "race.yaml") -> Any:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return rules.from_data(load_yaml(path))


def report(rules: StageRace, text: str, tmp_path: Path) -> dict[str, Any]:
    return rules.to_data(race(rules, text, tmp_path))["report"]


def table(standings: list[dict[str, Any]]) -> list[tuple[int, str, int, int]]:
    return [(s["rank"], s["player"], s["total"], s["gap"]) for s in standings]


SOURCE_RACE = """\
players: [P1, P2, P3, P4]
stages:
  - stage: 1
    winners_turn: {turn: P1, finished: [P3, P1]}
    extra_round: [P2]
    not_finished: [P4]
  - stage: 2
    winners_turn: {turn: P2, finished: [P2]}
    not_finished: [P1, P3, P4]
"""


# --- the source's worked examples -----------------------------------------------------


def test_all_six_source_examples_replay(rules: StageRace) -> None:
    results = check_examples(rules.content, [rules])
    assert [r.example for r in results] == [
        "ex1-simultaneous-finish",
        "ex2-extra-round-finish",
        "ex3-not-finished-and-standings",
        "ex4-solo-winner-stage-2",
        "ex5-time-trial-start-order",
        "ex6-time-trial-stage-time",
        "ex7-retire-and-recovery",  # the book's own: retiring and recovery, after example 6
    ]
    assert all(r.ok for r in results), [r.problems for r in results]


def test_a_wrong_expectation_in_an_example_is_reported(rules: StageRace) -> None:
    example = copy.deepcopy(load_examples(rules.content)[3])
    example["expect"]["state"]["report"]["stages"][1]["standings"][1]["gap"] = 13
    assert replay(rules, example) == [
        "state.report.stages[1].standings[1].gap: expected 13, engine gives 12"
    ]


def test_examples_1_to_3_stage_one(rules: StageRace, tmp_path: Path) -> None:
    stage = report(rules, SOURCE_RACE, tmp_path)["stages"][0]
    got = {p: (r["place"], r["added"], r["bonus"], r["stage_time"]) for p, r in stage["riders"].items()}
    # simultaneous finishers are placed clockwise from the turn player, whatever order is given
    assert got == {"P1": (1, 0, -10, -10), "P3": (2, 0, -5, -5), "P2": (3, 10, -2, 8), "P4": (None, 20, 0, 20)}
    assert table(stage["standings"]) == [(1, "P1", -10, 0), (2, "P3", -5, 5), (3, "P2", 8, 18), (4, "P4", 20, 30)]
    assert stage["leader_colour"] == "P1"
    assert "time_trial" not in stage  # stage 2 is not a time trial


def test_example_4_and_5_standings_and_time_trial_order(rules: StageRace, tmp_path: Path) -> None:
    stage = report(rules, SOURCE_RACE, tmp_path)["stages"][1]
    assert table(stage["standings"]) == [(1, "P2", -2, 0), (2, "P1", 10, 12), (3, "P3", 15, 17), (4, "P4", 40, 42)]
    assert stage["leader_colour"] == "P2"
    assert stage["time_trial"] == {
        "stage": 3,
        "order": [
            {"player": "P4", "start_round": 1},
            {"player": "P3", "start_round": 3},
            {"player": "P1", "start_round": 5},
            {"player": "P2", "start_round": 7},
        ],
    }


def test_example_6_time_trial_time_from_last_roll_and_cost_left(rules: StageRace, tmp_path: Path) -> None:
    text = SOURCE_RACE + """\
  - stage: 3
    time_trial:
      P1: {rolls: 5, last_roll: 7, cost_left: 4}
      P2: {rolls: 4, leftover: 0}
      P3: {rolls: 5, leftover: 3}
      P4: {rolls: 6, leftover: 6}
"""
    stage = report(rules, text, tmp_path)["stages"][2]
    riders = stage["riders"]
    assert riders["P1"]["stage_time"] == 47 and riders["P1"]["bonus"] == 0
    assert riders["P1"]["why"] == "time trial: 5 rolls × 10 − 3 pips left over = 47"
    # P1 and P3 both take 47 s: they share 2nd place; P2 (40 s) wins the stage, no bonus
    assert {p: r["place"] for p, r in riders.items()} == {"P1": 2, "P2": 1, "P3": 2, "P4": 4}
    assert table(stage["standings"]) == [(1, "P2", 38, 0), (2, "P1", 57, 19), (3, "P3", 62, 24), (4, "P4", 94, 56)]


# --- ties, the final classification, retiring, recovery ------------------------------

FIVE_STAGES = """\
players: [Ann, Ben, Cy]
stages:
  - {stage: 1, winners_turn: {turn: Ann, finished: [Ann]}, extra_round: [Cy], not_finished: [Ben]}
  - {stage: 2, winners_turn: {turn: Ben, finished: [Ben]}, extra_round: [Ann], not_finished: [Cy]}
  - stage: 3
    time_trial: {Ann: {rolls: 3, leftover: 0}, Ben: {rolls: 3, leftover: 0}, Cy: {rolls: 3, leftover: 0}}
  - {stage: 4, winners_turn: {turn: Cy, finished: [Cy]}, extra_round: [Ben, Ann]}
"""


def test_final_tie_broken_by_final_stage_finishing_order(rules: StageRace, tmp_path: Path) -> None:
    # after stage 4: Ann -10+5+30+8 = 33, Ben 20+(-10)+30+5 = 45, Cy 5+20+30-10 = 45
    text = FIVE_STAGES + "  - {stage: 5, winners_turn: {turn: Ann, finished: [Ann]}, extra_round: [Cy, Ben]}\n"
    final = report(rules, text, tmp_path)["final"]
    # Ann 23; Cy 45+10-5 = 50, Ben 45+10-2 = 53
    assert table(final["classification"]) == [(1, "Ann", 23, 0), (2, "Cy", 50, 27), (3, "Ben", 53, 30)]
    assert final["winner"] == "Ann" and final["play_continues"] == []
    text = FIVE_STAGES + "  - {stage: 5, winners_turn: {turn: Ben, finished: [Ben, Cy]}, not_finished: [Ann]}\n"
    # Ben 45-10 = 35, Cy 45-5 = 40, Ann 33+20 = 53
    final = report(rules, text, tmp_path)["final"]
    assert table(final["classification"])[0] == (1, "Ben", 35, 0)


def level_race() -> str:
    # Ann and Cy take the same times throughout and neither finishes stage 5
    return """\
players: [Ann, Ben, Cy]
stages:
  - {stage: 1, winners_turn: {turn: Ben, finished: [Ben]}, not_finished: [Ann, Cy]}
  - {stage: 2, winners_turn: {turn: Ben, finished: [Ben]}, not_finished: [Ann, Cy]}
  - stage: 3
    time_trial: {Ann: {rolls: 3, leftover: 0}, Ben: {rolls: 3, leftover: 0}, Cy: {rolls: 3, leftover: 0}}
  - {stage: 4, winners_turn: {turn: Ben, finished: [Ben]}, not_finished: [Ann, Cy]}
  - stage: 5
    winners_turn: {turn: Ben, finished: [Ben]}
    not_finished: [Ann, Cy]
"""


def test_stage_5_tie_means_play_continues(rules: StageRace, tmp_path: Path) -> None:
    state = race(rules, level_race(), tmp_path)
    final = rules.to_data(state)["report"]["final"]
    assert table(final["classification"]) == [(1, "Ben", -10, 0), (2, "Ann", 110, 120), (2, "Cy", 110, 120)]
    assert final["play_continues"] == [["Ann", "Cy"]]
    assert final["winner"] == "Ben"
    text = rules.describe(state)
    assert text is not None
    assert "Stage 5 tie: Ann and Cy are level on time" in text
    assert "play continues until their finishing order is settled" in text
    settled = level_race() + "    continued: [Cy, Ann]\n"
    final = report(rules, settled, tmp_path)["final"]
    assert table(final["classification"]) == [(1, "Ben", -10, 0), (2, "Cy", 110, 120), (3, "Ann", 110, 120)]
    assert final["play_continues"] == []


def test_retiring_loses_total_denies_bonus_and_leads_time_trial(rules: StageRace, tmp_path: Path) -> None:
    text = """\
players: [Ann, Ben, Cy, Dee]
stages:
  - stage: 1
    winners_turn: {turn: Ann, finished: [Ann]}
    extra_round: [Ben, Cy]
    not_finished: [Dee]
    dice: {Ann: 4, Ben: 2, Cy: 1, Dee: 3}
  - stage: 2
    winners_turn: {turn: Dee, finished: [Dee]}
    extra_round: [Cy]
    not_finished: [Ann]
    retired: [Ben, Dee]
    dice: {Ann: 3, Cy: 2}
"""
    rep = report(rules, text, tmp_path)
    one, two = rep["stages"]
    assert one["dice_after_recovery"] == {"Ann": 4, "Ben": 3, "Cy": 2, "Dee": 4}  # +1, never above 4
    # Ben retired mid-stage (no result); Dee won the stage after... and retired: the win denies Ann/Cy
    assert two["riders"]["Ben"] == {"place": None, "added": 0, "bonus": 0, "stage_time": 0, "counts": False,
                                    "why": "retired during the stage"}
    assert two["riders"]["Dee"]["bonus"] == -10 and two["riders"]["Dee"]["counts"] is False
    assert two["riders"]["Cy"]["place"] == 2 and two["riders"]["Cy"]["bonus"] == -5
    assert two["retired"] == ["Ben", "Dee"]
    # Ann -10+20 = 10, Cy 10-2+10-5 = 13
    assert table(two["standings"]) == [(1, "Ann", 10, 0), (2, "Cy", 13, 3)]
    assert two["dice_after_recovery"] == {"Ann": 4, "Ben": 3, "Cy": 3, "Dee": 3}
    assert [o["player"] for o in two["time_trial"]["order"]] == ["Ben", "Dee", "Cy", "Ann"]
    assert [o["start_round"] for o in two["time_trial"]["order"]] == [1, 3, 5, 7]


def test_leader_colour_only_up_to_five_players(rules: StageRace, tmp_path: Path) -> None:
    six = "players: [A, B, C, D, E, F]\nstages:\n  - stage: 1\n    winners_turn: {turn: A, finished: [A]}\n" \
          "    not_finished: [B, C, D, E, F]\n"
    assert report(rules, six, tmp_path)["stages"][0]["leader_colour"] is None
    described = rules.describe(race(rules, six, tmp_path))
    assert described is not None and "Leader colour: not used with more than 5 riders" in described
    five = six.replace("A, B, C, D, E, F]", "A, B, C, D, E]").replace("E, F]", "E]")
    assert report(rules, five, tmp_path)["stages"][0]["leader_colour"] == "A"


def test_referee_report_text(rules: StageRace, tmp_path: Path) -> None:
    text = rules.describe(race(rules, SOURCE_RACE, tmp_path))
    assert text is not None
    assert "  P2         3  +10 s   -2 s   +8 s  finished in the extra round; 3rd place, bonus -2" in text
    assert "      3.  P3      15 s  +17 s" in text
    assert "Leader colour in stage 3: P2" in text
    assert "Time trial, stage 3, start order: P4 (round 1), P3 (round 3), P1 (round 5), P2 (round 7)" in text
    assert "Race in progress: stage 3 of 5 is next." in text


# --- bad race files ------------------------------------------------------------------

ERRORS = [
    ("players: [P1, P2, P1]\nstages: []\n", "race.yaml:1:19: duplicate player 'P1'"),
    ("players: [P1]\nstages: []\n", "race.yaml:1:1: a stage race takes 2–6 players, the race file has 1"),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winners_turn: {turn: P1, finished: [P1]}\n"
        "    not_finished: [P1, P2]\n",
        "race.yaml:5:20: P1 both finished and did not finish in stage 1",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winners_turn: {turn: P1, finished: [P1]}\n"
        "    not_finished: [P3]\n",
        "race.yaml:5:20: unknown player 'P3'; players: P1, P2",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winners_turn: {turn: P1, finished: [P1]}\n"
        "    not_finished: [P2]\n  - stage: 3\n    winners_turn: {turn: P1, finished: [P1]}\n"
        "    not_finished: [P2]\n",
        "race.yaml:6:12: stage 2 is missing: list the stages in order from 1 (found stage 3)",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winners_turn: {turn: P1, finished: [P1]}\n",
        "race.yaml:3:5: stage 1: no result for P2; list every rider under winners_turn, extra_round, "
        "not_finished or retired",
    ),
    (
        "players: [P1, P2]\nstages:\n"
        "  - {stage: 1, winners_turn: {turn: P1, finished: [P1]}, not_finished: [P2]}\n"
        "  - {stage: 2, winners_turn: {turn: P1, finished: [P1]}, not_finished: [P2]}\n"
        "  - stage: 3\n    retired: [P2]\n",
        "race.yaml:5:5: stage 3 is a time trial: time_trial with every rider's roll count and leftover "
        "pips is missing",
    ),
    (
        "players: [P1, P2]\nstages:\n"
        "  - {stage: 1, winners_turn: {turn: P1, finished: [P1]}, not_finished: [P2]}\n"
        "  - {stage: 2, winners_turn: {turn: P1, finished: [P1]}, not_finished: [P2]}\n"
        "  - stage: 3\n    time_trial:\n      P1: {rolls: 4, leftover: 1}\n",
        "race.yaml:6:5: stage 3 (time trial): no roll count for P2",
    ),
    (
        "players: [P1, P2]\nstages:\n"
        "  - {stage: 1, winners_turn: {turn: P1, finished: [P1]}, not_finished: [P2]}\n"
        "  - {stage: 2, winners_turn: {turn: P1, finished: [P1]}, not_finished: [P2]}\n"
        "  - stage: 3\n    time_trial:\n      P1: {rolls: 4, last_roll: 3, cost_left: 4}\n"
        "      P2: {rolls: 4, leftover: 1}\n",
        "race.yaml:7:22: stage 3 (time trial), P1: a last roll of 3 does not reach the finish (cost left 4)",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    type: mountain\n"
        "    winners_turn: {turn: P1, finished: [P1]}\n    not_finished: [P2]\n",
        "race.yaml:4:11: stage 1 is flat in the course table, the race file says mountain",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winners_turn: {turn: P1, finished: [P1]}\n"
        "    not_finished: [P2]\n    continued: [P2]\n",
        "race.yaml:6:5: stage 1: continued is only for a stage played on until the order is settled",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winners_turn: {turn: P1, finished: [P1]}\n"
        "    not_finished: [P2]\n    dice: {P1: 5, P2: 3}\n",
        "race.yaml:6:16: stage 1: P1 holds 5 dice; a rider holds 0–4",
    ),
    (
        "players: [P1, P2]\nstages:\n  - stage: 1\n    winner_turn: {turn: P1, finished: [P1]}\n",
        "race.yaml:4:5: unknown key 'winner_turn' (did you mean 'winners_turn'?)",
    ),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_bad_race_files_are_named_errors(rules: StageRace, tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(PnpgenError) as info:
        race(rules, text, tmp_path)
    assert str(info.value) == f"{tmp_path}/{message}"


def test_bad_race_file_through_the_cli_exits_2_on_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = ERRORS[2]
    path = tmp_path / "race.yaml"
    path.write_text(text, encoding="utf-8")
    args = ["referee", "dice-road-race", "--state", str(path), "--content", str(CONTENT)]
    result = CliRunner().invoke(app, args)
    assert isinstance(result.exception, ImpossibleState)
    assert result.exception.exit_code == 2 and str(result.exception) == f"{tmp_path}/{message}"
    monkeypatch.setattr(sys, "argv", ["pnpgen", *args])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2
    assert capsys.readouterr().err.strip() == f"error: {tmp_path}/{message}"


def test_cli_referee_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "race.yaml"
    path.write_text(SOURCE_RACE, encoding="utf-8")
    args = ["referee", "dice-road-race", "--state", str(path), "--content", str(CONTENT)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Leader colour in stage 3: P2" in result.output
    result = CliRunner().invoke(app, [*args, "--json"])
    data = json.loads(result.output)["state"]["report"]
    assert table(data["stages"][1]["standings"])[1] == (2, "P1", 10, 12)


def test_referee_state_files_in_tests_folder(rules: StageRace) -> None:
    for path in sorted(REFEREE.glob("*.yaml")):
        expected = yaml.safe_load(path.with_suffix(".expected").read_text(encoding="utf-8"))
        final = rules.to_data(rules.from_data(load_yaml(path)))["report"]["final"]
        assert final == expected, path.name


# --- the playable model ----------------------------------------------------------------


def test_roll_outcomes_are_exact(rules: StageRace) -> None:
    for dice in range(1, 5):
        outcomes = roll_outcomes(dice)
        assert sum(p for _, p in outcomes) == 1
    assert len(roll_outcomes(4)) == 126
    assert dict(roll_outcomes(2))[(6, 1)] * 36 == 2


def test_a_turn_in_the_model(rules: StageRace) -> None:

    state = rules.initial_state(3)
    assert rules.current_player(state) == 0
    assert [rules.format_move(m) for m in rules.legal_moves(state)] == ["roll", "retire"]
    state, _ = rules.apply(state, rules.parse_move("roll"))
    assert rules.current_player(state) == CHANCE
    state, events = rules.apply(state, rules.parse_move("dice 6 1 5 1"))
    assert state.live.cell[0] == 5  # flat cells 2,3,2,3…: 13 pips pay 2+3+2+3+2 = 12
    assert state.live.dice[0] == 2  # two dice showing 1 are excluded
    assert [e.kind for e in events] == ["roll", "excluded"]
    assert rules.current_player(state) == 1


def test_simulation_is_deterministic_and_labelled_stand_in(rules: StageRace) -> None:
    first = simulate(rules, 6, 11, ["rider", "rider", "retirer-20"]).to_data()
    again = simulate(rules, 6, 11, ["rider", "rider", "retirer-20"]).to_data()
    assert first == again
    assert first["ends"] == {"stages": 6}
    assert all(key.startswith("stand-in model: ") for key in first["stats"])
    assert "stand-in" in rules.end_conditions()["stages"]
    assert first["stats"]["stand-in model: retirements per race"] > 0


@pytest.mark.parametrize("players", [2, 6])
def test_whole_races_end_for_two_and_six(rules: StageRace, players: int) -> None:
    summary = simulate(rules, 3, 5, ["rider"] * players, check_invariants=True)
    assert summary.problems == []
    assert summary.ends == {"stages": 3}
    assert sum(summary.seat_wins) == 3


def test_simulated_race_file_round_trips(rules: StageRace) -> None:
    import random

    from pnpgen.engine.simulate import play_game

    record = play_game(rules, ["rider"] * 4, 99)
    assert record.outcome.end == "stages"
    rng = random.Random(99)
    state = rules.initial_state(4)
    while rules.current_player(state) != TERMINAL:
        chance = rules.current_player(state) == CHANCE
        move = rules.sample_chance(state, rng) if chance else rules.legal_moves(state)[0]
        state, _ = rules.apply(state, move)
    data = rules.to_data(state)
    assert len(data["stages"]) == 5
    again = rules.from_data(json.loads(json.dumps(data)))
    assert rules.to_data(again) == data


def test_fast_path_matches_checked_path_at_every_table_size(rules: StageRace) -> None:
    """apply_unchecked gives apply's state and event kinds at every step of seeded races for
    2–6 riders, through every phase (extra round, time trial, play-on)."""
    import random

    from pnpgen.engine.bots import make_bot
    from pnpgen.engine.simulate import derive_seed
    from pnpgen.games.dice_road_race.model import PHASES

    phases: set[str] = set()
    for players in range(2, 7):
        for game, bot_name in enumerate(["rider", "uniform"] * 6):
            bot = make_bot(rules, bot_name)
            rng = random.Random(derive_seed(players, game))
            state = rules.initial_state(players)
            while (player := rules.current_player(state)) != TERMINAL:
                assert state.live is not None
                phases.add(state.live.phase)
                move = rules.sample_chance(state, rng) if player == CHANCE else bot(state, rng)
                checked, events = rules.apply(state, move)
                fast, kinds = rules.apply_unchecked(state, move)
                assert fast == checked, f"{players} riders, game {game}: {move!r} from {state!r}"
                assert kinds == tuple(event.kind for event in events)
                state = checked
    assert phases == set(PHASES)


def test_model_time_trial_starts_every_other_round(rules: StageRace, tmp_path: Path) -> None:
    state = race(rules, SOURCE_RACE, tmp_path)  # stage 3 is next: the time trial
    names = state.race.players
    assert rules.model_cells(3) == (3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3)
    seen: list[tuple[int, str]] = []
    for roll in ["dice 2 2 2 2", "dice 1 1 1 1", "dice 1", "dice 3 3 2 2"]:
        assert state.live is not None
        seen.append((state.live.tt_round, names[rules.current_player(state)]))
        state, _ = rules.apply(state, rules.parse_move("roll"))
        state, _ = rules.apply(state, rules.parse_move(roll))
    assert seen == [(1, "P4"), (2, "P4"), (3, "P4"), (3, "P3")]
    live = state.live
    assert live is not None
    # P4: 8 pips pay 3+2+3 (cell 3); 4 pips pay 2 (cell 4), four 1s leave one die; 1 pip pays nothing
    assert (live.cell[3], live.dice[3], live.rolls[3]) == (4, 1, 3)
    # P3's 10 pips would reach cell 4, where P4 stands: no stopping there, so P3 stops on cell 3
    assert live.cell[2] == 3


def test_sample_race_file_final_classification(rules: StageRace) -> None:
    data = rules.to_data(rules.example_state())["report"]
    # P4 retired after the time trial: the stage-4 win (−10 s) counts for nothing but pushes P1 to 2nd
    assert data["stages"][2]["retired"] == ["P4"]
    assert data["stages"][2]["dice_after_recovery"] == {"P1": 4, "P2": 3, "P3": 4, "P4": 3}
    assert data["stages"][3]["riders"]["P1"]["bonus"] == -5
    assert table(data["final"]["classification"]) == [(1, "P3", 51, 0), (2, "P2", 72, 21), (3, "P1", 75, 24)]
    assert data["final"]["winner"] == "P3"


def test_time_trial_where_everyone_retired_needs_no_rides(rules: StageRace, tmp_path: Path) -> None:
    text = SOURCE_RACE + "  - {stage: 3, retired: [P3, P1, P2, P4]}\n"
    stage = report(rules, text, tmp_path)["stages"][2]
    assert stage["standings"] == [] and stage["retired"] == ["P3", "P1", "P2", "P4"]


def test_rulebook_tables_come_from_the_data(rules: StageRace) -> None:
    course = rules.rulebook_table("course", "en")
    assert course[0] == ["Stage", "Type", "Boards", "Total cost", "Note"]
    assert course[3] == ["3", "individual time trial", "1 (white), 2 (black)", "28", "no bonus time"]
    assert [row[3] for row in course[1:]] == ["45", "48", "28", "47", "50"]
    # no space between a number and its unit in Japanese
    assert rules.rulebook_table("bonus", "ja")[1:] == [["1位", "−10秒"], ["2位", "−5秒"], ["3位", "−2秒"]]
    # both standings tables of the source, recomputed from the worked examples' race files
    assert rules.rulebook_table("standings/ex3-not-finished-and-standings/1", "ja")[1:] == [
        ["1位", "P1", "-10秒", "-"], ["2位", "P3", "-5秒", "+5秒"],
        ["3位", "P2", "8秒", "+18秒"], ["4位", "P4", "20秒", "+30秒"],
    ]
    assert rules.rulebook_table("standings/ex4-solo-winner-stage-2/2", "en")[4] == ["4", "P4", "40 s", "+42 s"]
    with pytest.raises(KeyError):
        rules.rulebook_table("standings/ex4-solo-winner-stage-2/3", "en")


def test_rulebook_pdf_labels_the_stand_in_model(tmp_path: Path) -> None:
    from pypdf import PdfReader

    result = CliRunner().invoke(app, ["build", "dice-road-race", "--out", str(tmp_path), "-q",
                                      "--content", str(CONTENT), "--lang", "en"])
    assert result.exit_code == 0, result.output

    def text_of(name: str) -> str:
        pages = PdfReader(tmp_path / "dice-road-race" / name).pages
        return " ".join(" ".join(page.extract_text() for page in pages).split())

    text = text_of("rulebook-en.pdf")
    assert "stand-in race model" in text_of("companion-en.pdf")  # simulation figures: the companion's
    assert "stand-in race model" not in text
    assert "5 × 10 − (7 − 4) = 47 s" in text
    assert "+42 s" in text and "Quick reference: times and the course" in text


def test_agreed_end_gives_a_final_classification_early(rules: StageRace, tmp_path: Path) -> None:
    state = race(rules, SOURCE_RACE + "agreed_end: true\n", tmp_path)
    assert rules.current_player(state) == TERMINAL
    final = rules.to_data(state)["report"]["final"]
    assert final["complete"] is True and final["agreed_end"] is True and final["winner"] == "P2"
    assert rules.outcome(state).end == "agreed" and rules.outcome(state).winners == (1,)
    assert "The riders agreed to end the race after stage 2." in (rules.describe(state) or "")
    with pytest.raises(ImpossibleState, match="race.yaml:3:1: agreed_end: the race can end by agreement only"):
        race(rules, "players: [A, B]\nstages: []\nagreed_end: true\n", tmp_path)


def test_race_report_from_an_earlier_report_equals_the_whole_computation(rules: StageRace) -> None:
    """compute(cfg, race, prior) computes only the stages after `prior`; seeded random races
    (retirements, time trial, play-on) give the same report as computing every stage."""
    import dataclasses
    import random

    from pnpgen.games.dice_road_race.race import Race, compute

    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = rules.initial_state(2 + seed % 3)
        while rules.current_player(state) != TERMINAL:
            player = rules.current_player(state)
            move = rules.sample_chance(state, rng) if player == CHANCE else rng.choice(rules.legal_moves(state))
            state = rules.apply(state, move)[0]
        stages = state.race.stages
        for cut in range(1, len(stages)):
            prior = compute(rules.cfg, Race(state.race.players, stages[:cut]))
            whole, reused = compute(rules.cfg, state.race), compute(rules.cfg, state.race, prior)
            assert dataclasses.asdict(reused) == dataclasses.asdict(whole)
            compared += 1
    assert compared >= 100
