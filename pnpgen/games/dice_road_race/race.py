"""The race file (stage results) and the standings arithmetic the referee reports.

A race file lists the players in seat order (clockwise) and, per stage raced, its
results. `compute` turns that into per-stage added and bonus time, overall
standings with gaps, the leader colour, dice after recovery, the next time-trial
start order, and the final classification.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pnpgen.content.schema import Any_, Each, OneOf, Schema, check
from pnpgen.content.yamlpos import Where, where
from pnpgen.errors import ImpossibleState
from pnpgen.games.dice_road_race.config import RaceConfig, Stage

GROUP_SCHEMA: Schema = {"turn": str, "finished": Each(str, min=1)}
STAGE_RESULT_SCHEMA: Schema = {
    "stage": int,
    "type?": str,
    "winners_turn?": GROUP_SCHEMA,
    "extra_round?": [OneOf(str, GROUP_SCHEMA)],
    "not_finished?": [str],
    "continued?": [str],
    "retired?": [str],
    "time_trial?": {"*": {"rolls": int, "leftover?": int, "last_roll?": int, "cost_left?": int}},
    "dice?": {"*": int},
}
RACE_SCHEMA: Schema = {
    "players": Each(str, min=1),
    "leader_colour?": bool,
    "stages": [STAGE_RESULT_SCHEMA],
    "agreed_end?": bool,  # everyone agreed to end the race after the last stage listed
    "live?": Any_,  # a stage in progress (the playable model; see model.py)
    "report?": Any_,  # computed by the referee; ignored on input
}


@dataclass(frozen=True)
class Ride:
    """One rider's time trial: rolls made and pips left over at the finish."""

    rolls: int
    leftover: int


@dataclass(frozen=True)
class StageResult:
    number: int
    turn: int | None = None  # seat whose turn it was when the stage winner finished
    winners_turn: tuple[int, ...] = ()  # finished in that turn, clockwise from `turn`
    extra_round: tuple[int, ...] = ()  # finished in the extra round, in order
    not_finished: tuple[int, ...] = ()
    continued: tuple[int, ...] = ()  # not_finished riders in the order they finished later
    retired: tuple[int, ...] = ()  # retired during or right after this stage, in order
    rides: tuple[tuple[int, Ride], ...] = ()  # time trial: (seat, ride)
    dice: tuple[tuple[int, int], ...] | None = None  # dice each rider holds at the stage end

    @property
    def finishers(self) -> tuple[int, ...]:
        return self.winners_turn + self.extra_round


@dataclass(frozen=True)
class Race:
    players: tuple[str, ...]
    stages: tuple[StageResult, ...] = ()
    leader_colour: bool = True
    agreed_end: bool = False


def clockwise(seats: Iterable[int], start: int, players: int) -> tuple[int, ...]:
    """Seats in clockwise order starting from `start`."""
    return tuple(sorted(seats, key=lambda s: (s - start) % players))


# --- reading a race file ------------------------------------------------------------


class _Reader:
    def __init__(self, cfg: RaceConfig, names: tuple[str, ...]) -> None:
        self.cfg = cfg
        self.names = names
        self.seat = {name: i for i, name in enumerate(names)}

    def player(self, container: Any, key: Any) -> int:
        """The seat of the player named at container[key]."""
        return self._seat(container[key], where(container, key, value=True))

    def _seat(self, name: object, position: Where) -> int:
        if name not in self.seat:
            close = difflib.get_close_matches(str(name), self.names, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ImpossibleState(f"unknown player '{name}'{hint}; players: {', '.join(self.names)}", **position)
        return self.seat[name]

    def players(self, items: Any) -> list[int]:
        return [self.player(items, i) for i in range(len(items))]

    def stage(self, data: Any, index: int) -> StageResult:
        cfg = self.cfg
        number = data["stage"]
        if number != index + 1:
            missing = f"stage {index + 1} is missing" if number > index + 1 else "stages are out of order"
            raise ImpossibleState(
                f"{missing}: list the stages in order from 1 (found stage {number})",
                **where(data, "stage", value=True),
            )
        if number > len(cfg.course):
            raise ImpossibleState(
                f"stage {number}: the course has only {len(cfg.course)} stages",
                **where(data, "stage", value=True),
            )
        stage = cfg.course[index]
        if "type" in data and data["type"] != stage.type:
            raise ImpossibleState(
                f"stage {number} is {stage.type} in the course table, the race file says {data['type']}",
                **where(data, "type", value=True),
            )
        retired = self.players(data.get("retired", []))
        for i, seat in enumerate(retired):
            if seat in retired[:i]:
                raise ImpossibleState(
                    f"{self.names[seat]} is listed twice under retired in stage {number}",
                    **where(data["retired"], i),
                )
        result = self.time_trial(data, stage, retired) if stage.time_trial else self.normal(
            data, stage, retired
        )
        return StageResult(**{**result, "number": number, "retired": tuple(retired),
                              "dice": self.dice(data, number, retired)})

    def normal(self, data: Any, stage: Stage, retired: list[int]) -> dict[str, Any]:
        n, number = len(self.names), stage.number
        if "time_trial" in data:
            raise ImpossibleState(
                f"stage {number} is not a time trial; give winners_turn, extra_round and not_finished",
                **where(data, "time_trial"),
            )
        listed: dict[int, str] = {}

        def enter(container: object, key: object, list_name: str) -> int:
            seat = self.player(container, key)
            if seat in listed:
                both = {listed[seat], list_name}
                name = self.names[seat]
                if "not_finished" in both:
                    problem = f"{name} both finished and did not finish in stage {number}"
                else:
                    problem = f"{name} is listed twice in stage {number} ({listed[seat]} and {list_name})"
                raise ImpossibleState(problem, **where(container, key, value=True))
            listed[seat] = list_name
            return seat

        turn: int | None = None
        winners: tuple[int, ...] = ()
        group = data.get("winners_turn")
        if group is not None:
            turn = self.player(group, "turn")
            finished = [enter(group["finished"], i, "winners_turn") for i in range(len(group["finished"]))]
            winners = clockwise(finished, turn, n)
        extra: list[int] = []
        items = data.get("extra_round", [])
        for i, item in enumerate(items):
            if isinstance(item, str):
                extra.append(enter(items, i, "extra_round"))
            else:
                start = self.player(item, "turn")
                seats = [enter(item["finished"], j, "extra_round") for j in range(len(item["finished"]))]
                extra += clockwise(seats, start, n)
        dnf_items = data.get("not_finished", [])
        dnf = [enter(dnf_items, i, "not_finished") for i in range(len(dnf_items))]
        if group is None and (extra or dnf):
            raise ImpossibleState(
                f"stage {number}: winners_turn is missing; give the turn player and who finished "
                "in the stage winner's turn",
                **where(data, "stage"),
            )
        for seat in range(n):
            if seat not in listed and seat not in retired:
                raise ImpossibleState(
                    f"stage {number}: no result for {self.names[seat]}; list every rider under "
                    "winners_turn, extra_round, not_finished or retired",
                    **where(data, "stage"),
                )
        continued_items = data.get("continued", [])
        if continued_items and not stage.settle_ties:
            raise ImpossibleState(
                f"stage {number}: continued is only for a stage played on until the order is settled",
                **where(data, "continued"),
            )
        continued = self.players(continued_items)
        for i, seat in enumerate(continued):
            if seat not in dnf or seat in continued[:i]:
                raise ImpossibleState(
                    f"stage {number}: continued lists {self.names[seat]}, who must appear once "
                    "and under not_finished",
                    **where(continued_items, i, value=True),
                )
        return {"turn": turn, "winners_turn": winners, "extra_round": tuple(extra),
                "not_finished": tuple(dnf), "continued": tuple(continued)}

    def time_trial(self, data: Any, stage: Stage, retired: list[int]) -> dict[str, Any]:
        number = stage.number
        for key in ("winners_turn", "extra_round", "not_finished", "continued"):
            if key in data:
                raise ImpossibleState(
                    f"stage {number} is a time trial: give time_trial with rolls and leftover "
                    f"pips, not {key}",
                    **where(data, key),
                )
        rides_data = data.get("time_trial")
        if rides_data is None and len(retired) == len(self.names):
            return {}  # every rider retired during the stage
        if rides_data is None:
            raise ImpossibleState(
                f"stage {number} is a time trial: time_trial with every rider's roll count "
                "and leftover pips is missing",
                **where(data, "stage"),
            )
        rides: dict[int, Ride] = {}
        for name, entry in rides_data.items():
            seat = self._key_player(rides_data, name)
            rides[seat] = self.ride(entry, number, name)
        for seat in range(len(self.names)):
            if seat not in rides and seat not in retired:
                raise ImpossibleState(
                    f"stage {number} (time trial): no roll count for {self.names[seat]}",
                    **where(data, "time_trial"),
                )
        return {"rides": tuple(sorted(rides.items()))}

    def _key_player(self, mapping: Any, name: Any) -> int:
        """The seat of the player a key of `mapping` names."""
        return self._seat(name, where(mapping, name))

    def ride(self, entry: Any, number: int, name: str) -> Ride:
        def fail(problem: str, key: str) -> ImpossibleState:
            return ImpossibleState(f"stage {number} (time trial), {name}: {problem}", **where(entry, key))

        if entry["rolls"] < 1:
            raise fail("rolls must be at least 1", "rolls")
        if "leftover" in entry:
            if "last_roll" in entry or "cost_left" in entry:
                raise fail("give leftover, or last_roll and cost_left, not both", "leftover")
            leftover = entry["leftover"]
        elif "last_roll" in entry and "cost_left" in entry:
            if entry["cost_left"] < 1:
                raise fail("cost_left must be at least 1", "cost_left")
            if entry["last_roll"] < entry["cost_left"]:
                raise fail(
                    f"a last roll of {entry['last_roll']} does not reach the finish "
                    f"(cost left {entry['cost_left']})",
                    "last_roll",
                )
            leftover = entry["last_roll"] - entry["cost_left"]
        else:
            raise fail("give leftover (pips left over at the finish), or last_roll and cost_left", "rolls")
        if leftover < 0:
            raise fail("leftover pips cannot be negative", "leftover")
        return Ride(entry["rolls"], leftover)

    def dice(self, data: Any, number: int, retired: list[int]) -> tuple[tuple[int, int], ...] | None:
        if "dice" not in data:
            return None
        counts: dict[int, int] = {}
        for name, count in data["dice"].items():
            seat = self._key_player(data["dice"], name)
            if not 0 <= count <= self.cfg.max_dice:
                raise ImpossibleState(
                    f"stage {number}: {name} holds {count} dice; a rider holds 0–{self.cfg.max_dice}",
                    **where(data["dice"], name, value=True),
                )
            counts[seat] = count
        for seat in range(len(self.names)):
            if seat not in counts and seat not in retired:
                raise ImpossibleState(
                    f"stage {number}: dice gives no count for {self.names[seat]}", **where(data, "dice")
                )
        return tuple(sorted(counts.items()))


def read_race(data: Any, cfg: RaceConfig, min_players: int, max_players: int) -> Race:
    """A Race from race-file data; ImpossibleState/ContentError naming file and line."""
    if not isinstance(data, dict):
        raise ImpossibleState("a race file must be a mapping with players and stages", **where(data))
    check(data, RACE_SCHEMA)
    names = data["players"]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise ImpossibleState(f"duplicate player '{name}'", **where(names, i))
    if not min_players <= len(names) <= max_players:
        raise ImpossibleState(
            f"a stage race takes {min_players}–{max_players} players, the race file has {len(names)}",
            **where(data, "players"),
        )
    reader = _Reader(cfg, tuple(names))
    stages = tuple(reader.stage(s, i) for i, s in enumerate(data["stages"]))
    agreed = bool(data.get("agreed_end", False))
    if agreed and not stages:
        raise ImpossibleState(
            "agreed_end: the race can end by agreement only after a stage", **where(data, "agreed_end")
        )
    if agreed and "live" in data:
        raise ImpossibleState("agreed_end: a race that has ended has no stage in progress", **where(data, "live"))
    return Race(tuple(names), stages, bool(data.get("leader_colour", True)), agreed)


def race_to_data(race: Race) -> dict[str, Any]:
    """The race file form of a Race (finishers in their normalised order)."""
    names = race.players
    stages: list[dict[str, Any]] = []
    for s in race.stages:
        entry: dict[str, Any] = {"stage": s.number}
        if s.rides:
            entry["time_trial"] = {names[seat]: {"rolls": r.rolls, "leftover": r.leftover} for seat, r in s.rides}
        elif s.turn is not None:
            entry["winners_turn"] = {"turn": names[s.turn], "finished": [names[x] for x in s.winners_turn]}
            entry["extra_round"] = [names[x] for x in s.extra_round]
            entry["not_finished"] = [names[x] for x in s.not_finished]
            if s.continued:
                entry["continued"] = [names[x] for x in s.continued]
        if s.retired:
            entry["retired"] = [names[x] for x in s.retired]
        if s.dice is not None:
            entry["dice"] = {names[seat]: count for seat, count in s.dice}
        stages.append(entry)
    data = {"players": list(names), "leader_colour": race.leader_colour, "stages": stages}
    if race.agreed_end:
        data["agreed_end"] = True
    return data


# --- the arithmetic -----------------------------------------------------------------


@dataclass
class RiderLine:
    seat: int
    place: int | None  # stage place (None: no place)
    added: int  # added time, or the time-trial stage time
    bonus: int  # negative seconds (0 when none)
    counts: bool  # False once the rider has retired: their time is not kept
    why: str
    ride: Ride | None = None

    @property
    def time(self) -> int:
        return self.added + self.bonus


@dataclass
class Standing:
    rank: int
    seat: int
    total: int
    gap: int


@dataclass
class StageReport:
    stage: Stage
    riders: list[RiderLine]
    standings: list[Standing]
    retired: list[int]  # retired in this stage
    out: list[int]  # every rider without a kept total, earliest retired first
    leader: int | None = None  # leader colour in the next stage
    dice_after: dict[int, int] | None = None
    tt_stage: Stage | None = None
    tt_order: list[tuple[int, int]] = field(default_factory=list)  # (seat, start round)


@dataclass
class Final:
    complete: bool
    classification: list[Standing]
    unsettled: list[list[int]]  # groups level on time whose order play must settle
    winner: int | None


@dataclass
class RaceReport:
    race: Race
    stages: list[StageReport]
    final: Final


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def stage_lines(cfg: RaceConfig, stage: Stage, result: StageResult, n: int) -> list[RiderLine]:
    """Added time, bonus time and the reason, per rider in seat order."""
    lines: dict[int, RiderLine] = {}
    if stage.time_trial:
        times = {seat: ride.rolls * cfg.tt_seconds_per_roll - ride.leftover for seat, ride in result.rides}
        for seat, ride in result.rides:
            place = 1 + sum(t < times[seat] for t in times.values())
            bonus = -cfg.bonus[place - 1] if cfg.tt_bonus and place <= len(cfg.bonus) else 0
            why = (f"time trial: {ride.rolls} rolls × {cfg.tt_seconds_per_roll} − "
                   f"{ride.leftover} pips left over = {times[seat]}")
            lines[seat] = RiderLine(seat, place, times[seat], bonus, True, why, ride)
    else:
        for index, seat in enumerate(result.finishers):
            place = index + 1
            bonus = -cfg.bonus[index] if index < len(cfg.bonus) else 0
            if seat in result.winners_turn:
                added = cfg.added_winners_turn
                why = "finished in the stage winner's turn"
                if len(result.winners_turn) > 1:
                    why += " (placed clockwise from the turn player)"
            else:
                added, why = cfg.added_extra_round, "finished in the extra round"
            why += f"; {_ordinal(place)} place" + (f", bonus {bonus}" if bonus else ", no bonus")
            lines[seat] = RiderLine(seat, place, added, bonus, True, why)
        for seat in result.not_finished:
            why = "did not finish in the extra round; no place, no bonus"
            if seat in result.continued:
                why += f"; finished {_ordinal(result.continued.index(seat) + 1)} in the play-on"
            lines[seat] = RiderLine(seat, None, cfg.added_not_finished, 0, True, why)
    for seat in result.retired:
        if seat not in lines:
            lines[seat] = RiderLine(seat, None, 0, 0, False, "retired during the stage")
    return [lines[s] for s in range(n) if s in lines]


def finish_rank(stage: Stage, result: StageResult, lines: list[RiderLine]) -> dict[int, int]:
    """Each rider's finishing rank in a stage, for breaking ties (absent: not ranked)."""
    if stage.time_trial:
        return {line.seat: line.place for line in lines if line.place is not None}
    order = result.finishers + result.continued
    return {seat: i for i, seat in enumerate(order)}


def rank_riders(totals: dict[int, int], tie_rank: dict[int, int]) -> list[Standing]:
    """Lowest total first; ties broken by the latest stage's finishing order."""
    unranked = 10**9
    key = {s: (t, tie_rank.get(s, unranked)) for s, t in totals.items()}
    order = sorted(totals, key=lambda s: (key[s], s))
    if not order:
        return []
    best = totals[order[0]]
    return [
        Standing(1 + sum(key[o] < key[s] for o in order), s, totals[s], totals[s] - best) for s in order
    ]


def compute(cfg: RaceConfig, race: Race, prior: RaceReport | None = None) -> RaceReport:
    """The race's stage reports and final standing. `prior`, a report on an earlier point of
    the same race, is reused: only the stages after it are computed (a simulated race adds
    one stage at a time)."""
    n = len(race.players)
    totals = {seat: 0 for seat in range(n)}
    out: list[int] = []
    reports: list[StageReport] = []
    standings: list[Standing] = []
    stages = race.stages
    if prior is not None and prior.race.players == race.players and prior.race.leader_colour == race.leader_colour:
        done = len(prior.race.stages)
        if 0 < done <= len(stages) and stages[:done] == prior.race.stages:
            reached = prior.stages[-1]
            standings = reached.standings
            totals = {st.seat: st.total for st in standings}
            out = list(reached.out)
            reports = list(prior.stages)
            stages = stages[done:]
    for result in stages:
        stage = cfg.course[result.number - 1]
        lines = stage_lines(cfg, stage, result, n)
        for seat in result.retired:
            if seat not in out:
                out.append(seat)
            totals.pop(seat, None)
        for line in lines:
            line.counts = line.seat not in out
            if line.counts:
                totals[line.seat] += line.time
        standings = rank_riders(totals, finish_rank(stage, result, lines))
        report = StageReport(stage, lines, standings, list(result.retired), list(out))
        following = cfg.course[result.number] if result.number < len(cfg.course) else None
        if following is not None:
            if race.leader_colour and n <= cfg.leader_max_players and standings:
                report.leader = standings[0].seat
            if result.dice is not None:
                held = dict(result.dice)
                report.dice_after = {
                    s: cfg.retire_dice if s in result.retired else min(held[s] + cfg.recover_dice, cfg.max_dice)
                    for s in range(n)
                }
            if following.time_trial:
                order = out + [st.seat for st in reversed(standings)]
                report.tt_stage = following
                report.tt_order = [(seat, 1 + i * cfg.tt_start_every) for i, seat in enumerate(order)]
        reports.append(report)
    complete = len(race.stages) == len(cfg.course) or (race.agreed_end and bool(race.stages))
    groups: dict[int, list[int]] = {}
    for st in standings:
        groups.setdefault(st.rank, []).append(st.seat)
    last = cfg.course[race.stages[-1].number - 1] if race.stages else None
    play_on = complete and last is not None and last.settle_ties
    unsettled = [g for g in groups.values() if len(g) > 1] if play_on else []
    winner = None
    if complete and standings and len(groups[1]) == 1:
        winner = standings[0].seat
    return RaceReport(race, reports, Final(complete, standings if complete else [], unsettled, winner))


def report_to_data(cfg: RaceConfig, report: RaceReport) -> dict[str, Any]:
    """The computed figures as plain data (the referee's JSON/YAML output)."""
    names = report.race.players

    def standing(st: Standing) -> dict[str, Any]:
        return {"rank": st.rank, "player": names[st.seat], "total": st.total, "gap": st.gap}

    stages: list[dict[str, Any]] = []
    for sr in report.stages:
        riders: dict[str, Any] = {}
        for line in sr.riders:
            riders[names[line.seat]] = {
                "place": line.place,
                "added": line.added,
                "bonus": line.bonus,
                "stage_time": line.time,
                "counts": line.counts,
                "why": line.why,
            }
        entry: dict[str, Any] = {
            "stage": sr.stage.number,
            "type": sr.stage.type,
            "riders": riders,
            "standings": [standing(st) for st in sr.standings],
            "retired": [names[s] for s in sr.out],
        }
        if sr.stage.number < len(cfg.course):
            entry["leader_colour"] = names[sr.leader] if sr.leader is not None else None
            if sr.dice_after is not None:
                entry["dice_after_recovery"] = {names[s]: d for s, d in sr.dice_after.items()}
        if sr.tt_stage is not None:
            entry["time_trial"] = {
                "stage": sr.tt_stage.number,
                "order": [{"player": names[s], "start_round": r} for s, r in sr.tt_order],
            }
        stages.append(entry)
    final = report.final
    return {
        "stages": stages,
        "final": {
            "complete": final.complete,
            "agreed_end": report.race.agreed_end,
            "winner": names[final.winner] if final.winner is not None else None,
            "classification": [standing(st) for st in final.classification],
            "play_continues": [[names[s] for s in group] for group in final.unsettled],
        },
    }
