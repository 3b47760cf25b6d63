"""Generic verification of any game of the rules protocol (after OpenSpiel's random
simulation tests), end-condition coverage, and golden playthroughs.

Seeded random playthroughs check at every step that the player to move has a legal
move; that every legal move (and every chance outcome) applies cleanly without
changing its input; that chance probabilities are exact and sum to 1; that the state
round-trips through the referee's JSON/YAML form and through a real state file, written
and read back the way `pnpgen referee` does it (same state, same data, same legal moves);
that a copy equals the original;
that the game's own invariants hold; and that the game ends within its declared
maximum length.
"""

from __future__ import annotations

import copy
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import ParamSpec, TypedDict, TypeVar, cast

import yaml

from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.bots import make_bot
from pnpgen.engine.capabilities import broken_invariants, hidden_information, move_text
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove, Notation, Rules, StateCodec
from pnpgen.engine.simulate import TIMEOUT, derive_seed, play_game
from pnpgen.errors import BadMove, PnpgenError
from pnpgen.games import engine_module
from pnpgen.output import atomic_output
from pnpgen.referee import dump_state, load_state

S = TypeVar("S")
M = TypeVar("M")
R = TypeVar("R")
P = ParamSpec("P")

APPLY_LIMIT = 48  # per step, apply every option up to this many, else a seeded sample of it


class Fault(Exception):
    """A verification failure at one step of one playthrough."""


@dataclass
class Verification:
    game: str
    seed: int
    games: int = 0  # playthroughs completed
    steps: int = 0
    problems: list[str] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)
    stopped_by_budget: bool = False


def _text(rules: Rules[S, M], move: M) -> str:
    return str(_call("format_move", move_text, rules, move))


def _call(what: str, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call a game method; a crash becomes a fault naming the method."""
    try:
        return function(*args, **kwargs)
    except Fault:
        raise
    except Exception as err:
        raise Fault(f"{what} crashes: {type(err).__name__}: {err}") from None


def _roundtrip(rules: Rules[S, M], state: S, with_yaml: bool) -> None:
    if not isinstance(rules, StateCodec):
        return
    data = _call("to_data", rules.to_data, state)
    try:
        forms = [("JSON", json.loads(json.dumps(data)))]
        if with_yaml:
            forms.append(("YAML", yaml.safe_load(yaml.safe_dump(json.loads(json.dumps(data))))))
    except (TypeError, ValueError, yaml.YAMLError) as err:
        raise Fault(f"to_data gives data that is not plain JSON/YAML: {err}") from None
    for form, loaded in forms:
        back = _call(f"from_data on its own {form} state file", rules.from_data, loaded)
        if back != state:
            raise Fault(f"the state does not survive its {form} state file (from_data(to_data(s)) != s)")
    if copy.deepcopy(state) != state:
        raise Fault("a copy of the state is not equal to it (states must support ==)")


def _file_roundtrip(rules: Rules[S, M], state: S, folder: Path) -> None:
    """Write the state file as the referee prints it, read it back as the referee reads it:
    it must be accepted and mean the same (equal state, equal data, equal legal moves)."""
    if not isinstance(rules, StateCodec):
        return
    path = folder / "state.yaml"
    text = _call("dump_state", dump_state, rules, state)
    path.write_text(text, encoding="utf-8")
    try:
        back = load_state(rules, path, text)  # parsed as the referee parses it (a file per step is not cached)
    except PnpgenError as err:
        raise Fault(f"the referee refuses the state file it printed: {err}") from None
    except Exception as err:
        raise Fault(f"reading the referee's own state file crashes: {type(err).__name__}: {err}") from None
    written, read = rules.to_data(state), _call("to_data", rules.to_data, back)
    if written != read:
        raise Fault(f"the state file reads back different data: {_difference(written, read)}")
    if back != state:
        raise Fault("the state file reads back a different state with the same data")
    # the same player and legal moves (chance outcomes follow from the equal state; listing
    # thousands of them twice per step would cost more than the rest of the check)
    if _call("current_player", rules.current_player, back) != rules.current_player(state):
        raise Fault("the state file reads back a state where another player moves")
    if _call("legal_moves", rules.legal_moves, back) != rules.legal_moves(state):
        raise Fault("the state file reads back a state with other legal moves")


def _difference(written: object, read: object, path: str = "") -> str:
    """The first place two plain data values differ, e.g. `turns: 6 written, 7 read back`."""
    if isinstance(written, dict) and isinstance(read, dict):
        for key in [*written, *(k for k in read if k not in written)]:
            if key not in read or key not in written:
                return f"{path}{key}: {'missing' if key not in read else 'extra'} when read back"
            if written[key] != read[key]:
                return _difference(written[key], read[key], f"{path}{key}.")
    if isinstance(written, list) and isinstance(read, list) and len(written) == len(read):
        for i, (a, b) in enumerate(zip(written, read, strict=True)):
            if a != b:
                return _difference(a, b, f"{path.rstrip('.')}[{i}].")
    return f"{path.rstrip('.') or 'state'}: {written!r} written, {read!r} read back"


def _distinct(rules: Rules[S, M], moves: list[M], what: str) -> None:
    try:
        if len(set(moves)) == len(moves):
            return
    except TypeError:  # unhashable moves: compare their notation
        pass
    texts = [_text(rules, m) for m in moves]
    if len(set(texts)) != len(texts):
        raise Fault(f"{what} repeat: {', '.join(t for t, c in Counter(texts).items() if c > 1)}")


def _check_chance(rules: Rules[S, M], state: S, rng: random.Random) -> M:
    outcomes = _call("chance_outcomes", rules.chance_outcomes, state)
    if not outcomes:
        raise Fault("chance node without outcomes")
    moves = [m for m, _ in outcomes]
    _distinct(rules, moves, "chance outcomes")
    numerators: dict[int, int] = {}  # exact sum, grouped by denominator (fast for many outcomes)
    for move, p in outcomes:
        if type(p) is not Fraction:
            if not isinstance(p, Fraction | int):
                raise Fault(f"chance outcome {_text(rules, move)} has an inexact probability {p!r} "
                            "(use Fraction)")
            p = Fraction(p)
        if p.numerator <= 0:
            raise Fault(f"chance outcome {_text(rules, move)} has probability {p}")
        numerators[p.denominator] = numerators.get(p.denominator, 0) + p.numerator
    total = sum((Fraction(n, d) for d, n in numerators.items()), Fraction(0))
    if total != 1:
        shown = ", ".join(_text(rules, m) for m in moves[:12]) + (", …" if len(moves) > 12 else "")
        raise Fault(f"chance probabilities sum to {total}, not 1 ({shown})")
    if _call("legal_moves", rules.legal_moves, state):
        raise Fault("legal player moves listed at a chance node")
    move = _call("sample_chance", rules.sample_chance, state, rng)
    if move not in moves:
        raise Fault(f"sample_chance drew {_text(rules, move)}, which is not a listed outcome")
    _apply_all(rules, state, moves, "chance outcome", rng)
    return move


def _apply_all(rules: Rules[S, M], state: S, moves: list[M], what: str, rng: random.Random) -> None:
    """Apply every move (a seeded sample of APPLY_LIMIT when there are more) to a
    copy-checked state: each must apply cleanly and leave its input unchanged."""
    before = copy.deepcopy(state)
    indices: Sequence[int] = range(len(moves))
    if len(moves) > APPLY_LIMIT:
        indices = random.Random(rng.random()).sample(indices, APPLY_LIMIT)
    for i in indices:
        move = moves[i]
        try:
            new_state, _ = rules.apply(state, move)
        except IllegalMove as err:
            raise Fault(f"listed {what} {_text(rules, move)} is refused: {err}") from None
        except Exception as err:  # any crash is a finding, reported with its step
            raise Fault(f"{what} {_text(rules, move)} crashes apply: {type(err).__name__}: {err}") from None
        if state != before:
            raise Fault(f"applying {_text(rules, move)} changed the input state (apply must not mutate)")
        if new_state is state:
            raise Fault(f"applying {_text(rules, move)} returned the input state itself")


def _check_player(rules: Rules[S, M], state: S, player: int, rng: random.Random) -> M:
    moves = _call("legal_moves", rules.legal_moves, state)
    if not moves:
        raise Fault(f"seat {player + 1} is to move but has no legal move")
    _distinct(rules, moves, "legal moves")
    for move in moves if isinstance(rules, Notation) else []:
        text = _text(rules, move)
        try:
            parsed = rules.parse_move(text, state)  # type: ignore[attr-defined]  # narrowed above
        except Exception as err:
            raise Fault(f"notation {text!r} does not parse back: {err}") from None
        if parsed != move:
            raise Fault(f"notation {text!r} parses to a different move")
    _apply_all(rules, state, moves, "legal move", rng)
    return rng.choice(moves)


def _check_terminal(rules: Rules[S, M], state: S, players: int) -> str:
    if bool(_call("legal_moves", rules.legal_moves, state)) or \
            bool(_call("chance_outcomes", rules.chance_outcomes, state)):
        raise Fault("moves listed in a finished game")
    outcome = _call("outcome", rules.outcome, state)
    declared = rules.end_conditions()
    if declared and outcome.end not in declared:
        raise Fault(f"ended by '{outcome.end}', which end_conditions: does not declare "
                    f"({', '.join(declared)})")
    if any(not 0 <= s < players for s in outcome.winners) or len(set(outcome.winners)) != len(outcome.winners):
        raise Fault(f"winners {list(outcome.winners)} are not distinct seats of {players}")
    if len(outcome.scores) != players:
        raise Fault(f"{len(outcome.scores)} scores for {players} seats")
    return outcome.end


VIEW_EVERY = 5  # a game with hidden information: its views are checked every this many steps


def view_problems(rules: Rules[S, M], state: S, rng: random.Random) -> list[str]:
    """For a game with hidden information, each seat's view of `state` against a state drawn
    from it: the drawn state has the same view (so the view shows nothing the seat cannot
    see, and the drawn state fits it), keeps the game's invariants, gives the seat to move
    the same legal moves, and the view survives its state file (view_to_data/view_from_data)."""
    info = hidden_information(rules)
    if info is None:
        return []
    problems = []
    for seat in rules.seats(state):
        view = info.view(state, seat)
        world = info.determinise(view, seat, rng)
        if world is None or info.view(world, seat) != view:
            problems.append(f"seat {seat + 1}'s view: no drawn state has the same view")
            continue
        problems += [f"a state drawn from seat {seat + 1}'s view: {p}" for p in broken_invariants(rules, world)]
        if rules.current_player(state) == seat and rules.legal_moves(world) != rules.legal_moves(state):
            problems.append(f"seat {seat + 1}'s legal moves differ in a state drawn from its view")
        if info.view_from_data(json.loads(json.dumps(info.view_to_data(view)))) != view:
            problems.append(f"seat {seat + 1}'s view changes through its state file")
    return problems


def playthrough(rules: Rules[S, M], players: int, seed: int, result: Verification,
                folder: Path | None = None) -> None:
    """One random game, every step checked; the first fault is recorded with its step.
    With a folder, every state also goes through a real state file there."""
    rng = random.Random(seed)
    step = 0
    try:
        state = rules.initial_state(players)
        while True:
            where = "the initial state" if step == 0 else f"step {step}"
            try:
                problems = _call("check", broken_invariants, rules, state)
                if problems:
                    raise Fault(f"invariant broken: {'; '.join(problems)}")
                _roundtrip(rules, state, with_yaml=step == 0)
                if step % VIEW_EVERY == 0:
                    problems = _call("view", view_problems, rules, state, random.Random(seed * 7_919 + step))
                    if problems:
                        raise Fault(f"hidden information: {'; '.join(problems)}")
                if folder is not None:
                    _file_roundtrip(rules, state, folder)
                player = _call("current_player", rules.current_player, state)
                if player == TERMINAL:
                    _roundtrip(rules, state, with_yaml=True)
                    result.ends[_check_terminal(rules, state, players)] += 1
                    break
                if step >= rules.max_steps:
                    raise Fault(f"no end within the declared maximum of {rules.max_steps} steps")
                if player == CHANCE:
                    move = _check_chance(rules, state, rng)
                elif 0 <= player < players:
                    move = _check_player(rules, state, player, rng)
                else:
                    raise Fault(f"current_player is {player}, not a seat of {players}, CHANCE or TERMINAL")
                state, _ = _call(f"applying {_text(rules, move)}", rules.apply, state, move)
            except Fault as fault:
                raise Fault(f"{where}: {fault}") from None
            step += 1
    except Fault as fault:
        result.problems.append(f"{rules.id}, {players} players, seed {seed}, {fault}")
    except Exception as err:
        result.problems.append(f"{rules.id}, {players} players, seed {seed}, step {step}: "
                               f"{type(err).__name__}: {err}")
    result.steps += step
    result.games += 1


NONSENSE_MOVE = "?? not a move ??"


def protocol_checks(rules: Rules[S, M], folder: Path | None = None) -> list[str]:
    """The documented example state is valid and round-trips (through a state file in
    `folder` when given); nonsense notation is a BadMove."""
    problems: list[str] = []
    state = None
    try:
        if not isinstance(rules, StateCodec):
            raise Fault("")
        state = _call("example_state", rules.example_state)
        invariants = _call("check", rules.check, state)
        if invariants:
            raise Fault(f"invariant broken: {'; '.join(invariants)}")
        _roundtrip(rules, state, with_yaml=True)
        if folder is not None:
            _file_roundtrip(rules, state, folder)
            problems += _successor_checks(rules, state, folder)
    except Fault as fault:
        problems += [f"example state: {fault}"] if str(fault) else []
        state = None
    if not isinstance(rules, Notation):
        return problems
    try:
        rules.parse_move(NONSENSE_MOVE, state)
        problems.append(f"parse_move accepts {NONSENSE_MOVE!r} (it must raise BadMove)")
    except BadMove:
        pass
    except Exception as err:
        problems.append(f"parse_move({NONSENSE_MOVE!r}) raises {type(err).__name__}, not BadMove: {err}")
    return problems


def _successor_checks(rules: Rules[S, M], state: S, folder: Path) -> list[str]:
    """Each state one move after the example (as the referee prints it) reads back the same."""
    player = _call("current_player", rules.current_player, state)
    if player == TERMINAL:
        return []
    moves = ([m for m, _ in _call("chance_outcomes", rules.chance_outcomes, state)] if player == CHANCE
             else _call("legal_moves", rules.legal_moves, state))
    for move in moves[:APPLY_LIMIT]:
        text = _text(rules, move)
        try:
            after, _ = _call(f"applying {text}", rules.apply, state, move)
            _file_roundtrip(rules, after, folder)
        except Fault as fault:
            return [f"example state, after {text}: {fault}"]
    return []


def player_counts(rules: Rules[S, M]) -> list[int]:
    return list(range(rules.min_players, rules.max_players + 1))


def verify(rules: Rules[S, M], games: int, seed: int, budget: float | None = None,
           max_problems: int = 5) -> Verification:
    """`games` checked random playthroughs, cycling through every player count.

    A time budget (seconds) may stop it early; it always plays at least one game
    per player count.
    """
    result = Verification(rules.id, seed)
    with tempfile.TemporaryDirectory(prefix="pnpgen-verify-") as tmp:
        folder = Path(tmp)
        result.problems += [f"{rules.id}, {p}" for p in protocol_checks(rules, folder)]
        counts = player_counts(rules)
        start = time.perf_counter()
        for index in range(games):
            if budget is not None and index >= len(counts) and time.perf_counter() - start > budget:
                result.stopped_by_budget = True
                break
            playthrough(rules, counts[index % len(counts)], derive_seed(seed, index), result, folder)
            if len(result.problems) >= max_problems:
                break
    return result


def search_ends(rules: Rules[S, M], seen: set[str], games: int, seed: int,
                budget: float | None = None) -> Counter[str]:
    """Fast unchecked random games until every declared end is seen (or out of games)."""
    found: Counter[str] = Counter()
    wanted = set(rules.end_conditions()) - seen
    counts = player_counts(rules)
    start = time.perf_counter()
    for index in range(games):
        if not wanted - set(found) or (budget is not None and time.perf_counter() - start > budget):
            break
        players = counts[index % len(counts)]
        record = play_game(rules, ["random"] * players, derive_seed(seed + 1, index))
        found[record.outcome.end] += 1
    return found


def unreached(rules: Rules[S, M], seen: set[str]) -> list[str]:
    return [end for end in rules.end_conditions() if end not in seen and end != TIMEOUT]


# --- golden playthroughs --------------------------------------------------------------

class Golden(TypedDict):
    """One golden playthrough as its file holds it."""

    rules: str
    seed: int
    players: int
    bots: list[str]
    steps: list[list[int | str]]  # [seat (from 1) or "chance", number of options, move]
    end: str
    winners: list[int]  # seats from 1


def record_golden(rules: Rules[S, M], seed: int, bots: list[str] | None = None) -> Golden:
    """A seeded playthrough (random bots unless named): per step the mover, the number
    of options, the move. Only the moves are replayed, so any bot may record it."""
    rng = random.Random(seed)
    names = bots or ["random"] * rules.min_players
    players = len(names)
    choose = [make_bot(rules, name) for name in names]
    state = rules.initial_state(players)
    steps: list[list[int | str]] = []
    while (player := rules.current_player(state)) != TERMINAL and len(steps) < rules.max_steps:
        if player == CHANCE:
            options = [m for m, _ in rules.chance_outcomes(state)]
            move = rules.sample_chance(state, rng)
        else:
            options = rules.legal_moves(state)
            move = choose[player](state, rng)
        steps.append(["chance" if player == CHANCE else player + 1, len(options), move_text(rules, move)])
        state, _ = rules.apply(state, move)
    outcome = rules.outcome(state) if player == TERMINAL else None
    return {
        "rules": rules.id,
        "seed": seed,
        "players": players,
        "bots": names,
        "steps": steps,
        "end": outcome.end if outcome else TIMEOUT,
        "winners": [s + 1 for s in outcome.winners] if outcome else [],
    }


def golden_diff(rules: Rules[S, M], golden: Golden) -> list[str]:
    """Replay a golden playthrough; the first difference names its step."""
    players = int(golden["players"])
    state = rules.initial_state(players)
    steps = golden["steps"]
    for number, (who, count, text) in enumerate(steps, 1):
        player = rules.current_player(state)
        if player == TERMINAL:
            return [f"step {number}: the game now ends before this step "
                    f"({rules.outcome(state).end}); the golden run went on with {text}"]
        mover = "chance" if player == CHANCE else player + 1
        if mover != who:
            return [f"step {number}: {_who(mover)} is to move, the golden run had {_who(who)}"]
        options = ([m for m, _ in rules.chance_outcomes(state)] if player == CHANCE
                   else rules.legal_moves(state))
        texts = [move_text(rules, m) for m in options]
        if text not in texts:
            return [f"step {number}: golden move {text} is no longer among the {len(texts)} options"]
        if len(texts) != count:
            return [f"step {number}: {len(texts)} options (legal moves or outcomes), the golden run had {count}"]
        state, _ = rules.apply(state, options[texts.index(text)])
    if rules.current_player(state) != TERMINAL:
        return [f"step {len(steps) + 1}: the game no longer ends after {len(steps)} steps"]
    outcome = rules.outcome(state)
    got = {"end": outcome.end, "winners": [s + 1 for s in outcome.winners]}
    want = {"end": golden["end"], "winners": list(golden["winners"])}
    if got != want:
        return [f"after step {len(steps)}: ends {got}, the golden run ended {want}"]
    return []


def _who(mover: int | str) -> str:
    return "chance" if mover == "chance" else f"seat {mover}"


def golden_path(golden_dir: Path, game_id: str) -> Path:
    return golden_dir / f"{game_id}.yaml"


def load_golden(path: Path) -> dict[str, Golden]:
    """Golden playthroughs by rules id ({} when the file is missing)."""
    if not path.is_file():
        return {}
    data = load_yaml(path)
    return {str(p["rules"]): cast(Golden, dict(p)) for p in (data or {}).get("playthroughs", [])}


def write_golden(path: Path, game_id: str, version: object, playthroughs: list[Golden]) -> None:
    """Write golden playthroughs (one step per line, so a diff names the step)."""
    lines = [
        f"# Golden playthroughs of {game_id}: seeded random games, one step per line as",
        "# [seat or chance, number of options, move]. A rules change shows up as a diff.",
        f"# Regenerate with: pnpgen validate {game_id} --update-golden",
        f"game: {json.dumps(game_id)}",
        f"version: {json.dumps(version)}",
        "playthroughs:",
    ]
    for p in playthroughs:
        lines += [f"  - rules: {json.dumps(p['rules'])}", f"    seed: {p['seed']}",
                  f"    players: {p['players']}", f"    bots: {json.dumps(p['bots'])}",
                  f"    end: {json.dumps(p['end'])}",
                  f"    winners: {json.dumps(p['winners'])}", "    steps:"]
        lines += [f"      - {json.dumps(step, ensure_ascii=False)}" for step in p["steps"]]
    with atomic_output(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- determinism across processes -------------------------------------------------------

_RECORD_IN_CHILD = (
    "import json, sys\n"
    "from pathlib import Path\n"
    "from pnpgen.content.game import load_game\n"
    "from pnpgen.games import rules_for_content\n"
    "from pnpgen.verify import record_golden\n"
    "rules = {r.id: r for r in rules_for_content(load_game(Path(sys.argv[1])))}[sys.argv[2]]\n"
    "print(json.dumps(record_golden(rules, int(sys.argv[3]))))\n"
)


def determinism(rules: Rules[S, M], seed: int) -> tuple[list[str], str]:
    """Replay the same seeded random game in a fresh process with another hash seed.

    Set and dict orders of strings change with the hash seed, so a game whose moves
    or outcomes depend on them would give different results for the same seed.
    Returns (problems, note); the note explains when the check could not run.
    """
    import os
    import subprocess
    import sys

    folder = rules.content.folder
    if not (folder / "game.yaml").is_file():
        return [], "skipped: the game has no folder on disk"
    if getattr(engine_module(rules.content), "__file__", None) is None:
        return [], "skipped: the game's engine exists only in this process (no module file to import)"
    here = record_golden(rules, seed)
    env = {**os.environ, "PYTHONHASHSEED": "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"}
    try:
        child = subprocess.run([sys.executable, "-c", _RECORD_IN_CHILD, str(folder), rules.id, str(seed)],
                               env=env, capture_output=True, text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        return ["the child process replaying the game did not finish within 300 s"], ""
    except OSError as err:
        return [f"the child process replaying the game could not start: {err}"], ""
    try:
        there = json.loads(child.stdout) if child.returncode == 0 else None
    except ValueError:
        there = None
    if not isinstance(there, dict) or not isinstance(there.get("steps"), list):
        lines = [line for line in child.stderr.splitlines() if line.strip()]
        why = lines[-1].strip() if lines else f"no result on stdout ({child.stdout.strip()[:200]!r})"
        return [f"the child process replaying the game failed (exit {child.returncode}): {why}"], ""
    for number, (a, b) in enumerate(zip(here["steps"], there["steps"], strict=False), 1):
        if a != b:
            return [f"step {number}: {a} here but {b} in a process with another hash seed "
                    "(does set or dict order reach the rules or the move lists?)"], ""
    if len(here["steps"]) != len(there["steps"]) or here["end"] != there.get("end"):
        return [f"the same seed ends differently in another process: {len(here['steps'])} steps, "
                f"{here['end']} here; {len(there['steps'])} steps, {there.get('end')} there"], ""
    return [], f"seed {seed}, {len(here['steps'])} steps identical under another hash seed"
