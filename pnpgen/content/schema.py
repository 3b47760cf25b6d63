"""A small declarative schema for YAML content, with did-you-mean for unknown keys.

A spec is one of:
  - a Python type (`str`, `int`, `float`, `bool`); `float` accepts ints;
  - a dict of key -> spec; a key ending in `?` is optional; the key `*` matches
    any key (a map of user-chosen names);
  - a one-item list `[spec]`: a list whose items all match `spec`;
  - `Text`: a string, or a mapping of language code -> string;
  - `OneOf(spec, ...)`, `Each(spec, min=..)`, `Range(type, low, high)`, `Any_`;
  - `Ref(name, spec)`: `spec`, a shared definition in the JSON Schema.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, TypeAlias, Union

from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError
from pnpgen.words import LANGS


class _AnyType:
    def __repr__(self) -> str:
        return "anything"


Any_ = _AnyType()


@dataclass(frozen=True)
class OneOf:
    options: tuple[Spec, ...]

    def __init__(self, *options: Spec) -> None:
        object.__setattr__(self, "options", options)


@dataclass(frozen=True)
class Each:
    """A list whose items match `item`, with at least `min` items."""

    item: Spec
    min: int = 0


@dataclass(frozen=True)
class Ref:
    """`spec`, which the JSON Schema writes as a reference to its shared definition `name`
    (`#/$defs/<name>`, e.g. a layout element)."""

    name: str
    spec: Spec


@dataclass(frozen=True)
class Choice:
    """A string from a fixed set of words."""

    words: tuple[str, ...]

    def __init__(self, *words: str) -> None:
        object.__setattr__(self, "words", words)


@dataclass(frozen=True)
class Range:
    """A number of `kind` (int or float) from `low` to `high` (`above`: `low` itself is refused,
    as for a size that must be > 0), in `unit` ("mm", "pt" or "" for a count). Content is
    untrusted, so every count and size that a build multiplies out has one (pnpgen.limits);
    the schema and the print kit's bounds (render/kit/bounds.py) both use it."""

    kind: type
    low: float
    high: float
    unit: str = ""
    above: bool = False

    def problem(self, value: float) -> str | None:
        """What is wrong with `value` ("100,000 mm; the limit is 5,000 mm"), or None."""
        unit = f" {self.unit}" if self.unit else ""
        if not math.isfinite(value):
            return f"{value} is not a finite number"
        if value > self.high:
            return f"{number(value)}{unit}; the limit is {number(self.high)}{unit}"
        if value < self.low or (self.above and value == self.low):
            wanted = f"more than {number(self.low)}{unit}" if self.above else f"{number(self.low)}{unit} or more"
            return f"{number(value)}{unit}; must be {wanted}"
        return None


def number(value: float) -> str:
    """1,000 and 0.5, as messages print them."""
    text = f"{value:,}"
    return text[:-2] if text.endswith(".0") else text


# What `check` reads: a type (str, int, float, bool, dict, list), Any_, a spec object, a list
# of one spec (Each) or a mapping of keys (`key?` optional, `*` any other key) to specs.
Spec: TypeAlias = Union[type, _AnyType, "OneOf", "Each", "Ref", "Choice", "Range", Mapping[str, "Spec"],
                        list["Spec"]]
Schema: TypeAlias = dict[str, Spec]  # a mapping spec


Text = OneOf(str, {"ja?": str, "en?": str})


def _describe(spec: Spec) -> str:
    if isinstance(spec, type):
        return {str: "text", int: "an integer", float: "a number", bool: "true/false"}.get(
            spec, spec.__name__
        )
    if isinstance(spec, dict):
        return "a mapping"
    if isinstance(spec, list | Each):
        return "a list"
    if isinstance(spec, Choice):
        return "one of " + ", ".join(spec.words)
    if isinstance(spec, Range):
        low = f"more than {spec.low:g}" if spec.above else f"from {spec.low:g}"
        return f"{_describe(spec.kind)} {low} to {spec.high:g}{' ' + spec.unit if spec.unit else ''}"
    if isinstance(spec, OneOf):
        return " or ".join(_describe(o) for o in spec.options)
    if isinstance(spec, Ref):
        return _describe(spec.spec)
    return repr(spec)


def _type_name(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    return f"'{value}'"


def check(value: object, spec: Spec, parent: object = None, key: object = None, path: str = "") -> None:
    """Raise ContentError at the first place `value` breaks `spec`."""
    loc = where(parent, key, value=True) if parent is not None else where(value)
    label = path or "document"

    def fail(problem: str) -> NoReturn:
        raise ContentError(f"{label}: {problem}", **loc)

    if spec is Any_:
        return
    if isinstance(spec, Ref):
        check(value, spec.spec, parent, key, path)
        return
    if isinstance(spec, OneOf):
        errors: list[ContentError] = []
        for option in spec.options:
            try:
                check(value, option, parent, key, path)
                return
            except ContentError as error:
                errors.append(error)
        # A mapping that failed against a mapping spec has the most telling error.
        for option, failure in zip(spec.options, errors, strict=True):
            if isinstance(option, dict) and isinstance(value, dict):
                raise failure
        fail(f"expected {_describe(spec)}, found {_type_name(value)}")
    if isinstance(spec, Choice):
        if not isinstance(value, str) or value not in spec.words:
            hint = _did_you_mean(str(value), spec.words)
            fail(f"expected {_describe(spec)}, found {_type_name(value)}{hint}")
        return
    if isinstance(spec, Range):
        check(value, spec.kind, parent, key, path)
        assert isinstance(value, int | float)  # checked just above
        if spec.problem(value):
            fail(f"{value:g} is out of range; expected {_describe(spec)}")
        return
    if isinstance(spec, type):
        ok = isinstance(value, spec) and not (spec is int and isinstance(value, bool))
        if spec is float:
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok:
            hint = " (a # after a key starts a YAML comment: quote a colour, '#ff0000')" if (
                value is None and spec is str) else ""
            fail(f"expected {_describe(spec)}, found {_type_name(value)}{hint}")
        return
    if isinstance(spec, list):
        spec = Each(spec[0])
    if isinstance(spec, Each):
        if not isinstance(value, list):
            fail(f"expected a list, found {_type_name(value)}")
        if len(value) < spec.min:
            fail(f"needs at least {spec.min} item(s), found {len(value)}")
        for index, item in enumerate(value):
            check(item, spec.item, value, index, f"{path}[{index}]")
        return
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            fail(f"expected a mapping, found {_type_name(value)}")
        _check_mapping(value, spec, path)
        return
    raise TypeError(f"bad schema spec {spec!r}")


def _did_you_mean(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _check_mapping(value: dict[Any, object], spec: Mapping[str, Spec], path: str) -> None:
    fields = {k.rstrip("?"): v for k, v in spec.items() if k != "*"}
    required = [k for k in spec if not k.endswith("?") and k != "*"]
    wildcard = spec.get("*")
    for key, item in value.items():
        child = f"{path}.{key}" if path else str(key)
        if key in fields:
            check(item, fields[key], value, key, child)
        elif wildcard is not None:
            check(item, wildcard, value, key, child)
        else:
            hint = _did_you_mean(str(key), fields)
            raise ContentError(f"unknown key '{key}'{hint}", **where(value, key))
    for key in required:
        if key not in value:
            loc = where(value)
            raise ContentError(f"{path or 'document'}: missing key '{key}'", **loc)


def text_for(value: object, lang: str) -> str:
    """A Text value in one language (falls back to the other language, then '')."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if lang in value:
            return str(value[lang])
        for other in LANGS:
            if other in value:
                return str(value[other])
    return ""


def json_schema(spec: Spec) -> dict[str, Any]:
    """The JSON Schema (2020-12) of a spec: what `check` accepts, for editors (completion,
    inline errors). Generated, never written by hand, so the two cannot drift: `pnpgen
    schema` writes it, and tests hold it to the loader on good and bad files."""
    if spec is Any_:
        return {}
    if isinstance(spec, Ref):
        return {"$ref": f"#/$defs/{spec.name}"}
    if isinstance(spec, OneOf):
        return {"anyOf": [json_schema(option) for option in spec.options]}
    if isinstance(spec, Choice):
        return {"enum": list(spec.words)}
    if isinstance(spec, Range):
        low = {"exclusiveMinimum": spec.low} if spec.above else {"minimum": spec.low}
        return {**json_schema(spec.kind), **low, "maximum": spec.high}
    if isinstance(spec, type):
        kinds = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object", list: "array"}
        return {"type": kinds[spec]}
    if isinstance(spec, list):
        spec = Each(spec[0])
    if isinstance(spec, Each):
        schema: dict[str, object] = {"type": "array", "items": json_schema(spec.item)}
        if spec.min:
            schema["minItems"] = spec.min
        return schema
    if isinstance(spec, dict):
        properties = {key.rstrip("?"): json_schema(value) for key, value in spec.items() if key != "*"}
        schema = {"type": "object", "properties": properties,
                  "additionalProperties": json_schema(spec["*"]) if "*" in spec else False}
        required = [key for key in spec if not key.endswith("?") and key != "*"]
        if required:
            schema["required"] = required
        return schema
    raise TypeError(f"bad schema spec {spec!r}")
