"""The referee: a state plus a move in, a verdict citing the rule out.

Exit codes of `pnpgen referee`: 0 legal, 1 illegal, 2 malformed input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnpgen import limits
from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.capabilities import codec, notation, picture
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Rules
from pnpgen.errors import ImpossibleState, PnpgenError
from pnpgen.output import atomic_output
from pnpgen.scene import beside, to_svg


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


class _StateDumper(yaml.SafeDumper):
    """YAML for people: a list of plain values on one line (`grid: [[3, 1, 4], ...]` rows)."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(not isinstance(v, dict | list) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_StateDumper.add_representer(list, _represent_list)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def dump_data(data: Any) -> str:
    """State data as the referee prints it and reads it back (`load_state`)."""
    return yaml.dump(_plain(data), Dumper=_StateDumper, allow_unicode=True, sort_keys=False, width=100)


def dump_state(rules: Rules[Any, Any], state: Any) -> str:
    """A state file's text: what `pnpgen referee` prints, and `load_state` accepts back."""
    return dump_data(codec(rules).to_data(state))


def load_state(rules: Rules[Any, Any], path: Path) -> Any:
    """Read a state file (as `dump_state` writes it); bad data is one ImpossibleState line."""
    data = load_yaml(path, limit=limits.MAX_STATE_BYTES, what="state file")
    if data is None:
        raise ImpossibleState("the state file is empty; a state is a mapping (see --example-state)", path, 1, 1)
    if not isinstance(data, dict):
        raise ImpossibleState("a state file must be a mapping", path, 1, 1)
    if {"ok", "errors", "state"} <= set(data) and isinstance(data["state"], dict):
        data = data["state"]  # what `--json` printed (docs/json.md): its state
    state = codec(rules).from_data(data)
    problems = codec(rules).check(state)
    if problems:
        raise ImpossibleState(problems[0], path, 1, 1)
    return state


def judge(rules: Rules[Any, Any], state: Any, move_text: str) -> Verdict:
    move = notation(rules).parse_move(move_text, state)
    canonical = notation(rules).format_move(move)
    if rules.current_player(state) == TERMINAL:
        return Verdict(False, canonical, "end", "the game is already over")
    try:
        new_state, events = rules.apply(state, move)
    except IllegalMove as err:
        return Verdict(False, canonical, err.rule, err.reason)
    return Verdict(True, canonical, None, None, events, codec(rules).to_data(new_state))


def legal_move_texts(rules: Rules[Any, Any], state: Any) -> list[str]:
    """Every legal move (or chance outcome, with its probability) in notation."""
    player, write = rules.current_player(state), notation(rules).format_move
    if player == CHANCE:
        return [f"{write(m)}  p={p}" for m, p in rules.chance_outcomes(state)]
    return [write(m) for m in rules.legal_moves(state)]


def position_svg(rules: Rules[Any, Any], state: Any, move_text: str | None) -> str:
    """The position as SVG: with a move, before (the move marked) and after; a refused move
    is marked on the position alone."""
    moves, after = [], None
    if move_text is not None:
        move = notation(rules).parse_move(move_text, state)
        moves = [move]
        try:
            after, _ = rules.apply(state, move)
        except IllegalMove:
            after = None
    scene = picture(rules, state, moves, after, ("before", "after"))
    if scene is None:
        raise PnpgenError(f"{rules.id} draws no pictures of its positions (Presentation.draw)")
    if moves and after is None:
        scene = beside([scene], captions=["refused"])
    title = f"{rules.id}: {move_text}" if move_text else rules.id
    return to_svg(scene, title=title)


def write_position_svg(path: Path, rules: Rules[Any, Any], state: Any, move_text: str | None) -> None:
    text = position_svg(rules, state, move_text)
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
