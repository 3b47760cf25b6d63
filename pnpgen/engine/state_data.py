"""States as plain data and back, derived from a NamedTuple or dataclass State.

Tuples and frozensets become lists, nested NamedTuples mappings; reading back follows the
State's type hints. Problems raise ImpossibleState (or ContentError from the schema check)
at the file, line and key they concern.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from pnpgen.content.schema import check
from pnpgen.content.yamlpos import where
from pnpgen.errors import ImpossibleState


def _fields(state: Any) -> dict[str, Any]:
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


def state_to_data(state: Any) -> dict[str, Any]:
    data: dict[str, Any] = plain(state)
    return data


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


def state_from_data(state_type: type, data: Any, schema: dict[str, Any] | None) -> Any:
    """A `state_type` from data checked against `schema` (missing keys take field defaults)."""
    if schema is not None:
        check(data, schema)
    hints = typing.get_type_hints(state_type)
    values = {key: _typed(data[key], hints.get(key, Any)) for key in hints if key in data}
    return state_type(**values)


def refuse(problem: str, data: Any) -> typing.NoReturn:
    """Raise ImpossibleState for 'key: problem' at that key of the data (or the whole file)."""
    key = problem.split(":")[0]
    raise ImpossibleState(problem, **where(data, key if isinstance(data, dict) and key in data else None,
                                           value=True))
