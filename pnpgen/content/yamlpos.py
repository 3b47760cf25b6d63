"""Safe YAML loading that remembers where every key and item came from.

Mappings load as `YMap` and sequences as `YList`; both are plain dict/list
subclasses carrying the file name and the line/column of each key or item, so
any later check can report `file:line:col: problem`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pnpgen.errors import ContentError

Position = tuple[int, int]  # 1-based line, column


class YMap(dict[Any, Any]):
    file: str = "<memory>"
    position: Position = (0, 0)
    key_positions: dict[Any, Position]
    value_positions: dict[Any, Position]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_positions = {}
        self.value_positions = {}


class YList(list[Any]):
    file: str = "<memory>"
    position: Position = (0, 0)
    item_positions: list[Position]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.item_positions = []


def _pos(node: yaml.Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _make_loader(file: str) -> type[yaml.SafeLoader]:
    class PositionLoader(yaml.SafeLoader):
        pass

    def construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> YMap:
        loader.flatten_mapping(node)
        result = YMap()
        result.file, result.position = file, _pos(node)
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if key in result:
                line, col = _pos(key_node)
                raise ContentError(f"duplicate key '{key}'", file, line, col)
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_positions[key] = _pos(key_node)
            result.value_positions[key] = _pos(value_node)
        return result

    def construct_sequence(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> YList:
        result = YList(loader.construct_object(child, deep=True) for child in node.value)
        result.file, result.position = file, _pos(node)
        result.item_positions = [_pos(child) for child in node.value]
        return result

    PositionLoader.add_constructor(
        yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping
    )
    PositionLoader.add_constructor(
        yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, construct_sequence
    )
    return PositionLoader


def load_yaml(path: str | Path, text: str | None = None) -> Any:
    """Load one YAML file safely; malformed YAML becomes a one-line ContentError."""
    path = Path(path)
    name = str(path)
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ContentError("file not found", name) from None
        except UnicodeDecodeError as err:
            raise ContentError(f"not UTF-8 text ({err.reason})", name) from None
    try:
        return yaml.load(text, Loader=_make_loader(name))  # noqa: S506 - SafeLoader subclass
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = err.problem or err.context or "malformed YAML"
        opened = err.context_mark
        if err.problem and err.context and opened and mark and opened.line != mark.line:
            problem += f" ({err.context} that starts on line {opened.line + 1})"
        if mark is None:
            raise ContentError(problem, name) from None
        raise ContentError(problem, name, mark.line + 1, mark.column + 1) from None
    except yaml.YAMLError as err:
        raise ContentError(f"malformed YAML ({err})", name) from None


def where(container: Any, key: Any = None, *, value: bool = False) -> dict[str, Any]:
    """Keyword arguments for a PnpgenError pointing at `container[key]` (or the container)."""
    file = getattr(container, "file", None)
    line, col = getattr(container, "position", (None, None))
    if isinstance(container, YMap) and key in container.key_positions:
        positions = container.value_positions if value else container.key_positions
        line, col = positions[key]
    elif isinstance(container, YList) and isinstance(key, int) and 0 <= key < len(
        container.item_positions
    ):
        line, col = container.item_positions[key]
    return {"file": file, "line": line or None, "column": col or None}
