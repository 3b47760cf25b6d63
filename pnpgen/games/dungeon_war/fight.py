"""`pnpgen referee dungeon-war --odds "<fight>"`: a fight written as text, and its exact odds
(docs/notation/dungeon-war.md, "Odds of a fight").

    melee:  <side> vs <side>                 e.g. 1D+20 vs 2D+13
    shot:   shot <BP> [(elements)] at <side>[, <side> ...]      e.g. shot 2D+5 at 2D+5, 2D+5
    side:   <BP or piece[+card...]> [(elements)] [resist:e,...] [weak:e,...] [support:n]
            [crystals:n] [fatigue:n] [dash]      e.g. 3D+6 (fire), king crystals:2 fatigue:1,
                                                 knight+flame-tongue dash
A piece is one of the content's pieces or slimes (fire-slime, ...); `+card` wears a war card
(its BP, element, resistance); crystals and fatigue change a King Dragon's BP by
(crystals - fatigue) x king.crystal_bp; `dash` adds the piece's dash BP.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from pnpgen.errors import BadMove

from .odds import BP, Fighter, melee, shot, shot_outcomes

BP_TEXT = r"(?:(\d+)D)?([+-]?\d+)?"


def parse_bp(text: str) -> BP:
    m = re.fullmatch(BP_TEXT, text.replace(" ", ""))
    if not m or not (m.group(1) or m.group(2)) or text.strip().startswith(("+", "-")) and m.group(1):
        raise BadMove(f"'{text}' is not a BP like 2D+13, 1D, or 5")
    return BP(int(m.group(1) or 0), int(m.group(2) or 0))


def _elements(text: str, known: tuple[str, ...]) -> frozenset[str]:
    found = frozenset(e for e in re.split(r"[ ,]+", text) if e)
    unknown = sorted(found - set(known))
    if unknown:
        raise BadMove(f"no element '{unknown[0]}' (elements: {', '.join(known)})")
    return found


# A named piece (with worn cards) as a fighter: (base Fighter, dash BP, King Dragon's BP per crystal or
# 0 for other pieces); raises BadMove for an unknown piece or card.
PieceLookup = Callable[[str, tuple[str, ...]], tuple[Fighter, int, int]]


def parse_side(text: str, known: tuple[str, ...], lookup: PieceLookup | None = None) -> Fighter:
    m = re.fullmatch(r"\s*([0-9D+\- ]+?|[a-z][a-z-]*(?:\+[a-z][a-z0-9-]*)*)\s*(?:\(([a-z, ]*)\))?"
                     r"((?:\s+(?:(?:resist|weak|support|crystals|fatigue):[a-z0-9,]+|dash))*)\s*", text)
    if not m:
        raise BadMove(f"cannot read '{text.strip()}' as a side: BP or piece[+card] [(elements)] [resist:..] "
                      "[weak:..] [support:n] [crystals:n] [fatigue:n] [dash]")
    head = m.group(1).replace(" ", "")
    extra: dict[str, str] = dict(tok.partition(":")[::2] for tok in m.group(3).split())
    for key in ("support", "crystals", "fatigue"):
        if not extra.get(key, "0").isdigit():
            raise BadMove(f"{key}:n takes a whole number")
    if head[0].isalpha() and head[0] != "D":
        if lookup is None:
            raise BadMove(f"'{head}': name a BP here")
        name, *cards = head.split("+")
        base, dash_bp, crystal_bp = lookup(name, tuple(cards))
    else:
        base, dash_bp, crystal_bp = Fighter(parse_bp(head)), 0, 0
    plus = base.bp.plus + (dash_bp if "dash" in extra else 0)
    if ("crystals" in extra or "fatigue" in extra) and not crystal_bp:
        raise BadMove("crystals:n and fatigue:n change a King Dragon's BP: name the King Dragon (king)")
    plus += (int(extra.get("crystals", "0")) - int(extra.get("fatigue", "0"))) * crystal_bp
    return Fighter(BP(base.bp.dice, plus), base.attack | _elements(m.group(2) or "", known),
                   base.resist | _elements(extra.get("resist", "").replace(",", " "), known),
                   base.weak | _elements(extra.get("weak", "").replace(",", " "), known),
                   int(extra.get("support", "0")))


def _p(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator} ({float(value):.2%})" if value not in (0, 1) else (
        f"{value} ({float(value):.0%})")


def fight_odds(text: str, elements: tuple[str, ...], sides: int, support_bp: int, gap: int,
               lookup: PieceLookup | None = None) -> dict[str, Any]:
    """The exact odds of the fight `text` as data: 'kind', and lines of (label, Fraction)."""
    t = " ".join(text.split())
    if m := re.fullmatch(r"shot (.+?) at (.+)", t):
        sm = re.fullmatch(r"([0-9D+\- ]+?)\s*(?:\(([a-z, ]*)\))?", m.group(1))
        if not sm:
            raise BadMove(f"cannot read '{m.group(1)}' as a shot: BP [(elements)]")
        bp, attack = parse_bp(sm.group(1)), _elements(sm.group(2) or "", elements)
        targets = [parse_side(part, elements, lookup) for part in m.group(2).split(",")]
        each = [shot(bp, attack, target, sides, gap) for target in targets]
        lines: list[tuple[str, Fraction]] = []
        for i, odds in enumerate(each, start=1):
            lines.append((f"target {i} falls", odds.hit))
            lines.append((f"target {i} survives by a BP difference of at most {gap} (a King Dragon tires)",
                          odds.close_miss))
        joint = shot_outcomes(bp, attack, targets, [1] * len(targets), [False] * len(targets), 0, sides, gap)
        if len(targets) > 1:
            for combo, p in joint.items():
                label = ", ".join(f"{i} {'falls' if s == 'hit' else 'stands'}" for i, s in enumerate(combo, 1))
                lines.append((f"joint: {label}", p))
        return {"kind": "shot", "lines": lines}
    parts = re.split(r"\s+vs\s+", t)
    if len(parts) != 2:
        raise BadMove("write a melee as '<attacker> vs <defender>' or a shot as 'shot <BP> at <target>, ...'")
    attacker, defender = (parse_side(p, elements, lookup) for p in parts)
    result = melee(attacker, defender, sides, support_bp, gap)
    lines = [("attacker wins", result.win), ("mutual defeat", result.draw), ("attacker loses", result.loss),
             (f"attacker wins by at most {gap} (an attacking King Dragon tires)", result.close_win),
             (f"defender wins by at most {gap} (a defending King Dragon tires)", result.close_loss)]
    return {"kind": "melee", "by_flags": result.by_flags, "lines": lines}


def odds_text(data: dict[str, Any]) -> str:
    out = []
    if data.get("by_flags"):
        out.append(f"victory flags decide: the {data['by_flags']} wins without a roll")
    out += [f"{label}: {_p(p)}" for label, p in data["lines"]]
    return "\n".join(out)
