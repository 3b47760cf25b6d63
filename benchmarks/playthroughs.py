"""Thousands of seeded random playthroughs of one game, every step checked: the game's
invariants (StateCodec.check: for Dungeon War pieces and cards conserved, caps, one piece a
square, ...), the step cap, and for a game with hidden information, every `--view-every`
steps, each seat's view against a state drawn from it (the view shows nothing more, the
drawn state passes the same checks, the seat to move has the same legal moves). At the end,
every end condition the game declares must have been reached.

    python benchmarks/playthroughs.py dungeon-war --games 1000 --players 2,3,4 [--workers 2]

`nox -s playthroughs` runs it for Dungeon War. Prints games, steps, ends and time per
player count; exit 1 on any problem.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.engine.capabilities import broken_invariants, hidden_information  # noqa: E402
from pnpgen.engine.protocol import CHANCE, TERMINAL  # noqa: E402
from pnpgen.engine.simulate import derive_seed  # noqa: E402
from pnpgen.games import find_rules  # noqa: E402

RULES: Any = None


def _load(game: str) -> None:
    global RULES
    RULES = find_rules(ROOT / "content", game)


def playthrough(job: tuple[int, int, int]) -> tuple[str, int, list[str]]:
    """(end condition, steps, problems) of game `index` at `players` seats."""
    players, index, view_every = job
    rules, seed = RULES, derive_seed(players, index)
    info = hidden_information(rules)
    rng, check_rng = random.Random(seed), random.Random(seed + 1)
    state = rules.initial_state(players)
    steps, problems = 0, []
    while (player := rules.current_player(state)) != TERMINAL:
        if steps >= rules.max_steps:
            return "timeout", steps, [f"seed {seed}: no end within {rules.max_steps} steps"]
        move = rules.sample_chance(state, rng) if player == CHANCE else rng.choice(rules.legal_moves(state))
        state = rules.apply(state, move)[0]
        steps += 1
        problems += [f"seed {seed}, step {steps}: {p}" for p in broken_invariants(rules, state)]
        if info is not None and steps % view_every == 0:
            for seat in range(players):
                view = info.view(state, seat)
                world = info.determinise(view, seat, check_rng)
                if world is None or info.view(world, seat) != view:
                    problems.append(f"seed {seed}, step {steps}: seat {seat + 1}'s view has no consistent state")
                    continue
                problems += [f"seed {seed}, step {steps}, drawn for seat {seat + 1}: {p}"
                             for p in broken_invariants(rules, world)]
                if rules.current_player(state) == seat and rules.legal_moves(world) != rules.legal_moves(state):
                    problems.append(f"seed {seed}, step {steps}: seat {seat + 1}'s moves differ in a drawn state")
        if problems:
            break
    return rules.outcome(state).end if not problems else "problem", steps, problems[:3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--view-every", type=int, default=10, help="check views every N steps")
    args = parser.parse_args()
    _load(args.game)
    failed = False
    declared = set(RULES.end_conditions())
    reached: set[str] = set()
    for players in (int(p) for p in args.players.split(",")):
        start = time.perf_counter()
        jobs = [(players, i, args.view_every) for i in range(args.games)]
        if args.workers > 1:
            with multiprocessing.get_context("fork").Pool(args.workers) as pool:
                results = pool.map(playthrough, jobs, chunksize=8)
        else:
            results = [playthrough(job) for job in jobs]
        elapsed = time.perf_counter() - start
        ends = Counter(end for end, _, _ in results)
        steps = sum(s for _, s, _ in results)
        problems = [p for _, _, ps in results for p in ps]
        reached |= set(ends)
        print(f"{RULES.id}, {players} players: {len(results)} games, {steps:,} steps checked, "
              f"ends {dict(sorted(ends.items()))}, {len(problems)} problems, {elapsed:.1f} s "
              f"({args.workers} worker(s))", flush=True)
        for problem in problems[:10]:
            print(f"  {problem}")
        failed |= bool(problems)
    missing = sorted(declared - reached)
    if missing:
        print(f"end conditions never reached: {', '.join(missing)}")
    sys.exit(1 if failed or missing else 0)


if __name__ == "__main__":
    main()
