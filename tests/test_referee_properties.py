"""Property tests of `pnpgen referee` for every game of the bundled content.

(a) Mutated real states and random move texts never crash it: exit 0, 1 or 2 only,
    and a 2 is exactly one `error: …` line on stderr with nothing on stdout.
(b) Legal-move playouts round-trip through the referee's own files: the state file
    written by `dump_state`, judged on the CLI, prints the engine's next state, which
    `load_state` reads back equal (chance moves are applied by the engine).

Bounded and derandomized, so CI is quick and stable. The CLI runs in-process through
its real entry point; only the content folder is loaded once per game (and once per
call in `test_example_state_round_trips_through_the_cli`).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pnpgen.commands
import pnpgen.games
from pnpgen.cli import main
from pnpgen.content.game import load_games
from pnpgen.engine.protocol import CHANCE, TERMINAL, Rules
from pnpgen.games import rules_for_content
from pnpgen.referee import dump_data, dump_state, load_state
from tests.conftest import ROOT
from tests.sampling import examples

CONTENT = ROOT / "content"
RULES: dict[str, Rules[Any, Any]] = {r.id: r for g in load_games(CONTENT) for r in rules_for_content(g)}
IDS = sorted(RULES)
SETTINGS = settings(max_examples=examples(40, 15), deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PLAYOUT_SETTINGS = settings(SETTINGS, max_examples=examples(8, 4))
CHECKED_MOVES = 4  # referee-judged moves per playout
HUGE = [2**31, 2**53, 2**53 + 1, 2**63, 10**30, -(10**30)]
ODD_WORDS = ["", " ", "²", "١", "-1", "0", "99999999999999999999", "9" * 40, "x", ".", "none", "all", "b", "R"]


# --- the CLI, in-process ---------------------------------------------------------------

@pytest.fixture(scope="module", autouse=True)
def _content_loaded_once() -> Iterator[None]:
    """Every other code path is the real CLI's; loading the content folder per call would
    make these tests five times slower."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnpgen.commands, "find_rules", functools.lru_cache(maxsize=None)(pnpgen.games.find_rules))
        yield


def run_cli(*args: str) -> tuple[int, str, str]:
    """`pnpgen ARGS…` through `pnpgen.cli.main`: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["pnpgen", *args]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.argv = saved
    return code, out.getvalue(), err.getvalue()


def assert_clean_exit(code: int, out: str, err: str) -> None:
    assert "Traceback" not in out + err
    assert code in (0, 1, 2), (code, out, err)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert out == ""
    if code == 1:
        assert "ILLEGAL" in out, out


# --- real states to mutate -----------------------------------------------------------------

def step(rules: Rules[Any, Any], state: Any, rng: random.Random) -> tuple[Any, Any]:
    """One random step: a chance outcome or a legal move, and the state after it."""
    player = rules.current_player(state)
    move = rules.sample_chance(state, rng) if player == CHANCE else rng.choice(rules.legal_moves(state))
    return move, rules.apply(state, move)[0]


@functools.cache
def real_states(game: str) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """State data of the example and of a few seeded playouts; their words; their move texts."""
    rules = RULES[game]
    rng = random.Random(7)
    states = [rules.example_state()]
    for players in range(rules.min_players, rules.max_players + 1):
        state = rules.initial_state(players)
        for n in range(300):
            if rules.is_terminal(state):
                break
            if n % 40 == 5:
                states.append(state)
            state = step(rules, state, rng)[1]
        states.append(state)
    moves: set[str] = set()
    for state in states:
        if rules.current_player(state) == CHANCE:
            moves.update(rules.format_move(m) for m, _ in rules.chance_outcomes(state)[:20])
        else:
            moves.update(rules.format_move(m) for m in rules.legal_moves(state)[:20])
    datas = [rules.to_data(s) for s in states]
    words: set[str] = set()
    for data in datas:
        _collect_words(data, words)
    return datas, sorted(words), sorted(moves)


def _collect_words(value: Any, words: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            words.add(str(key))
            _collect_words(item, words)
    elif isinstance(value, list):
        for item in value:
            _collect_words(item, words)
    elif isinstance(value, str):
        words.update(value.split())


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, (*path, index))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def scalars(words: list[str]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(-3, 60), st.sampled_from(HUGE), st.booleans(), st.none(),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
        st.sampled_from(words + ODD_WORDS),
    )


def _changed(draw: Callable[..., Any], old: Any, words: list[str]) -> Any:
    """A new value for one node: mostly of the same kind (a nearby or huge int, a word
    swapped), sometimes anything (other types, a list for a scalar, deep nesting)."""
    kind = draw(st.sampled_from(["same"] * 6 + ["other", "wrap", "deep"]))
    if kind == "wrap":
        return draw(st.sampled_from([[old], {"value": old}, [], {}]))
    if kind == "deep":
        nested = old
        for _ in range(draw(st.integers(2, 30))):
            nested = [nested] if draw(st.booleans()) else {"k": nested}
        return nested
    if kind == "same" and isinstance(old, bool):
        return not old
    if kind == "same" and isinstance(old, int):
        return draw(st.one_of(st.integers(old - 3, old + 3), st.integers(-2, 12), st.sampled_from(HUGE)))
    if kind == "same" and isinstance(old, str) and old.split():
        split = old.split()
        split[draw(st.integers(0, len(split) - 1))] = draw(st.sampled_from(words + ODD_WORDS))
        if draw(st.booleans()):
            del split[draw(st.integers(0, len(split) - 1))]
        return " ".join(split)
    if kind == "same" and isinstance(old, list) and old:
        items = list(old)
        choice = draw(st.sampled_from(["drop", "repeat", "swap"]))
        index = draw(st.integers(0, len(items) - 1))
        if choice == "drop":
            del items[index]
        elif choice == "repeat":
            items.insert(index, copy.deepcopy(items[index]))
        else:
            items[0], items[index] = items[index], items[0]
        return items
    return draw(scalars(words))


@st.composite
def mutated_state(draw: Callable[..., Any], game: str) -> Any:
    """A real state with up to three nodes changed, removed or added."""
    datas, words, _ = real_states(game)
    data = copy.deepcopy(draw(st.sampled_from(datas)))
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 3]))):
        path = draw(st.sampled_from(list(_nodes(data))))
        if not path:
            if draw(st.integers(0, 9)) == 0:  # the whole state replaced: a list, a number, …
                data = _changed(draw, data, words)
            continue
        parent, key = _get(data, path[:-1]), path[-1]
        action = draw(st.sampled_from(["change"] * 6 + ["delete", "add"]))
        if action == "delete":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from([*words, "extra", "1"]))] = draw(scalars(words))
        else:
            parent[key] = _changed(draw, parent[key], words)
    return data


@st.composite
def move_text(draw: Callable[..., Any], game: str) -> str:
    _, words, moves = real_states(game)
    kind = draw(st.sampled_from(["legal", "changed", "changed", "text"]))
    if kind == "text" or not moves:
        return draw(st.one_of(st.text(max_size=30), st.sampled_from(ODD_WORDS)))
    text = draw(st.sampled_from(moves))
    if kind == "changed":
        split = text.split() or [""]
        split[draw(st.integers(0, len(split) - 1))] = draw(st.sampled_from(words + ODD_WORDS))
        text = " ".join(split)
    return str(text)


# --- (a) never a crash -----------------------------------------------------------------------

@pytest.mark.parametrize("game", IDS)
def test_random_states_and_moves_never_crash_the_referee(game: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.yaml"

        @SETTINGS
        @given(data=mutated_state(game), move=move_text(game), mode=st.sampled_from(["move", "move", "legal", "show"]))
        def check(data: Any, move: str, mode: str) -> None:
            path.write_text(dump_data(data), encoding="utf-8")
            extra = {"move": [f"--move={move}"], "legal": ["--legal"], "show": []}[mode]
            assert_clean_exit(*run_cli("referee", game, "--state", str(path), *extra))

        check()


@pytest.mark.parametrize("text", ["", "[]", "- 1\n- 2\n", "5\n", "just words\n", "---\n", "{}\n"])
def test_files_that_are_no_state_are_one_line_errors(text: str, tmp_path: Path) -> None:
    path = tmp_path / "state.yaml"
    path.write_text(text, encoding="utf-8")
    for game in IDS:
        code, out, err = run_cli("referee", game, "--state", str(path), "--move=x")
        assert_clean_exit(code, out, err)
        assert code == 2, (game, out)


# --- (b) playouts round-trip through the referee's own files ----------------------------------

@pytest.mark.parametrize("game", IDS)
def test_legal_playouts_round_trip_through_the_referee(game: str) -> None:
    rules = RULES[game]
    with tempfile.TemporaryDirectory() as folder:
        before, after = Path(folder) / "before.yaml", Path(folder) / "after.yaml"

        @PLAYOUT_SETTINGS
        @given(seed=st.integers(0, 2**20), skip=st.integers(0, 400))
        def check(seed: int, skip: int) -> None:
            rng = random.Random(seed)
            state = rules.initial_state(rng.randint(rules.min_players, rules.max_players))
            for _ in range(skip):  # somewhere into the game, quietly
                if rules.is_terminal(state):
                    break
                state = step(rules, state, rng)[1]
            judged = 0
            while judged < CHECKED_MOVES:
                before.write_text(dump_state(rules, state), encoding="utf-8")
                assert_same(rules, load_state(rules, before), state)
                if rules.is_terminal(state):
                    assert run_cli("referee", game, "--state", str(before), "--legal")[0] == 0
                    break
                move, nxt = step(rules, state, rng)
                if rules.current_player(state) != CHANCE:
                    text = rules.format_move(move)
                    code, out, err = run_cli("referee", game, "--state", str(before), f"--move={text}")
                    assert code == 0 and "resulting state:\n" in out, (text, out, err)
                    printed = out.split("resulting state:\n", 1)[1]
                    assert printed == dump_state(rules, nxt)
                    after.write_text(printed, encoding="utf-8")
                    assert_same(rules, load_state(rules, after), nxt)
                    judged += 1
                state = nxt

        check()


def assert_same(rules: Rules[Any, Any], loaded: Any, state: Any) -> None:
    """Same meaning: equal state, equal data, same player and options."""
    assert loaded == state
    assert rules.to_data(loaded) == rules.to_data(state)
    assert options(rules, loaded) == options(rules, state)


def options(rules: Rules[Any, Any], state: Any) -> tuple[int, list[str]]:
    player = rules.current_player(state)
    if player == CHANCE:
        return player, [rules.format_move(m) for m, _ in rules.chance_outcomes(state)]
    if player == TERMINAL:
        return player, []
    return player, [rules.format_move(m) for m in rules.legal_moves(state)]


@pytest.mark.parametrize("game", IDS)
def test_example_state_round_trips_through_the_cli(game: str, tmp_path: Path) -> None:
    """--example-state, read back with the content loaded afresh: the same state."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pnpgen.commands, "find_rules", pnpgen.games.find_rules)
        code, out, _ = run_cli("referee", game, "--example-state")
        assert code == 0
        path = tmp_path / "example.yaml"
        path.write_text(out, encoding="utf-8")
        code, shown, err = run_cli("referee", game, "--state", str(path), "--legal")
    assert code == 0 and err == "" and shown.strip()
    rules = RULES[game]
    assert_same(rules, load_state(rules, path), rules.example_state())
