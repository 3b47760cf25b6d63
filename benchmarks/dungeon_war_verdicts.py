"""Record the Dungeon War referee's verdicts for many positions and candidate moves, to diff
before and after a change to the rules engine (issue 29: explain.py on the generators' gates).

For every third position along seeded games (random and greedy bots, 2-4 players): every
legal move, near misses of up to 25 of them (one number changed, a declared path added or
spoilt) and 60 random moves of every kind; each judged by rules.apply: 'legal' or
'RULE | words' (or the exception). At 8 games: 106,099 verdicts, 18,382 legal.

    python benchmarks/dungeon_war_verdicts.py OUT [games]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from pnpgen.content.game import load_games
from pnpgen.engine.bots import make_bot
from pnpgen.engine.protocol import CHANCE, TERMINAL, IllegalMove
from pnpgen.games import rules_for_content
from pnpgen.games.dungeon_war.config import ARMY

ROOT = Path(__file__).resolve().parents[1]
(content,) = load_games(ROOT / "content", ["dungeon-war"])
(game,) = rules_for_content(content)
cfg = game.cfg
HEADS = ("end", "alchemy", "draw", "discard", "pass", "element", "lay", "acid", "ambush", "trap", "dispose",
         "change", "revive", "remake", "roll", "dash", "place", "move", "warp", "make", "reverse", "block", "fence",
         "summon", "equip", "unequip", "use", "shoot", "go", "put")


def states(games: int):
    for seed in range(games):
        rng = random.Random(seed)
        players = 2 + seed % 3
        bot = make_bot(game, "greedy" if seed % 2 else "random")
        state = game.initial_state(players)
        step = 0
        while game.current_player(state) != TERMINAL and step < 900:
            if step % 3 == 0:
                yield seed, step, state
            player = game.current_player(state)
            move = game.sample_chance(state, rng) if player == CHANCE else bot(state, rng)
            state = game.apply(state, move)[0]
            step += 1


def sq(rng: random.Random, state) -> tuple[int, int]:
    if state.board and rng.random() < 0.6:
        r, c, _, _ = rng.choice(state.board)
        return r + rng.randint(-3, 3), c + rng.randint(-3, 3)
    return rng.randint(-1, cfg.rows), rng.randint(-1, cfg.columns)


def card(rng: random.Random) -> int:
    return rng.randrange(len(cfg.war_cards))


def random_move(rng: random.Random, state) -> tuple:
    head = rng.choice(HEADS)
    if head in ("end", "alchemy", "draw", "discard", "pass"):
        return (head,)
    if head == "element":
        return (head, rng.randint(0, len(cfg.cycle) - 1))
    if head == "lay":
        return (head, rng.random() < 0.5)
    if head in ("acid", "ambush"):
        return (head, card(rng))
    if head == "trap":
        return (head, card(rng), *(sq(rng, state) if rng.random() < 0.7 else ()))
    if head in ("dispose", "change"):
        hand = list(state.hands[state.seat]) if rng.random() < 0.6 else []
        return (head, *sorted(rng.sample(hand, min(len(hand), rng.randint(1, 3))) if hand else
                              [card(rng) for _ in range(rng.randint(1, 3))]))
    if head in ("revive", "remake", "roll", "dash", "go", "put"):
        return (head, *sq(rng, state))
    if head == "place":
        return (head, rng.choice([cfg.pieces[n].code for n in ARMY]), *sq(rng, state))
    if head in ("move", "warp", "make", "reverse", "block", "fence"):
        src = rng.choice(state.board)[:2] if state.board else sq(rng, state)
        dst = sq(rng, state) if head not in ("make", "reverse") else (rng.randint(0, 4), rng.randint(0, 6))
        return (head, *src, *dst)
    if head == "summon":
        return (head, rng.choice(ARMY), *sq(rng, state))
    if head in ("equip", "unequip"):
        hand = state.hands[state.seat]
        gear = state.equip[state.seat] if state.equip else ()
        if head == "unequip" and gear and rng.random() < 0.6:
            slot, i = rng.choice(gear)
            return (head, i, rng.choice([slot, *cfg.slots]))
        i = rng.choice(hand) if hand and rng.random() < 0.6 else card(rng)
        return (head, i, rng.choice(list(cfg.slots)))
    src = rng.choice(state.board)[:2] if state.board else sq(rng, state)
    gear = state.equip[state.seat] if state.equip else ()
    i = rng.choice(gear)[1] if gear and rng.random() < 0.7 else card(rng)
    if head == "use":
        extra = () if rng.random() < 0.4 else (*sq(rng, state), *(sq(rng, state) if rng.random() < 0.3 else ()))
        return (head, *src, i, *extra)
    return (head, *src, i, *sq(rng, state))


def near_misses(rng: random.Random, move: tuple) -> list[tuple]:
    found = []
    for k, v in enumerate(move):
        if isinstance(v, bool) or not isinstance(v, int):
            continue
        for w in (v - 1, v + 1, rng.randint(-1, max(cfg.rows, cfg.columns))):
            found.append((*move[:k], w, *move[k + 1:]))
    if move[0] in ("move", "go"):
        n = 5 if move[0] == "move" else 3
        dst = move[n - 2:n]
        for length in (1, 2, 3, 5):
            path = []
            for _ in range(length - 1):
                path += [move[n - 2] + rng.randint(-1, 1), move[n - 1] + rng.randint(-1, 1)]
            found.append((*move[:n], *path, *dst))
    return found


def verdict(state, move: tuple) -> str:
    try:
        game.apply(state, move)
    except IllegalMove as refused:
        return f"{refused.rule} | {refused.reason}"
    except Exception as failed:  # noqa: BLE001 (recorded: a crash is a verdict too)
        return f"EXC {type(failed).__name__}: {failed}"
    return "legal"


def main() -> None:
    out, games = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 12
    lines = []
    for seed, step, state in states(games):
        rng = random.Random(seed * 100_000 + step)
        player = game.current_player(state)
        legal = game.legal_moves(state) if player >= 0 else []
        cands = [tuple(m) for m in legal]
        for m in rng.sample(legal, min(len(legal), 25)):
            cands += near_misses(rng, tuple(m))
        cands += [random_move(rng, state) for _ in range(60 if player >= 0 else 5)]
        seen = set()
        for m in cands:
            if m in seen:
                continue
            seen.add(m)
            lines.append(f"{seed}:{step}:{state.phase} {m!r} -> {verdict(state, m)}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(len(lines), "verdicts", sum(1 for x in lines if x.endswith("-> legal")), "legal")


if __name__ == "__main__":
    main()
