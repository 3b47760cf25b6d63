"""The Dice Road Race's analysis: the rider bots (always roll; retire when far behind),
the evaluation and per-race figures, all on the stand-in race model (D-RR-1)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Bot
from pnpgen.games.dice_road_race.model import RETIRE, ROLL, Move, State

if TYPE_CHECKING:
    from pnpgen.games.dice_road_race.game import StageRace


def retire_gaps(rules: StageRace) -> tuple[int, ...]:
    """simulation.retire_gaps: one retiring bot per gap."""
    return tuple(int(gap) for gap in rules.simulation.get("retire_gaps", []))


def evaluate(rules: StageRace, state: State, seat: int) -> float:
    if state.live is None:
        return float(rules.is_terminal(state) and seat in rules.outcome(state).winners)
    standings = rules.report(state).stages[-1].standings if state.race.stages else []
    total = next((st.gap for st in standings if st.seat == seat), None)
    return -1000.0 if seat in state.live.retired else -float(total or 0)


def bots(rules: StageRace) -> dict[str, object]:
    bots: dict[str, object] = {"rider": lambda: _rider_bot(rules, None)}
    for gap in rules.retire_gaps:
        bots[f"retirer-{gap}"] = lambda gap=gap: _rider_bot(rules, gap)
    return bots


def _rider_bot(rules: StageRace, retire_gap: int | None) -> Bot[State, Move]:
    """Always rolls; with a gap, retires once when that far behind the overall leader."""

    def choose(state: State, rng: random.Random) -> Move:
        if retire_gap is None or state.live is None or not state.race.stages:
            return ROLL
        seat = state.live.turn
        if any(seat in s.retired for s in state.race.stages) or seat in state.live.retired:
            return ROLL
        standings = rules.report(state).stages[-1].standings
        gap = next((st.gap for st in standings if st.seat == seat), 0)
        return RETIRE if gap >= retire_gap else ROLL

    return choose


def game_stats(rules: StageRace, state: State) -> dict[str, float]:
    """Figures of one simulated race. All rest on the stand-in race model (D-RR-1)."""
    report = rules.report(state)
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
