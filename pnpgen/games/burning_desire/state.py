"""Burning Desire's moves and states: plain data, shared by the rules and the bots."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

ROLL, CHOOSE, GAMBLE, MULTIPLY, OVER = "roll", "choose", "gamble", "multiply", "over"
PHASES = (ROLL, CHOOSE, GAMBLE, MULTIPLY, OVER)


@dataclass(frozen=True, slots=True)
class Move:
    kind: str  # roll, keep, score, gamble, stop, mult
    dice: tuple[int, ...] = ()  # roll: new main dice; keep: kept dice; mult: faces
    bonus: int = 0  # roll: the bonus die's new face (0: not rolled); keep: 1 = bonus die kept
    combination: str = ""  # score


GAMBLE_MOVE = Move("gamble")
STOP_MOVE = Move("stop")


class State(NamedTuple):
    scores: tuple[int, ...]
    turn: int  # seat on turn (0-based)
    phase: str
    rolls: int = 0  # rolls made this turn
    dice: tuple[int, ...] = ()  # main dice showing; while a roll is due: the dice kept
    bonus: int = 0  # bonus die face; while a roll is due: kept face, or 0 when rerolled
    combination: str = ""  # gamble/multiply: the combination scored
    points: int = 0  # gamble/multiply: the turn's points at stake
    trigger: int = -1  # seat that reached the threshold (-1: no final round yet)
    to_play: tuple[int, ...] = ()  # final round / tie-break: seats still to play after this one
    tie_round: int = 0  # tie-break round in progress (0: none)
    winners: tuple[int, ...] = ()
    end: str = ""
    turns: int = 0  # turns completed in the game (for statistics)
