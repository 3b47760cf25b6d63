"""Bots that act only on their own view, for games with hidden information.

A game with the HiddenInformation capability (pnpgen.engine.protocol) tells what each seat
sees (`view`) and deals the unseen facts at random into a full state consistent with a
view (`determinise`). Every bot of such a game is wrapped here so that it never reads the
true state:

- random / uniform: unchanged. They pick among the legal moves of the seat to move, and the
  contract makes those the same in every state consistent with the seat's view.
- mcts: determinised MCTS (Perfect Information Monte Carlo, PIMC; Long et al. 2010, Cowling
  et al. 2012): `worlds` states are drawn from the view, a plain MCTS (mcts.py, unchanged)
  with iterations/worlds iterations picks a move in each, and the move most worlds pick
  wins (ties: the rng). The searches see a whole drawn world, so opponents in the tree play
  as if they knew it (PIMC's known "strategy fusion" weakness); the root decision itself
  rests only on the view.
- guided: the same, with the guided search (mcts.GuidedMCTS: moves ranked by the game's
  evaluation, tried best first, leaves judged instead of played out) in each world.
- any other bot (greedy, a game's own): given one state drawn from its view.

`simulation: mcts_worlds: N` in game.yaml sets the number of worlds (default 4).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from typing import Generic, TypeVar

from pnpgen.engine.capabilities import hidden_information, move_text
from pnpgen.engine.mcts import DEFAULT_ITERATIONS, MCTS, GuidedMCTS
from pnpgen.engine.protocol import Bot, HiddenInformation, Rules

DEFAULT_WORLDS = 4
UNWRAPPED = {"random", "uniform"}  # bots whose choice depends on the legal moves only
SEARCHES: dict[str, type[MCTS]] = {"mcts": MCTS, "guided": GuidedMCTS}  # run in each drawn world
S = TypeVar("S")
M = TypeVar("M")
V = TypeVar("V")


def worlds_of(rules: Rules[S, M]) -> int:
    sim = rules.content.data.get("simulation", {}) or {}
    return max(1, int(sim.get("mcts_worlds", DEFAULT_WORLDS)))


def drawn_world(rules: Rules[S, M], info: HiddenInformation[S, M, V], state: S, rng: random.Random) -> S:
    """A state drawn from what the seat to move sees of `state` (never `state`'s hidden facts)."""
    seat = rules.current_player(state)
    world = info.determinise(info.view(state, seat), seat, rng)
    if world is None:  # cannot happen for a state the game reached; the contract's tests check it
        raise ValueError(f"{rules.id}: no state fits seat {seat + 1}'s view")
    return world


def on_view(rules: Rules[S, M], base: str, size: int | None, bot: Bot[S, M]) -> Bot[S, M]:
    """`bot` made to act on the view of the seat to move (see the module docstring)."""
    info = hidden_information(rules)
    if info is None or base in UNWRAPPED:
        return bot
    if base in SEARCHES:
        return DeterminisedMCTS(rules, info, size or DEFAULT_ITERATIONS, worlds_of(rules), SEARCHES[base]).choose

    def choose(state: S, rng: random.Random) -> M:
        return bot(drawn_world(rules, info, state, rng), rng)

    return choose


class DeterminisedMCTS(Generic[S, M, V]):
    """PIMC: plain MCTS in several worlds drawn from the seat's view; the most chosen move."""

    def __init__(self, rules: Rules[S, M], info: HiddenInformation[S, M, V], iterations: int,
                 worlds: int, search: type[MCTS] = MCTS) -> None:
        self.rules, self.info = rules, info
        self.worlds = max(1, min(worlds, iterations))
        self.search = search(rules, max(1, iterations // self.worlds))

    def choose(self, state: S, rng: random.Random) -> M:
        first = drawn_world(self.rules, self.info, state, rng)
        moves = self.rules.legal_moves(first)
        if len(moves) == 1:
            return moves[0]
        votes: Counter[Hashable] = Counter()
        for i in range(self.worlds):
            world = first if i == 0 else drawn_world(self.rules, self.info, state, rng)
            votes[_key(self.rules, self.search.choose(world, rng))] += 1
        top = max(votes.values())
        return rng.choice([m for m in moves if votes.get(_key(self.rules, m), 0) == top])


def _key(rules: Rules[S, M], move: M) -> Hashable:
    try:
        hash(move)
        return move
    except TypeError:
        return move_text(rules, move)
