"""Simulation harness: intervals, metrics, workers, bots and the skill check, on toy games."""

from __future__ import annotations

import math

import pytest
from test_harness_toys import EndlessNim, NimState, nim, pig

from pnpgen.engine.bots import make_bot, parse_bot, scaled_bot
from pnpgen.engine.metrics import distribution, histogram, wilson_interval
from pnpgen.engine.simulate import simulate, skill_check
from pnpgen.errors import PnpgenError
from tests.conftest import CliRun


def test_wilson_interval_values() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = wilson_interval(0, 20)
    assert (low, round(high, 4)) == (0.0, 0.1611)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_length_distribution() -> None:
    assert histogram([1, 2, 2, 3, 10], bins=3) == [(1, 4, 4), (5, 8, 0), (9, 12, 1)]
    dist = distribution([4, 1, 3, 2])
    assert (dist["min"], dist["median"], dist["max"]) == (1, 2.5, 4)


def test_first_player_advantage_balance_and_decisiveness() -> None:
    # One stone: seat 1 always takes it and wins.
    summary = simulate(nim(rules={"pile": 1}), 10, 1, ["random", "random"])
    assert summary.seat_wins == [10.0, 0.0]
    assert summary.metrics() == {"first_player_advantage": 0.5, "balance": 0.0, "decisiveness": 1.0}
    assert summary.to_data()["seats"][0]["interval95"] == list(wilson_interval(10, 10))


def test_draws_and_timeouts_counted_apart() -> None:
    summary = simulate(nim(), 100, 4, ["random", "random"])
    assert summary.draws == summary.ends["wind"] > 0
    assert summary.timeouts == 0
    assert summary.metrics()["decisiveness"] == (100 - summary.draws) / 100
    assert sum(summary.seat_wins) == 100 - summary.draws
    timed_out = simulate(nim(cls=EndlessNim), 6, 4, ["random", "random"])
    assert (timed_out.timeouts, timed_out.draws, timed_out.ends) == (6, 0, {"timeout": 6})


def test_results_identical_for_any_worker_count() -> None:
    rules = nim()
    bots = ["mcts:8", "greedy"]
    one = simulate(rules, 48, 11, bots, workers=1).to_data()
    two = simulate(rules, 48, 11, bots, workers=2).to_data()
    assert one == two
    assert one["games"] == 48 and sum(one["ends"].values()) == 48


def test_mcts_beats_random() -> None:
    summary = simulate(nim(), 60, 3, ["mcts:100", "random"])
    wins = summary.bot_wins["mcts:100"]
    low, _ = wilson_interval(wins, 60)
    assert low > 0.6, f"MCTS won {wins} of 60"
    assert summary.bot_wins.get("random", 0.0) < wins / 3


def test_mcts_plays_solo_games_better_than_random() -> None:
    rules = pig()
    random_rate = simulate(rules, 60, 5, ["random"]).win_rate(0)
    mcts = simulate(rules, 60, 5, ["mcts:40"])
    assert mcts.win_rate(0) > random_rate + 0.2
    assert mcts.stats["turns"] <= 5


def test_skill_check_finds_that_search_matters() -> None:
    check = skill_check(nim(), "mcts:4", players=2, games=80, seed=2)
    assert (check.weak, check.strong, check.fair_share) == ("mcts:4", "mcts:16", 0.5)
    assert check.interval[0] > 0.5 and check.matters


def test_bot_names() -> None:
    rules = nim()
    assert parse_bot(rules, "mcts:400") == ("mcts", 400)
    assert parse_bot(rules, "greedy") == ("greedy", None)
    assert parse_bot(rules, "uniform") == ("uniform", None)
    assert scaled_bot("mcts", 4) == "mcts:800" and scaled_bot("mcts:25", 4) == "mcts:100"
    for bad, message in [("mcts:0", "take a size"), ("random:3", "take a size"), ("deep", "unknown bot 'deep'")]:
        with pytest.raises(PnpgenError, match=message):
            make_bot(rules, bad)
    with pytest.raises(PnpgenError, match="no search to scale"):
        scaled_bot("greedy", 4)


def test_cut_playouts_are_judged_by_the_evaluation() -> None:
    import random

    from pnpgen.engine.mcts import MCTS

    rules = nim(simulation={"mcts_playout": 2})
    search = MCTS(rules, 50)
    assert search.playout_limit == 2
    start = rules.initial_state(2)
    # The toy rates every unfinished state 0.5 for both seats: a cut playout is a shared win.
    assert search._playout(start, random.Random(1), 2) == [0.5, 0.5]
    assert search._playout(NimState(1, 0, 1), random.Random(1), 2) == [1.0, 0.0]  # seat 1 takes the last stone
    # A seat ahead on the evaluation scores its margin over the best other seat, squashed.
    scaled = nim(simulation={"mcts_playout": 2, "mcts_scale": 20})
    scaled.evaluate = lambda state, seat: (10.0, -10.0)[seat]  # type: ignore[method-assign]
    judged = MCTS(scaled, 50)._judge(start, 2)
    assert judged == pytest.approx([1 / (1 + math.exp(-1)), 1 / (1 + math.exp(1))])  # margins +20 and -20
    # A wide root with one visit per move: the better mean decides, not the first move listed.
    calm = nim(simulation={"mcts_playout": 1, "mcts_scale": 5}, rules={"wind": {0: "1"}})
    calm.evaluate = lambda state, seat: float(15 - state.pile) * (1 if seat == 0 else -1)  # type: ignore[method-assign]
    assert MCTS(calm, 3).choose(calm.initial_state(2), random.Random(2)) == "t3"
    summary = simulate(rules, 40, 6, ["mcts:60", "random"])
    assert summary.bot_wins["mcts:60"] > 24


def test_solo_summary_counts_moves_used_in_wins() -> None:
    summary = simulate(pig(), 80, 2, ["random"])
    wins = round(summary.seat_wins[0])
    assert sum(summary.won_lengths.values()) == summary.wins == wins > 0
    data = summary.to_data()
    assert "first_player_advantage" not in data
    assert data["moves_used_in_wins"]["max"] == max(summary.won_lengths)
    assert data["seats"][0]["interval95"] == list(wilson_interval(wins, 80))


def test_simulate_in_a_terminal_prints_its_summary(run_pnpgen: CliRun) -> None:
    """Without --json or -q the progress bar runs on the lazy stderr console (rich's Progress
    enters it as a context manager); the summary follows."""
    code, out, err = run_pnpgen("simulate", "burning-desire", "-n", "5", "--seed", "1")
    assert code == 0, err
    assert "5 games, seed 1" in out and "win rate" in out.lower()


def test_blocks_cover_every_game_once_in_order_and_end_finer() -> None:
    from pnpgen.engine.simulate import blocks

    for start, stop, size in [(0, 626, 19), (5, 100, 7), (0, 3, 256), (0, 0, 5), (10, 11, 1), (0, 10_000, 256)]:
        found = blocks(start, stop, size)
        assert [i for a, b in found for i in range(a, b)] == list(range(start, stop))
        assert all(b - a <= max(1, size) for a, b in found)
        if stop - start > 8 * size:  # a long run ends in quarter-size blocks
            assert {b - a for a, b in found[-4:]} == {max(1, size // 4)}


def test_local_workers_are_kept_for_the_same_rules_and_stopped_by_close() -> None:
    """A ProcessRunner keeps its forked workers between runs of the same Rules (their caches
    stay warm); other Rules, a run stopped by its timeout, and close() each stop them. The
    games never change."""
    import os

    from pnpgen.engine.simulate import OutOfTime, ProcessRunner

    def worker_pids(runner: ProcessRunner) -> set[int]:
        return {process.pid for process in runner._pool._pool}  # multiprocessing.Pool's processes

    rules, other, bots = pig(), nim(), ["random", "random"]
    expected = simulate(rules, 40, 3, bots).to_data()
    with ProcessRunner(2) as runner:
        assert simulate(rules, 40, 3, bots, runner=runner).to_data() == expected
        first = worker_pids(runner)
        assert simulate(rules, 40, 4, bots, runner=runner).to_data() == simulate(rules, 40, 4, bots).to_data()
        assert worker_pids(runner) == first  # kept
        assert simulate(other, 40, 3, bots, runner=runner).to_data() == simulate(other, 40, 3, bots).to_data()
        assert not worker_pids(runner) & first  # other Rules: other workers
        with pytest.raises(OutOfTime):
            runner.tally(rules, ["mcts:1000000", "random"], 1, 0, 8, timeout=0.3)
        assert runner._pool is None  # the workers still searching were stopped
        assert simulate(rules, 40, 3, bots, runner=runner).to_data() == expected
        last = worker_pids(runner)
    assert runner._pool is None
    for pid in last:  # close() stopped and reaped them
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_skill_verdict_says_when_the_games_are_too_few() -> None:
    """A budgeted report may fit only a few skill games: 2 wins in 4 is not "no effect"."""
    from pnpgen.engine.simulate import SkillCheck

    def check(wins: int, games: int) -> SkillCheck:
        return SkillCheck("mcts:10", "mcts:40", games, 1, wins, wilson_interval(wins, games), 1 / 3)

    assert check(2, 4).verdict == "too few games to tell"
    assert check(14, 40).verdict == "no clear effect of skill"
    assert check(30, 40).verdict == "skill matters" and check(30, 40).matters


def _cores_in_worker(_: int) -> int:
    from pnpgen.engine.simulate import cores_here

    return cores_here()


def test_cores_here_is_one_inside_a_pool_worker() -> None:
    """Figures that fork their own workers (Fast Alone's difficulty tables) fall back to this
    process inside a pool's worker, which may not have children."""
    import multiprocessing
    import os

    from pnpgen.engine.simulate import cores_here, play_many

    assert cores_here() == (os.cpu_count() or 1)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map(_cores_in_worker, [0]) == [1]
    rules = pig()
    serial = [r.outcome for r in play_many(rules, 12, 3, ["random"])]
    assert [r.outcome for r in play_many(rules, 12, 3, ["random"], workers=2)] == serial
