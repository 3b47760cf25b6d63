"""Rulebook text never runs code (issue 11): known escape payloads are refused before they can
act, budgets stop runaway loops and text quickly, real templates render as before, and long
text lays out in linear time.

Payloads that would run a shell command `touch <sentinel>`; each test checks the sentinel
file was never written.
"""

from __future__ import annotations

import json
import shutil
import time
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2.sandbox import ImmutableSandboxedEnvironment

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.limits import MAX_TEMPLATE_OUTPUT
from pnpgen.output import BuildOptions
from pnpgen.render.rulebook import check_rulebook, render_rulebooks
from pnpgen.render.rulebook.layout import CHUNK_CHARS, CHUNK_LINES, markup, pieces
from pnpgen.render.sandbox import FILTERS, ContentSandbox, Refused, TemplateRefused
from pnpgen.render.templates import render_template
from tests.conftest import ROOT, CliRun
from tests.sampling import examples

BASE = ROOT / "tests" / "bad_input" / "content" / "ok" / "burning-desire"
CONTEXT: dict[str, Any] = {
    "threshold": 1000, "dice": [1, 2, 3], "whites": 4, "ev": 3.5, "bonus": [10, 20],
    "multiplier_dice": [{"name": "A", "faces": [0, 0, 1, 1, 1, 2]},
                        {"name": "B", "faces": [0, 0, 0, 2, 2, 3]}],
}
LIPSUM = "{{ lipsum.__globals__['os'].popen('CMD').read() }}"

# (payload, part of the refusal). CMD becomes `touch <sentinel>`.
REFUSED = [
    (LIPSUM, "access to attribute '__globals__' is not allowed"),
    ("{{ lipsum.__globals__.os.popen('CMD').read() }}", "'__globals__'"),
    ("{{ cycler.__init__.__globals__.os.popen('CMD').read() }}", "'__init__'"),
    ("{{ joiner.__init__.__globals__.os.popen('CMD').read() }}", "'__init__'"),
    ("{{ namespace.__init__.__globals__.os.popen('CMD').read() }}", "'__init__'"),
    ("{{ self._TemplateReference__context.cycler.__init__.__globals__.os.popen('CMD').read() }}",
     "the name 'self' is not allowed"),
    ("{{ self.__init__.__globals__.__builtins__.__import__('os').popen('CMD').read() }}",
     "the name 'self'"),
    ("{% for c in ''.__class__.__mro__[1].__subclasses__() %}{% if c.__name__ == 'catch_warnings' %}"
     "{{ c()._module.__builtins__['__import__']('os').popen('CMD').read() }}{% endif %}{% endfor %}",
     "access to attribute '__class__' is not allowed"),
    ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "'__class__'"),
    ("{{ dice.__class__.__base__.__subclasses__() }}", "'__class__'"),
    ("{{ threshold.__class__ }}", "'__class__'"),
    ("{{ dice['__class__'] }}", "'__class__'"),
    ("{% for k in ['__class__'] %}{{ dice[k] }}{% endfor %}",
     "access to attribute '__class__' of 'list' object is not allowed"),
    ("{{ (lipsum | attr('__globals__'))['os'].popen('CMD').read() }}", "filter 'attr'"),
    ("{{ threshold | attr('__class__') }}", "filter 'attr' is not allowed"),
    ("{{ dice | map(attribute='__class__') | list }}", "filter 'map' is not allowed"),
    ("{{ '{0.__class__}'.format(threshold) }}", "calling functions or methods is not allowed"),
    ("{{ '{0.__init__.__globals__}'.format(dice) }}", "calling functions"),
    ("{{ '%s' % threshold }}", "'%' works on numbers only"),
    ("{% include '/etc/passwd' %}", "'{% include %}' is not allowed"),
    ("{% import 'os' as os %}{{ os.popen('CMD') }}", "'{% import %}' is not allowed"),
    ("{% from 'os' import popen %}", "'{% from %}' is not allowed"),
    ("{% extends '/etc/passwd' %}", "'{% extends %}' is not allowed"),
    ("{% set x = threshold %}", "'{% set %}' is not allowed"),
    ("{% set ns = namespace(n=0) %}", "calling functions"),
    ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "calling functions"),
    ("{% macro m() %}x{% endmacro %}", "'{% macro %}' is not allowed"),
    ("{% filter upper %}x{% endfilter %}", "'{% filter %}' is not allowed"),
    ("{% with x = threshold %}{{ x }}{% endwith %}", "'{% with %}' is not allowed"),
    ("{% block b %}x{% endblock %}", "'{% block %}' is not allowed"),
    ("{% for x in dice recursive %}{{ loop(x) }}{% endfor %}", "calling functions"),
    ("{% for d in dice %}{{ loop.cycle }}{% endfor %}", "'cycle' is a method"),
    ("{{ multiplier_dice[0].items }}", "'items' is a method"),
    ("{{ dice.append }}", "'append' of 'list' object is not allowed"),
    ("{{ threshold is callable }}", "test 'callable' is not allowed"),
    ("{{ range(10**9) | list }}", "calling functions"),
    ("{% for a in range(10**6) %}{% for b in range(10**6) %}x{% endfor %}{% endfor %}",
     "calling functions"),
    ("{{ 'x' * 10**9 }}", "'*' works on numbers only"),
    ("{{ 'x' * 10**5 * 10**5 }}", "'*' works on numbers only"),
    ("{{ 'x' + 'y' }}", "'+' works on numbers only; join text with '~'"),
    ("{{ 10 ** 10 ** 10 }}", "out of range (MAX_INT"),
    ("{{ threshold ** 100 }}", "out of range (MAX_INT"),
    ("{{ '%999999999d' | format(1) }}", "MAX_TEMPLATE_OUTPUT"),
    ("{{ '%*d' | format(9, 1) }}", "'*' widths are not allowed"),
    ("{{ " + "-" * 30 + "threshold }}", "MAX_TEMPLATE_DEPTH"),
    ("{{ " + "(" * 500 + "1" + ")" * 500 + " }}", "MAX_TEMPLATE_DEPTH"),
    ("x" * 20_001, "MAX_TEXT_CHARS"),
]

# Names Jinja2 normally provides: here simply undefined (a rulebook problem, never run).
UNDEFINED = ["lipsum", "cycler", "joiner", "namespace", "range", "dict", "config", "request",
             "loop"]


def outcome(source: str, names: dict[str, Any] | None = None) -> str:
    """'refused: …', 'undefined: …', 'problem: …' or 'rendered: <text>'."""
    env = ContentSandbox()
    try:
        ast = env.checked(source)
        missing = env.undeclared(ast) - set(names or CONTEXT)
        if missing:
            return f"undefined: {', '.join(sorted(missing))}"
        return "rendered: " + env.run(ast, names or CONTEXT)
    except Refused as err:
        return f"refused: {err}"
    except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError) as err:
        return f"problem: {err}"


@pytest.fixture
def sentinel(tmp_path: Path) -> Path:
    return tmp_path / "pwned"


def armed(payload: str, sentinel: Path) -> str:
    return payload.replace("CMD", f"touch {sentinel}")


def test_the_sentinel_payload_is_live_in_plain_jinja2(sentinel: Path) -> None:
    """The check below means something: the same payload runs a command in plain Jinja2."""
    live = LIPSUM.replace("popen('CMD').read()", "system('CMD')")  # (system: no pipe left open)
    jinja2.Environment().from_string(armed(live, sentinel)).render()
    assert sentinel.exists()


@pytest.mark.parametrize(("payload", "refusal"), REFUSED, ids=[p[:40] for p, _ in REFUSED])
def test_escape_payload_is_refused_and_never_runs(payload: str, refusal: str, sentinel: Path) -> None:
    result = outcome(armed(payload, sentinel))
    assert result.startswith("refused: ") and refusal in result, result
    assert not sentinel.exists()


@pytest.mark.parametrize("name", UNDEFINED)
def test_jinja2_globals_are_undefined_names(name: str, sentinel: Path) -> None:
    assert outcome(f"{{{{ {name} }}}}") == f"undefined: {name}"
    assert outcome(f"{{{{ {name}.__init__ }}}}").startswith("refused: access to attribute '__init__'")


def test_no_globals_no_loader_and_a_filter_whitelist() -> None:
    env = ContentSandbox()
    assert isinstance(env, ImmutableSandboxedEnvironment)
    assert env.globals == {} and env.loader is None
    public = {name for name in env.filters if "-" not in name}
    assert public == set(FILTERS) and not {"attr", "map", "list", "replace", "center"} & public
    assert "callable" not in env.tests and "even" in env.tests


@pytest.mark.parametrize(("source", "limit"), [
    # three nested loops of 1,000: 10^9 iterations unbounded
    ("{% for a in s %}{% for b in s %}{% for c in s %}x{% endfor %}{% endfor %}{% endfor %}",
     "more than 10,000 loop steps (MAX_TEMPLATE_STEPS)"),
    # few iterations, each with a big body
    ("{% for a in s %}{% if " + " == ".join(["a"] * 400) + " %}{% endif %}{% endfor %}",
     "(MAX_TEMPLATE_WORK"),
    ("{% for a in s %}{{ s }}{% endfor %}", "MAX_TEMPLATE_OUTPUT"),
    ("{{ [" + ", ".join(["s"] * 60) + "] | join(s) }}", "MAX_TEMPLATE_OUTPUT"),
    ("{{ " + " ~ ".join(["s"] * 101) + " }}", "MAX_TEMPLATE_OUTPUT"),
])
def test_budgets_stop_runaway_work_quickly(source: str, limit: str) -> None:
    start = time.process_time()
    result = outcome(source, {"s": "x" * 1000})
    assert result.startswith("refused: ") and limit in result, result
    assert time.process_time() - start < 2.0


def test_real_rulebook_templates_render_as_before() -> None:
    faces = ("{% for d in multiplier_dice %}{{ d.name }} = {{ d.faces | join(', ') }}"
             "{% if not loop.last %}; {% endif %}{% endfor %}")
    assert outcome(faces) == "rendered: A = 0, 0, 1, 1, 1, 2; B = 0, 0, 0, 2, 2, 3"
    assert outcome('{{ "%.1f" | format(threshold / ev) }} turns') == "rendered: 285.7 turns"
    assert outcome("{{ whites + 1 }} of {{ bonus | length }}") == "rendered: 5 of 2"
    assert outcome("{{ 'a' ~ threshold }}{{ dice[0] if dice else 0 }}{% if dice is defined %}!{% endif %}") \
        == "rendered: a10001!"
    assert outcome("{{ 2 ** 53 }} {{ 7 // 2 }} {{ 7 % 2 }} {{ -threshold }}") == \
        "rendered: 9007199254740992 3 1 -1000"


def test_mistakes_stay_ordinary_problems() -> None:
    assert outcome("{{ threshold / 0 }}") == "problem: '/': division by zero"
    with warnings.catch_warnings(record=True) as caught:  # no second stderr line from Python
        warnings.simplefilter("always")
        assert outcome("{{ (1)[1:] }}") == "problem: 'int' object is not subscriptable"
    assert not caught
    assert outcome("{% for a in threshold %}{% endfor %}").startswith("problem: ")
    assert outcome("{{ nope }}") == "undefined: nope"
    assert outcome("{{ threshold ").startswith("problem: ")


# --- through the resolver and the real CLI ------------------------------------------------


def game_with_intro(root: Path, intro_en: str) -> tuple[Path, int]:
    """A Burning Desire folder under `root` whose rulebook intro (English) is `intro_en`;
    returns the game.yaml path and the line of that text."""
    game = root / "burning-desire"
    shutil.copytree(BASE, game)
    main = game / "game.yaml"
    text = main.read_text(encoding="utf-8")
    line = text.count("\n") + 3
    main.write_text(text + "rulebook:\n  intro:\n    en: " + json.dumps(intro_en) + "\n"
                    "    ja: ダイスゲームです。\n  sections:\n    - title: {ja: 概要, en: Overview}\n"
                    "      blocks:\n        - text: {ja: \"{{ threshold }} 点\", en: \"{{ threshold }} points\"}\n",
                    encoding="utf-8")
    return main, line


@pytest.mark.parametrize("command", ["validate", "build"])
def test_cli_refuses_the_payload_in_one_line(run_pnpgen: CliRun, tmp_path: Path, sentinel: Path,
                                             command: str) -> None:
    main, line = game_with_intro(tmp_path / "content", armed(LIPSUM, sentinel))
    out = tmp_path / "out"
    args = ["--games", "0", "--verify-games", "0"] if command == "validate" else ["--out", str(out), "-q"]
    code, _, err = run_pnpgen(command, "burning-desire", "--content", str(tmp_path / "content"), *args)
    assert err.splitlines() == [
        f"error: {main}:{line}:9: template error: access to attribute '__globals__' is not allowed"]
    assert code == 2
    assert not sentinel.exists()
    assert not list(tmp_path.rglob("*.pdf")) and not list(tmp_path.rglob("*.part"))


def test_cli_nested_loops_end_quickly_with_the_limit(run_pnpgen: CliRun, tmp_path: Path) -> None:
    loops = "{% for a in '" + "x" * 1000 + "' %}{% for b in '" + "x" * 1000 + "' %}x{% endfor %}{% endfor %}"
    main, line = game_with_intro(tmp_path / "content", loops)
    start = time.process_time()
    code, _, err = run_pnpgen("validate", "burning-desire", "--content", str(tmp_path / "content"),
                              "--games", "0", "--verify-games", "0")
    assert time.process_time() - start < 20  # (mostly the validate run itself)
    assert err.splitlines() == [
        f"error: {main}:{line}:9: template error: more than 10,000 loop steps (MAX_TEMPLATE_STEPS)"]
    assert code == 2


def test_cli_validate_reports_a_jinja2_global_as_undefined(run_pnpgen: CliRun, tmp_path: Path) -> None:
    main, line = game_with_intro(tmp_path / "content", "{{ lipsum }}")
    code, out, _ = run_pnpgen("validate", "burning-desire", "--content", str(tmp_path / "content"),
                              "--games", "0", "--verify-games", "0")
    assert code == 1
    assert f"{main.name}:{line}:9: undefined template variable 'lipsum'" in out.replace("\n", "")


def test_check_rulebook_raises_a_refusal_instead_of_listing_it(tmp_path: Path) -> None:
    main, line = game_with_intro(tmp_path, "{{ threshold.__class__ }}")
    content = load_game(main.parent)
    with pytest.raises(TemplateRefused) as caught:
        check_rulebook(content, rules_for_content(content))
    assert (caught.value.file, caught.value.line, caught.value.column) == (str(main), line, 9)


# --- project templates ---------------------------------------------------------------------


def test_release_notes_are_sandboxed_and_print_content_values_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[ContentSandbox] = []
    run = ContentSandbox.run

    def spied(self: ContentSandbox, ast: Any, names: Any) -> str:
        used.append(self)
        return run(self, ast, names)

    monkeypatch.setattr(ContentSandbox, "run", spied)
    text = render_template("release-notes.txt.j2", title={"en": "{{ 7 * 7 }}", "ja": LIPSUM},
                           version="{% include '/etc/passwd' %}", pnpgen_version="0", paper="A4",
                           files=[], kinds=set())
    assert text.startswith("{{ 7 * 7 }} / " + LIPSUM + "\n")
    assert "{% include '/etc/passwd' %}" in text
    assert len(used) == 1  # rendered by the content sandbox, the one template engine
    assert text.endswith("どちらで印刷してもかまいません。\n")  # the template's last newline kept


# --- long text -----------------------------------------------------------------------------


def test_pieces_cut_long_text_only() -> None:
    short = "word " * 300
    assert pieces(short) == [short]
    for text in ["lorem ipsum " * 5000, "x" * 20_000, "ab\n" * 7000, "あいうえお。" * 4000]:
        parts = pieces(text)
        assert "".join(parts) == text
        assert all(len(p) <= CHUNK_CHARS and p.count("\n") <= CHUNK_LINES for p in parts)
        # each cut is after at least half a piece of characters or a full piece of lines
        assert len(parts) <= len(text) // (CHUNK_CHARS // 2) + text.count("\n") // CHUNK_LINES + 1


def test_japanese_markup_is_linear_on_runs_of_spaces() -> None:
    start = time.process_time()
    assert markup("あ" + " " * 20_000 + "。", "ja") == [{"s": "あ。"}]
    assert time.process_time() - start < 0.5  # quadratic before: 3 s


@pytest.mark.parametrize("where", ["credits", "heading"])
def test_a_20000_character_text_builds_in_seconds(tmp_path: Path, where: str) -> None:
    """20,000 characters of short lines in the credits took 53 s before (ReportLab re-broke the
    whole rest of the paragraph on each page); a 20,000-character heading crashed."""
    game = tmp_path / "burning-desire"
    shutil.copytree(BASE, game)
    long = json.dumps("ab\n" * 6666 if where == "credits" else "lorem ipsum " * 1666)
    title = long if where == "heading" else "Overview"
    extra = f"credits: {long}\n" if where == "credits" else ""
    with (game / "game.yaml").open("a", encoding="utf-8") as file:
        file.write(f"{extra}rulebook:\n  sections:\n    - title: {title}\n"
                   "      blocks:\n        - text: \"{{ threshold }}\"\n")
    content = load_game(game)
    start = time.process_time()
    built = render_rulebooks(content, rules_for_content(content),
                             BuildOptions(out=tmp_path / "out", langs=("en",)))
    assert time.process_time() - start < 15
    # the credits run over many pages; a heading is cut short at 300 characters (layout.TOC_CHARS)
    assert built and built[0].pages > (5 if where == "credits" else 2)


# --- random templates ----------------------------------------------------------------------

TOKENS = ["{{ ", " }}", "{% ", " %}", "for ", " in ", "if ", "else", "endfor", "endif", "x", "dice",
          "threshold", "multiplier_dice", "d", "loop", ".last", ".name", " ~ ", " * ", " + ", " / ",
          " ** ", " % ", " | ", "join", "format", "length", "(", ")", "[", "]", "'a'", "'%5d'", "0",
          "10", "-1", ".", "__class__", ",", "range", "set ", " = ", "include ", "not ", " == ",
          " is ", "defined", "{{ dice }}", "text "]


@settings(max_examples=examples(300, 100), deadline=20000, suppress_health_check=[HealthCheck.too_slow])  # a hang guard
@given(st.lists(st.sampled_from(TOKENS), max_size=30).map("".join))
def test_random_templates_end_in_an_outcome_never_a_crash(source: str) -> None:
    """Whatever the text, the resolver's outcomes only: rendered, undefined, a problem or a
    refusal (outcome() catches exactly what Resolver.template catches)."""
    outcome(source, {**CONTEXT, "x": "xyz" * 50})


# --- arithmetic and output budgets hold before the work (issue 25) ------------------------

BIG = "x" * 4000
# b: 1,000 references to a 4,000-character text (its repr is 4 MB); B: ten of them (40 MB)
NESTED = "{% for a in [s] %}{% for b in [[" + ",".join(["a"] * 1000) + "]] %}{{ EXPR }}{% endfor %}{% endfor %}"
B = "[" + ",".join(["b"] * 10) + "]"
NUMBERS_BEFORE_THE_WORK = [
    # a Fraction with denominator 1 is a whole exponent too: 2 ** 10**12 was computed in full
    ("{{ 2 ** (survive * 3 * 10**12) }}", "out of range (MAX_INT"),
    ("{{ survive ** (survive * 3 * 10**12) }}", "out of range (MAX_INT"),
    ("{{ 2 ** (true * 10**12) }}", "out of range (MAX_INT"),
    # numbers a page cannot print: inf, nan, 26 digits, and round() building 10**10**7
    ("{{ 1e308 * 10 }}", "would be inf (not a finite number)"),
    ("{{ 1e999 }}", "would be inf (not a finite number)"),
    ("{{ 'nan' | float }}", "would be nan (not a finite number)"),
    ("{{ 123456789012345678901234567 }}", "out of range (MAX_INT"),
    ("{{ '99999999999999999999999999' | int }}", "out of range (MAX_INT"),
    ("{{ 1e300 | int }}", "out of range (MAX_INT"),
    ("{{ 5 | round(-10**7) }}", "round takes a precision from -20 to 20"),
]
# repr, join, format and the text filters of a list whose text is 40 MB: refused before it is built
TEXT_BEFORE_THE_WORK = [NESTED.replace("EXPR", expression) for expression in (
    B, f"{B} | join", f"[s, s] | join({B})", "'" + "%(b)s" * 10 + "' | format(b=b)", f"'%s' | format({B})",
    f"'%r' | format({B})", f"{B} | upper", f"{B} | string", f"{B} | trim", f"b ~ {B}", f"[{B}] | first | join")]


@pytest.mark.parametrize(("source", "limit"), NUMBERS_BEFORE_THE_WORK)
def test_number_budgets_hold_before_the_work(source: str, limit: str) -> None:
    result = outcome(source, {"survive": Fraction(1, 3)})
    assert result.startswith("refused: ") and limit in result, result


@pytest.mark.parametrize("source", TEXT_BEFORE_THE_WORK)
def test_text_budgets_hold_before_the_text_is_built(source: str) -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        result = outcome(source, {"s": BIG})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result == ("refused: the text would be longer than 100,000 characters (MAX_TEMPLATE_OUTPUT)"), result
    assert peak < 10_000_000  # the 40 MB text was never built (4 MB pieces were, before)


def test_sane_numbers_and_texts_still_render() -> None:
    names = {"survive": Fraction(25, 36), "s": "ab", "l": [1, "x", {"k": [2]}]}
    assert outcome("{{ survive }} {{ survive * 36 }} {{ 2 ** (survive * 36) }} {{ survive ** 2 }}", names) \
        == "rendered: 25/36 25 33554432 625/1296"
    assert outcome("{{ l }} {{ l | join('-') }} {{ '%s|%r|%5.1f|%%' | format(l, s, 2.25) }}", names) \
        == "rendered: [1, 'x', {'k': [2]}] 1-x-{'k': [2]} [1, 'x', {'k': [2]}]|'ab'|  2.2|%"
    assert outcome("{{ 1e308 }} {{ 2.0 ** -2000 }} {{ 3.14159 | round(2) }} {{ '42' | int }} {{ l | upper }}", names) \
        == "rendered: 1e+308 0.0 3.14 42 [1, 'X', {'K': [2]}]"
    assert outcome("{{ (-8) ** 0.5 }}") == "problem: the result is not a real number"
    assert outcome("{{ 2.0 ** 5000 }}").startswith("problem: '**': ")


# A number of each kind content or a template can hold, the edges of the budgets included.
NUMBERS = st.one_of(
    st.integers(-(2**53), 2**53), st.sampled_from([0, 1, -1, 2, 53, 54, 2**53, 10**12]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.fractions(max_denominator=10**6).filter(lambda f: abs(f.numerator) <= 2**53),
    st.booleans(),
)
OPERATORS = ["+", "-", "*", "/", "//", "%", "**"]


@settings(max_examples=examples(150, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(OPERATORS), NUMBERS), min_size=1, max_size=4), NUMBERS)
def test_random_arithmetic_is_a_sane_number_or_one_problem(chain: list[tuple[str, Any]], first: Any) -> None:
    """Any chain of operations on any numeric types: a finite number within MAX_INT when
    exact, else a refusal or a problem; never a hang (an unbounded power would never end)."""
    names = {f"v{i}": value for i, (_, value) in enumerate(chain)}
    source = "{{ " + "(" * len(chain) + "first " + " ".join(f"{op} v{i})" for i, (op, _) in enumerate(chain)) + " }}"
    result = outcome(source, {**names, "first": first})
    assert result.split(":")[0] in ("rendered", "refused", "problem"), result
    if result.startswith("rendered: "):
        value = result.removeprefix("rendered: ")
        assert value not in ("inf", "-inf", "nan") and "j" not in value, source
        if "/" not in value and "e" not in value and "." not in value and value not in ("True", "False"):
            assert abs(int(value)) <= 2**53, source


TEXT_PARTS = ["s", "l", "[s, s]", "[l, l, l]", "{'k': l}", "(s, l)", "b"]
TEXT_OPERATIONS = ["{{ X }}", "{{ X | join }}", "{{ X | join(s) }}", "{{ X ~ X }}", "{{ X | upper }}",
                   "{{ X | string }}", "{{ '%s%s' | format(X, X) }}", "{{ '%(k)s%(k)r' | format(k=X) }}",
                   "{% for i in X %}{{ X }}{% endfor %}"]


@settings(max_examples=examples(120, 50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXT_OPERATIONS), st.lists(st.sampled_from(TEXT_PARTS), min_size=1, max_size=3),
       st.integers(0, 30_000), st.integers(0, 40))
def test_random_output_is_within_the_budget_or_refused(operation: str, parts: list[str], length: int,
                                                       copies: int) -> None:
    """Texts, lists and mappings of any size, repeated: the output is at most MAX_TEMPLATE_OUTPUT
    characters, or refused with that limit, or a problem; nothing larger is ever returned."""
    value = "[" + ", ".join(parts) + "]" if len(parts) > 1 else parts[0]
    names = {"s": "y" * length, "l": ["y" * length] * copies, "b": [["y" * length] * copies] * copies}
    result = outcome(operation.replace("X", value), names)
    assert result.split(":")[0] in ("rendered", "refused", "problem"), result
    if result.startswith("refused: "):
        assert "MAX_TEMPLATE_OUTPUT" in result or "MAX_TEMPLATE" in result, result
    assert len(result) <= MAX_TEMPLATE_OUTPUT + 20
