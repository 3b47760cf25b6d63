"""The difficulty table of a puzzle's rulebook chapter, from a seeded simulation.

For each board side and each bot (a random player and the solver): the win rate with
its 95% Wilson interval, the mean turns used and the mean score of the games won.
Figures are computed when the table is first asked for and kept for the process (the
Japanese and English rulebooks share them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpgen.engine.metrics import wilson_interval
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import play_many

BOT_NAMES = {"random": {"ja": "ランダム", "en": "random player"}, "solver": {"ja": "ソルバー", "en": "solver"}}


@dataclass(frozen=True)
class Difficulty:
    games: int
    wins: int
    interval: tuple[float, float]
    turns: float  # mean of game_stats()["turns"]
    score: float  # mean score of the games won (0 when none)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


_measured: dict[tuple[str, str, int, int], Difficulty] = {}


def measure(rules: Rules[Any, Any], bot: str, games: int, seed: int) -> Difficulty:
    key = (rules.id, bot, games, seed)
    if key not in _measured:
        records = list(play_many(rules, games, seed, [bot]))
        won = [r for r in records if r.outcome.winners]
        turns = sum(r.stats.get("turns", 0.0) for r in records) / max(1, len(records))
        score = sum(r.outcome.scores[0] for r in won) / len(won) if won else 0.0
        _measured[key] = Difficulty(len(records), len(won), wilson_interval(len(won), len(records)), turns, score)
    return _measured[key]


def settings(rules: Rules[Any, Any], data: Any) -> tuple[int, int, list[str]]:
    """(games, seed, bots): games and bots from the puzzle's `difficulty:` data, the seed
    from game.yaml `simulation: seed:`."""
    sim = rules.content.data.get("simulation", {}) or {}
    spec = data["difficulty"]
    return int(spec["games"]), int(sim.get("seed", 1)), [str(b) for b in spec["bots"]]


def difficulty_table(sides: list[tuple[str, Rules[Any, Any]]], games: int, seed: int, bots: list[str],
                     lang: str) -> list[list[str]]:
    """Header row, then one row per side and bot."""
    ja = lang == "ja"
    head = (["面", "プレイヤー", "勝率", "95%区間", "手番", "勝った時の得点"] if ja else
            ["Side", "Player", "Win rate", "95% interval", "Turns", "Score when won"])
    rows = [head]
    for name, rules in sides:
        for bot in bots:
            d = measure(rules, bot, games, seed)
            low, high = d.interval
            rows.append([name, BOT_NAMES.get(bot, {}).get(lang, bot), f"{d.rate:.0%}",
                         f"{low:.0%}–{high:.0%}", f"{d.turns:.1f}", f"{d.score:.1f}" if d.wins else "–"])
    return rows
