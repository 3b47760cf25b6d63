"""Sessions: tests, lint, types, content validation, build and benchmarks."""

import nox

nox.options.sessions = ["tests", "lint"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite (what CI runs), on every core."""
    session.install(".[test]")
    session.run("pytest", "-n", "auto", "--dist", "loadfile", *session.posargs)


@nox.session
def full(session: nox.Session) -> None:
    """The test suite with every item of the long scenario lists the everyday run samples
    (tests/sampling.py, docs/testing.md)."""
    session.install(".[test]")
    session.run("pytest", "-n", "auto", "--dist", "loadfile", *session.posargs, env={"PNPGEN_FULL_TESTS": "1"})


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff, mypy, and the layers: imports point down the pipeline, no cycles (tests/test_layers.py)."""
    session.install("ruff", "mypy", "types-PyYAML", "pytest", ".")
    session.run("ruff", "check", "pnpgen", "tests", "examples", "noxfile.py")
    session.run("mypy", "pnpgen")
    session.run("pytest", "tests/test_layers.py")


@nox.session
def content(session: nox.Session) -> None:
    """Validate every game in content/ (schema, examples, smoke simulation)."""
    session.install(".")
    session.run("pnpgen", "validate")


@nox.session
def build(session: nox.Session) -> None:
    session.install(".")
    session.run("pnpgen", "build")


@nox.session
def bench(session: nox.Session) -> None:
    """Speed figures, as ratios against baselines measured in the same run."""
    session.install(".[test]")  # the harness's toy games live in tests/
    session.run("python", "benchmarks/run.py", *session.posargs)


@nox.session
def playthroughs(session: nox.Session) -> None:
    """Thousands of checked random Dungeon War playthroughs at 2, 3 and 4 players (invariants,
    views, every end condition reached); posargs replace the defaults."""
    session.install(".")
    session.run("python", "benchmarks/playthroughs.py", *(session.posargs or ["dungeon-war", "--games", "1000",
                                                                             "--players", "2,3,4", "--workers", "2"]))
