"""The referee: a state plus a move in, a verdict citing the rule out.

The state file is either a full state (the umpire's: every card known) or, in a game with
hidden information, one seat's view (the file says `view: N`; docs/notation/<game>.md).
From a view the referee answers only what the view decides: a move that rests on a hidden
fact is "legal if <fact>" (or illegal when no state consistent with the view has the fact),
and a move that is legal but whose consequence rests on hidden facts is legal with that
said and no resulting state. Every verdict names what it judged.

Exit codes of `pnpgen referee`: 0 legal, 1 illegal, 2 malformed input, 4 cannot tell from
this view (legal only if a hidden fact holds).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pnpgen import limits
from pnpgen.content.yamlpos import load_yaml
from pnpgen.engine.capabilities import codec, notation, picture, views
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Rules
from pnpgen.errors import ImpossibleState, PnpgenError
from pnpgen.output import atomic_output

S = TypeVar("S")
M = TypeVar("M")
V = TypeVar("V")

if TYPE_CHECKING:
    import yaml

    from pnpgen.engine.protocol import HiddenInformation

FULL = "full state"
VIEW_SEED = 0  # the state drawn from a view for listing and applying moves (any would do: see judge)
VIEW_WORLDS = 16  # states drawn to check that a move's consequence rests on the view alone
CANNOT_TELL = 4  # exit code: legal only if a hidden fact holds


@dataclass
class Verdict:
    legal: bool | None  # None: cannot tell from this view (legal only if `legal_if` holds)
    move: str
    rule: str | None = None
    reason: str | None = None
    events: list[Event] = field(default_factory=list)
    state: dict[str, Any] | None = None
    judged: str = FULL  # "full state", or "view of seat N"
    legal_if: str | None = None  # the hidden fact the move's legality rests on
    then: str | None = None  # legal, but what follows rests on this hidden fact
    outcome: dict[str, Any] | None = None  # the move ends the game: {end, winners, scores} (seats from 1)

    @property
    def exit_code(self) -> int:
        return CANNOT_TELL if self.legal is None else (0 if self.legal else 1)

    def to_data(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "move": self.move,
            "rule": self.rule,
            "reason": self.reason,
            "events": [e.to_data() for e in self.events],
            "state": self.state,
            "judged": self.judged,
            "legal_if": self.legal_if,
            "then": self.then,
            "outcome": self.outcome,
        }

    @property
    def score_line(self) -> str | None:
        """'game over (end): score −6' (one seat) or '... scores 10, 20', for a move that ends the game."""
        if self.outcome is None:
            return None
        scores = [f"{s:g}".replace("-", "−") for s in self.outcome["scores"]]
        said = "score " + scores[0] if len(scores) == 1 else "scores " + ", ".join(scores)
        return f"game over ({self.outcome['end']}): {said}"


def outcome_data(rules: Rules[S, M], state: S) -> dict[str, object] | None:
    """How `state` ended (None while the game goes on): the end id, winners (seats from 1), scores."""
    if not rules.is_terminal(state):
        return None
    done = rules.outcome(state)
    return {"end": done.end, "winners": [w + 1 for w in done.winners], "scores": list(done.scores)}


@dataclass
class Position(Generic[S]):
    """What a state file gives the referee: a full state, or one seat's view of one."""

    state: S  # the full state; for a view, a state drawn from it (VIEW_SEED), for listings
    view: object = None  # the seat's view (HiddenInformation), or None for a full state
    seat: int | None = None

    @property
    def judged(self) -> str:
        return FULL if self.seat is None else f"view of seat {self.seat + 1}"


def _represent_list(dumper: yaml.SafeDumper, data: list[object]) -> yaml.Node:
    """YAML for people: a list of plain values on one line (`grid: [[3, 1, 4], ...]` rows)."""
    flow = all(not isinstance(v, dict | list) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def dump_data(data: object) -> str:
    """State data as the referee prints it and reads it back (`load_state`)."""
    import yaml  # here only: judging a move from a parsed (cached) state file needs no PyYAML

    class StateDumper(yaml.SafeDumper):
        pass

    StateDumper.add_representer(list, _represent_list)
    return yaml.dump(_plain(data), Dumper=StateDumper, allow_unicode=True, sort_keys=False, width=100)


def dump_state(rules: Rules[S, M], state: S) -> str:
    """A state file's text: what `pnpgen referee` prints, and `load_state` accepts back."""
    return dump_data(codec(rules).to_data(state))


def load_state(rules: Rules[S, M], path: Path, text: str | None = None) -> S:
    """Read a full state file (as `dump_state` writes it); bad data is one ImpossibleState line.
    `text`: the file's text, already in hand (parsed as it is, not read or cached)."""
    position = load_position(rules, path, text)
    if position.seat is not None:
        raise ImpossibleState("this is one seat's view (`view:`); a full state is needed here", path, 1, 1)
    return position.state


def load_position(rules: Rules[S, M], path: Path, text: str | None = None) -> Position[S]:
    """Read a state file: a full state, or (`view: N`) one seat's view; bad data is one
    ImpossibleState line."""
    data = load_yaml(path, text, limit=limits.MAX_STATE_BYTES, what="state file")
    if data is None:
        raise ImpossibleState("the state file is empty; a state is a mapping (see --example-state)", path, 1, 1)
    if not isinstance(data, dict):
        raise ImpossibleState("a state file must be a mapping", path, 1, 1)
    if {"ok", "errors", "state"} <= set(data) and isinstance(data["state"], dict):
        data = data["state"]  # what `--json` printed (docs/json.md): its state
    if "view" in data:  # one seat's view: it names its seat
        info = views(rules, "a state file with `view:`")
        view = info.view_from_data(data)
        seat = info.view_seat(view)
        world = info.determinise(view, seat, random.Random(VIEW_SEED))
        if world is None:
            raise ImpossibleState("view: no state is consistent with this view", path, 1, 1)
        return Position(world, view, seat)
    state = codec(rules).from_data(data)
    problems = codec(rules).check(state)
    if problems:
        raise ImpossibleState(problems[0], path, 1, 1)
    return Position(state)


def dump_view(rules: Rules[S, M], position: Position[S]) -> dict[str, object]:
    """A position as state-file data: the view for a view, else the full state."""
    if position.seat is None:
        return codec(rules).to_data(position.state)
    return views(rules).view_to_data(position.view)


# what `--legal` adds after a move: a chance outcome's probability, a hidden fact it rests on
LISTED_NOTE = re.compile(r"\s+(?:p=[0-9./e+-]+|\(if .*\))\s*$")


def move_part(text: str) -> str:
    """The move of a line `--legal` printed ('mult 0 0  p=1/6' -> 'mult 0 0'), so that any
    listed line can be pasted into --move as it is; other text is left as typed."""
    return LISTED_NOTE.sub("", text)


def judge(rules: Rules[S, M], state: S, move_text: str) -> Verdict:
    move_text = move_part(move_text)
    move = notation(rules).parse_move(move_text, state)
    canonical = notation(rules).format_move(move)
    if rules.current_player(state) == TERMINAL:
        return Verdict(False, canonical, "end", "the game is already over")
    try:
        new_state, events = rules.apply(state, move)
    except IllegalMove as err:
        return Verdict(False, canonical, err.rule, err.reason)
    return Verdict(True, canonical, None, None, events, codec(rules).to_data(new_state),
                   outcome=outcome_data(rules, new_state))


def judge_position(rules: Rules[S, M], position: Position[S], move_text: str) -> Verdict:
    """judge() on a full state; on a view, only what the view decides (module docstring).

    The move is applied in a state drawn from the view. Where `unseen` says the move rests
    on no hidden fact, every state consistent with the view gives the same verdict, events
    and resulting view (the game's HiddenInformation contract), so one drawn state answers."""
    if position.seat is None:
        return judge(rules, position.state, move_text)
    move_text = move_part(move_text)
    info, seat, view = views(rules), position.seat, position.view
    move = notation(rules).parse_move(move_text, position.state)
    canonical = notation(rules).format_move(move)
    judged = position.judged
    if rules.current_player(position.state) == TERMINAL:
        return Verdict(False, canonical, "end", "the game is already over", judged=judged)
    unseen = info.unseen(view, move)
    world = position.state
    if unseen.legal_if:
        drawn = info.determinise(view, seat, random.Random(VIEW_SEED), assume=move)
        if drawn is None:
            return Verdict(False, canonical, "view", f"no state consistent with seat {seat + 1}'s view has this: "
                           f"{unseen.legal_if}", judged=judged)
        world = drawn
    try:
        new_state, events = rules.apply(world, move)
    except IllegalMove as err:
        return Verdict(False, canonical, err.rule, err.reason, judged=judged)
    if unseen.legal_if:
        return Verdict(None, canonical, None, f"legal only if {unseen.legal_if}", events,
                       info.view_to_data(info.view(new_state, seat)), judged, unseen.legal_if)
    if unseen.then:
        return Verdict(True, canonical, events=[], state=None, judged=judged, then=unseen.then)
    result = info.view_to_data(info.view(new_state, seat))
    if any(info.view_to_data(info.view(rules.apply(other, move)[0], seat)) != result
           for other in _other_worlds(info, view, seat)):  # what follows differs with the unseen cards
        return Verdict(True, canonical, events=[], state=None, judged=judged,
                       then=f"what follows rests on cards seat {seat + 1} cannot see")
    return Verdict(True, canonical, None, None, events, result, judged)


def _other_worlds(info: HiddenInformation[S, M, V], view: V, seat: int) -> list[S]:
    """States drawn from the view with other seeds (VIEW_WORLDS of them): a consequence the
    game's `unseen` did not name still shows as a difference between them."""
    worlds = (info.determinise(view, seat, random.Random(VIEW_SEED + k)) for k in range(1, VIEW_WORLDS))
    return [world for world in worlds if world is not None]


def legal_move_texts(rules: Rules[S, M], state: S, position: Position[S] | None = None) -> list[str]:
    """Every legal move (or chance outcome, with its probability) in notation; each line may
    be given back to --move as it is (move_part drops the notes). From a view,
    a move or outcome that rests on a hidden fact says so, and a probability that rests on
    hidden cards is not given."""
    player, write = rules.current_player(state), notation(rules).format_move
    info = views(rules) if position is not None and position.seat is not None else None

    def note(move: M) -> str:
        fact = info.unseen(position.view, move).legal_if if info is not None and position is not None else None
        return f"  (if {fact})" if fact else ""

    if player == CHANCE:
        return [f"{write(m)}  p={p}" if not note(m) else f"{write(m)}{note(m)}"
                for m, p in rules.chance_outcomes(state)]
    texts = [write(m) + note(m) for m in rules.legal_moves(state)]
    if info is not None and position is not None and player >= 0 and player != position.seat:
        texts.append(f"(seat {player + 1} is to move: listed are its moves in one state drawn from the view; "
                     "moves with its hidden cards may differ)")
    return texts


def position_svg(rules: Rules[S, M], state: S, move_text: str | None) -> str:
    """The position as SVG: with a move, before (the move marked) and after; a refused move
    is marked on the position alone."""
    moves, after = [], None
    if move_text is not None:
        move_text = move_part(move_text)
        move = notation(rules).parse_move(move_text, state)
        moves = [move]
        try:
            after, _ = rules.apply(state, move)
        except IllegalMove:
            after = None
    from pnpgen.scene import beside, to_svg  # drawing only: kept off the referee's start-up

    scene = picture(rules, state, moves, after, ("before", "after"))
    if scene is None:
        raise PnpgenError(f"{rules.id} draws no pictures of its positions (Presentation.draw)")
    if moves and after is None:
        scene = beside([scene], captions=["refused"])
    title = f"{rules.id}: {move_text}" if move_text else rules.id
    return to_svg(scene, title=title)


def write_position_svg(path: Path, rules: Rules[S, M], state: S, move_text: str | None) -> None:
    text = position_svg(rules, state, move_text)
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
