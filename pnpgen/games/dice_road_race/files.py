"""The Dice Road Race's state files: the race file (race.py reads and writes it) plus,
mid-stage, a `live:` section with the stage in progress; and the invariants it keeps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.schema import Choice, Schema
from pnpgen.content.schema import check as check_schema
from pnpgen.content.yamlpos import load_yaml, where
from pnpgen.errors import ImpossibleState
from pnpgen.games.dice_road_race.model import PHASES, Live, State
from pnpgen.games.dice_road_race.race import Race, race_to_data, read_race, report_to_data

if TYPE_CHECKING:
    from pnpgen.games.dice_road_race.game import StageRace

EXAMPLE_RACE = "race-example.yaml"  # in the game's content folder
LIVE_SCHEMA: Schema = {
    "stage": int,
    "phase": Choice(*PHASES),
    "turn": str,
    "rolling": bool,
    "riders": {"*": {"dice": int, "cell": int, "racing": bool, "rolls?": int, "leftover?": int}},
    "turn_player?": str,
    "winners_turn?": [str],
    "extra_round?": [str],
    "continued?": [str],
    "retired?": [str],
    "queue?": [str],
    "tt_order?": [str],
    "tt_round?": int,
    "tt_finished?": [str],
}


# A custom codec: riders by name, and the standings written beside the race.

STATE_SCHEMA = LIVE_SCHEMA


def to_data(rules: StageRace, state: State) -> dict[str, object]:
    data = race_to_data(state.race)
    if state.live is not None:
        data["live"] = _live_to_data(rules, state.race.players, state.live)
    data["report"] = report_to_data(rules.cfg, rules.report(state))
    return data


def _live_to_data(rules: StageRace, names: tuple[str, ...], live: Live) -> dict[str, object]:
    def named(seats: tuple[int, ...]) -> list[str]:
        return [names[s] for s in seats]

    data: dict[str, object] = {
        "stage": live.stage,
        "phase": live.phase,
        "turn": names[live.turn],
        "rolling": live.rolling,
        "riders": {
            names[s]: {"dice": live.dice[s], "cell": live.cell[s], "racing": live.racing[s],
                       "rolls": live.rolls[s], "leftover": live.leftover[s]}
            for s in range(len(names))
        },
    }
    if live.turn_player is not None:
        data["turn_player"] = names[live.turn_player]
    for key in ("winners_turn", "extra_round", "continued", "retired", "queue", "tt_order", "tt_finished"):
        if getattr(live, key):
            data[key] = named(getattr(live, key))
    if live.tt_round:
        data["tt_round"] = live.tt_round
    return data


def from_data(rules: StageRace, data: Any) -> State:
    race = read_race(data, rules.cfg, rules.min_players, rules.max_players)
    if "live" not in data:
        if len(race.stages) < len(rules.cfg.course) and not race.agreed_end:
            # between stages: the next stage starts with the recovered dice
            report = rules.race_report(race).stages
            dice = (rules.cfg.model.start_dice,) * len(race.players)
            if report and report[-1].dice_after is not None:
                dice = tuple(report[-1].dice_after[s] for s in range(len(race.players)))
            return State(race, rules._start_stage(race, len(race.stages) + 1, dice))
        return State(race, None)
    state = State(race, _live_from_data(rules, race, data["live"], data))
    problems = rules.check(state)
    if problems:
        raise ImpossibleState(problems[0], **where(data, "live"))
    return state


def _live_from_data(rules: StageRace, race: Race, data: Any, parent: Any) -> Live:
    check_schema(data, LIVE_SCHEMA, parent, "live", "live")
    seat = {name: i for i, name in enumerate(race.players)}

    def player(container: Any, key: Any) -> int:
        if container[key] not in seat:
            raise ImpossibleState(f"live: unknown player '{container[key]}'",
                                  **where(container, key, value=True))
        return seat[container[key]]

    def seats(key: str) -> tuple[int, ...]:
        items = data.get(key, [])
        return tuple(player(items, i) for i in range(len(items)))

    if data["stage"] != len(race.stages) + 1:
        raise ImpossibleState(
            f"live: stage {data['stage']} is in progress but {len(race.stages)} stage(s) are recorded",
            **where(data, "stage", value=True),
        )
    riders = data["riders"]
    for name in race.players:
        if name not in riders:
            raise ImpossibleState(f"live: no entry for {name} under riders", **where(data, "riders"))
    for name in riders:
        player({name: name}, name)
    for name in race.players:
        for key, high in (("dice", rules.cfg.max_dice), ("cell", None), ("rolls", None), ("leftover", None)):
            value = riders[name].get(key, 0)
            if value < 0 or (high is not None and value > high):
                limit = f"0–{high}" if high is not None else "0 or more"
                raise ImpossibleState(f"live: {name} {key} is {value}, expected {limit}",
                                      **where(riders[name], key, value=True))
    per = [riders[name] for name in race.players]
    return Live(
        stage=data["stage"],
        phase=data["phase"],
        turn=player(data, "turn"),
        rolling=data["rolling"],
        dice=tuple(r["dice"] for r in per),
        cell=tuple(r["cell"] for r in per),
        racing=tuple(r["racing"] for r in per),
        rolls=tuple(r.get("rolls", 0) for r in per),
        leftover=tuple(r.get("leftover", 0) for r in per),
        turn_player=player(data, "turn_player") if "turn_player" in data else None,
        winners_turn=seats("winners_turn"),
        extra_round=seats("extra_round"),
        continued=seats("continued"),
        retired=seats("retired"),
        queue=seats("queue"),
        tt_order=seats("tt_order"),
        tt_round=data.get("tt_round", 0),
        tt_finished=seats("tt_finished"),
    )


def example_state(rules: StageRace) -> State:
    """The sample race file shipped with the content (race-example.yaml)."""
    return rules.from_data(load_yaml(rules.content.path(EXAMPLE_RACE)))


def check(rules: StageRace, state: State) -> list[str]:
    live = state.live
    problems: list[str] = []
    if live is None:
        return problems
    cells = rules.cfg.model.cells(rules.cfg.course[live.stage - 1])
    for s, d in enumerate(live.dice):
        if not 0 <= d <= rules.cfg.max_dice:
            problems.append(f"{state.race.players[s]} holds {d} dice (0–{rules.cfg.max_dice})")
        if live.rolls[s] < 0 or live.leftover[s] < 0:
            problems.append(f"{state.race.players[s]}: rolls and leftover cannot be negative")
        if not 0 <= live.cell[s] <= len(cells):
            problems.append(f"{state.race.players[s]} stands on cell {live.cell[s]} of {len(cells)}")
    if not live.racing[live.turn]:
        problems.append(f"{state.race.players[live.turn]} has the turn but is not racing")
    return problems + _live_problems(rules, state.race.players, live)


def _live_problems(rules: StageRace, names: tuple[str, ...], live: Live) -> list[str]:
    """Who is still racing agrees with who finished and who retired, phase by phase."""
    finished = live.winners_turn + live.extra_round + live.continued + live.tt_finished
    done = finished + live.retired
    if len(set(done)) != len(done):
        return ["live: a rider is listed twice among the finishers and the retired"]
    for s, name in enumerate(names):
        if live.racing[s] == (s in done):
            return [f"live: {name} is {'' if live.racing[s] else 'not '}racing, but "
                    f"{'is' if s in done else 'is not'} listed as finished or retired"]
    time_trial = rules.cfg.course[live.stage - 1].time_trial
    if time_trial != (live.phase == "time_trial"):
        return [f"live: phase {live.phase} in a {'time trial' if time_trial else 'road stage'}"]
    if time_trial and sorted(live.tt_order) != list(range(len(names))):
        return ["live: tt_order lists every rider once, in start order"]
    if not time_trial and (live.tt_order or live.tt_finished or live.tt_round):
        return ["live: tt_order, tt_finished and tt_round belong to a time trial"]
    if live.phase == "race" and (finished or live.turn_player is not None or live.queue):
        return ["live: in phase race nobody has finished yet (no winner, no queue)"]
    if live.phase in ("extra", "play_on") and (not live.winners_turn or live.turn_player is None):
        return [f"live: phase {live.phase} follows the stage winner's turn (winners_turn, turn_player)"]
    if any(not live.racing[s] for s in live.queue):
        return ["live: a rider in the queue is not racing"]
    return []
