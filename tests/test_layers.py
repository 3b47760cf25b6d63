"""The layers of pnpgen, enforced: imports point down, never up, and never in a circle.

LAYERS below is the one place the order is written down, bottom first. A *unit* is a
top-level module or subpackage of pnpgen (`pnpgen.render` covers all of render/). A
module may import its own unit and the units of lower layers; two units of one layer
are siblings and must not import each other. REFUSED lists the few downward imports
that are refused all the same. Every import counts, also one hidden
inside a function, except those under `if TYPE_CHECKING:` (they never run).

Besides the layers, no import cycle may join the parts of any package: within each
package (pnpgen, pnpgen.render, pnpgen.render.kit, pnpgen.games.routou_dice, ...) its
own `__init__` and each of its direct submodules and subpackages are one node, and
the imports between them must form no cycle.

`nox -s lint` runs this file; so does CI, with the rest of the suite.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pnpgen"

# Bottom first: content -> engine -> examples -> games -> referee -> verify -> render ->
# validate | report -> build -> cli. validate and report sit above render because they use
# it (validate checks that components and rulebooks render; report draws a PDF with
# render's fonts and paper); render uses neither. engine/simulate.py is engine.
LAYERS: list[tuple[str, ...]] = [
    ("pnpgen", "pnpgen.errors", "pnpgen.limits", "pnpgen.words", "pnpgen.cache"),  # errors, budgets, words, cache
    ("pnpgen.output",),  # atomic writes, BuiltFile and BuildOptions
    ("pnpgen.scene",),  # pictures of positions as plain data: games draw them, render and referee show them
    ("pnpgen.content",),
    ("pnpgen.engine",),  # protocol, chance, bots, simulation, metrics
    ("pnpgen.examples",),
    ("pnpgen.games",),
    ("pnpgen.referee",),
    ("pnpgen.verify",),
    ("pnpgen.render",),
    ("pnpgen.booklint", "pnpgen.terms"),  # the players' book lint and the glossary check: validate runs them
    ("pnpgen.validate", "pnpgen.report", "pnpgen.schemas"),
    ("pnpgen.sweep",),  # balance sweeps: simulations over a grid of values, drawn with report's charts
    ("pnpgen.build", "pnpgen.scaffold", "pnpgen.preflight"),  # preflight: a game's print files built and checked
    ("pnpgen.watch", "pnpgen.play"),  # rebuilds on save, serves the previews page; play: the web table
    ("pnpgen.commands",),  # consoles, the JSON envelope; list and referee without Typer
    ("pnpgen.ci_report",),  # validate's results for CI: github, junit, sarif; --files for pre-commit
    ("pnpgen.app",),  # the Typer app: every command's options and help
    ("pnpgen.cli",),  # the entry point: exit codes, one-line errors, the plain-call shortcut
    ("pnpgen.__main__",),
]
LAYER_OF = {unit: index for index, units in enumerate(LAYERS) for unit in units}

# Downward imports that are still refused, with the reason.
REFUSED: dict[tuple[str, str], str] = {
    ("pnpgen.render", "pnpgen.games"): "render receives its rules from its caller; it does not look games up",
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (a package's __init__ is the package's name)
    line: int
    in_function: bool

    def __str__(self) -> str:
        return f"{self.module} -> {self.target} ({self.where})"

    @property
    def where(self) -> str:
        path = PACKAGE.parent / (self.module.replace(".", "/"))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        inside = ", inside a function" if self.in_function else ""
        return f"{path.relative_to(PACKAGE.parent)}:{self.line}{inside}"


def module_files() -> dict[str, Path]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str, path: Path, known: set[str]) -> list[Import]:
    """Every pnpgen import of one module, at any depth, except TYPE_CHECKING ones."""
    found: list[Import] = []
    is_package = path.name == "__init__.py"

    def target(name: str) -> str | None:
        return name if name == "pnpgen" or name.startswith("pnpgen.") else None

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child, in_function)
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            in_function = True
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (name := target(alias.name)) is not None:
                    found.append(Import(module, name, node.lineno, in_function))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, one level up per extra dot
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            if target(base) is not None:
                for alias in node.names:  # `from pkg import submodule` imports the submodule
                    sub = f"{base}.{alias.name}"
                    found.append(Import(module, sub if sub in known else base, node.lineno, in_function))
        for child in ast.iter_child_nodes(node):
            visit(child, in_function)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return found


def all_imports() -> list[Import]:
    files = module_files()
    known = set(files)
    found = [imp for module, path in files.items() for imp in imports_of(module, path, known)]
    return list(dict.fromkeys(found))  # `from x import a, b` is one import of x


def unit(module: str) -> str:
    return ".".join(module.split(".")[:2])


def layer_problems(imports: list[Import]) -> list[str]:
    problems = []
    for module in sorted({unit(m) for m in module_files()} - set(LAYER_OF)):
        problems.append(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    for imp in imports:
        source, target = unit(imp.module), unit(imp.target)
        if source == target or source not in LAYER_OF or target not in LAYER_OF:
            continue
        if (source, target) in REFUSED:
            problems.append(f"refused import ({REFUSED[source, target]}): {imp}")
        elif LAYER_OF[target] > LAYER_OF[source]:
            problems.append(f"upward import: {imp}")
        elif LAYER_OF[target] == LAYER_OF[source]:
            problems.append(f"sibling import (same layer): {imp}")
    return problems


def _cycles(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(nodes):
        if node not in index:
            connect(node)
    return found


def cycle_problems(imports: list[Import]) -> list[str]:
    """Cycles between the parts of each package, each with the imports that close it."""
    files = module_files()
    packages = [m for m, path in files.items() if path.name == "__init__.py"]
    problems = []
    for package in packages:
        def part(module: str, package: str = package) -> str | None:
            if module == package:
                return f"{package} (__init__)"
            if module.startswith(package + "."):
                return f"{package}.{module[len(package) + 1:].split('.')[0]}"
            return None

        edges: dict[str, set[str]] = defaultdict(set)
        by_edge: dict[tuple[str, str], list[Import]] = defaultdict(list)
        for imp in imports:
            a, b = part(imp.module), part(imp.target)
            if a is not None and b is not None and a != b:
                edges[a].add(b)
                by_edge[a, b].append(imp)
        nodes = {p for m in files if (p := part(m)) is not None}
        for component in _cycles(nodes, edges):
            inside = set(component)
            lines = [f"  {imp}" for a in component for b in sorted(edges[a] & inside) for imp in by_edge[a, b]]
            problems.append(f"import cycle in {package}: {' <-> '.join(component)}\n" + "\n".join(lines))
    return problems


def test_the_layer_table_names_only_real_units() -> None:
    units = {unit(m) for m in module_files()}
    assert set(LAYER_OF) <= units, f"LAYERS names units that do not exist: {sorted(set(LAYER_OF) - units)}"


def test_imports_point_down_the_layers() -> None:
    problems = layer_problems(all_imports())
    assert not problems, "imports against the layers (tests/test_layers.py LAYERS):\n" + "\n".join(problems)


def test_no_import_cycles() -> None:
    problems = cycle_problems(all_imports())
    assert not problems, "\n".join(problems)


def test_the_checker_sees_hidden_and_relative_imports(tmp_path: Path) -> None:
    """The scan itself: function-level and relative imports count, TYPE_CHECKING ones do not."""
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from pnpgen.errors import PnpgenError\n"
        "if TYPE_CHECKING:\n"
        "    from pnpgen.cli import app\n"
        "def f():\n"
        "    from pnpgen import build\n"
        "    from ..content import game\n"
    )
    known = {"pnpgen.build", "pnpgen.errors", "pnpgen.cli", "pnpgen.content.game"}
    found = imports_of("pnpgen.render.mod", source, known)
    assert [(i.target, i.in_function) for i in found] == [
        ("pnpgen.errors", False), ("pnpgen.build", True), ("pnpgen.content.game", True)]
    problems = layer_problems(found)
    assert problems == [f"upward import: {found[1]}"]
    assert "pnpgen.render.mod -> pnpgen.build" in problems[0]
