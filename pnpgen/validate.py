"""`pnpgen validate`: every check CI runs on a game's content."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import simulate
from pnpgen.examples import check_examples
from pnpgen.games import rules_for_content

DEFAULT_SMOKE_GAMES = 20
DEFAULT_SEED = 1


@dataclass
class Check:
    name: str
    problems: list[str] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def smoke_test(rules: Rules[Any, Any], games: int, seed: int) -> Check:
    """Seeded games with invariants checked after every step; timeouts are failures."""
    sim = rules.content.data.get("simulation", {}) or {}
    bots = list(sim.get("bots", ["random"]))
    players = max(rules.min_players, min(len(bots), rules.max_players))
    seated = (bots * players)[:players]
    summary = simulate(rules, games, seed, seated, check_invariants=True)
    problems = list(summary.problems)
    if summary.ends.get("timeout"):
        problems.append(f"{summary.ends['timeout']} game(s) hit the step cap of {rules.max_steps}")
    ends = ", ".join(f"{k} {v}" for k, v in sorted(summary.ends.items()))
    return Check(
        f"smoke test {rules.id}",
        problems,
        f"{games} games, seed {seed}, bots {','.join(seated)}; ends: {ends}",
    )


def validate_game(
    content: GameContent, smoke_games: int | None = None, seed: int | None = None
) -> list[Check]:
    from pnpgen.render.kit import check_components
    from pnpgen.render.rulebook import check_rulebook

    all_rules = rules_for_content(content)
    checks = [Check("schema and rules section", detail=f"{len(all_rules)} game(s)")]
    checks.append(Check("components", check_components(content)))
    checks.append(Check("rulebook text and references", check_rulebook(content, all_rules)))
    for result in check_examples(content, all_rules):
        checks.append(Check(f"example {result.example}", result.problems))
    sim = content.data.get("simulation", {}) or {}
    games = smoke_games if smoke_games is not None else int(sim.get("smoke_games", DEFAULT_SMOKE_GAMES))
    start = seed if seed is not None else int(sim.get("seed", DEFAULT_SEED))
    for rules in all_rules:
        if games > 0:
            checks.append(smoke_test(rules, games, start))
    return checks
