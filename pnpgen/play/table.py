"""One game at the table: seats (people and bots), the moves made, undo and redo, and what
each audience may see of it. No web code here: pnpgen.play.server serves it.

An audience is the whole table (`None`: every fact, only in a game of perfect information)
or one seat (0-based): in a game with hidden information a seat is shown only its view
(HiddenInformation.view). Its picture, its legal moves and its description are made from a
state drawn from that view (`determinise`), never from the true state, so nothing the seat
cannot see can reach its page; the log shows another seat's move (or a chance outcome) in
notation only when the seat could tell it from what it sees (see `Table.public`).
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar

from pnpgen.engine.bots import make_bot, parse_bot, simulation_bots
from pnpgen.engine.capabilities import codec, hidden_information, notation, picture
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove, Presentation, Rules
from pnpgen.errors import PnpgenError
from pnpgen.referee import (
    VIEW_SEED,
    Position,
    Verdict,
    dump_data,
    judge,
    judge_position,
    outcome_data,
)

S = TypeVar("S")
M = TypeVar("M")

HUMAN = "human"
PUBLIC_WORLDS = 6  # states drawn from a seat's view to tell whether it could see a move (Table.public)
MANY_MOVES = 24  # more legal moves than this are grouped by kind


class PlayError(PnpgenError):
    """A request the table cannot do now (not your turn, nothing to undo): one line."""


@dataclass
class Step(Generic[S, M]):
    """One move made at the table: by a seat (0-based) or by chance (CHANCE)."""

    actor: int
    move: M
    text: str
    state: S  # the state after it
    events: list[str] = field(default_factory=list)
    by_hand: bool = False  # a person made it (a seat's move, or dice entered by hand)
    told: dict[int, str | None] = field(default_factory=dict)  # Table.public, per seat


def seat_list(rules: Rules[S, M], seats: str | None, players: int | None = None) -> list[str]:
    """'human,mcts:200,greedy' checked against the game's bots and player counts; by default
    one person and the game's own simulation bots for the other seats."""
    if seats:
        names = [s.strip() for s in seats.split(",") if s.strip()]
    else:
        count = players or rules.min_players
        names = [HUMAN] + (simulation_bots(rules) * count)[1:count]
    for name in names:
        if name != HUMAN:
            parse_bot(rules, name)
    if players is not None and len(names) != players:
        raise PnpgenError(f"--seats names {len(names)} seats; the state has {players} players")
    if not rules.min_players <= len(names) <= rules.max_players:
        span = f"{rules.min_players}" if rules.min_players == rules.max_players else (
            f"{rules.min_players} to {rules.max_players}")
        raise PnpgenError(f"--seats names {len(names)} seats; {rules.id} takes {span} players")
    return names


def move_kind(text: str) -> str:
    """The group a move's button goes in: its first word, or the square before '-', '@', '*'."""
    head = text.split()[0] if text.split() else text
    for mark in "-@*~":
        if mark in head and not head.startswith(mark):
            return head.split(mark)[0]
    return head


class _Locked(Protocol):
    @property
    def lock(self) -> AbstractContextManager[object]: ...


L = TypeVar("L", bound=_Locked)
P = ParamSpec("P")
R = TypeVar("R")


def locked(method: Callable[Concatenate[L, P], R]) -> Callable[Concatenate[L, P], R]:
    """The method run holding the table's lock (the server calls it from worker threads)."""

    @functools.wraps(method)
    def run(self: L, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.lock:
            return method(self, *args, **kwargs)

    return run


class Table(Generic[S, M]):
    """A game being played (see the module docstring)."""

    def __init__(self, rules: Rules[S, M], seats: list[str], seed: int, start: S | None = None,
                 dice: str = "seed", lang: str = "en") -> None:
        if dice not in ("seed", "hand"):
            raise PnpgenError(f"--dice {dice}: seed (rolled from the seed) or hand (entered at the table)")
        self.rules, self.seats, self.seed, self.dice, self.lang = rules, seats, seed, dice, lang
        self.write = notation(rules, "play").format_move
        codec(rules, "play")
        self.info = hidden_information(rules)
        if self.info is not None and dice == "hand":  # a roll typed in would show every page the card drawn
            raise PnpgenError(f"--dice hand: {rules.id} has hidden cards, so its chance is rolled from the seed")
        self.start = rules.initial_state(len(seats)) if start is None else start
        self.steps: list[Step[S, M]] = []
        self.undone: list[Step[S, M]] = []  # redo: the most recently undone step last
        self.version = 0
        self.lock = threading.RLock()
        self.bots = {seat: make_bot(rules, name) for seat, name in enumerate(seats) if name != HUMAN}
        self._payloads: dict[tuple[int, int | None], dict[str, Any]] = {}

    # --- where the game is ----------------------------------------------------------------
    @property
    def state(self) -> S:
        return self.steps[-1].state if self.steps else self.start

    def to_move(self) -> int:
        return self.rules.current_player(self.state)

    def humans(self) -> list[int]:
        return [seat for seat, name in enumerate(self.seats) if name == HUMAN]

    def automatic(self) -> bool:
        """Whether the next step is the table's own: a bot's move, or dice rolled from the seed."""
        player = self.to_move()
        return (player == CHANCE and self.dice == "seed") or (player >= 0 and self.seats[player] != HUMAN)

    def rng(self) -> random.Random:
        """The rng of the next step: the seed and the step's number, so an undone step that is
        made again by the table comes out the same."""
        return random.Random(f"{self.seed}:{len(self.steps)}")

    # --- making moves ---------------------------------------------------------------------
    def choose(self) -> tuple[int, M]:
        """The automatic step's move (a bot's choice or a roll), with the version it is for; may
        take a while (MCTS), so the table is not held meanwhile (apply_auto checks the version)."""
        with self.lock:
            version, state, player, rng = self.version, self.state, self.to_move(), self.rng()
        if player == CHANCE:
            return version, self.rules.sample_chance(state, rng)
        return version, self.bots[player](state, rng)

    @locked
    def apply_auto(self, version: int, move: M) -> bool:
        """Make the automatic step chosen at `version`; False when the table moved on meanwhile."""
        if version != self.version or not self.automatic():
            return False
        self._push(self.to_move(), move, by_hand=False)
        if self.info is not None:  # what each person's log may say of it, found now, not when a page asks
            for seat in self.humans():
                self.public(len(self.steps) - 1, seat)
        return True

    @locked
    def roll(self) -> None:
        """With --dice hand, a roll from the seed all the same (a person asked for it)."""
        if self.to_move() != CHANCE:
            raise PlayError("there is nothing to roll now")
        self._push(CHANCE, self.rules.sample_chance(self.state, self.rng()), by_hand=True)

    @locked
    def play(self, text: str, audience: int | None) -> Verdict:
        """A person's move (or roll entered by hand) from `audience`'s page, judged as the referee
        judges it; an illegal one changes nothing and returns the verdict with its rule."""
        text = " ".join(text.split())
        if not text:
            raise PlayError("type a move in the game's notation")
        player = self.to_move()
        if player == TERMINAL:
            return Verdict(False, text, "end", "the game is already over")
        if player == CHANCE:
            return self._roll_by_hand(text, audience)
        if self.seats[player] != HUMAN:
            raise PlayError(f"seat {player + 1} is a bot ({self.seats[player]}); wait for its move")
        if audience is not None and audience != player:
            raise PlayError(f"it is seat {player + 1}'s turn, not seat {audience + 1}'s")
        if self.info is not None:  # judged on what the seat sees: the verdict can tell nothing hidden
            view = self.info.view(self.state, player)
            verdict = judge_position(self.rules, Position(self._world(player), view, player), text)
        else:
            verdict = judge(self.rules, self.state, text)
        if verdict.legal is False:
            return verdict
        move = notation(self.rules).parse_move(text, self.state)
        try:
            self._push(player, move, by_hand=True)
        except IllegalMove as err:  # legal only if a hidden fact held (a view's verdict), and it did not
            return Verdict(False, verdict.move, err.rule, err.reason)
        return verdict

    def _roll_by_hand(self, text: str, audience: int | None) -> Verdict:
        if self.dice != "hand":
            raise PlayError("the dice are rolled from the seed (start with --dice hand to enter them)")
        outcome = notation(self.rules).parse_move(text, self.state)
        written = self.write(outcome)
        possible = {self.write(m): m for m, _ in self.rules.chance_outcomes(self.state)}
        if written not in possible:
            return Verdict(False, written, "chance", "not a possible outcome here (the outcomes are listed)")
        self._push(CHANCE, possible[written], by_hand=True)
        return Verdict(True, written)

    def _push(self, actor: int, move: M, by_hand: bool) -> None:
        state, events = self.rules.apply(self.state, move)
        text = self.write(move)
        self.steps.append(Step(actor, move, text, state, [e.text for e in events], by_hand))
        if self.undone and self.undone[-1].text == text and self.undone[-1].actor == actor:
            self.undone.pop()  # the same step again (a bot, seeded): redo stays
        else:
            self.undone.clear()
        self.version += 1

    @locked
    def undo(self, audience: int | None = None) -> None:
        """Back to before the last step a person made (the bots' and dice's steps after it go too);
        from a seat's page, only that seat's own move (or a roll typed in)."""
        made = [step for step in self.steps if step.by_hand]
        if not made:
            raise PlayError("nothing to undo: no move was made at this table yet")
        if audience is not None and made[-1].actor not in (audience, CHANCE):
            raise PlayError(f"the last move was seat {made[-1].actor + 1}'s: only that seat can take it back")
        while self.steps:
            step = self.steps.pop()
            self.undone.append(step)
            if step.by_hand:
                break
        self.version += 1

    @locked
    def redo(self) -> None:
        """The last undone person's step again, and the table's steps that followed it."""
        if not self.undone:
            raise PlayError("nothing to redo")
        self.steps.append(self.undone.pop())
        while self.undone and not self.undone[-1].by_hand:
            self.steps.append(self.undone.pop())
        self.version += 1

    @locked
    def load(self, state: S) -> None:
        """Start again from `state` (a full state file loaded on the table page)."""
        if self.rules.num_players(state) != len(self.seats):
            raise PlayError(f"the state has {self.rules.num_players(state)} players; the table has "
                            f"{len(self.seats)} seats (restart with --seats)")
        self.start, self.steps, self.undone = state, [], []
        self.version += 1

    # --- what an audience sees -------------------------------------------------------------
    def _world(self, seat: int, state: S | None = None) -> S:
        """A state drawn from `seat`'s view of `state` (the true state never leaves the server)."""
        assert self.info is not None
        view = self.info.view(self.state if state is None else state, seat)
        world = self.info.determinise(view, seat, random.Random(VIEW_SEED))
        if world is None:
            raise PlayError(f"no state fits seat {seat + 1}'s view")
        return world

    def check_audience(self, audience: int | None) -> None:
        if audience is None and self.info is not None:
            raise PlayError(f"{self.rules.id} has hidden cards: open a seat's page")
        if audience is not None and not 0 <= audience < len(self.seats):
            raise PlayError(f"no seat {audience + 1}: the table has {len(self.seats)}")

    def public(self, index: int, seat: int) -> str | None:
        """Step `index` as `seat` may read it: its notation when the seat could tell the step
        from its own views before and after it, else None ("a hidden move"). Its own moves it
        always knows; another's step is told when every step, in states drawn from the seat's
        view before, that leaves the seat's view after it the same, is written the same."""
        told = self.steps[index].told
        if seat not in told:
            told[seat] = self._tell(index, seat)
        return told[seat]

    def _tell(self, index: int, seat: int) -> str | None:
        step = self.steps[index]
        if self.info is None or step.actor == seat:
            return step.text
        info, rules = self.info, self.rules
        before = self.steps[index - 1].state if index else self.start
        seen_after = info.view(step.state, seat)  # views compare equal exactly when the seat sees the same
        view = info.view(before, seat)
        for k in range(PUBLIC_WORLDS):
            world = info.determinise(view, seat, random.Random(VIEW_SEED + k))
            if world is None or rules.current_player(world) != rules.current_player(before):
                return None
            moves = ([m for m, _ in rules.chance_outcomes(world)] if step.actor == CHANCE
                     else rules.legal_moves(world))
            for move in moves:
                if self.write(move) == step.text:
                    continue
                try:
                    after = rules.apply_unchecked(world, move)[0]  # a move the engine listed: the fast path
                except Exception:  # noqa: BLE001 - a move of that world that does not apply: not a rival
                    continue
                if info.view(after, seat) == seen_after:
                    return None
        return step.text

    @locked
    def payload(self, audience: int | None) -> dict[str, object]:
        """Everything the page of `audience` shows (module docstring: nothing it may not see);
        made once per version and audience (a page's fetch after its move and after the event)."""
        self.check_audience(audience)
        key = (self.version, audience)
        if key not in self._payloads:
            if self._payloads and next(iter(self._payloads))[0] != self.version:
                self._payloads.clear()
            self._payloads[key] = self._payload(audience)
        return self._payloads[key]

    def _payload(self, audience: int | None) -> dict[str, object]:
        rules, player = self.rules, self.to_move()
        shown = self.state if audience is None or self.info is None else self._world(audience)
        data: dict[str, object] = {
            "game": rules.id,
            "version": self.version,
            "seats": [{"seat": k + 1, "who": name} for k, name in enumerate(self.seats)],
            "audience": None if audience is None else audience + 1,
            "hidden": self.info is not None,
            "to_move": {"kind": "over" if player == TERMINAL else "chance" if player == CHANCE else "seat",
                        "seat": player + 1 if player >= 0 else None,
                        "who": self.seats[player] if player >= 0 else None},
            "dice": self.dice,
            "can_undo": any(step.by_hand for step in self.steps),
            "can_redo": bool(self.undone),
            "outcome": outcome_data(rules, self.state),
            "log": self._log(audience),
        }
        data.update(drawing(rules, shown, self.lang))
        if data["svg"] is not None and self.info is None and isinstance(rules, Presentation):
            data["text"] = rules.describe(shown)  # beside the picture: the position in words
        if self.info is not None and audience is not None:
            view = self.info.view(self.state, audience)
            data["text"] = dump_data(self.info.view_to_data(view))  # its own hand and face-down cards
            data["file"] = data["text"]
        else:
            data["file"] = dump_data(codec(rules).to_data(self.state))
        data["moves"], data["outcomes"] = [], []
        may_move = player >= 0 and self.seats[player] == HUMAN and audience in (None, player)
        if may_move:
            data["moves"] = grouped([self.write(m) for m in rules.legal_moves(shown)])
        if player == CHANCE and self.dice == "hand" and (audience is None or self.info is None):
            outcomes = rules.chance_outcomes(self.state)
            data["outcomes"] = [self.write(m) for m, _ in outcomes] if len(outcomes) <= 60 else []
            data["outcome_count"] = len(outcomes)
        return data

    def _log(self, audience: int | None) -> list[dict[str, object]]:
        log = []
        for index, step in enumerate(self.steps):
            text = step.text if audience is None else self.public(index, audience)
            who = "chance" if step.actor == CHANCE else f"seat {step.actor + 1}"
            log.append({"n": index + 1, "who": who, "text": text if text is not None else "(a move you cannot see)",
                        "hidden": text is None})
        return log


def grouped(texts: list[str]) -> list[dict[str, object]]:
    """Moves as buttons: one group of all, or by kind (move_kind) when there are many. A kind
    with very many holds groups split again by the next word that tells them apart ("write 6"
    holds "write 6 at 2-2", ...), so no group is a wall of buttons (the text box takes any move)."""
    if len(texts) <= MANY_MOVES:
        return [{"kind": "", "moves": texts, "count": len(texts), "groups": []}]

    def split(items: list[str], words: int) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for text in items:
            key = move_kind(text) if words == 1 else " ".join(text.split()[:words])
            groups.setdefault(key, []).append(text)
        return groups

    def node(kind: str, items: list[str], words: int) -> dict[str, object]:
        for more in range(words + 1, 9) if len(items) > 2 * MANY_MOVES else ():
            finer = split(items, more)
            if len(finer) > 1:
                return {"kind": kind, "moves": [], "count": len(items),
                        "groups": [node(key, part, more) for key, part in finer.items()]}
        return {"kind": kind, "moves": items, "count": len(items), "groups": []}

    return [node(kind, items, 1) for kind, items in split(texts, 1).items()]


def drawing(rules: Rules[S, M], state: S, lang: str = "en") -> dict[str, object]:
    """{'svg': the game's picture of `state`, or None} and {'text': its description} for a
    game that draws none (or its state file, for a game that describes none either)."""
    scene = picture(rules, state, lang=lang)
    if scene is not None:
        from pnpgen.scene import to_svg

        return {"svg": to_svg(scene), "text": None}
    text = rules.describe(state) if isinstance(rules, Presentation) else None
    return {"svg": None, "text": text if text is not None else dump_data(codec(rules).to_data(state))}
