"""The stage race as a playable game, on the STAND-IN race model of D-RR-1.

The base game's movement is not in the source. For simulation, a stage is a row
of cells whose costs add up to the stage's total cost; on their turn a rider rolls
all their dice and pays the next cells' costs in order, stopping before a cell
they cannot pay for; dice showing the excluded face are lost afterwards. The
stage-race rules on top (extra round, added and bonus time, recovery, retiring,
time-trial order and stage time, play-on in the final stage) are the real ones,
computed by race.py.

Moves: `roll` (roll every die), `retire`; chance outcomes `dice 6 4 1`.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, check, text_for
from pnpgen.content.yamlpos import load_yaml, where
from pnpgen.engine.protocol import (
    CHANCE,
    TERMINAL,
    Analysis,
    Bot,
    Event,
    IllegalMove,
    Notation,
    Outcome,
    Presentation,
    Rules,
    StateCodec,
)
from pnpgen.errors import BadMove, ImpossibleState
from pnpgen.examples import load_examples
from pnpgen.games.dice_road_race.config import RaceConfig, Stage, load_config
from pnpgen.games.dice_road_race.race import (
    Race,
    RaceReport,
    Ride,
    StageResult,
    clockwise,
    compute,
    race_to_data,
    read_race,
    report_to_data,
)
from pnpgen.games.dice_road_race.report import describe_race
from pnpgen.games.words import number

Move = tuple[str, tuple[int, ...]]  # ("roll", ()), ("retire", ()), ("dice", faces high to low)
ROLL: Move = ("roll", ())
RETIRE: Move = ("retire", ())

EXAMPLE_RACE = "race-example.yaml"  # in the game's content folder
PHASES = ("race", "extra", "play_on", "time_trial")
LIVE_SCHEMA: dict[str, Any] = {
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


class Live(NamedTuple):
    """A stage in progress (seats index every per-rider tuple)."""

    stage: int
    phase: str
    turn: int
    rolling: bool
    dice: tuple[int, ...]
    cell: tuple[int, ...]  # cells paid so far
    racing: tuple[bool, ...]  # still on the course
    rolls: tuple[int, ...]
    leftover: tuple[int, ...]
    turn_player: int | None = None
    winners_turn: tuple[int, ...] = ()
    extra_round: tuple[int, ...] = ()
    continued: tuple[int, ...] = ()
    retired: tuple[int, ...] = ()
    queue: tuple[int, ...] = ()  # riders still to play in this round (extra, play-on, time trial)
    tt_order: tuple[int, ...] = ()
    tt_round: int = 0
    tt_finished: tuple[int, ...] = ()


@dataclass(frozen=True)
class State:
    race: Race
    live: Live | None = None


@lru_cache(maxsize=16)
def roll_outcomes(dice: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every multiset of `dice` d6 faces (high to low) with its exact probability."""
    total = 6**dice
    result = []
    for faces in combinations_with_replacement(range(6, 0, -1), dice):
        ways = math.factorial(dice)
        for count in Counter(faces).values():
            ways //= math.factorial(count)
        result.append((faces, Fraction(ways, total)))
    return tuple(result)


class StageRace(Rules[State, Move], Notation[State, Move], StateCodec[State],
                Analysis[State, Move], Presentation[State]):
    """Five-stage race: the real stage-race rules over the stand-in race model."""

    def __init__(self, content: GameContent) -> None:
        self.content = content
        self.id = content.id
        self.cfg: RaceConfig = load_config(content.data["rules"])
        self._last_report: tuple[Race, RaceReport] | None = None
        self.min_players = int(content.data["players"]["min"])
        self.max_players = int(content.data["players"]["max"])
        sim = content.data.get("simulation", {}) or {}
        self.max_steps = int(sim.get("max_steps", 20_000))
        gaps = sim.get("retire_gaps", [])
        check(gaps, Each(int), sim, "retire_gaps", "simulation.retire_gaps")
        self.retire_gaps: tuple[int, ...] = tuple(gaps)

    # --- race arithmetic ---------------------------------------------------------------
    def report(self, state: State) -> RaceReport:
        return self.race_report(state.race)

    def race_report(self, race: Race) -> RaceReport:
        """The standings of a race; the last one is kept, since stage end, the next stage's
        start, the outcome and the statistics all ask about the same race in turn."""
        if self._last_report is None or self._last_report[0] is not race:
            self._last_report = (race, compute(self.cfg, race))
        return self._last_report[1]

    @lru_cache(maxsize=32)  # noqa: B019 - one Rules per content, kept for the process
    def model_cells(self, stage: int) -> tuple[int, ...]:
        """The stand-in model's cell costs for a stage number."""
        return self.cfg.model.cells(self.cfg.course[stage - 1])

    def num_players(self, state: State) -> int:
        return len(state.race.players)

    # --- lifecycle ---------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        race = Race(tuple(f"P{i + 1}" for i in range(players)))
        dice = (self.cfg.model.start_dice,) * players
        return State(race, self._start_stage(race, 1, dice))

    def _start_stage(self, race: Race, number: int, dice: tuple[int, ...]) -> Live:
        stage = self.cfg.course[number - 1]
        n = len(race.players)
        zeros = (0,) * n
        base = Live(number, "race", 0, False, dice, zeros, (True,) * n, zeros, zeros)
        if stage.time_trial:
            if race.stages:
                order = tuple(s for s, _ in self.race_report(race).stages[-1].tt_order) or tuple(range(n))
            else:
                order = tuple(range(n))
            live = self._tt_next_round(base._replace(phase="time_trial", tt_order=order, tt_round=0))
            return live._replace(turn=live.queue[0])
        first = (number - 1) % n if self.cfg.model.stage_start == "rotate" else 0
        return base._replace(turn=first)

    def current_player(self, state: State) -> int:
        if state.live is None:
            return TERMINAL
        return CHANCE if state.live.rolling else state.live.turn

    def legal_moves(self, state: State) -> list[Move]:
        if state.live is None or state.live.rolling:
            return []
        return [ROLL, RETIRE]

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        live = state.live
        if live is None or not live.rolling:
            return []
        return [(("dice", faces), p) for faces, p in roll_outcomes(live.dice[live.turn])]

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        assert state.live is not None
        faces = sorted((rng.randint(1, 6) for _ in range(state.live.dice[state.live.turn])), reverse=True)
        return ("dice", tuple(faces))

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        live = state.live
        if live is None:
            raise IllegalMove("RR-9", "the race is over")
        name = state.race.players[live.turn]
        kind, faces = move
        if live.rolling:
            if kind != "dice":
                raise IllegalMove("RR-M", f"{name} has rolled; the dice must be read first")
            if len(faces) != live.dice[live.turn] or any(not 1 <= f <= 6 for f in faces):
                raise IllegalMove(
                    "RR-M", f"{name} rolls {live.dice[live.turn]} dice, the outcome shows {len(faces)}"
                )
            return self._move(state, faces)
        if kind == "dice":
            raise IllegalMove("RR-M", f"{name} has not chosen to roll yet")
        if kind == "retire":
            events = [Event("retire", f"{name} retires: total time lost; back next stage with "
                                      f"{self.cfg.retire_dice} dice", {"player": name})]
            live = live._replace(
                racing=_set(live.racing, live.turn, False),
                retired=live.retired + ((live.turn,) if live.turn not in live.retired else ()),
            )
            return self._advance(state.race, live, events)
        return State(state.race, live._replace(rolling=True)), []

    def _move(self, state: State, faces: tuple[int, ...]) -> tuple[State, list[Event]]:
        """Pay cells with the rolled pips, lose excluded dice, maybe finish."""
        live = state.live
        assert live is not None
        seat = live.turn
        name = state.race.players[seat]
        model = self.cfg.model
        stage = self.cfg.course[live.stage - 1]
        cells = self.model_cells(live.stage)
        pips = sum(faces)
        remaining = sum(cells[live.cell[seat]:])
        events = [Event("roll", lambda: f"{name} rolls {' '.join(map(str, faces))}", {"player": name, "pips": pips})]
        lost = sum(f == model.excluded_face for f in faces)
        dice = live.dice[seat] - lost
        if model.keep_last_die:
            dice = max(dice, 1)
        if dice < live.dice[seat]:
            events.append(Event("excluded", f"{name} loses {live.dice[seat] - dice} dice", {"player": name}))
        live = live._replace(rolling=False, dice=_set(live.dice, seat, dice),
                       rolls=_set(live.rolls, seat, live.rolls[seat] + 1))
        if pips >= remaining:
            events.append(Event("finish", f"{name} finishes stage {live.stage}", {"player": name}))
            live = self._finish(live, seat, pips - remaining)
            return self._advance(state.race, live, events)
        target = live.cell[seat]
        while target < len(cells) and pips >= cells[target]:
            pips -= cells[target]
            target += 1
        if stage.time_trial:  # no stopping on an occupied cell
            occupied = {c for s, c in enumerate(live.cell) if s != seat and live.racing[s] and c > 0}
            while target > live.cell[seat] and target in occupied:
                target -= 1
        live = live._replace(cell=_set(live.cell, seat, target))
        return self._advance(state.race, live, events)

    def _finish(self, live: Live, seat: int, leftover: int) -> Live:
        live = live._replace(racing=_set(live.racing, seat, False), leftover=_set(live.leftover, seat, leftover))
        if live.phase == "time_trial":
            return live._replace(tt_finished=live.tt_finished + (seat,))
        if live.phase == "race":
            return live._replace(phase="extra", turn_player=seat, winners_turn=(seat,), queue=())
        if live.phase == "extra":
            return live._replace(extra_round=live.extra_round + (seat,))
        return live._replace(continued=live.continued + (seat,))

    def _advance(self, race: Race, live: Live, events: list[Event]) -> tuple[State, list[Event]]:
        """Pass the turn on; close the stage when it is over."""
        n = len(race.players)
        if live.phase == "race":
            if not any(live.racing):
                return self._close(race, live, events)
            nxt = next(s for s in clockwise(range(n), live.turn, n)[1:] + (live.turn,) if live.racing[s])
            return State(race, live._replace(turn=nxt)), events
        if live.phase == "extra" and live.turn == live.turn_player and live.winners_turn and not live.queue:
            # the winner's turn just ended: one extra round from the winner, clockwise
            queue = tuple(s for s in clockwise(range(n), live.turn, n)[1:] if live.racing[s])
            live = live._replace(queue=queue)
        elif live.phase in ("extra", "play_on") and live.queue and live.queue[0] == live.turn:
            live = live._replace(queue=live.queue[1:])
        if live.phase == "time_trial":
            if live.queue and live.queue[0] == live.turn:
                live = live._replace(queue=live.queue[1:])
            live = self._tt_next_round(live)
            if live.queue:
                return State(race, live._replace(turn=live.queue[0])), events
            return self._close(race, live, events)
        live = live._replace(queue=tuple(s for s in live.queue if live.racing[s]))
        if live.queue:
            return State(race, live._replace(turn=live.queue[0])), events
        stage = self.cfg.course[live.stage - 1]
        if stage.settle_ties:
            unsettled = self._unsettled(race, live)
            if unsettled:
                live = live._replace(phase="play_on", queue=clockwise(unsettled, live.turn, n))
                return State(race, live._replace(turn=live.queue[0])), events
        return self._close(race, live, events)

    def _tt_next_round(self, live: Live) -> Live:
        """Fill the time-trial queue with the next round's riders (started, still racing)."""
        every = self.cfg.tt_start_every
        rnd = live.tt_round
        while not live.queue and any(live.racing):
            rnd += 1
            started = [s for i, s in enumerate(live.tt_order) if 1 + i * every <= rnd]
            live = live._replace(tt_round=rnd, queue=tuple(s for s in started if live.racing[s]))
        return live

    def _result(self, live: Live) -> StageResult:
        stage = self.cfg.course[live.stage - 1]
        dice = tuple((s, d) for s, d in enumerate(live.dice) if s not in live.retired)
        if stage.time_trial:
            rides = tuple((s, Ride(live.rolls[s], live.leftover[s])) for s in sorted(live.tt_finished))
            return StageResult(live.stage, rides=rides, retired=live.retired, dice=dice)
        done = set(live.winners_turn + live.extra_round + live.retired)
        dnf = tuple(s for s in range(len(live.dice)) if s not in done)
        return StageResult(live.stage, live.turn_player, live.winners_turn, live.extra_round, dnf,
                           live.continued, live.retired, dice=dice)

    def _unsettled(self, race: Race, live: Live) -> list[int]:
        """Riders level on time with nothing yet to tell them apart (final stage play-on)."""
        final = compute(self.cfg, replace(race, stages=race.stages + (self._result(live),))).final
        return [s for group in final.unsettled for s in group if live.racing[s]]

    def _close(self, race: Race, live: Live, events: list[Event]) -> tuple[State, list[Event]]:
        result = self._result(live)
        race = replace(race, stages=race.stages + (result,))
        report = self.race_report(race).stages[-1]
        names = race.players
        standings = ", ".join(f"{names[s.seat]} {s.total}" for s in report.standings)
        events = events + [Event("stage_end", f"stage {live.stage} ends; overall: {standings}",
                                 {"stage": live.stage})]
        if live.stage == len(self.cfg.course):
            return State(race, None), events
        assert report.dice_after is not None
        dice = tuple(report.dice_after[s] for s in range(len(names)))
        return State(race, self._start_stage(race, live.stage + 1, dice)), events

    def outcome(self, state: State) -> Outcome:
        final = self.report(state).final
        scores = tuple(
            float(next((st.total for st in final.classification if st.seat == s), math.inf))
            for s in range(len(state.race.players))
        )
        if not final.classification:
            return Outcome((), scores, "all_retired")
        winners = (final.winner,) if final.winner is not None else tuple(
            st.seat for st in final.classification if st.rank == 1
        )
        return Outcome(winners, scores, "agreed" if state.race.agreed_end else "stages")

    # --- notation and state files --------------------------------------------------------
    def parse_move(self, text: str, state: State | None = None) -> Move:
        words = text.strip().lower().split()
        if words == ["roll"]:
            return ROLL
        if words == ["retire"]:
            return RETIRE
        faces = [number(w) for w in words[1:]]
        if words and words[0] == "dice" and faces and None not in faces:
            return ("dice", tuple(sorted((f or 0 for f in faces), reverse=True)))
        raise BadMove(f"cannot read move '{text}': expected 'roll', 'retire' or 'dice 6 4 1'")

    def format_move(self, move: Move) -> str:
        kind, faces = move
        return f"dice {' '.join(map(str, faces))}" if kind == "dice" else kind

    def to_data(self, state: State) -> dict[str, Any]:
        data = race_to_data(state.race)
        if state.live is not None:
            data["live"] = self._live_to_data(state.race.players, state.live)
        data["report"] = report_to_data(self.cfg, self.report(state))
        return data

    def _live_to_data(self, names: tuple[str, ...], live: Live) -> dict[str, Any]:
        def named(seats: tuple[int, ...]) -> list[str]:
            return [names[s] for s in seats]

        data: dict[str, Any] = {
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

    def from_data(self, data: Any) -> State:
        race = read_race(data, self.cfg, self.min_players, self.max_players)
        if "live" not in data:
            if len(race.stages) < len(self.cfg.course) and not race.agreed_end:
                # between stages: the next stage starts with the recovered dice
                report = self.race_report(race).stages
                dice = (self.cfg.model.start_dice,) * len(race.players)
                if report and report[-1].dice_after is not None:
                    dice = tuple(report[-1].dice_after[s] for s in range(len(race.players)))
                return State(race, self._start_stage(race, len(race.stages) + 1, dice))
            return State(race, None)
        state = State(race, self._live_from_data(race, data["live"], data))
        problems = self.check(state)
        if problems:
            raise ImpossibleState(problems[0], **where(data, "live"))
        return state

    def _live_from_data(self, race: Race, data: Any, parent: Any) -> Live:
        check(data, LIVE_SCHEMA, parent, "live", "live")
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
            for key, high in (("dice", self.cfg.max_dice), ("cell", None), ("rolls", None), ("leftover", None)):
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

    def example_state(self) -> State:
        """The sample race file shipped with the content (race-example.yaml)."""
        return self.from_data(load_yaml(self.content.path(EXAMPLE_RACE)))

    # --- checks and analysis -------------------------------------------------------------
    def check(self, state: State) -> list[str]:
        live = state.live
        problems: list[str] = []
        if live is None:
            return problems
        cells = self.cfg.model.cells(self.cfg.course[live.stage - 1])
        for s, d in enumerate(live.dice):
            if not 0 <= d <= self.cfg.max_dice:
                problems.append(f"{state.race.players[s]} holds {d} dice (0–{self.cfg.max_dice})")
            if live.rolls[s] < 0 or live.leftover[s] < 0:
                problems.append(f"{state.race.players[s]}: rolls and leftover cannot be negative")
            if not 0 <= live.cell[s] <= len(cells):
                problems.append(f"{state.race.players[s]} stands on cell {live.cell[s]} of {len(cells)}")
        if not live.racing[live.turn]:
            problems.append(f"{state.race.players[live.turn]} has the turn but is not racing")
        return problems + self._live_problems(state.race.players, live)

    def _live_problems(self, names: tuple[str, ...], live: Live) -> list[str]:
        """Who is still racing agrees with who finished and who retired, phase by phase."""
        finished = live.winners_turn + live.extra_round + live.continued + live.tt_finished
        done = finished + live.retired
        if len(set(done)) != len(done):
            return ["live: a rider is listed twice among the finishers and the retired"]
        for s, name in enumerate(names):
            if live.racing[s] == (s in done):
                return [f"live: {name} is {'' if live.racing[s] else 'not '}racing, but "
                        f"{'is' if s in done else 'is not'} listed as finished or retired"]
        time_trial = self.cfg.course[live.stage - 1].time_trial
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

    def evaluate(self, state: State, seat: int) -> float:
        if state.live is None:
            return super().evaluate(state, seat)
        standings = self.report(state).stages[-1].standings if state.race.stages else []
        total = next((st.gap for st in standings if st.seat == seat), None)
        return -1000.0 if seat in state.live.retired else -float(total or 0)

    def bots(self) -> dict[str, Any]:
        bots: dict[str, Any] = {"rider": lambda: self._rider_bot(None)}
        for gap in self.retire_gaps:
            bots[f"retirer-{gap}"] = lambda gap=gap: self._rider_bot(gap)
        return bots

    def _rider_bot(self, retire_gap: int | None) -> Bot[State, Move]:
        """Always rolls; with a gap, retires once when that far behind the overall leader."""

        def choose(state: State, rng: random.Random) -> Move:
            if retire_gap is None or state.live is None or not state.race.stages:
                return ROLL
            seat = state.live.turn
            if any(seat in s.retired for s in state.race.stages) or seat in state.live.retired:
                return ROLL
            standings = self.report(state).stages[-1].standings
            gap = next((st.gap for st in standings if st.seat == seat), 0)
            return RETIRE if gap >= retire_gap else ROLL

        return choose

    def game_stats(self, state: State) -> dict[str, float]:
        """Figures of one simulated race. All rest on the stand-in race model (D-RR-1)."""
        report = self.report(state)
        leaders = [sr.standings[0].seat for sr in report.stages if sr.standings]
        stats = {
            "stand-in model: overall lead changes per race": float(
                sum(a != b for a, b in zip(leaders, leaders[1:], strict=False))
            ),
            "stand-in model: retirements per race": float(sum(len(s.retired) for s in state.race.stages)),
            "stand-in model: bonus places taken by retired riders": float(
                sum(1 for sr in report.stages for line in sr.riders if not line.counts and line.bonus)
            ),
            "stand-in model: stage wins by retired riders": float(
                sum(1 for sr in report.stages for line in sr.riders if not line.counts and line.place == 1)
            ),
        }
        final = report.final
        if final.winner is not None:
            stats["stand-in model: winner's seat (1 = first seat)"] = float(final.winner + 1)
            bonus = {s: sum(sr_line.bonus for sr in report.stages for sr_line in sr.riders
                            if sr_line.seat == s and sr_line.counts) for s in range(len(state.race.players))}
            without = {st.seat: st.total - bonus[st.seat] for st in final.classification}
            decided = min(without.values()) < without[final.winner] or list(without.values()).count(
                without[final.winner]) > 1
            stats["stand-in model: races decided by bonus time"] = float(decided)
            if len(final.classification) > 1:
                stats["stand-in model: winning margin (s)"] = float(final.classification[1].gap)
        tt_times = [line.added for sr in report.stages if sr.stage.time_trial for line in sr.riders
                    if line.ride is not None]
        if tt_times:
            stats["stand-in model: time-trial spread (s)"] = float(max(tt_times) - min(tt_times))
            stats["stand-in model: time-trial stage time (s)"] = sum(tt_times) / len(tt_times)
        return stats

    def describe(self, state: State) -> str | None:
        text = describe_race(self.cfg, self.report(state))
        live = state.live
        if live is not None and (live.rolls != (0,) * len(live.rolls) or live.retired):
            name = state.race.players[live.turn]
            text += f"\nStage {live.stage} in progress ({live.phase}); {name} to play."
        return text

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        cfg = self.cfg
        return {
            "bonus": list(cfg.bonus),
            "added_winners_turn": cfg.added_winners_turn,
            "added_extra_round": cfg.added_extra_round,
            "added_not_finished": cfg.added_not_finished,
            "recover_dice": cfg.recover_dice,
            "max_dice": cfg.max_dice,
            "retire_dice": cfg.retire_dice,
            "tt_seconds_per_roll": cfg.tt_seconds_per_roll,
            "tt_start_every": cfg.tt_start_every,
            "leader_max_players": cfg.leader_max_players,
            "stages": len(cfg.course),
            "unit": cfg.unit_text(lang),
            "start_dice": cfg.model.start_dice,
            "excluded_face": cfg.model.excluded_face,
        }

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name.startswith("standings/"):
            return self._example_standings(name, lang)
        return rulebook_tables(self.cfg, name, lang)

    def _example_standings(self, name: str, lang: str) -> list[list[str]]:
        """'standings/<example id>/<stage>': the standings a worked example's race file gives."""
        parts = name.split("/")
        if len(parts) != 3:
            raise KeyError(name)
        _, example_id, stage = parts
        example = next((e for e in load_examples(self.content) if e["id"] == example_id), None)
        if example is None or not stage.isdigit():
            raise KeyError(name)
        report = self.report(self.from_data(example["state"]))
        if not 1 <= int(stage) <= len(report.stages):
            raise KeyError(name)
        names, unit = report.race.players, self.cfg.unit_text(lang)
        head = ["総合順位", "プレイヤー", "総合時間", "時間差"] if lang == "ja" else ["Rank", "Rider", "Total", "Gap"]
        rows = [head]
        for st in report.stages[int(stage) - 1].standings:
            gap = "-" if st.rank == 1 else f"+{st.gap}{unit if lang == 'ja' else ' ' + unit}"
            total = f"{st.total}{unit}" if lang == "ja" else f"{st.total} {unit}"
            rows.append([f"{st.rank}位" if lang == "ja" else str(st.rank), names[st.seat], total, gap])
        return rows


def rulebook_tables(cfg: RaceConfig, name: str, lang: str) -> list[list[str]]:
    """Tables the rulebook prints, built from the rules data."""
    ja = lang == "ja"
    unit = cfg.unit_text(lang)
    if name == "course":
        head = ["ステージ", "種類", "ボード", "コスト合計", "備考"] if ja else [
            "Stage", "Type", "Boards", "Total cost", "Note"]
        rows = [head]
        for s in cfg.course:
            boards = ", ".join(f"{b} ({text_for(cfg.board_sides[side], lang)})" for b, side in s.boards)
            rows.append([str(s.number), cfg.type_name(s.type, lang), boards, str(s.total_cost),
                         text_for(s.note, lang) if s.note else ""])
        return rows
    if name == "bonus":
        head = ["ステージ順位", "ボーナスタイム"] if ja else ["Stage place", "Bonus time"]
        return [head] + [[f"{i + 1}位" if ja else f"{i + 1}", f"−{b} {unit}"] for i, b in enumerate(cfg.bonus)]
    if name == "time_rules":
        if ja:
            return [
                ["場面", "時間"],
                ["勝者の手番でゴール", f"+{cfg.added_winners_turn} {unit}"],
                ["追加ラウンドでゴール", f"+{cfg.added_extra_round} {unit}"],
                ["追加ラウンドでもゴールできず", f"+{cfg.added_not_finished} {unit}"],
                ["ボーナス 1〜3位", " / ".join(f"−{b}" for b in cfg.bonus) + f" {unit}"],
                ["個人TT", f"振った回数×{cfg.tt_seconds_per_roll} − 余った出目"],
                ["回復", f"各ステージ前に{cfg.recover_dice}個（上限{cfg.max_dice}個）"],
                ["リタイア後", f"次のステージにダイス{cfg.retire_dice}個で復帰"],
            ]
        return [
            ["Situation", "Time"],
            ["Finished in the winner's turn", f"+{cfg.added_winners_turn} {unit}"],
            ["Finished in the extra round", f"+{cfg.added_extra_round} {unit}"],
            ["Not finished after the extra round", f"+{cfg.added_not_finished} {unit}"],
            ["Bonus for places 1–3", " / ".join(f"−{b}" for b in cfg.bonus) + f" {unit}"],
            ["Time trial", f"rolls × {cfg.tt_seconds_per_roll} − pips left over"],
            ["Recovery", f"{cfg.recover_dice} die before each stage (at most {cfg.max_dice})"],
            ["After retiring", f"back next stage with {cfg.retire_dice} dice"],
        ]
    if name == "model":
        head = ["ステージ種類", "マスのコスト（くり返し）"] if ja else ["Stage type", "Cell costs (repeated)"]
        return [head] + [[cfg.type_name(t, lang), ", ".join(map(str, c))] for t, c in cfg.model.cell_costs.items()]
    raise KeyError(name)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


__all__ = ["StageRace", "State", "Live", "Stage"]
