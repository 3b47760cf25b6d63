"""Parsing YAML text with positions (YMap and YList, from pnpgen.content.yamlpos) within the
budgets of pnpgen.limits. pnpgen.content.yamlpos imports this, and PyYAML, only for a file
it has not parsed before (see its docstring).

Speed: where PyYAML has libyaml, scanning and parsing run in C (libyaml's events carry the
same line and column marks) while composing and constructing stay in Python, so every
bound above is enforced by the same code. Input libyaml refuses, or text with characters
the pure-Python reader checks for itself, is loaded again by the pure-Python loader, so
error messages are exactly those of PyYAML's SafeLoader.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

from pnpgen import limits
from pnpgen.content.located import Position, YList, YMap
from pnpgen.errors import ContentError


def _pos(node: yaml.Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _value_pos(key_node: yaml.Node, value_node: yaml.Node) -> Position:
    """Where a key's value is; an empty value (`color: #fff` is `color:` and a comment)
    is just after its key, not at the next token PyYAML skipped to, lines further down. (A plain
    scalar's style is None from PyYAML, "" from libyaml.)"""
    if isinstance(value_node, yaml.ScalarNode) and value_node.value == "" and not value_node.style:
        return key_node.end_mark.line + 1, key_node.end_mark.column + 3
    return _pos(value_node)


_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE  # what the pure-Python reader refuses
_BLOCK_COMMENT = re.compile(r"[|>][-+0-9]*#")
# a quoted scalar on one line (skipped), or a '!' that may start a tag: not inside a word or after text
_QUOTED_OR_TAG = re.compile(r"""(?:^|(?<=[\s\[{,:]))(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*')"""
                            r"""|(?:^|(?<=[^\w'".!?]))!""", re.MULTILINE)
MAX_VALUES = 1_000_000  # values one file may expand to, aliases counted each time they are used


try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml
    _CParser = None  # type: ignore[misc,assignment]


class _CSafeBase(*((_CParser,) if _CParser else ()), yaml.constructor.SafeConstructor,  # type: ignore[misc]
                 yaml.resolver.Resolver):
    """libyaml's scanner, parser and composer with PyYAML's safe constructors (yaml.CSafeLoader)."""

    def __init__(self, stream: str) -> None:
        _CParser.__init__(self, stream)  # type: ignore[misc]
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


C_NESTING_GATE = 20_000  # above this many nesting indicators, libyaml's recursive composer is not used


class _PositionMixin:
    """Composes with a depth limit, counts the values aliases expand to, and constructs YMap
    and YList with positions; `file` names the file in both and in every error."""

    file = "<memory>"
    depth = 0
    values = 0
    weights: dict[int, int]

    def refuse(self, problem: str, node_or_mark: Any) -> ContentError:
        mark = getattr(node_or_mark, "start_mark", node_or_mark)
        return ContentError(problem, self.file, mark.line + 1, mark.column + 1)

    def compose_document(self) -> Any:
        self.weights = {}
        return super().compose_document()  # type: ignore[misc]

    def compose_node(self, parent: object, index: object) -> Any:
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]
            event = self.peek_event()  # type: ignore[attr-defined]
            node = super().compose_node(parent, index)  # type: ignore[misc]
            self._count(self.weights.get(id(node), 1), event.start_mark)
            return node
        mark = self.peek_event().start_mark  # type: ignore[attr-defined]
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise self.refuse(f"nested more than {limits.MAX_DEPTH} levels deep (the limit)", mark)
        start = self.values
        try:
            node = super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self.depth -= 1
        self._count(1, mark)
        self.weights[id(node)] = self.values - start
        return node

    def _count(self, weight: int, mark: object) -> None:
        self.values += weight
        if self.values > MAX_VALUES:
            raise self.refuse(f"expands to more than {MAX_VALUES:,} values (the limit; aliases count "
                              "each time they are used)", mark)

    def construct_str(self, node: yaml.ScalarNode) -> str:
        text = self.construct_scalar(node)  # type: ignore[attr-defined]
        if len(text) > limits.MAX_TEXT_CHARS:
            raise self.refuse(f"a text of {len(text):,} characters; the limit is {limits.MAX_TEXT_CHARS:,}", node)
        return str(text)

    def construct_int(self, node: yaml.ScalarNode) -> int:
        if len(str(node.value)) > 40:
            raise self.refuse(f"number too large (the limit is ±2**{limits.MAX_INT.bit_length() - 1})", node)
        number = int(yaml.SafeLoader.construct_yaml_int(self, node))  # type: ignore[arg-type]
        if abs(number) > limits.MAX_INT:
            raise self.refuse(f"number {number:.3g} is too large (the limit is "
                              f"±2**{limits.MAX_INT.bit_length() - 1})", node)
        return number

    def construct_float(self, node: yaml.ScalarNode) -> float:
        number = float(yaml.SafeLoader.construct_yaml_float(self, node))  # type: ignore[arg-type]
        if not math.isfinite(number):
            raise self.refuse(f"'{node.value}' is not a finite number", node)
        if abs(number) > limits.MAX_INT:
            raise self.refuse(f"number {number:.3g} is too large (the limit is "
                              f"±2**{limits.MAX_INT.bit_length() - 1})", node)
        return number

    def construct_position_mapping(self, node: yaml.MappingNode) -> YMap:
        self.flatten_mapping(node)  # type: ignore[attr-defined]
        construct = self.construct_object  # type: ignore[attr-defined]
        result = YMap()
        result.file, result.position = self.file, _pos(node)
        keys, values = result.key_positions, result.value_positions
        spelled: dict[Any, str] = {}  # each key as written
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.refuse("a key must be a plain value, not a list or mapping", key_node)
            key = construct(key_node, deep=True)
            if key in result:
                line, col = _pos(key_node)
                first = spelled[key]
                if first != key_node.value:  # 1 and true, 0 and false, 1 and 1.0: one key once read
                    raise ContentError(f"key '{key_node.value}' is read as the same key as '{first}' on line "
                                       f"{keys[key][0]}; quote both ('\"{first}\"', '\"{key_node.value}\"') "
                                       "or rename one", self.file, line, col)
                raise ContentError(f"duplicate key '{key_node.value}'", self.file, line, col)
            spelled[key] = str(key_node.value)
            result[key] = construct(value_node, deep=True)
            keys[key] = _pos(key_node)
            values[key] = _value_pos(key_node, value_node)
        return result

    def construct_position_sequence(self, node: yaml.SequenceNode) -> YList:
        construct = self.construct_object  # type: ignore[attr-defined]
        result = YList([construct(child, deep=True) for child in node.value])
        result.file, result.position = self.file, _pos(node)
        result.item_positions = [_pos(child) for child in node.value]
        return result

    @classmethod
    def register(cls) -> None:
        add = cls.add_constructor  # type: ignore[attr-defined]
        add(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, cls.construct_position_mapping)
        add(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, cls.construct_position_sequence)
        add("tag:yaml.org,2002:str", cls.construct_str)
        add("tag:yaml.org,2002:int", cls.construct_int)
        add("tag:yaml.org,2002:float", cls.construct_float)


class _PythonLoader(_PositionMixin, yaml.SafeLoader):
    """PyYAML's pure-Python SafeLoader, with positions and budgets."""

    def __init__(self, stream: str, file: str = "<memory>") -> None:
        super().__init__(stream)
        self.file = file


_PythonLoader.register()

if _CParser is not None:
    class _FastLoader(_PositionMixin, _CSafeBase):
        """libyaml composing (whose tree `_within_budgets` checks), then the same constructors."""

        def __init__(self, stream: str, file: str = "<memory>") -> None:
            super().__init__(stream)
            self.file = file

    _FastLoader.register()


def parse(name: str, text: str) -> object:
    """`text` loaded with positions: libyaml where it reads the text as PyYAML does, else PyYAML."""
    if _CParser is not None and _c_parses_alike(text):
        loader = _FastLoader(text, name)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            if _within_budgets(node):
                return loader.construct_document(node)
        except yaml.YAMLError:
            pass  # the pure-Python loader below gives PyYAML's own message
        finally:
            loader.dispose()
    try:
        python_loader = _PythonLoader(text, name)
        try:
            return python_loader.get_single_data()
        finally:
            python_loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = err.problem or err.context or "malformed YAML"
        opened = err.context_mark
        if err.problem and err.context and opened and mark and opened.line != mark.line:
            problem += f" ({err.context} that starts on line {opened.line + 1})"
        if mark is None:
            raise ContentError(problem, name) from None
        commented = _commented_value(text, min(opened.line if opened else mark.line, mark.line - 1), mark.line)
        if commented is not None:
            line, column, value = commented
            raise ContentError(f"a value that starts with '#' is read as a comment, with the rest of the line: "
                               f"quote it, \"{value}\" (YAML then found: {problem} on line {mark.line + 1})",
                               name, line + 1, column + 1) from None
        raise ContentError(problem, name, mark.line + 1, mark.column + 1) from None
    except yaml.reader.ReaderError as err:  # a character YAML does not allow: its line, not its offset
        line = text.count("\n", 0, err.position) + 1
        column = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        character = err.character if isinstance(err.character, str) else chr(err.character)
        raise ContentError(f"the character U+{ord(character):04X} is not allowed in YAML text; remove it",
                           name, line, column) from None
    except yaml.YAMLError as err:
        raise ContentError(f"malformed YAML ({err})", name) from None


# a value that YAML reads as a comment: '#' and a word (a colour such as #fffaf0) right
# after a key's ':', a flow ',' or '[', or a list's '-'
_COMMENTED_VALUE = re.compile(r"(?:[:,\[{]|^\s*-)[ \t]+(#[0-9A-Za-z][^\s,\]}]*)")


def _commented_value(text: str, first: int, last: int) -> tuple[int, int, str] | None:
    """The last value that starts with '#' outside quotes on lines `first` to `last`
    (0-based; at most 50 lines): its line, column and text, or None."""
    lines = text.split("\n")
    for number in range(min(last, len(lines) - 1), max(first, last - 50, 0) - 1, -1):
        line = _QUOTED_OR_TAG.sub(lambda m: " " * len(m.group()), lines[number])  # quoted text is no comment
        found = _COMMENTED_VALUE.search(line)
        if found:
            return number, found.start(1), found.group(1)
    return None


def _c_parses_alike(text: str) -> bool:
    """Whether libyaml may load `text` as PyYAML would: no tab (libyaml accepts tabs PyYAML
    refuses), no '?' where flow collections may be (libyaml reads 'a?b' inside [..] or {..}
    as one scalar, PyYAML refuses it), no '!' that may start a tag (tags end differently in flow
    collections; a '!' after a letter, as in "Stop!", is text to both), no
    block scalar header run into a comment ('>#'), no character the pure-Python reader refuses, and too
    few nesting indicators for libyaml's recursive composer to run deep."""
    if "?" in text and ("[" in text or "{" in text) or _may_hold_tag(text) or _BLOCK_COMMENT.search(text):
        return False
    return "\t" not in text and not _NON_PRINTABLE.search(text) and _nesting_indicators(text) < C_NESTING_GATE


def _may_hold_tag(text: str) -> bool:
    """Whether a '!' outside one-line quoted scalars may start a tag."""
    return "!" in text and any(found.group().startswith("!") for found in _QUOTED_OR_TAG.finditer(text))


def _nesting_indicators(text: str) -> int:
    """An upper bound on how deep `text` nests: every collection needs one of these
    characters of its own (a '-' per list item, ':' or '?' per key, brackets for flow)."""
    return sum(text.count(c) for c in "-:?[{")


def _within_budgets(root: yaml.Node) -> bool:
    """Whether a composed tree keeps the depth and alias-expansion budgets exactly as the
    pure-Python composer counts them (aliases of a node still being composed count 1)."""
    weights: dict[int, int] = {}
    composing: set[int] = set()
    total = 0

    def visit(node: yaml.Node, depth: int) -> int:
        if id(node) in weights:
            return weights[id(node)]
        if id(node) in composing:
            return 1
        if depth > limits.MAX_DEPTH:
            raise _OverBudget
        composing.add(id(node))
        weight = 1
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                weight += visit(child, depth + 1)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                weight += visit(key, depth + 1) + visit(value, depth + 1)
        composing.discard(id(node))
        weights[id(node)] = weight
        if weight > MAX_VALUES:
            raise _OverBudget
        return weight

    try:
        total = visit(root, 1)
    except _OverBudget:
        return False
    return total <= MAX_VALUES


class _OverBudget(Exception):
    """A budget is exceeded: the pure-Python loader finds and names the place."""
