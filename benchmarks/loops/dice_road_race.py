"""The Dice Road Race stage race (stand-in race model) played by uniformly random
riders, written directly with plain lists: no Rules, no states, no events. The
numbers (RaceConfig) and the stage-race arithmetic between stages (race.compute,
run once per stage) come from the game module."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.loops import Play
from pnpgen.games.dice_road_race.race import Race, Ride, StageResult, clockwise, compute


def dice_road_race(rules: Any, players: int) -> Play:
    cfg = rules.cfg
    model = cfg.model
    n = players
    cells_of = [model.cells(stage) for stage in cfg.course]

    def play(rng: random.Random) -> tuple[int, int]:
        race = Race(tuple(f"P{i + 1}" for i in range(n)))
        dice = [model.start_dice] * n
        steps = moves = 0
        for number, stage in enumerate(cfg.course, 1):
            st = _Stage(cells_of[number - 1], dice, model.excluded_face, model.keep_last_die, rng)
            racing, retired, finished = st.racing, st.retired, st.finished

            def ride(seat: int, time_trial: bool, st: _Stage = st) -> bool:
                nonlocal steps, moves
                done, used = st.ride(seat, time_trial)
                steps, moves = steps + used, moves + 1
                return done

            if stage.time_trial:
                order = [s for s, _ in compute(cfg, race).stages[-1].tt_order] if race.stages else []
                order = order or list(range(n))
                rnd = 0
                while any(racing):
                    rnd += 1
                    for i, seat in enumerate(order):
                        if 1 + i * cfg.tt_start_every <= rnd and racing[seat]:
                            ride(seat, True)
                rides = tuple((s, Ride(st.rolls[s], st.leftover[s])) for s in sorted(finished))
                result = StageResult(number, rides=rides, retired=tuple(retired), dice=_held(dice, retired))
            else:
                turn = (number - 1) % n if model.stage_start == "rotate" else 0
                winner = None
                while any(racing):
                    if ride(turn, False):
                        winner = turn
                        break
                    if not any(racing):
                        break
                    turn = next(s for s in clockwise(range(n), turn, n)[1:] + (turn,) if racing[s])
                extra: list[int] = []
                continued: list[int] = []
                if winner is not None:
                    for seat in [s for s in clockwise(range(n), winner, n)[1:] if racing[s]]:
                        if racing[seat] and ride(seat, False):
                            extra.append(seat)
                    while stage.settle_ties:  # final stage: play on while riders are level on time
                        partial = _normal(number, winner, extra, continued, retired, dice, n)
                        final = compute(cfg, Race(race.players, race.stages + (partial,))).final
                        level = [s for group in final.unsettled for s in group if racing[s]]
                        if not level:
                            break
                        for seat in clockwise(level, turn, n):
                            if racing[seat] and ride(seat, False):
                                continued.append(seat)
                result = _normal(number, winner, extra, continued, retired, dice, n)
            race = Race(race.players, race.stages + (result,))
            if number < len(cfg.course):
                after = compute(cfg, race).stages[-1].dice_after or {}
                dice = [after[s] for s in range(n)]
        return steps, moves

    return play


class _Stage:
    """Riders on one stage of the stand-in model."""

    def __init__(self, cells: tuple[int, ...], dice: list[int], excluded: int, keep_last: bool,
                 rng: random.Random) -> None:
        n = len(dice)
        self.cells, self.total, self.dice, self.excluded, self.keep_last, self.rng = (
            cells, sum(cells), dice, excluded, keep_last, rng)
        self.cell, self.racing, self.rolls, self.leftover = [0] * n, [True] * n, [0] * n, [0] * n
        self.retired: list[int] = []
        self.finished: list[int] = []

    def ride(self, seat: int, time_trial: bool) -> tuple[bool, int]:
        """One random decision (retire or roll): (finished, steps used)."""
        rng, cells, cell, dice = self.rng, self.cells, self.cell, self.dice
        if rng.randrange(2):  # retire
            self.racing[seat] = False
            self.retired.append(seat)
            return False, 1
        faces = [rng.randint(1, 6) for _ in range(dice[seat])]
        pips = sum(faces)
        lost = faces.count(self.excluded)
        dice[seat] = max(dice[seat] - lost, 1) if self.keep_last else dice[seat] - lost
        self.rolls[seat] += 1
        remaining = self.total - sum(cells[:cell[seat]])
        if pips >= remaining:
            self.racing[seat] = False
            self.leftover[seat] = pips - remaining
            self.finished.append(seat)
            return True, 2
        target = cell[seat]
        while target < len(cells) and pips >= cells[target]:
            pips -= cells[target]
            target += 1
        if time_trial:
            occupied = {c for s, c in enumerate(cell) if s != seat and self.racing[s] and c > 0}
            while target > cell[seat] and target in occupied:
                target -= 1
        cell[seat] = target
        return False, 2


def _held(dice: list[int], retired: list[int]) -> tuple[tuple[int, int], ...]:
    return tuple((s, d) for s, d in enumerate(dice) if s not in retired)


def _normal(number: int, winner: int | None, extra: list[int], continued: list[int], retired: list[int],
            dice: list[int], n: int) -> StageResult:
    winners = (winner,) if winner is not None else ()
    done = set(winners) | set(extra) | set(retired)
    return StageResult(number, winner, winners, tuple(extra), tuple(s for s in range(n) if s not in done),
                       tuple(continued), tuple(retired), dice=_held(dice, retired))


LOOPS = {"dice-road-race": dice_road_race}
