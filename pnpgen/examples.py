"""Worked examples: every example in a game's YAML is replayed through its engine.

An example is data:
    id: ex-1
    title: {ja: ..., en: ...}
    text: {ja: ..., en: ...}        # what the rulebook prints around it
    state: {...}                    # a referee state
    moves: ["score 4-6"]            # applied in order
    expect:
      state: {...}                  # partial match against the resulting state data
      events: [{kind: ..., data: {...}}]   # each must appear, in order
      illegal: rule-id              # the last move must be refused under this rule
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Schema, Text, check
from pnpgen.content.yamlpos import YList
from pnpgen.engine.capabilities import codec, notation
from pnpgen.engine.collection import pick_game
from pnpgen.engine.protocol import Event, IllegalMove, Rules
from pnpgen.errors import PnpgenError

S = TypeVar("S")
M = TypeVar("M")

EXAMPLE_SCHEMA: Schema = {
    "id": str,
    "game?": str,
    "title": Text,
    "caption?": Text,  # under the example's picture: for a refused move, why it fails (players' words)
    "text?": Text,
    "rule?": str,
    "state": dict,
    "moves?": [str],
    "expect": {"state?": dict, "events?": Each(dict), "illegal?": str},
}


@dataclass
class ExampleResult:
    game: str
    example: str
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def load_examples(content: GameContent) -> list[dict[str, Any]]:
    examples = content.part("examples", []) or []
    check(examples, Each(EXAMPLE_SCHEMA), content.data, "examples", "examples")
    assert isinstance(examples, list)
    return examples


def diff_partial(expected: object, actual: object, path: str) -> list[str]:
    """Differences where `expected` (a partial structure) disagrees with `actual`."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected a mapping, engine gives {actual!r}"]
        problems: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing in the engine's result")
            else:
                problems += diff_partial(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list | tuple) or len(actual) != len(expected):
            return [f"{path}: expected {_plain(expected)}, engine gives {_plain(actual)}"]
        problems = []
        for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
            problems += diff_partial(e, a, f"{path}[{index}]")
        return problems
    if expected != actual and not (
        isinstance(expected, int | float) and isinstance(actual, int | float) and
        abs(expected - actual) < 1e-9
    ):
        return [f"{path}: expected {expected!r}, engine gives {actual!r}"]
    return []


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | YList):
        return [_plain(v) for v in value]
    return value


def _events_match(expected: list[dict[str, Any]], events: list[Event]) -> list[str]:
    problems: list[str] = []
    remaining = [e.to_data() for e in events]
    for index, want in enumerate(expected):
        found = next((i for i, got in enumerate(remaining) if not diff_partial(want, got, "")), None)
        if found is None:
            kinds = ", ".join(str(e["kind"]) for e in remaining) or "none"
            problems.append(
                f"events[{index}]: no event matches {_plain(want)} (remaining events: {kinds})"
            )
        else:
            remaining = remaining[found + 1 :]
    return problems


def replay(rules: Rules[S, M], example: dict[str, Any]) -> list[str]:
    """Problems found replaying one example (empty when it holds)."""
    expect = example["expect"]
    try:
        state = codec(rules, "a worked example").from_data(example["state"])
    except PnpgenError as err:
        return [f"state is impossible: {err.message}"]
    events: list[Event] = []
    moves = list(example.get("moves") or [])
    for index, text in enumerate(moves):
        try:
            move = notation(rules, "a worked example").parse_move(text, state)
            state, new_events = rules.apply(state, move)
            events += new_events
        except PnpgenError as err:
            return [f"move {index + 1} '{text}': {err.message}"]
        except IllegalMove as err:
            if "illegal" in expect and index == len(moves) - 1:
                if err.rule != expect["illegal"]:
                    return [
                        f"move '{text}' is refused under {err.rule}, "
                        f"the example expects {expect['illegal']}"
                    ]
                return []
            return [f"move {index + 1} '{text}' is illegal: {err.rule}: {err.reason}"]
    if "illegal" in expect:
        return [f"the example expects a refusal under {expect['illegal']}, the engine allows it"]
    problems = diff_partial(expect.get("state", {}), codec(rules, "a worked example").to_data(state), "state")
    problems += _events_match(list(expect.get("events", [])), events)
    return problems


def check_examples(content: GameContent, all_rules: list[Rules[S, M]]) -> list[ExampleResult]:
    results = []
    for example in load_examples(content):
        game = example.get("game", all_rules[0].id if len(all_rules) == 1 else "")
        rules = pick_game(all_rules, str(game), content.id) if game else None
        if rules is None:
            problems = [f"names game '{game}', which this content does not define"]
        else:
            problems = replay(rules, example)
        results.append(ExampleResult(game or content.id, example["id"], problems))
    return results


def positions(rules: Rules[S, M], example: dict[str, Any]) -> tuple[Any, list[Any], Any] | None:
    """(state before, the moves parsed, state after) of an example, the state after None when
    its last move is refused; None when the example does not replay (check_examples says why)."""
    try:
        state = before = codec(rules, "a worked example").from_data(example["state"])
        moves = []
        for text in example.get("moves") or []:
            move = notation(rules, "a worked example").parse_move(str(text), state)
            moves.append(move)
            try:
                state, _ = rules.apply(state, move)
            except IllegalMove:
                return before, moves, None
    except PnpgenError:
        return None
    return before, moves, state
