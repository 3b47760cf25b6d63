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
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from pnpgen.content.game import GameContent
from pnpgen.engine.chance import dice_rolls
from pnpgen.engine.draws import below_each
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome, Rules
from pnpgen.errors import BadMove
from pnpgen.games.dice_road_race.config import RaceConfig, load_config
from pnpgen.games.dice_road_race.race import Race, RaceReport, Ride, StageResult, clockwise, compute
from pnpgen.games.words import number

Move = tuple[str, tuple[int, ...]]  # ("roll", ()), ("retire", ()), ("dice", faces high to low)
ROLL: Move = ("roll", ())
RETIRE: Move = ("retire", ())

PHASES = ("race", "extra", "play_on", "time_trial")
_DIE = 6  # the model's dice are d6


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


class State(NamedTuple):
    """A race: the stages done and the one in progress (None once the race is over). A tuple:
    every step makes one, and _new(State, (race, live)) is the cheapest way."""

    race: Race
    live: Live | None = None


def roll_outcomes(dice: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every multiset of `dice` d6 faces (high to low) with its exact probability."""
    return dice_rolls(dice, (6, 5, 4, 3, 2, 1))


class StageRaceRules(Rules[State, Move]):
    """Five-stage race: the real stage-race rules over the stand-in race model. The
    mechanics and the notation; state files, analysis and presentation are composed
    onto them in the package's StageRace."""

    max_steps = 20_000

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.cfg: RaceConfig = load_config(self.settings)
        self._last_report: tuple[Race, RaceReport] | None = None
        self._initial: dict[int, State] = {}
        # per stage number: the model's cell costs, and what is left to pay from each cell on
        self._cells = {number: (cells, tuple(sum(cells[i:]) for i in range(len(cells) + 1)))
                       for number, cells in ((k, self.model_cells(k)) for k in range(1, len(self.cfg.course) + 1))}

    # --- race arithmetic ---------------------------------------------------------------
    def report(self, state: State) -> RaceReport:
        return self.race_report(state.race)

    def race_report(self, race: Race) -> RaceReport:
        """The standings of a race; the last one is kept, since stage end, the next stage's
        start, the outcome and the statistics all ask about the same race in turn."""
        last = self._last_report
        if last is None or last[0] is not race:
            # a race grows a stage at a time: only the new stages are computed
            self._last_report = last = (race, compute(self.cfg, race, last[1] if last else None))
        return last[1]

    @lru_cache(maxsize=32)  # noqa: B019 - one Rules per content, kept for the process
    def model_cells(self, stage: int) -> tuple[int, ...]:
        """The stand-in model's cell costs for a stage number."""
        return self.cfg.model.cells(self.cfg.course[stage - 1])

    def num_players(self, state: State) -> int:
        return len(state.race.players)

    # --- lifecycle ---------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        state = self._initial.get(players)
        if state is None:  # states are immutable: one per player count serves every race
            race = Race(tuple(f"P{i + 1}" for i in range(players)))
            dice = (self.cfg.model.start_dice,) * players
            state = self._initial[players] = State(race, self._start_stage(race, 1, dice))
        return state

    def _start_stage(self, race: Race, number: int, dice: tuple[int, ...]) -> Live:
        n = len(race.players)
        zeros = (0,) * n
        if self.cfg.course[number - 1].time_trial:
            order = tuple(s for s, _ in self.race_report(race).stages[-1].tt_order) if race.stages else ()
            start = Live(number, "time_trial", 0, False, dice, zeros, (True,) * n, zeros, zeros,
                         tt_order=order or tuple(range(n)))
            values: list[Any] = list(start)
            self._tt_next_round(values)
            values[_TURN] = values[_QUEUE][0]
            return _new(Live, values)
        first = (number - 1) % n if self.cfg.model.stage_start == "rotate" else 0
        return Live(number, "race", first, False, dice, zeros, (True,) * n, zeros, zeros)

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
        live = state.live
        assert live is not None
        faces = [r + 1 for r in below_each(_DIE, live.dice[live.turn], rng)]  # rng.randint(1, 6) per die
        faces.sort(reverse=True)
        return ("dice", tuple(faces))

    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        new, events = self._step(state, move, True)
        return new, events

    def apply_unchecked(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        """apply() for a move the engine drew: no checks, and the events' kinds only."""
        new, kinds = self._step(state, move, False)
        return new, tuple(kinds)

    def _step(self, state: State, move: Move, checked: bool) -> tuple[State, list[Any]]:
        """apply's one core: with `checked`, its checks and Events; without, the kinds only."""
        live = state.live
        if live is None:
            raise IllegalMove("RR-9", "the race is over")
        kind, faces = move
        if checked:
            self._refuse(state.race.players[live.turn], live, kind, faces)
        if live.rolling:
            return self._move(state.race, live, faces, [] if checked else None)
        if kind == "retire":
            name = state.race.players[live.turn]
            return self._retire(state.race, live, [Event("retire", f"{name} retires: total time lost; back next "
                                                         f"stage with {self.cfg.retire_dice} dice",
                                                         {"player": name})] if checked else None)
        values = list(live)  # roll
        values[_ROLLING] = True
        return _new(State, (state.race, _new(Live, values))), []

    def _refuse(self, name: str, live: Live, kind: str, faces: tuple[int, ...]) -> None:
        """Raise IllegalMove naming the rule when the move cannot be played now."""
        if live.rolling and kind != "dice":
            raise IllegalMove("RR-M", f"{name} has rolled; the dice must be read first")
        if live.rolling and (len(faces) != live.dice[live.turn] or any(not 1 <= f <= 6 for f in faces)):
            raise IllegalMove("RR-M", f"{name} rolls {live.dice[live.turn]} dice, the outcome shows {len(faces)}")
        if not live.rolling and kind == "dice":
            raise IllegalMove("RR-M", f"{name} has not chosen to roll yet")

    # A step copies the Live into a list once, changes it in place, and makes one new Live of
    # it (or closes the stage); `events` are Events, or None on the fast path (kinds only).
    def _retire(self, race: Race, live: Live, events: list[Any] | None) -> tuple[State, list[Any]]:
        seat = live.turn
        values = list(live)
        values[_RACING] = _set(live.racing, seat, False)
        if seat not in live.retired:
            values[_RETIRED] = live.retired + (seat,)
        if events is None:
            return self._advance(race, values, ["retire"], True)
        return self._advance(race, values, events, False)

    def _move(self, race: Race, live: Live, faces: tuple[int, ...], events: list[Any] | None
              ) -> tuple[State, list[Any]]:
        """Pay cells with the rolled pips, lose excluded dice, maybe finish."""
        seat = live.turn
        model = self.cfg.model
        cells, rest = self._cells[live.stage]
        pips = sum(faces)
        start = at = live.cell[seat]
        had = live.dice[seat]
        dice = had - faces.count(model.excluded_face)
        if model.keep_last_die and dice < 1:
            dice = 1
        finished = pips >= rest[at]
        if events is None:
            kinds: list[Any] = ["roll", "excluded"] if dice < had else ["roll"]
            if finished:
                kinds.append("finish")
        else:
            kinds = events
            self._move_events(race.players[seat], live.stage, faces, had - dice, finished, events)
        values = list(live)
        values[_ROLLING] = False
        values[_DICE] = _set(live.dice, seat, dice)
        values[_ROLLS] = _set(live.rolls, seat, live.rolls[seat] + 1)
        if finished:
            self._finish(values, seat, pips - rest[at])
            return self._advance(race, values, kinds, events is None)
        while pips >= cells[at]:  # cannot run off the end: the rest is more than pips
            pips -= cells[at]
            at += 1
        if live.phase == "time_trial":  # no stopping on an occupied cell
            racing = live.racing
            occupied = {c for s, c in enumerate(live.cell) if s != seat and racing[s] and c > 0}
            while at > start and at in occupied:
                at -= 1
        values[_CELL] = _set(live.cell, seat, at)
        return self._advance(race, values, kinds, events is None)

    @staticmethod
    def _move_events(name: str, stage: int, faces: tuple[int, ...], lost: int, finished: bool,
                     events: list[Any]) -> None:
        pips = sum(faces)
        events.append(Event("roll", lambda: f"{name} rolls {' '.join(map(str, faces))}",
                            {"player": name, "pips": pips}))
        if lost:
            events.append(Event("excluded", f"{name} loses {lost} dice", {"player": name}))
        if finished:
            events.append(Event("finish", f"{name} finishes stage {stage}", {"player": name}))

    @staticmethod
    def _finish(values: list[Any], seat: int, leftover: int) -> None:
        """Mark a rider finished (values: a Live as a list, changed in place)."""
        values[_RACING] = _set(values[_RACING], seat, False)
        values[_LEFTOVER] = _set(values[_LEFTOVER], seat, leftover)
        phase = values[_PHASE]
        if phase == "time_trial":
            values[_TT_FINISHED] += (seat,)
        elif phase == "race":
            values[_PHASE], values[_TURN_PLAYER], values[_WINNERS_TURN], values[_QUEUE] = "extra", seat, (seat,), ()
        elif phase == "extra":
            values[_EXTRA_ROUND] += (seat,)
        else:
            values[_CONTINUED] += (seat,)

    def _advance(self, race: Race, values: list[Any], events: list[Any], quiet: bool) -> tuple[State, list[Any]]:
        """Pass the turn on (values: the Live as a list); close the stage when it is over."""
        phase, turn, racing, queue = values[_PHASE], values[_TURN], values[_RACING], values[_QUEUE]
        if phase == "race":
            if True not in racing:
                return self._close(race, _new(Live, values), events, quiet)
            values[_TURN] = _next_racing(racing, turn)
            return _new(State, (race, _new(Live, values))), events
        if phase == "time_trial":
            if queue and queue[0] == turn:
                values[_QUEUE] = queue[1:]
            self._tt_next_round(values)
            if values[_QUEUE]:
                values[_TURN] = values[_QUEUE][0]
                return _new(State, (race, _new(Live, values))), events
            return self._close(race, _new(Live, values), events, quiet)
        n = len(racing)
        if phase == "extra" and turn == values[_TURN_PLAYER] and values[_WINNERS_TURN] and not queue:
            # the winner's turn just ended: one extra round from the winner, clockwise
            queue = clockwise(range(n), turn, n)[1:]
        elif queue and queue[0] == turn:
            queue = queue[1:]
        queue = values[_QUEUE] = tuple(s for s in queue if racing[s])
        if queue:
            values[_TURN] = queue[0]
            return _new(State, (race, _new(Live, values))), events
        live = _new(Live, values)
        if self.cfg.course[live.stage - 1].settle_ties:
            unsettled = self._unsettled(race, live)
            if unsettled:
                queue = clockwise(unsettled, turn, n)
                live = _but(live, phase="play_on", queue=queue, turn=queue[0])
                return _new(State, (race, live)), events
        return self._close(race, live, events, quiet)

    def _tt_next_round(self, values: list[Any]) -> None:
        """Fill an empty time-trial queue with the next round's riders (started, still racing);
        values: a Live as a list, changed in place."""
        every, racing, order = self.cfg.tt_start_every, values[_RACING], values[_TT_ORDER]
        while not values[_QUEUE] and True in racing:
            values[_TT_ROUND] = rnd = values[_TT_ROUND] + 1
            values[_QUEUE] = tuple(s for i, s in enumerate(order) if 1 + i * every <= rnd and racing[s])

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
        last = self._last_report
        final = compute(self.cfg, _plus(race, self._result(live)),
                        last[1] if last else None).final
        return [s for group in final.unsettled for s in group if live.racing[s]]

    def _close(self, race: Race, live: Live, events: list[Any], quiet: bool) -> tuple[State, list[Any]]:
        """End the stage; `events` are Events, or kinds only on the fast path."""
        result = self._result(live)
        race = _plus(race, result)
        report = self.race_report(race).stages[-1]
        names = race.players

        def text() -> str:
            standings = ", ".join(f"{names[s.seat]} {s.total}" for s in report.standings)
            return f"stage {live.stage} ends; overall: {standings}"

        events.append("stage_end" if quiet else Event("stage_end", text, {"stage": live.stage}))
        if live.stage == len(self.cfg.course):
            return _new(State, (race, None)), events
        after = report.dice_after
        assert after is not None
        dice = tuple(after[s] for s in range(len(names)))
        return _new(State, (race, self._start_stage(race, live.stage + 1, dice))), events

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

    # --- notation ---------------------------------------------------------------------------
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


_LIVE_FIELDS = {name: index for index, name in enumerate(Live._fields)}
(_PHASE, _TURN, _ROLLING, _DICE, _CELL, _RACING, _ROLLS, _LEFTOVER, _TURN_PLAYER, _WINNERS_TURN, _EXTRA_ROUND,
 _CONTINUED, _RETIRED, _QUEUE, _TT_ORDER, _TT_ROUND, _TT_FINISHED) = map(_LIVE_FIELDS.__getitem__, (
    "phase", "turn", "rolling", "dice", "cell", "racing", "rolls", "leftover", "turn_player", "winners_turn",
    "extra_round", "continued", "retired", "queue", "tt_order", "tt_round", "tt_finished"))
_new = tuple.__new__  # _new(Live, values): a Live of a list of its fields, without __new__'s arguments


def _next_racing(racing: tuple[bool, ...], seat: int) -> int:
    """The next seat clockwise after `seat` still racing (some other seat is)."""
    seat += 1
    while True:
        if seat == len(racing):
            seat = 0
        if racing[seat]:
            return seat
        seat += 1


def _plus(race: Race, result: StageResult) -> Race:
    """The race with one more stage (dataclasses.replace without its checks)."""
    new: Race = object.__new__(Race)
    new.__dict__.update(race.__dict__, stages=race.stages + (result,))
    return new


def _but(live: Live, **changes: Any) -> Live:
    """live._replace(**changes), three times as fast (a race makes thousands)."""
    values = list(live)
    for key, value in changes.items():
        values[_LIVE_FIELDS[key]] = value
    return _new(Live, values)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


__all__ = ["Live", "StageRaceRules", "State", "roll_outcomes"]
