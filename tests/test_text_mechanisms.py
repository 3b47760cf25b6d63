"""Two text mechanisms, and only two (docs/words.md, issue 29):

- the content sandbox (`pnpgen.render.text.Templates`): texts a game's author or the project
  writes as files, `{{ name }}` and Jinja (rulebooks, components, README.txt, the watch page,
  vendor file names, `pnpgen new`'s files);
- the words catalogue (`pnpgen.words.Words`, `*.words.yaml` beside the code): every word code
  prints in the reader's language (ja/en).

English program text (errors, log lines, CLI tables, the simulation report) is code: plain
literals and f-strings. This test reads pnpgen's source with ast and fails on what would make
a third way: `str.format`/`format_map`, `%`-formatting of a string, an inline language branch
that picks a text (`"、" if lang == "ja" else ", "`), a `{ja: ..., en: ...}` literal in code,
Japanese written in code, a hand-made substitution (`text.replace("{{game}}", ...)`), or a
template engine imported outside the sandbox.

ALLOWED names the few places that keep one, each with why; PENDING counts what still has to
move in files other work owns (lower a count when it drops; never raise one).

`python tests/test_text_mechanisms.py` prints the inventory by kind and file.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pnpgen"
LANG_CODES = {"ja", "en"}
JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
MARK = re.compile(r"\{\{|@@|[\x01-\x08]")  # what a hand-made substitution replaces
ENGINES = {"jinja2", "mako", "chevron", "pystache"}  # and string.Template

# (file, kind): why it may.
ALLOWED: dict[tuple[str, str], str] = {
    ("render/sandbox.py", "template engine"): "the content sandbox itself",
    ("render/text.py", "template engine"): "the sandbox's one driver (Templates)",
    ("booklint.py", "Japanese in code"): "patterns the Japanese style check looks for, not words it prints",
    ("render/linebreak.py", "Japanese in code"): "the line-breaking rules' character classes (kinsoku)",
    ("terms.py", "Japanese in code"): "kanji numerals the terminology check reads",
    ("render/rulebook/layout.py", "Japanese in code"): "typography patterns (units, brackets, breaks), not words",
    ("render/rulebook/model.py", "Japanese in code"): "the pattern of an example's label (例3：), to match a caption",
    ("games/burning_desire/rules.py", "Japanese in code"): "the notation reader accepts 「」 and 〜 as typed",
}

# (file, kind): how many remain in files owned elsewhere this session (issue 29; listed in
# docs/words.md). A count may only go down.
PENDING: dict[tuple[str, str], int] = {
}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string statements (docstrings, attribute notes): prose, not output."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def _names_language(test: ast.expr) -> bool:
    """A condition on the language: `lang == "ja"`, `"en" != x.lang`, or a flag named ja/en."""
    if isinstance(test, ast.Name):
        return test.id in LANG_CODES
    if isinstance(test, ast.UnaryOp):
        return _names_language(test.operand)
    if isinstance(test, ast.BoolOp):
        return any(_names_language(v) for v in test.values)
    if isinstance(test, ast.Compare):
        return any(isinstance(e, ast.Constant) and e.value in LANG_CODES for e in [test.left, *test.comparators])
    return False


def _picks_text(node: ast.expr) -> bool:
    """A branch that is (or holds) a string, an index into a (ja, en) pair, or one of a pair
    (`ja if lang == "ja" else en`)."""
    if isinstance(node, ast.Name):
        return node.id in LANG_CODES
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) or type(node.value) is int
    return any(isinstance(n, ast.JoinedStr) or isinstance(n, ast.Constant) and isinstance(n.value, str)
               for n in ast.walk(node))


def _is_text(node: ast.expr | None) -> bool:
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def _engine(node: ast.AST) -> bool:
    """An import of a template engine, or `string.Template`."""
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] in ENGINES for a in node.names)
    if isinstance(node, ast.ImportFrom) and node.module:
        return node.module.split(".")[0] in ENGINES or node.module == "string" and any(
            a.name == "Template" for a in node.names)
    return isinstance(node, ast.Attribute) and node.attr == "Template" and isinstance(node.value, ast.Name) \
        and node.value.id == "string"


def findings(source: str) -> list[tuple[str, int]]:
    """(kind, line) of every use of a text mechanism other than the two."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("format", "format_map"):
            found.append(("str.format", node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
                and node.args and any(isinstance(c, ast.Constant) and isinstance(c.value, str) and MARK.search(c.value)
                                      for c in ast.walk(node.args[0])):
            found.append(("placeholder replace", node.lineno))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and (
                isinstance(node.left, ast.JoinedStr)
                or isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            found.append(("%-format", node.lineno))
        elif isinstance(node, ast.IfExp) and _names_language(node.test) \
                and (_picks_text(node.body) or _picks_text(node.orelse)):
            found.append(("language branch", node.lineno))
        elif isinstance(node, ast.Dict) and {k.value for k in node.keys if isinstance(k, ast.Constant)} == LANG_CODES \
                and len(node.keys) == 2 and all(_is_text(v) for v in node.values):
            found.append(("ja/en literal", node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose \
                and JAPANESE.search(node.value):
            found.append(("Japanese in code", node.lineno))
        elif _engine(node):
            found.append(("template engine", node.lineno))
    return found


def inventory() -> Counter[tuple[str, str]]:
    """(file relative to pnpgen/, kind) -> count, over every module of the package."""
    counts: Counter[tuple[str, str]] = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for kind, _line in findings(path.read_text(encoding="utf-8")):
            counts[rel, kind] += 1
    return counts


def test_the_scanner_finds_each_third_way() -> None:
    """Each pattern the rule refuses is found, and the two mechanisms and plain code are not."""
    bad = {
        "'{} points'.format(n)": "str.format",
        "'%d points' % n": "%-format",
        "x = '、' if lang == 'ja' else ', '": "language branch",
        "x = HEAD[0 if ja else 1]": "language branch",
        "x = ja if lang == 'ja' else en": "language branch",
        "x = {'ja': '点', 'en': 'points'}[lang]": "ja/en literal",
        "x = '得点'": "Japanese in code",
        "page = text.replace('{{game}}', title)": "placeholder replace",
        "line = text.replace('@@ID@@', game_id)": "placeholder replace",
        "line = text.replace(f'@@{mark}@@', value)": "placeholder replace",
        "import jinja2": "template engine",
        "from string import Template": "template engine",
    }
    for source, kind in bad.items():
        assert [k for k, _ in findings(source)][:1] == [kind], source
    good = ["x = WORDS('points', lang, n=n)", "raise ValueError(f'{path}: no such game')",
            "fonts = (LATIN, SANS) if lang == 'en' else (SERIF, SANS)", "n = a % b",
            "def f():\n    '''得点 in a docstring is prose.'''", "x = Templates().render(text, values)",
            "x = format(v, '.0%')", "x = f'{v:g} mm'",
            "x = text.replace('-', '−')"]
    for source in good:
        assert findings(source) == [], source


def test_no_third_text_mechanism() -> None:
    """str.format, %-formatting, inline language branches, ja/en literals and Japanese in code
    appear only where ALLOWED says why, or PENDING counts them down."""
    counts = inventory()
    over = {key: n for key, n in counts.items() if key not in ALLOWED and n > PENDING.get(key, 0)}
    assert not over, (
        "text built outside the sandbox and the words catalogue (docs/words.md): "
        + "; ".join(f"pnpgen/{file}: {n} {kind}" for (file, kind), n in sorted(over.items()))
        + ". Put words a reader sees in a *.words.yaml catalogue (pnpgen.words.Words); English program "
          "messages are f-strings; number formats use format(value, spec) or f'{value:spec}'.")
    stale = [key for key in [*ALLOWED, *PENDING] if key not in counts]
    assert not stale, f"ALLOWED/PENDING name what no longer occurs; remove it: {stale}"


def test_project_templates_name_values_only_as_the_sandbox_does() -> None:
    """The files pnpgen writes from templates/ (README.txt, the watch page, `pnpgen new`'s
    content, rules package and CI files) and the play pages fill values only through the
    sandbox: no `@@NAME@@` marks of a second substitution, and each parses in the sandbox."""
    from pnpgen.render.text import Templates

    templates = Templates()
    files = [p for p in (PACKAGE.parent / "templates").rglob("*") if p.is_file()]
    files += sorted((PACKAGE / "play" / "static").glob("*.html"))
    assert len(files) >= 19
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"@@[A-Z_]+@@", text), path
        templates.names(text)  # raises for a template the sandbox refuses or cannot parse


if __name__ == "__main__":
    counts = inventory()
    by_kind: Counter[str] = Counter()
    for (file, kind), n in sorted(counts.items(), key=lambda item: (item[0][1], item[0][0])):
        by_kind[kind] += n
        note = " (allowed)" if (file, kind) in ALLOWED else " (pending)" if (file, kind) in PENDING else ""
        print(f"{kind:18} {n:4}  pnpgen/{file}{note}")
    print("\n".join(f"total {kind}: {n}" for kind, n in sorted(by_kind.items())), file=sys.stderr)
