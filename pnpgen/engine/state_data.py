"""States as plain data and back, derived from a NamedTuple or dataclass State.

Tuples and frozensets become lists, nested NamedTuples mappings; reading back follows the
State's type hints. Problems raise ImpossibleState (or ContentError from the schema check)
at the file, line and key they concern.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable
from typing import Any

from pnpgen.content.schema import check
from pnpgen.content.yamlpos import where
from pnpgen.errors import ImpossibleState

if typing.TYPE_CHECKING:
    from pnpgen.engine.protocol import StateCodec


def _fields(state: object) -> dict[str, object]:
    if hasattr(state, "_asdict"):
        return dict(state._asdict())
    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        return {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
    raise TypeError(f"{type(state).__name__} is neither a NamedTuple nor a dataclass")


def plain(value: Any) -> Any:
    """`value` as YAML/JSON data."""
    if hasattr(value, "_asdict") or dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {key: plain(item) for key, item in _fields(value).items()}
    if isinstance(value, frozenset | set):
        return sorted(plain(item) for item in value)
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def _shift(value: object, by: int) -> object:
    """A seat (or a list or tuple of seats) moved by `by`: 0-based in a State, 1-based in files."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return type(value)(_shift(item, by) for item in value)
    return value + by if isinstance(value, int) else value


def state_to_data(state: Any, seats: tuple[str, ...] = ()) -> dict[str, Any]:
    """`state` as data; the fields named in `seats` hold seats and are written 1-based."""
    data: dict[str, Any] = plain(state)
    return {key: _shift(value, 1) if key in seats else value for key, value in data.items()}


def _typed(value: Any, hint: Any) -> Any:
    """`value` read from data as the type `hint` names (tuple, frozenset, NamedTuple, ...)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        hint = next((a for a in args if a is not type(None)), hint) if value is not None else type(None)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if isinstance(value, list):
        if origin is frozenset:
            return frozenset(_typed(item, args[0] if args else Any) for item in value)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(item, args[0]) for item in value)
        if origin is tuple and args:
            return tuple(_typed(item, arg) for item, arg in zip(value, args, strict=False))
        return tuple(_typed(item, Any) for item in value)
    if isinstance(value, dict) and isinstance(hint, type) and hasattr(hint, "_fields"):
        return state_from_data(hint, value, None)  # checked with its parent
    return value


def state_from_data(state_type: type, data: Any, schema: dict[str, Any] | None,
                    seats: tuple[str, ...] = ()) -> Any:
    """A `state_type` from data checked against `schema` (missing keys take field defaults);
    the fields named in `seats` are read 1-based."""
    if schema is not None:
        check(data, schema)
    hints = typing.get_type_hints(state_type)
    values = {key: _typed(_shift(data[key], -1) if key in seats else data[key], hints.get(key, Any))
              for key in hints if key in data}
    return state_type(**values)


def state_class(codec: object) -> type:
    """The State type a codec reads: its `State` attribute, else the state argument of the
    `Rules[...]` or `StateCodec[...]` it inherits (`class Pig(Rules[State, str])`)."""
    explicit = getattr(codec, "State", None)
    if isinstance(explicit, type):
        return explicit
    for klass in type(codec).__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin, args = typing.get_origin(base), typing.get_args(base)
            if getattr(origin, "__name__", "") in ("Rules", "StateCodec") and args and isinstance(args[0], type):
                return args[0]
    raise TypeError(f"{type(codec).__name__} names no State type (Rules[State, Move])")


def fields_to_data(codec: object, state: object) -> dict[str, Any]:
    """The default state file: `state`'s fields as keys, its SEATS fields 1-based."""
    return state_to_data(state, getattr(codec, "SEATS", ()))


def fields_from_data(codec: Any, data: Any) -> Any:
    """The default reading of a state file: checked against the codec's STATE_SCHEMA, read
    into its State type, then held to its `check` (ImpossibleState at the first problem's key)."""
    seats = getattr(codec, "SEATS", ())
    state = state_from_data(state_class(codec), data, getattr(codec, "STATE_SCHEMA", {}), seats)
    return checked(codec, state, data, getattr(codec, "STATE_KEY", None))


T = typing.TypeVar("T")


def checked(codec: StateCodec[T], state: T, data: object, fallback: str | None = None) -> T:
    """`state`, or ImpossibleState for the codec's first broken invariant (see `refuse`)."""
    problems = codec.check(state)
    if problems:
        refuse(problems[0], data, fallback)
    return state


def refuse(problem: str, data: object, fallback: str | None = None) -> typing.NoReturn:
    """Raise ImpossibleState for a problem at the key of the data it starts with ('dice: …',
    'end is …'), else at `fallback` (a codec's board, say), else for the whole file."""
    keys = [problem.split(":")[0], *re.findall(r"^\w+", problem), fallback]
    key = next((k for k in keys if isinstance(data, dict) and k in data), None)
    raise ImpossibleState(problem, **where(data, key, value=True))


def read_word(data: dict[str, Any], key: str, words: tuple[str, ...]) -> str:
    """data[key] as text ('' when absent), or ImpossibleState at that key unless one of `words`."""
    word = str(data.get(key, ""))
    if word and word not in words:
        raise ImpossibleState(f"{key}: '{word}' is not one of {', '.join(words)}", **where(data, key, value=True))
    return word


def read_state_data(data: Any, schema: dict[str, Any]) -> Callable[..., ImpossibleState]:
    """Check that a state file's data is a mapping that fits `schema`; return `bad(message,
    container=data, key=None)`, the ImpossibleState of a problem at that place in the file."""
    if not isinstance(data, dict):
        raise ImpossibleState("a state must be a mapping")
    check(data, schema, path="state")

    def bad(message: str, container: object = data, key: object = None) -> ImpossibleState:
        return ImpossibleState(message, **where(container, key, value=True))

    return bad
