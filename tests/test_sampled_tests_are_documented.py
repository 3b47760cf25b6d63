"""Every test that samples in the everyday run (tests/sampling.py) is named in docs/testing.md,
so what `nox -s full` adds is never a surprise."""

from __future__ import annotations

import ast

from tests.conftest import ROOT


def sampled_tests() -> set[str]:
    """`file::test` for each test function whose decorators or body call sample() or examples(),
    or that uses a module-level settings object built with them."""
    found: set[str] = set()
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.asname or alias.name for node in tree.body
                    if isinstance(node, ast.ImportFrom) and node.module == "tests.sampling" for alias in node.names}
        if not imported:
            continue

        def _samples(node: ast.AST, imported: set[str] = imported) -> bool:
            return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in imported
                       for n in ast.walk(node))

        sampled_names = {target.id for node in tree.body if isinstance(node, ast.Assign) and _samples(node.value)
                         for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and (
                    any(_samples(d) or _uses(d, sampled_names) for d in node.decorator_list) or _samples(node)
                    or any(_uses(d, sampled_names) for inner in ast.walk(node) if isinstance(inner, ast.FunctionDef)
                           for d in inner.decorator_list)):
                found.add(f"{path.name}::{node.name}")
    return found


def _uses(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def test_every_sampled_test_is_named_in_the_testing_docs() -> None:
    documented = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    sampled = sampled_tests()
    assert {"test_safety.py::test_random_content_mutations_never_crash_or_hang",
            "test_referee_properties.py::test_random_states_and_moves_never_crash_the_referee"} <= sampled
    assert sorted(name for name in sampled if f"`{name}`" not in documented) == []
