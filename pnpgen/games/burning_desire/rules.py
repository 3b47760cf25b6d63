"""Burning Desire as a playable game: turns, final round, tie-breaks (D-BD-1..3).

Phases of a turn: `roll` (chance: the main dice not kept, and the bonus die unless
kept), `choose` (keep some dice and reroll, or score one combination), `gamble`
(roll the multiplier dice, or stop and bank), `multiply` (chance: the multiplier
dice). Every number comes from game.yaml via Config.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Literal, overload

from pnpgen.content.game import GameContent
from pnpgen.engine.chance import dice_rolls
from pnpgen.engine.draws import below, below_each
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, IllegalMove, Outcome, Rules
from pnpgen.errors import BadMove
from pnpgen.games.burning_desire.config import Config, load_config
from pnpgen.games.burning_desire.scoring import Breakdown, score
from pnpgen.games.burning_desire.state import CHOOSE, GAMBLE, GAMBLE_MOVE, MULTIPLY, OVER, ROLL, STOP_MOVE, Move, State
from pnpgen.games.words import number


@lru_cache(maxsize=64)
def roll_outcomes(dice: int, faces: int, bonus_faces: int) -> tuple[tuple[Move, Fraction], ...]:
    """Every roll of `dice` main dice (as a multiset), times every bonus face when
    `bonus_faces` > 0, with exact probabilities."""
    bonus = range(1, bonus_faces + 1) if bonus_faces else (0,)
    return tuple((Move("roll", rolled, b), p / len(bonus))
                 for rolled, p in dice_rolls(dice, tuple(range(1, faces + 1))) for b in bonus)


def _clockwise(seats: list[int] | tuple[int, ...], start: int, n: int) -> tuple[int, ...]:
    """`seats` in seat order beginning at seat `start`."""
    return tuple(sorted(seats, key=lambda s: (s - start) % n))


POINTS_KEPT = 50_000  # scored rolls remembered by the fast path (then forgotten at once)
_new = tuple.__new__  # State(...) without its keyword handling: the fast path builds many


def _rolled(state: State, move: Move) -> State:
    """The state after a roll (BD-2.3), unchecked."""
    scores, turn, _, rolls, kept, bonus, _, _, trigger, to_play, tie_round, _, _, turns = state
    dice = tuple(sorted(kept + move.dice)) if kept else move.dice  # rolled dice come sorted
    return _new(State, (scores, turn, CHOOSE, rolls + 1, dice, bonus or move.bonus, "", 0, trigger, to_play,
                        tie_round, (), "", turns))


def _kept(state: State, move: Move) -> State:
    """The state after keeping some dice to reroll the rest (BD-2.2), unchecked."""
    scores, turn, _, rolls, _, bonus, _, _, trigger, to_play, tie_round, _, _, turns = state
    return _new(State, (scores, turn, ROLL, rolls, tuple(sorted(move.dice)), bonus if move.bonus else 0, "", 0,
                        trigger, to_play, tie_round, (), "", turns))


# event kinds of the fast path, by what happened after a bank ("" nothing more)
_ROLL, _KEEP, _SCORE, _GAMBLE, _MULTIPLY = ("roll",), ("keep",), ("score",), ("gamble",), ("multiply",)
_BANK = {then: ("bank", then) if then else ("bank",) for then in ("", "final_round", "game_end", "tie_break")}
_SCORE_BANK = {then: ("score", *kinds) for then, kinds in _BANK.items()}
_BUST_BANK = {then: ("bust", *kinds) for then, kinds in _BANK.items()}


class BurningDesireRules(Rules[State, Move]):
    """The mechanics and the move notation; analysis, presentation and state files are
    composed onto them in the package's BurningDesire."""

    max_steps = 50_000

    def __init__(self, content: GameContent) -> None:
        super().__init__(content)
        self.cfg: Config = load_config(self.settings)
        self.tie_break_cap = int(self.simulation.get("tie_break_rounds", 10))
        self.gamble_margin = int(self.simulation.get("gamble_margin", 0))
        self._faces = range(1, self.cfg.faces + 1)
        self._rolls, self._dice_count = self.cfg.rolls, self.cfg.dice
        self._face_count, self._bonus_faces = self.cfg.faces, self.cfg.bonus_faces
        # moves by dice showing, and chance outcomes by faces: at most every multiset of the
        # game's dice, so bounded by content (and a drawn move is not rebuilt each time)
        self._choice_cache: dict[tuple[int, ...], tuple[tuple[Move, ...], tuple[Move, ...]]] = {}
        self._outcome_cache: dict[tuple[int, ...], Move] = {}
        self._points: dict[tuple[str, tuple[int, ...], int], int] = {}  # (combination, dice, bonus): points

    def num_players(self, state: State) -> int:
        return len(state.scores)

    # --- lifecycle -----------------------------------------------------------------------
    def initial_state(self, players: int) -> State:
        return State((0,) * players, 0, ROLL)

    def current_player(self, state: State) -> int:
        phase = state.phase
        if phase in (CHOOSE, GAMBLE):
            return state.turn
        return TERMINAL if phase == OVER else CHANCE

    def legal_moves(self, state: State) -> list[Move]:
        phase = state.phase
        if phase == CHOOSE:
            found = self._choice_cache.get(state.dice)
            if found is None:
                found = self._choice_cache[state.dice] = (self._choices(state.dice, False),
                                                          self._choices(state.dice, True))
            return list(found[state.rolls < self._rolls])
        if phase == GAMBLE:
            return [GAMBLE_MOVE, STOP_MOVE] if self.gamble_allowed(state) else [STOP_MOVE]
        return []

    def _choices(self, dice: tuple[int, ...], can_reroll: bool) -> tuple[Move, ...]:
        """Score moves, then every keep (sub-multiset of the dice, with or without the bonus die)."""
        moves = [Move("score", combination=c.id) for c in self.cfg.combinations]
        if can_reroll:
            counts = [(f, dice.count(f)) for f in self._faces if f in dice]
            for picks in product(*(range(c + 1) for _, c in counts)):
                kept = tuple(f for (f, _), k in zip(counts, picks, strict=True) for _ in range(k))
                moves.append(Move("keep", kept, 0))
                if len(kept) < self.cfg.dice:
                    moves.append(Move("keep", kept, 1))
        return tuple(moves)

    def chance_outcomes(self, state: State) -> list[tuple[Move, Fraction]]:
        if state.phase == ROLL:
            rolled = self.cfg.dice - len(state.dice)
            return list(roll_outcomes(rolled, self.cfg.faces, 0 if state.bonus else self.cfg.bonus_faces))
        if state.phase == MULTIPLY:
            return self._mult_outcomes()
        return []

    @lru_cache(maxsize=1)  # noqa: B019 - one Rules per content, kept for the process
    def _mult_outcomes(self) -> list[tuple[Move, Fraction]]:
        """Distinct face combinations of the multiplier dice, with exact probabilities."""
        dice = self.cfg.multipliers
        result = []
        for faces in product(*(sorted(set(d.faces)) for d in dice)):
            p = Fraction(1)
            for die, face in zip(dice, faces, strict=True):
                p *= Fraction(die.faces.count(face), len(die.faces))
            result.append((Move("mult", faces), p))
        return result

    def sample_chance(self, state: State, rng: random.Random) -> Move:
        """The same draws as rolling each die with rng.randint (pnpgen.engine.draws); a drawn
        outcome's Move is made once and reused."""
        cache = self._outcome_cache
        if state.phase == ROLL:
            drawn = below_each(self._face_count, self._dice_count - len(state.dice), rng)
            drawn.sort()
            drawn.append(-1 if state.bonus else below(self._bonus_faces, rng))
            key = tuple(drawn)
            move = cache.get(key)
            if move is None:
                move = cache[key] = Move("roll", tuple(d + 1 for d in key[:-1]), key[-1] + 1)
            return move
        key = (-2, *[rng.choice(d.faces) for d in self.cfg.multipliers])
        move = cache.get(key)
        if move is None:
            move = cache[key] = Move("mult", key[1:])
        return move

    def gamble_allowed(self, state: State) -> bool:
        """BD-4.1: in the final round (and tie-breaks), or when banking would reach the threshold."""
        if state.points <= 0:
            return False
        if state.trigger >= 0 and self.cfg.gamble_in_final:
            return True
        reach = state.scores[state.turn] + state.points >= self.cfg.threshold
        return self.cfg.gamble_on_reaching and reach

    # --- moves: one core for apply (checked, with events) and apply_unchecked (kinds only) ---
    def apply(self, state: State, move: Move) -> tuple[State, list[Event]]:
        return self._step(state, move, True)

    def apply_unchecked(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        """apply() for a move the engine drew: no checks, and the events' kinds only."""
        return self._step(state, move, False)

    def _refuse(self, state: State, move: Move) -> None:
        """Raise IllegalMove naming the rule when `move` cannot be played now (apply's checks;
        an unknown combination is refused by breakdown)."""
        phase, kind, cfg = state.phase, move.kind, self.cfg
        if phase == OVER:
            raise IllegalMove("BD-6.1", "the game is over")
        if phase == ROLL:
            if kind != "roll":
                raise IllegalMove("BD-1", "the dice are being rolled: the next move is the roll's outcome")
            need, bonus_rolled = cfg.dice - len(state.dice), state.bonus == 0
            if len(move.dice) != need or (move.bonus != 0) != bonus_rolled:
                what = f"{need} main dice" + (" and the bonus die" if bonus_rolled else " (the bonus die is kept)")
                raise IllegalMove("BD-2.3", f"this roll is {what}; the outcome does not match")
            if (move.dice and (min(move.dice) < 1 or max(move.dice) > cfg.faces)) \
                    or not 0 <= move.bonus <= cfg.bonus_faces:
                raise IllegalMove("BD-2.3", f"a main die shows 1–{cfg.faces} and the bonus die 1–{cfg.bonus_faces}")
        elif phase == MULTIPLY:
            dice = cfg.multipliers
            if kind != "mult":
                raise IllegalMove("BD-1", "the multiplier dice are being rolled: the next move is their outcome")
            if len(move.dice) != len(dice) or any(f not in d.faces for f, d in zip(move.dice, dice, strict=False)):
                faces = "; ".join(f"{d.name}: {', '.join(map(str, sorted(set(d.faces))))}" for d in dice)
                raise IllegalMove("BD-4.2", f"the multiplier dice show one face each ({faces})")
        elif phase == CHOOSE:
            if kind == "keep":
                if state.rolls >= cfg.rolls:
                    raise IllegalMove("BD-2.1", f"all {cfg.rolls} rolls of this turn are used; choose a combination")
                for face in set(move.dice):
                    if move.dice.count(face) > state.dice.count(face):
                        raise IllegalMove("BD-2.2", f"keeps {move.dice.count(face)} × {face} but "
                                          f"{state.dice.count(face)} main dice show {face}")
                if len(move.dice) == cfg.dice and move.bonus:
                    raise IllegalMove("BD-2.2", "keeping every die rerolls nothing; reroll at least one die or score")
            elif kind in ("gamble", "stop"):
                raise IllegalMove("BD-4.1", "the multiplier dice come after a combination is chosen")
            elif kind != "score":
                raise IllegalMove("BD-1", f"seat {state.turn + 1} must keep and reroll, or score a combination")
        elif kind == "gamble" and not self.gamble_allowed(state):
            total = state.scores[state.turn] + state.points
            raise IllegalMove("BD-4.1", f"multiplier dice are rolled only in the final round or when "
                              f"the turn reaches {cfg.threshold}, and "
                              f"{state.scores[state.turn]} + {state.points} = {total} does not")
        elif kind not in ("gamble", "stop"):
            raise IllegalMove("BD-1", f"seat {state.turn + 1} has scored {state.points}: gamble or stop")

    @overload
    def _step(self, state: State, move: Move, checked: Literal[True]) -> tuple[State, list[Event]]: ...

    @overload
    def _step(self, state: State, move: Move, checked: Literal[False]) -> tuple[State, tuple[str, ...]]: ...

    def _step(self, state: State, move: Move, checked: bool) -> tuple[State, list[Event] | tuple[str, ...]]:
        """The next state, with apply's checks and events (checked) or only the events' kinds."""
        if checked:
            self._refuse(state, move)
        phase, seat = state.phase, state.turn
        if phase == ROLL:  # rolled dice come sorted from the engine; a referee's are sorted here
            new = _rolled(state, Move("roll", tuple(sorted(move.dice)), move.bonus) if checked else move)
            if not checked:
                return new, _ROLL
            dice, bonus = new.dice, new.bonus

            def rolled() -> str:
                return f"seat {seat + 1} roll {new.rolls}: {' '.join(map(str, dice))}, bonus die {bonus}"

            return new, [Event("roll", rolled, {"player": seat + 1, "roll": new.rolls, "dice": list(dice),
                                                "bonus": bonus})]
        if phase == CHOOSE and move.kind == "keep":
            new = _kept(state, move)
            if not checked:
                return new, _KEEP
            kept, rerolled = new.dice, self.cfg.dice - len(new.dice)

            def keeps() -> str:
                return (f"seat {seat + 1} keeps {' '.join(map(str, kept)) or 'no main die'}"
                        f"{' and the bonus die' if move.bonus else ''}, rerolls {rerolled} main dice"
                        f"{'' if move.bonus else ' and the bonus die'}")

            return new, [Event("keep", keeps, {"player": seat + 1, "kept": list(kept), "kept_bonus": bool(move.bonus)})]
        if phase == CHOOSE:
            return self._score(state, move, checked)
        if phase == GAMBLE and move.kind == "stop":
            return self._bank(state, state.points, [], checked)
        if phase == GAMBLE:
            new = _new(State, (state.scores, seat, MULTIPLY, *state[3:]))
            return new, [Event("gamble", f"seat {seat + 1} rolls the multiplier dice on {state.points}",
                               {"player": seat + 1, "points": state.points})] if checked else _GAMBLE
        if 0 in move.dice:  # MULTIPLY: a zero busts the turn
            events = [Event("bust", f"seat {seat + 1} rolls {' and '.join(map(str, move.dice))}: a zero, "
                            "the turn scores 0", {"player": seat + 1, "faces": list(move.dice)})] if checked else []
            return self._bank(state, 0, events, checked, "bust")
        points = state.points * math.prod(move.dice)
        new = _new(State, (state.scores, seat, GAMBLE, *state[3:7], points, *state[8:]))
        if not checked:
            return new, _MULTIPLY
        text = f"seat {seat + 1} rolls {' and '.join(map(str, move.dice))}: {state.points} becomes {points}"
        return new, [Event("multiply", text, {"player": seat + 1, "faces": list(move.dice), "points": points})]

    def breakdown(self, state: State, combination: str) -> Breakdown:
        combo = self.cfg.combination(combination)
        if combo is None:
            raise IllegalMove("BD-3.1", f"there is no combination '{combination}'")
        return score(self.cfg, combo, state.dice, state.bonus)

    def _score(self, state: State, move: Move, checked: bool) -> tuple[State, list[Event] | tuple[str, ...]]:
        """Score a combination (BD-3); a roll worth nothing ends the turn at once."""
        if checked:
            br = self.breakdown(state, move.combination)  # refuses an unknown combination
            points = br.points
        else:  # the fast path remembers the points of each scored roll
            key = (move.combination, state.dice, state.bonus)
            found = self._points.get(key)
            if found is None:
                if len(self._points) >= POINTS_KEPT:
                    self._points.clear()
                found = self._points[key] = self.breakdown(state, move.combination).points
            points = found
        new = _new(State, (state.scores, state.turn, GAMBLE, 0, (), 0, move.combination, points, *state[8:]))
        if not checked:
            return (new, _SCORE) if points else self._bank(state, 0, [], False, "score")
        allowed = self.gamble_allowed(new)

        def scores() -> str:
            parts = [f"{br.base} for {br.count} dice"]
            if br.bonus:
                parts.append(f"+{br.bonus} bonus")
            if br.doubled:
                parts.append(f"×{self.cfg.double_factor} (bonus die)")
            return (f"seat {state.turn + 1} scores \"{br.combination}\": {', '.join(parts)} = {br.points}; "
                    f"multiplier dice {'allowed' if allowed else 'not allowed'}")

        events = [Event("score", scores, {"player": state.turn + 1, **br.to_data(), "gamble_allowed": allowed})]
        return (new, events) if points else self._bank(state, 0, events, True)

    def _banked(self, state: State, gained: int) -> tuple[State, str]:
        """End the turn: add the points, start or run the final round, pass the turn on. With
        what else happened: '', 'final_round', 'game_end' or 'tie_break'."""
        n = len(state.scores)
        seat = state.turn
        scores = state.scores[:seat] + (state.scores[seat] + gained,) + state.scores[seat + 1:]
        if state.trigger < 0 and scores[seat] < self.cfg.threshold:  # the common case, built directly
            return _new(State, (scores, (seat + 1) % n, ROLL, 0, (), 0, "", 0, -1, state.to_play, state.tie_round,
                                (), "", state.turns + 1)), ""
        base = State(scores, seat, ROLL, turns=state.turns + 1, trigger=state.trigger,
                     to_play=state.to_play, tie_round=state.tie_round)
        if state.trigger < 0:
            order = _clockwise([s for s in range(n) if s != seat], seat + 1, n)
            return base._replace(trigger=seat, turn=order[0], to_play=order[1:]), "final_round"
        if state.to_play:
            return base._replace(turn=state.to_play[0], to_play=state.to_play[1:]), ""
        top = max(scores)
        leaders = [s for s in range(n) if scores[s] == top]
        if len(leaders) == 1:
            end = "tie_break" if state.tie_round else "final_round"
            return base._replace(phase=OVER, winners=(leaders[0],), end=end, to_play=()), "game_end"
        if state.tie_round >= self.tie_break_cap:
            return base._replace(phase=OVER, winners=tuple(leaders), end="shared_win", to_play=()), "game_end"
        order = _clockwise(leaders, seat + 1, n)
        return base._replace(turn=order[0], to_play=order[1:], tie_round=state.tie_round + 1), "tie_break"

    def _bank(self, state: State, gained: int, events: list[Event], checked: bool,
              first: str = "") -> tuple[State, list[Event] | tuple[str, ...]]:
        """_banked, with its events (checked) or their kinds, after those of `first` ('score', 'bust')."""
        new, then = self._banked(state, gained)
        if not checked:
            return new, (_SCORE_BANK if first == "score" else _BUST_BANK if first == "bust" else _BANK)[then]
        seat, scores = state.turn, new.scores
        events = events + [Event("bank", lambda: f"seat {seat + 1} banks {gained}: total {scores[seat]}",
                                 {"player": seat + 1, "points": gained, "total": scores[seat]})]
        order = (new.turn, *new.to_play)
        if then == "final_round":
            events.append(Event("final_round", f"seat {seat + 1} reaches {scores[seat]}: final round",
                                {"trigger": seat + 1, "to_play": [s + 1 for s in order]}))
        elif then == "game_end" and new.end == "shared_win":
            events.append(Event("game_end", f"still tied after {state.tie_round} tie-break round(s): "
                                f"shared win", {"winners": [s + 1 for s in new.winners], "end": "shared_win"}))
        elif then == "game_end":
            events.append(Event("game_end", f"seat {new.winners[0] + 1} wins with {max(scores)}",
                                {"winners": [new.winners[0] + 1], "end": new.end}))
        elif then == "tie_break":
            events.append(Event("tie_break", f"seats {', '.join(str(s + 1) for s in order)} tied on "
                                f"{max(scores)}: tie-break round {new.tie_round}",
                                {"tied": [s + 1 for s in sorted(order)], "round": new.tie_round}))
        return new, events

    def outcome(self, state: State) -> Outcome:
        return Outcome(state.winners, tuple(float(s) for s in state.scores), state.end)

    # --- notation ------------------------------------------------------------------------
    def parse_move(self, text: str, state: State | None = None) -> Move:
        words = text.replace(",", " ").split()
        if not words:
            raise BadMove("empty move: expected roll, keep, reroll, score, gamble, stop or mult")
        head, args = words[0].lower(), words[1:]
        if head in ("gamble", "stop") and not args:
            return Move(head)
        if head in ("score", "roll", "keep", "reroll") and not args:
            need = {"score": "a combination: 'score " + self.cfg.combinations[0].id + "'",
                    "roll": "the dice rolled: 'roll 1 4 4 5 6 6 b5'",
                    "keep": "the dice kept: 'keep 1 1 b', or 'keep none'",
                    "reroll": "the dice rerolled: 'reroll 4 5', or 'reroll all'"}[head]
            raise BadMove(f"cannot read move '{text}': {head} needs {need}")
        if head == "score" and len(args) == 1:
            cid = args[0].strip("\"'「」").replace("–", "-").replace("〜", "-")
            if self.cfg.combination(cid) is None:
                known = ", ".join(c.id for c in self.cfg.combinations)
                raise BadMove(f"cannot read move '{text}': unknown combination '{args[0]}' (combinations: {known})")
            return Move("score", combination=cid)
        if head == "roll" and args:
            bonus = 0
            if args[-1].lower().startswith("b"):
                bonus = self._face(text, args[-1][1:], self.cfg.bonus_faces)
                args = args[:-1]
            dice = tuple(sorted(self._face(text, a, self.cfg.faces) for a in args))
            if len(dice) > self.cfg.dice:
                raise BadMove(f"cannot read move '{text}': {len(dice)} main dice, there are {self.cfg.dice}")
            return Move("roll", dice, bonus)
        if head == "keep" and args:
            keep_bonus = args[-1].lower() == "b"
            if keep_bonus:
                args = args[:-1]
            if args == ["none"]:
                args = []
            return Move("keep", self._dice(text, args), int(keep_bonus))
        if head == "reroll" and args:
            if state is None or state.phase != CHOOSE:
                raise BadMove(f"cannot read move '{text}': 'reroll' needs a state with dice showing; use 'keep'")
            reroll_bonus = args[-1].lower() == "b"
            if reroll_bonus:
                args = args[:-1]
            if args == ["all"]:
                args, reroll_bonus = [str(d) for d in state.dice], True
            kept = list(state.dice)
            for face in self._dice(text, args):
                if face not in kept:
                    raise BadMove(f"cannot read move '{text}': no main die shows {face} to reroll")
                kept.remove(face)
            return Move("keep", tuple(kept), int(not reroll_bonus))
        if head == "mult" and len(args) == len(self.cfg.multipliers):
            faces = [number(a) for a in args]
            if None in faces:
                raise BadMove(f"cannot read move '{text}': multiplier faces are numbers")
            return Move("mult", tuple(f or 0 for f in faces))
        forms = ("'roll 1 4 4 5 6 6 b5', 'keep 1 1 b', 'reroll 4 5', 'score 4-6', 'gamble', 'stop' "
                 f"or 'mult {' '.join(['0'] * len(self.cfg.multipliers))}'")
        raise BadMove(f"cannot read move '{text}': expected {forms}")

    def _face(self, text: str, word: str, faces: int) -> int:
        face = number(word)
        if face is None or not 1 <= face <= faces:
            raise BadMove(f"cannot read move '{text}': '{word}' is not a die face 1–{faces}")
        return face

    def _dice(self, text: str, words: list[str]) -> tuple[int, ...]:
        return tuple(sorted(self._face(text, w, self.cfg.faces) for w in words))

    def format_move(self, move: Move) -> str:
        kind = move.kind
        if kind == "roll":
            return " ".join(["roll", *map(str, move.dice)] + ([f"b{move.bonus}"] if move.bonus else []))
        if kind == "keep":
            return " ".join(["keep", *(map(str, move.dice) if move.dice else ["none"])] + (["b"] if move.bonus else []))
        if kind == "score":
            return f"score {move.combination}"
        if kind == "mult":
            return " ".join(["mult", *map(str, move.dice)])
        return kind
