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

import math
import operator
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from numbers import Rational, Real
from typing import Any, TypeVar

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

T = TypeVar("T")
_BUILTIN_FILTERS = jinja2.Environment().filters


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


def _too_long() -> Refused:
    return Refused(f"the text would be longer than {MAX_TEMPLATE_OUTPUT:,} characters "
                   "(MAX_TEMPLATE_OUTPUT)")


def _text(value: object, budget: int = MAX_TEMPLATE_OUTPUT, as_repr: bool = False) -> str:
    """str(value) (repr(value) with `as_repr`), refused before it is built when it would be
    longer than `budget`: a list holding a long text many times has a huge repr."""
    if isinstance(value, str) and not as_repr:
        if len(value) > budget:
            raise _too_long()
        return value
    _measure(value, budget)
    text = repr(value) if as_repr else str(value)
    if len(text) > budget:  # an object whose str is longer than its repr
        raise _too_long()
    return text


def _measure(value: object, budget: int) -> None:
    """Refused when repr(value) would be longer than `budget`, counted part by part without
    building it (each leaf's repr is built: one is at most a text's length x 10)."""
    size, todo = 0, [value]
    while todo:
        item = todo.pop()
        if isinstance(item, Mapping):
            size += 2 + 4 * len(item)  # {}, ': ' and ', '
            for key, inner in item.items():
                todo += (key, inner)
        elif isinstance(item, list | tuple | set | frozenset):
            size += 2 + 2 * len(item)  # brackets and ', '
            todo.extend(item)
        else:
            size += len(repr(item)) if not isinstance(item, str) or len(item) <= budget else len(item)
        if size > budget:  # also ends a list that holds itself
            raise _too_long()


def _join(context: Context, value: Iterable[object], d: object = "", attribute: object = None) -> str:
    """Jinja2's `join`, refusing a result over MAX_TEMPLATE_OUTPUT before building it."""
    env = context.environment
    items = list(value)
    if attribute is not None:
        for part in str(attribute).split("."):
            items = [env.getattr(item, part) for item in items]
    sep = _text(d)
    budget = MAX_TEMPLATE_OUTPUT - len(sep) * max(len(items) - 1, 0)
    if budget < 0:
        raise _too_long()
    parts = []
    for item in items:
        parts.append(_text(item, budget))
        budget -= len(parts[-1])
    return sep.join(parts)


# %[(key)][flags][width][.precision][length]type
_FORMAT_SPEC = re.compile(r"%(?:\(([^)]*)\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.?)")
_NUMBER_CHARS = 330  # the most characters a conversion of a number in range prints (%f of 1e308)


def _format(value: object, *args: object, **kwargs: object) -> str:
    """Jinja2's `format` ("%.1f" | format(x)), its result's length bounded before it is built:
    widths and precisions, and each argument's text as often as it is used ("%(a)s%(a)s")."""
    text = _text(value)
    if args and kwargs:
        raise jinja2.exceptions.FilterArgumentError(
            "can't handle positional and keyword arguments at the same time")
    size, position = len(text), 0
    for spec in _FORMAT_SPEC.finditer(text):
        key, width, precision, kind = spec.groups()
        if kind == "%":
            continue
        for number in (width, precision):
            if number == "*":
                raise Refused("'*' widths are not allowed in format")
            if number:
                size += int(number) if len(number) < 7 else MAX_TEMPLATE_OUTPUT + 1
        if key is not None:
            argument = kwargs.get(key)
        else:
            argument = args[position] if position < len(args) else None
            position += 1
        if kind in ("s", "r", "a"):
            size += len(_text(argument, MAX_TEMPLATE_OUTPUT, as_repr=kind != "s"))
        else:
            size += _NUMBER_CHARS
        if size > MAX_TEMPLATE_OUTPUT:
            raise _too_long()
    out = text % (kwargs or args)
    if len(out) > MAX_TEMPLATE_OUTPUT:
        raise _too_long()
    return out


def _concat(context: Context, parts: Iterable[object]) -> str:
    budget, texts = MAX_TEMPLATE_OUTPUT, []
    for part in parts:
        texts.append(_text(part, budget))
        budget -= len(texts[-1])
    return "".join(texts)


def _on_text(name: str) -> Callable[..., Any]:
    """A built-in filter that turns its value into text first (`upper` of a list is the
    list's repr), given that text bounded."""
    builtin = _BUILTIN_FILTERS[name]

    def bounded(value: object, *args: object, **kwargs: object) -> object:
        return builtin(_text(value), *args, **kwargs)

    return bounded


def _number(value: object) -> object:
    """A number a template computed or converted, refused unless finite and within MAX_INT
    when exact (integers, fractions); a complex number is a mistake."""
    if isinstance(value, bool) or not isinstance(value, int | float | Rational | complex):
        return value
    if isinstance(value, complex):
        raise jinja2.TemplateRuntimeError("the result is not a real number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Refused(f"a number in the template would be {value} (not a finite number)")
        return value
    assert isinstance(value, Rational)
    if max(abs(int(value.numerator)), int(value.denominator)) > MAX_INT:
        raise ContentSandbox._too_big()
    return value


def _int(value: object, default: object = 0, base: int = 10) -> object:
    """Jinja2's `int`, its result within MAX_INT (a 26-digit text would print as it is)."""
    if isinstance(value, str) and len(value.strip()) > 40:
        raise ContentSandbox._too_big()
    return _number(_BUILTIN_FILTERS["int"](value, default, base))


def _float(value: object, default: object = 0.0) -> object:
    """Jinja2's `float`, refused for 'inf' and 'nan'."""
    return _number(_BUILTIN_FILTERS["float"](value, default))


_MAX_ROUND_DIGITS = 20  # round(x, -10**7) builds 10**10**7: places beyond a float's 17 digits say nothing


def _round(value: object, precision: object = 0, method: str = "common") -> object:
    """Jinja2's `round`, with its precision within ±_MAX_ROUND_DIGITS."""
    if not isinstance(precision, int) or abs(precision) > _MAX_ROUND_DIGITS:
        raise Refused(f"round takes a precision from -{_MAX_ROUND_DIGITS} to {_MAX_ROUND_DIGITS}")
    return _number(_BUILTIN_FILTERS["round"](value, precision, method))


def _loop(context: Context, value: Any, work: int) -> Iterator[Any]:
    env = context.environment
    assert isinstance(env, ContentSandbox)
    return env.counted(iter(value), work)


# The filters a text may use: what real rulebooks need plus a few that cannot grow text.
FILTERS: dict[str, Callable[..., Any]] = {
    **{name: _BUILTIN_FILTERS[name] for name in (
        "abs", "count", "d", "default", "first", "last", "length", "max", "min")},
    **{name: _on_text(name) for name in ("capitalize", "lower", "string", "title", "trim", "upper")},
    "float": _float,
    "int": _int,
    "round": _round,
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
        super().__init__(undefined=jinja2.StrictUndefined, autoescape=False, loader=None, finalize=_text)
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
        if isinstance(node, nodes.Const):  # a literal 1e999 or a 26-digit number
            _number(node.value)

    # --- rendering -----------------------------------------------------------------
    def run(self, ast: nodes.Template, names: Mapping[str, object]) -> str:
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

    def counted(self, items: Iterator[T], work: int) -> Iterator[T]:
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

    def call_binop(self, context: Context, operator: str, left: object, right: object) -> object:
        """Arithmetic on numbers only (no 'x' * 10**9); exact results (integers, fractions)
        within MAX_INT and floats finite. A power is checked before it is computed, whatever
        the types: 2 ** Fraction(10**12, 1) is an exact power too."""
        if not (isinstance(left, Real) and isinstance(right, Real)):
            hint = "; join text with '~'" if operator == "+" else ""
            raise Refused(f"'{operator}' works on numbers only{hint}")
        left, right = _number(left), _number(right)  # operands in range: products stay small
        if operator == "**" and _exact_power_too_big(left, right):
            raise self._too_big()
        try:
            result = _BINOPS[operator](left, right)
        except ArithmeticError as err:  # a mistake, not a refusal: 1 / 0, 2.0 ** 10000
            reason = err.args[-1] if err.args else type(err).__name__
            raise jinja2.TemplateRuntimeError(f"'{operator}': {reason}") from None
        return _number(result)

    @staticmethod
    def _too_big() -> Refused:
        return Refused(f"a number in the template would be out of range (MAX_INT: {MAX_INT:,})")

    # --- no methods: a value's attribute that is a function is refused -------------
    def getattr(self, obj: object, attribute: str) -> object:
        return self._no_method(super().getattr(obj, attribute), attribute)

    def getitem(self, obj: object, argument: object) -> object:
        return self._no_method(super().getitem(obj, argument), argument)

    @staticmethod
    def _no_method(value: object, name: object) -> object:
        if callable(value) and not isinstance(value, jinja2.Undefined):
            raise Refused(f"'{name}' is a method; calling methods is not allowed")
        return value


def _exact_power_too_big(base: object, exponent: object) -> bool:
    """Whether base ** exponent would be an exact number past MAX_INT (judged before it is
    computed: Python builds 2 ** 10**12 in full). An exponent that is a whole number of any
    type (int, bool, Fraction(n, 1)) on an exact base makes an exact power; a float on
    either side makes a float, which overflows at once (a mistake, not a hang)."""
    if not isinstance(base, Rational) or not isinstance(exponent, Rational) or exponent.denominator != 1:
        return False
    return abs(base) not in (0, 1) and abs(int(exponent.numerator)) > MAX_INT.bit_length()


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
}
