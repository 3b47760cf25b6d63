"""`pnpgen validate`: every check CI runs on a game's content.

Per game: schema, components, rulebook references, worked examples; then per
playable game: checked random playthroughs (pnpgen.verify), a seeded smoke test
with the game's own bots, end-condition coverage, and the golden playthrough.
Budgets come from game.yaml `simulation:` (verify_games, verify_seconds,
end_search_games, smoke_games) so CI stays within its time limit. With
`PNPGEN_TIME_BUDGETS=off` the seconds are ignored and every count is played in full, so
the verdict never depends on how busy the machine is (pnpgen's own test suite sets it).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pnpgen.booklint import check_japanese, check_players_book
from pnpgen.content.game import GameContent
from pnpgen.engine.bots import simulation_bots
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import Summary, simulate
from pnpgen.examples import check_examples
from pnpgen.games import rules_for_content
from pnpgen.render.kit import check_components
from pnpgen.render.rulebook import check_rulebook
from pnpgen.terms import bilingual_texts, check_terms
from pnpgen.verify import (
    determinism,
    golden_diff,
    golden_path,
    load_golden,
    record_golden,
    search_ends,
    unreached,
    verify,
    write_golden,
)

S = TypeVar("S")
M = TypeVar("M")

DEFAULT_SMOKE_GAMES = 20
DEFAULT_SEED = 1
DEFAULT_VERIFY_GAMES = 30
DEFAULT_VERIFY_SECONDS = 8.0
DEFAULT_END_SEARCH_GAMES = 300
DEFAULT_END_SEARCH_SECONDS = 4.0


def time_budget(sim: dict[str, Any], key: str, default: float) -> float | None:
    """A check's time budget in seconds from game.yaml, or None under PNPGEN_TIME_BUDGETS=off."""
    if os.environ.get("PNPGEN_TIME_BUDGETS", "").lower() == "off":
        return None
    return float(sim.get(key, default))


@dataclass
class Check:
    name: str
    problems: list[str] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def settings(content: GameContent) -> dict[str, Any]:
    return dict(content.data.get("simulation", {}) or {})


def run_smoke(rules: Rules[S, M], games: int, seed: int) -> tuple[Check, Summary]:
    """Seeded games with the game's bots, invariants checked after every step;
    timeouts are failures."""
    seated = simulation_bots(rules)
    summary = simulate(rules, games, seed, seated, check_invariants=True)
    problems = list(summary.problems)
    if summary.timeouts:
        problems.append(f"{summary.timeouts} game(s) hit the step cap of {rules.max_steps}")
    ends = ", ".join(f"{k} {v}" for k, v in sorted(summary.ends.items()))
    check = Check(f"smoke test {rules.id}", problems,
                  f"{games} games, seed {seed}, bots {','.join(seated)}; ends: {ends}")
    return check, summary


def verification_checks(rules: Rules[S, M], seed: int, smoke_games: int,
                        verify_games: int | None = None) -> list[Check]:
    """Checked playthroughs, smoke test and end-condition coverage for one game."""
    sim = settings(rules.content)
    games = verify_games if verify_games is not None else int(sim.get("verify_games", DEFAULT_VERIFY_GAMES))
    checks: list[Check] = []
    seen: Counter[str] = Counter()
    if games > 0:
        result = verify(rules, games, seed, time_budget(sim, "verify_seconds", DEFAULT_VERIFY_SECONDS))
        seen.update(result.ends)
        budget = " (stopped by the time budget)" if result.stopped_by_budget else ""
        players = f"{rules.min_players}–{rules.max_players}" if rules.max_players > rules.min_players else (
            str(rules.min_players))
        checks.append(Check(f"verification {rules.id}", result.problems,
                            f"{result.games} checked playthroughs{budget}, {players} players, "
                            f"{result.steps} steps, seed {seed}"))
        problems, note = determinism(rules, seed)
        checks.append(Check(f"determinism {rules.id}", problems, note))
    if smoke_games > 0:
        smoke, summary = run_smoke(rules, smoke_games, seed)
        seen.update(summary.ends)
        checks.append(smoke)
    declared = rules.end_conditions()
    if declared:
        rare = set(sim.get("unreached_ok", []) or [])  # ends random play cannot be expected to reach
        search_games = int(sim.get("end_search_games", DEFAULT_END_SEARCH_GAMES))
        seen.update(search_ends(rules, set(seen) | rare, search_games, seed,
                                time_budget(sim, "end_search_seconds", DEFAULT_END_SEARCH_SECONDS)))
        missing = unreached(rules, set(seen))
        problems = [f"end condition '{end}' ({declared[end]}) was never reached" for end in missing
                    if end not in rare]
        counts = ", ".join(f"{end} {seen[end]}" for end in declared if seen[end])
        notes = [f"; not reached, declared rare: {', '.join(e for e in missing if e in rare)}"] if rare & set(
            missing) else []
        checks.append(Check(f"end conditions {rules.id}", problems, f"observed: {counts or 'none'}" + "".join(notes)))
    return checks


def golden_checks(content: GameContent, all_rules: list[Rules[S, M]], golden_dir: Path | None,
                  seed: int, update: bool) -> list[Check]:
    """Compare (or, with update, rewrite) the golden playthroughs of a game folder."""
    if golden_dir is None:
        return []
    path = golden_path(golden_dir, content.id)
    if update:
        runs = [record_golden(rules, seed, simulation_bots(rules)) for rules in all_rules]
        write_golden(path, content.id, content.data.get("version"), runs)
        return [Check("golden playthroughs", detail=f"written to {path}")]
    stored = load_golden(path)
    if not stored:
        return [Check("golden playthroughs",
                      detail=f"none stored in {path} (pnpgen validate {content.id} --update-golden)")]
    checks = []
    for rules in all_rules:
        if rules.id not in stored:
            checks.append(Check(f"golden playthrough {rules.id}", [f"missing from {path}; run "
                                f"pnpgen validate {content.id} --update-golden"]))
            continue
        golden = stored[rules.id]
        problems = [f"{path.name}: {d}" for d in golden_diff(rules, golden)]
        checks.append(Check(f"golden playthrough {rules.id}", problems,
                            f"seed {golden['seed']}, {len(golden['steps'])} steps"))
    return checks


def colour_vision_check(content: GameContent, all_rules: list[Rules[S, M]]) -> Check:
    """Colours that tell elements apart, simulated for protanopia, deuteranopia and
    tritanopia (render/colourvision.py): a pair alike with no other cue fails."""
    from pnpgen.render.colourvision import check_game

    verdict = check_game(content, all_rules)
    return Check("colour vision", verdict.problems, verdict.detail)


def validate_game(
    content: GameContent,
    smoke_games: int | None = None,
    seed: int | None = None,
    golden_dir: Path | None = None,
    update_golden: bool = False,
    verify_games: int | None = None,
    simulated: bool = True,
) -> list[Check]:
    """Every check of a game folder; `simulated=False` (validate --quick) leaves out the ones
    that play games: checked playthroughs, determinism, smoke test, end conditions."""
    all_rules = rules_for_content(content)
    checks = [Check("schema and rules section", detail=f"{len(all_rules)} game(s)")]
    checks.append(Check("components", check_components(content, all_rules)))
    checks.append(colour_vision_check(content, all_rules))
    checks.append(Check("rulebook text and references", check_rulebook(content, all_rules)))
    checks.append(Check("players' book lint", check_players_book(content, all_rules)))
    checks.append(Check("terminology (glossary)", check_terms(content)))
    checks.append(Check("Japanese conventions (cards, sheets, every text)",
                        check_japanese((pair.where, pair.ja) for pair in bilingual_texts(content))))
    for result in check_examples(content, all_rules):
        checks.append(Check(f"example {result.example}", result.problems))
    sim = settings(content)
    games = smoke_games if smoke_games is not None else int(sim.get("smoke_games", DEFAULT_SMOKE_GAMES))
    start = seed if seed is not None else int(sim.get("seed", DEFAULT_SEED))
    for rules in all_rules if simulated else []:
        checks += verification_checks(rules, start, games, verify_games)
    checks += golden_checks(content, all_rules, golden_dir, start, update_golden)
    return checks
