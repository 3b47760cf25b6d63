"""Changing values of a game's YAML in memory: `--set rules.threshold=800,1000,1200`.

A setting names a value by its path of keys (and list indices) from the top of game.yaml,
`rules.combinations.0.points`; its values are YAML (`2`, `true`, `[15, 25, 60]`, `'x'`),
separated by commas outside brackets and quotes. `with_settings` returns a copy of the game
with the values replaced; the copy is then checked by the same schema as the file (the
caller builds its rules), and no file is ever written.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Mapping

import yaml

from pnpgen import limits
from pnpgen.content.game import COMMON_SCHEMA, GameContent
from pnpgen.content.schema import check
from pnpgen.content.yamlpos import load_yaml
from pnpgen.errors import PnpgenError

KEY = re.compile(r"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$")
MAX_VALUES = 1000  # values one --set may list


def split_values(text: str) -> list[str]:
    """`a,[1, 2],'x,y'` -> ['a', '[1, 2]', "'x,y'"]: commas outside brackets and quotes."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def parse_setting(text: str, single: bool = False) -> tuple[str, list[object]]:
    """`KEY=V1,V2,...` -> (KEY, [V1, V2, ...]) with YAML values; a bad one is one line."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not KEY.match(key):
        raise PnpgenError(f"--set '{text}': write KEY=VALUE{'' if single else '[,VALUE…]'}, "
                          "KEY a path such as rules.threshold")
    texts = [values.strip()] if single else split_values(values)
    if not texts or any(t == "" for t in texts):
        raise PnpgenError(f"--set '{text}': a value is empty")
    if len(texts) > MAX_VALUES:
        raise PnpgenError(f"--set '{text}': {len(texts)} values; at most {MAX_VALUES}")
    parsed = []
    for item in texts:
        if len(item) > limits.MAX_TEXT_CHARS:
            raise PnpgenError(f"--set {key}: a value is longer than {limits.MAX_TEXT_CHARS:,} characters")
        try:  # the content loader: safe, bounded, positioned like values read from a file
            parsed.append(load_yaml(f"--set {key}", text=item, limit=limits.MAX_TEXT_CHARS))
        except PnpgenError as err:
            raise PnpgenError(f"--set {key}={item}: not a YAML value ({err.message})") from err
    if len({repr(v) for v in parsed}) != len(parsed):
        raise PnpgenError(f"--set {key}: a value is listed twice")
    return key, parsed


def describe(settings: Mapping[str, object]) -> str:
    """`rules.threshold=800 rules.rolls_per_turn=2`: settings as the command line gives them."""
    return " ".join(f"{key}={_text(value)}" for key, value in settings.items())


def _text(value: object) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10_000).strip().removesuffix("...").strip()


def with_settings(content: GameContent, settings: Mapping[str, object]) -> GameContent:
    """A copy of the game with each setting's value in place, checked by the common schema
    (the engine's own schema is checked when its rules are made). Errors name the setting."""
    data = copy.deepcopy(content.data)
    for key, value in settings.items():
        parts = key.split(".")
        node: object = data
        for depth, part in enumerate(parts):
            last = depth == len(parts) - 1
            here = ".".join(parts[:depth]) or "the top of game.yaml"
            if isinstance(node, dict):
                if part not in node and not last:
                    raise PnpgenError(f"--set {key}: no key '{part}' under {here}{_hint(part, node)}")
                if last:
                    node[part] = copy.deepcopy(value)
                else:
                    node = node[part]
            elif isinstance(node, list):
                if not part.isdigit() or int(part) >= len(node):
                    raise PnpgenError(f"--set {key}: '{part}' is not an index of the {len(node)} items of {here}")
                if last:
                    node[int(part)] = copy.deepcopy(value)
                else:
                    node = node[int(part)]
            else:
                kind = "a file name (the values are in that file)" if isinstance(node, str) else "a single value"
                raise PnpgenError(f"--set {key}: {here} is {kind}, so it has no '{part}'")
    changed = GameContent(folder=content.folder, data=data)
    try:
        check(data, COMMON_SCHEMA)
        if data["id"] != content.data["id"]:
            raise PnpgenError("the id names the game folder; it cannot be set")
    except PnpgenError as err:
        raise PnpgenError(f"--set {describe(settings)}: {err.message}") from err
    return changed


def _hint(part: str, node: Mapping[object, object]) -> str:
    close = difflib.get_close_matches(part, [str(k) for k in node], n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""

