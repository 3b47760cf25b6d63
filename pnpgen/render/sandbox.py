"""The sandbox every content text (rulebook and component) renders in: content is untrusted, so a template may print
values, use a few filters, branch and loop over data, and nothing else (docs/rulebook.md,
"What a template may do").

Three layers, each refusing the known escapes on its own where it can:

1. a check of the parsed template before it is compiled: no calls, no `_` attributes, no
   `set`/`macro`/`include`/`import`/`extends`/`block`/`with`/`filter` tags, no recursive
   loops, only whitelisted filters and tests, limited nesting;
2. Jinja2's ImmutableSandboxedEnvironment with no globals and no loader;
3. budgets while rendering: loop iterations (MAX_TEMPLATE_STEPS), work in loop bodies
   (MAX_TEMPLATE_WORK), output and intermediate text (MAX_TEMPLATE_OUTPUT), and arithmetic
   on numbers only, within MAX_INT.
"""

from __future__ import annotations

import operator
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from numbers import Integral, Rational, Real
from typing import Any

import jinja2
import jinja2.meta
from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment

from pnpgen.errors import ContentError
from pnpgen.limits import (
    MAX_INT,
    MAX_TEMPLATE_DEPTH,
    MAX_TEMPLATE_OUTPUT,
    MAX_TEMPLATE_STEPS,
    MAX_TEMPLATE_WORK,
    MAX_TEXT_CHARS,
)


class Refused(Exception):
    """The template tries something rulebook text may never do, or breaks a limit."""


class TemplateRefused(ContentError):
    """A refused template, with its file and line: an error even where other rulebook
    problems are only collected, so `pnpgen validate` stops with it too (exit 2)."""


# Tags, and other nodes, a rulebook text may not contain: what each is called in messages.
_TAGS: dict[type[nodes.Node], str] = {
    nodes.Assign: "set", nodes.AssignBlock: "set", nodes.Macro: "macro",
    nodes.CallBlock: "call", nodes.FilterBlock: "filter", nodes.With: "with",
    nodes.Block: "block", nodes.Extends: "extends", nodes.Include: "include",
    nodes.Import: "import", nodes.FromImport: "from", nodes.Scope: "with",
    nodes.ScopedEvalContextModifier: "autoescape", nodes.EvalContextModifier: "autoescape",
    nodes.ExprStmt: "do", nodes.Break: "break", nodes.Continue: "continue",
}

_ALLOWED: tuple[type[nodes.Node], ...] = (
    nodes.Template, nodes.Output, nodes.TemplateData, nodes.For, nodes.If, nodes.Const,
    nodes.Name, nodes.Getattr, nodes.Getitem, nodes.Slice, nodes.Filter, nodes.Test,
    nodes.CondExpr, nodes.And, nodes.Or, nodes.Not, nodes.Neg, nodes.Pos, nodes.Compare,
    nodes.Operand, nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod,
    nodes.Pow, nodes.Concat, nodes.List, nodes.Tuple, nodes.Dict, nodes.Pair, nodes.Keyword,
)

# Private filters the check inserts; a name with '-' cannot be written in a template.
_LOOP = "pnpgen-loop"  # around every loop's iterable: counts iterations and work
_CONCAT = "pnpgen-concat"  # replaces `a ~ b`: bounded joining

_FORMAT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?.?")


def _too_long() -> Refused:
    return Refused(f"the text would be longer than {MAX_TEMPLATE_OUTPUT:,} characters "
                   "(MAX_TEMPLATE_OUTPUT)")


def _join(context: Context, value: Iterable[Any], d: Any = "", attribute: Any = None) -> str:
    """Jinja2's `join`, refusing a result over MAX_TEMPLATE_OUTPUT before building it."""
    env = context.environment
    items = list(value)
    if attribute is not None:
        for part in str(attribute).split("."):
            items = [env.getattr(item, part) for item in items]
    parts, sep = [str(item) for item in items], str(d)
    size = sum(map(len, parts)) + len(sep) * max(len(parts) - 1, 0)
    if size > MAX_TEMPLATE_OUTPUT:
        raise _too_long()
    return sep.join(parts)


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    """Jinja2's `format` ("%.1f" | format(x)) with widths and precisions that add up to at
    most MAX_TEMPLATE_OUTPUT (so "%999999999d" is refused before it is built)."""
    text = str(value)
    width = 0
    for spec in _FORMAT_SPEC.finditer(text):
        for number in spec.group(1, 2):
            if number == "*":
                raise Refused("'*' widths are not allowed in format")
            if number:
                width += int(number) if len(number) < 7 else MAX_TEMPLATE_OUTPUT + 1
    if width > MAX_TEMPLATE_OUTPUT:
        raise _too_long()
    if args and kwargs:
        raise jinja2.exceptions.FilterArgumentError(
            "can't handle positional and keyword arguments at the same time")
    out = text % (kwargs or args)
    if len(out) > MAX_TEMPLATE_OUTPUT:
        raise _too_long()
    return out


def _concat(context: Context, parts: list[Any]) -> str:
    texts = [str(part) for part in parts]
    size = sum(map(len, texts))
    if size > MAX_TEMPLATE_OUTPUT:
        raise _too_long()
    return "".join(texts)


def _loop(context: Context, value: Any, work: int) -> Iterator[Any]:
    env = context.environment
    assert isinstance(env, ContentSandbox)
    return env.counted(iter(value), work)


_BUILTIN_FILTERS = jinja2.Environment().filters
# The filters a text may use: what real rulebooks need plus a few that cannot grow text.
FILTERS: dict[str, Callable[..., Any]] = {
    **{name: _BUILTIN_FILTERS[name] for name in (
        "abs", "capitalize", "count", "d", "default", "first", "float", "int", "last",
        "length", "lower", "max", "min", "round", "string", "title", "trim", "upper")},
    "format": _format,
    "join": jinja2.pass_context(_join),
}
_PRIVATE_FILTERS = {_LOOP: jinja2.pass_context(_loop), _CONCAT: jinja2.pass_context(_concat)}
# Jinja2's tests, less those that look at objects rather than values.
TESTS = frozenset(jinja2.Environment().tests) - {"callable", "escaped", "filter", "sameas", "test"}


class ContentSandbox(ImmutableSandboxedEnvironment):
    """The environment every content text (rulebooks, components) renders in (one per Resolver, not thread-safe:
    the budgets of the render in progress live on it)."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})

    def __init__(self) -> None:
        super().__init__(undefined=jinja2.StrictUndefined, autoescape=False, loader=None)
        self.globals.clear()  # no range, lipsum, cycler, joiner, namespace, dict
        self.filters = {**FILTERS, **_PRIVATE_FILTERS}
        self.tests = {name: test for name, test in self.tests.items() if name in TESTS}
        self.steps = self.work = 0
        self.compiled: dict[int, tuple[nodes.Template, jinja2.Template]] = {}

    # --- before compiling ----------------------------------------------------------
    def checked(self, source: str) -> nodes.Template:
        """The parsed template, checked and prepared for counting. TemplateSyntaxError
        (or ValueError for a bad number) for a mistake; Refused for what is not allowed."""
        if len(source) > MAX_TEXT_CHARS:
            raise Refused(f"the text is longer than {MAX_TEXT_CHARS:,} characters (MAX_TEXT_CHARS)")
        try:
            ast = self.parse(source)
        except RecursionError:
            raise self._too_deep() from None
        prepared = self._prepare(ast, 1)
        assert isinstance(prepared, nodes.Template)
        prepared.set_environment(self)  # the nodes the check added
        return prepared

    @staticmethod
    def undeclared(ast: nodes.Template) -> set[str]:
        return jinja2.meta.find_undeclared_variables(ast)

    @staticmethod
    def _too_deep() -> Refused:
        return Refused(f"the template nests more than {MAX_TEMPLATE_DEPTH} levels deep "
                       "(MAX_TEMPLATE_DEPTH)")

    def _prepare(self, node: nodes.Node, depth: int) -> nodes.Node:
        """Refuse what is not allowed (the leftmost, innermost problem first); count loops
        and bound `~`. Returns the node to use in place of `node`."""
        if depth > MAX_TEMPLATE_DEPTH:
            raise self._too_deep()
        for name in node.fields:
            value = getattr(node, name)
            if isinstance(value, nodes.Node):
                setattr(node, name, self._prepare(value, depth + 1))
            elif isinstance(value, list):
                setattr(node, name, [self._prepare(v, depth + 1) if isinstance(v, nodes.Node)
                                     else v for v in value])
        self._refuse(node)
        if isinstance(node, nodes.For):  # each iteration costs 1 + the nodes of its body
            work = 1 + sum(1 for part in node.body for _ in part.find_all(nodes.Node))
            node.iter = nodes.Filter(node.iter, _LOOP, [nodes.Const(work, lineno=node.lineno)],
                                     [], None, None, lineno=node.lineno)
        if isinstance(node, nodes.Concat):
            return nodes.Filter(nodes.List(node.nodes, lineno=node.lineno), _CONCAT, [], [],
                                None, None, lineno=node.lineno)
        return node

    @staticmethod
    def _refuse(node: nodes.Node) -> None:
        """Refused if `node` is not allowed in rulebook text."""
        if type(node) in _TAGS:
            raise Refused(f"'{{% {_TAGS[type(node)]} %}}' is not allowed")
        if isinstance(node, nodes.Call):
            raise Refused("calling functions or methods is not allowed")
        if not isinstance(node, _ALLOWED):
            raise Refused(f"'{type(node).__name__}' is not allowed")
        attr = node.attr if isinstance(node, nodes.Getattr) else (
            node.arg.value if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const)
            else None)
        if isinstance(attr, str) and attr.startswith("_"):
            raise Refused(f"access to attribute '{attr}' is not allowed")
        if isinstance(node, nodes.Name) and node.name == "self":
            raise Refused("the name 'self' is not allowed")
        if isinstance(node, nodes.Filter) and node.name not in FILTERS:
            raise Refused(f"filter '{node.name}' is not allowed (allowed: {', '.join(sorted(FILTERS))})")
        if isinstance(node, nodes.Test) and node.name not in TESTS:
            raise Refused(f"test '{node.name}' is not allowed")
        if isinstance(node, nodes.Filter | nodes.Test) and (node.dyn_args or node.dyn_kwargs):
            raise Refused("'*' and '**' arguments are not allowed")
        if isinstance(node, nodes.For) and node.recursive:
            raise Refused("recursive loops are not allowed")

    # --- rendering -----------------------------------------------------------------
    def run(self, ast: nodes.Template, names: Mapping[str, Any]) -> str:
        """Render a checked template. Refused for a refusal or a broken budget; a
        TemplateError (or TypeError, ValueError, ArithmeticError, LookupError) for a mistake."""
        template = self.compiled.get(id(ast), (None, None))[1]
        if template is None:
            try:
                with warnings.catch_warnings():  # Python's compiler warns on e.g. `(1)[1:]`
                    warnings.simplefilter("ignore", SyntaxWarning)
                    template = self.from_string(ast)
            except (RecursionError, SyntaxError):  # Python's own nesting limits
                raise self._too_deep() from None
            if len(self.compiled) < 4096:  # kept with its tree, so the id stays its own
                self.compiled[id(ast)] = (ast, template)
        self.steps = self.work = 0
        out: list[str] = []
        size = 0
        try:
            for piece in template.generate(dict(names)):
                size += len(piece)
                if size > MAX_TEMPLATE_OUTPUT:
                    raise _too_long()
                out.append(piece)
        except SecurityError as err:  # the sandbox's own refusals, e.g. `x[name]` of `__class__`
            raise Refused(str(err).rstrip(".").replace(" is unsafe", " is not allowed")) from None
        except RecursionError:
            raise self._too_deep() from None
        return "".join(out)

    def counted(self, items: Iterator[Any], work: int) -> Iterator[Any]:
        """`items`, stopping the render past MAX_TEMPLATE_STEPS iterations or MAX_TEMPLATE_WORK."""
        for item in items:
            self.steps += 1
            self.work += work
            if self.steps > MAX_TEMPLATE_STEPS:
                raise Refused(f"more than {MAX_TEMPLATE_STEPS:,} loop steps (MAX_TEMPLATE_STEPS)")
            if self.work > MAX_TEMPLATE_WORK:
                raise Refused(f"loops do more than {MAX_TEMPLATE_WORK:,} steps of work "
                              "(MAX_TEMPLATE_WORK: iterations x the size of the loop body)")
            yield item

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """Arithmetic on numbers only (no 'x' * 10**9); exact results (integers, fractions)
        within MAX_INT, checked before a power is computed."""
        if not (isinstance(left, Real) and isinstance(right, Real)):
            hint = "; join text with '~'" if operator == "+" else ""
            raise Refused(f"'{operator}' works on numbers only{hint}")
        if (operator == "**" and isinstance(left, Rational) and isinstance(right, Integral)
                and abs(left) not in (0, 1) and abs(int(right)) > MAX_INT.bit_length()):
            raise self._too_big()
        try:
            result = _BINOPS[operator](left, right)
        except ArithmeticError as err:  # a mistake, not a refusal: 1 / 0, 2.0 ** 10000
            reason = err.args[-1] if err.args else type(err).__name__
            raise jinja2.TemplateRuntimeError(f"'{operator}': {reason}") from None
        if isinstance(result, Rational) and max(abs(int(result.numerator)),
                                                int(result.denominator)) > MAX_INT:
            raise self._too_big()
        return result

    @staticmethod
    def _too_big() -> Refused:
        return Refused(f"a number in the template would be out of range (MAX_INT: {MAX_INT:,})")

    # --- no methods: a value's attribute that is a function is refused -------------
    def getattr(self, obj: Any, attribute: str) -> Any:
        return self._no_method(super().getattr(obj, attribute), attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        return self._no_method(super().getitem(obj, argument), argument)

    @staticmethod
    def _no_method(value: Any, name: Any) -> Any:
        if callable(value) and not isinstance(value, jinja2.Undefined):
            raise Refused(f"'{name}' is a method; calling methods is not allowed")
        return value


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
}
