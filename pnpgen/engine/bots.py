"""Bots every game gets for free; a game with the Analysis capability adds its own."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from typing import Any, TypeVar

from pnpgen.engine import draws
from pnpgen.engine.capabilities import evaluation, hidden_information, move_sampler, own_bots
from pnpgen.engine.hidden import on_view
from pnpgen.engine.mcts import DEFAULT_ITERATIONS, guided_bot, mcts_bot
from pnpgen.engine.protocol import Bot, Rules
from pnpgen.errors import PnpgenError
from pnpgen.limits import MAX_MCTS_ITERATIONS

T = TypeVar("T")
S = TypeVar("S")
M = TypeVar("M")


def uniform_bot(rules: Rules[S, M]) -> Bot[S, M]:
    """Uniform over every legal move."""
    legal_moves = rules.legal_moves

    def choose(state: S, rng: random.Random) -> M:
        moves = legal_moves(state)
        if not moves:
            raise IndexError("no legal move to choose from")
        return draws.choice(moves, rng)  # rng.choice's own draw

    return choose


def random_bot(rules: Rules[S, M]) -> Bot[S, M]:
    """The random player of every game: the game's lazy random move (Analysis.sample_move),
    uniform over legal_moves where it has none. No game writes a random bot of its own."""
    return move_sampler(rules)


def best_of(scored: Iterable[tuple[T, float]], rng: random.Random, tolerance: float = 1e-12) -> T:
    """The item of highest value. Values within `tolerance` of the best tie, and the rng picks
    among the ties in the order given, so the same seed makes the same choice."""
    best: list[T] = []
    best_value = float("-inf")
    for item, value in scored:
        if value > best_value + tolerance:
            best, best_value = [item], value
        elif abs(value - best_value) <= tolerance:
            best.append(item)
    return rng.choice(best)


def greedy_bot(rules: Rules[S, M]) -> Bot[S, M]:
    """One-move look-ahead on the game's evaluation; ties broken by the rng."""

    evaluate = evaluation(rules)

    def choose(state: S, rng: random.Random) -> M:
        seat = rules.current_player(state)
        return best_of(((move, evaluate(rules.apply(state, move)[0], seat))
                        for move in rules.legal_moves(state)), rng)

    return choose


def search_bot(rules: Rules[S, M], iterations: int | None = None) -> Bot[S, M]:
    return mcts_bot(rules, iterations or DEFAULT_ITERATIONS)


# Generic bots; a bot taking a size is named "name:N" (e.g. "mcts:400" iterations).
# "uniform" is always the generic uniform random bot, even where a game has its own "random".
GENERIC_BOTS: dict[str, Callable[..., Bot[Any, Any]]] = {
    "random": random_bot,
    "uniform": uniform_bot,
    "greedy": greedy_bot,
    "mcts": search_bot,
    "guided": guided_bot,  # MCTS guided by the game's evaluation (mcts.GuidedMCTS)
}
SIZED_BOTS = {"mcts", "guided"}


def available_bots(rules: Rules[S, M]) -> list[str]:
    return sorted(set(GENERIC_BOTS) | set(own_bots(rules)))


def parse_bot(rules: Rules[S, M], name: str) -> tuple[str, int | None]:
    """Split "mcts:400" into ("mcts", 400), checking the name exists."""
    base, _, size = name.partition(":")
    if base not in own_bots(rules) and base not in GENERIC_BOTS:
        raise PnpgenError(f"unknown bot '{name}' for {rules.id}; bots: {', '.join(available_bots(rules))}")
    if not size:
        return base, None
    if base not in SIZED_BOTS or base in own_bots(rules) or not (size.isascii() and size.isdigit()) \
            or not size.strip("0"):
        raise PnpgenError(f"bot '{name}': only {', '.join(sorted(SIZED_BOTS))} take a size, as name:N with N ≥ 1")
    if len(size.lstrip("0")) > 12 or int(size) > MAX_MCTS_ITERATIONS:  # a search per decision: bounded
        raise PnpgenError(f"bot '{name}': {base} takes 1 to {MAX_MCTS_ITERATIONS:,} iterations ({base}:N)")
    return base, int(size)


def scaled_bot(name: str, factor: int) -> str:
    """The same bot with `factor` times the search ("mcts:100" -> "mcts:400")."""
    base, _, size = name.partition(":")
    if base not in SIZED_BOTS:
        raise PnpgenError(f"bot '{name}' has no search to scale; use mcts or mcts:N")
    return f"{base}:{int(size or DEFAULT_ITERATIONS) * factor}"


def simulation_bots(rules: Rules[S, M]) -> list[str]:
    """The bots a game plays itself with by default, one per seat: game.yaml
    `simulation: bots` (random when none), cycled to fill the seats within the player
    counts (used by `pnpgen validate`'s smoke test, golden playthroughs and reports)."""
    bots = list((rules.content.data.get("simulation", {}) or {}).get("bots", ["random"]))
    players = max(rules.min_players, min(len(bots), rules.max_players))
    return (bots * players)[:players]


def make_bot(rules: Rules[S, M], name: str) -> Bot[S, M]:
    """A bot by name: the game's own bots take precedence over the generic ones. In a game
    with hidden information every bot acts on its seat's view (pnpgen.engine.hidden).
    Every call makes a new bot (a bot may keep state); finding how is done once."""
    return _bot_maker(rules, name)()


@lru_cache(maxsize=64)  # a simulation makes bots for every game: look the name up once
def _bot_maker(rules: Rules[S, M], name: str) -> Callable[[], Bot[S, M]]:
    base, size = parse_bot(rules, name)
    own = own_bots(rules)
    factory: Callable[[], Bot[S, M]]
    if base in own and base != "uniform":
        factory = own[base]
    elif size is not None:
        factory = partial(GENERIC_BOTS[base], rules, size)
    else:
        factory = partial(GENERIC_BOTS[base], rules)
    if hidden_information(rules) is None:  # on_view leaves the bot as it is
        return factory
    return lambda: on_view(rules, base, size, factory())
