"""The referee: a state plus a move in, a verdict citing the rule out.

Exit codes of `pnpgen referee`: 0 legal, 1 illegal, 2 malformed input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Rules
from pnpgen.errors import ImpossibleState


@dataclass
class Verdict:
    legal: bool
    move: str
    rule: str | None = None
    reason: str | None = None
    events: list[Event] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "move": self.move,
            "rule": self.rule,
            "reason": self.reason,
            "events": [e.to_data() for e in self.events],
            "state": self.state,
        }


def load_state(rules: Rules[Any, Any], path: Path) -> Any:
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ImpossibleState("a state file must be a mapping", path, 1, 1)
    state = rules.from_data(data)
    problems = rules.check(state)
    if problems:
        raise ImpossibleState(problems[0], path)
    return state


def judge(rules: Rules[Any, Any], state: Any, move_text: str) -> Verdict:
    move = rules.parse_move(move_text, state)
    canonical = rules.format_move(move)
    if rules.current_player(state) == TERMINAL:
        return Verdict(False, canonical, "end", "the game is already over")
    try:
        new_state, events = rules.apply(state, move)
    except IllegalMove as err:
        return Verdict(False, canonical, err.rule, err.reason)
    return Verdict(True, canonical, None, None, events, rules.to_data(new_state))


def legal_move_texts(rules: Rules[Any, Any], state: Any) -> list[str]:
    """Every legal move (or chance outcome, with its probability) in notation."""
    player = rules.current_player(state)
    if player == CHANCE:
        return [f"{rules.format_move(m)}  p={p}" for m, p in rules.chance_outcomes(state)]
    return [rules.format_move(m) for m in rules.legal_moves(state)]
