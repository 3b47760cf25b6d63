"""`pnpgen referee` and `pnpgen list` skip Typer's parsing when their options are plainly
well formed (start-up speed). The shortcut must mean exactly what Typer means: the same
output and exit code for every call it takes, and Typer for every call it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen import cli
from tests.conftest import ROOT, CliRun

CONTENT = str(ROOT / "content")


def _state(tmp_path: Path) -> str:
    path = tmp_path / "state.yaml"
    path.write_text("scores: [10, 20]\nturn: 1\nphase: choose\n", encoding="utf-8")
    return str(path)


CALLS = [
    ["list", "--content", CONTENT],
    ["list", "--json", "--content", CONTENT],
    ["referee", "burning-desire", "--example-state", "--content", CONTENT],
    ["referee", "burning-desire", "--example-state", "--json", "--content", CONTENT],
    ["referee", "fast-alone/no-gaps-a", "--example-state", "--content", CONTENT],
    ["referee", "fast-alone/no-gap-a", "--example-state", "--content", CONTENT],  # did-you-mean, exit 2
    ["referee", "burning-desire", "--state", "STATE", "--legal", "--content", CONTENT],
    ["referee", "burning-desire", "--state", "STATE", "--move", "nonsense", "--content", CONTENT],
    ["referee", "burning-desire", "--state", str(ROOT / "missing.yaml"), "--legal", "--content", CONTENT],
    ["referee", "dungeon-war", "--odds", "1D vs 1D", "--content", CONTENT],
    ["referee", "burning-desire", "--odds", "1D vs 1D", "--content", CONTENT],  # no odds in this game: exit 2
]


@pytest.mark.parametrize("call", CALLS, ids=lambda call: " ".join(a for a in call if a != CONTENT)[:60])
def test_the_shortcut_answers_as_typer_does(call: list[str], run_pnpgen: CliRun, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    args = [_state(tmp_path) if a == "STATE" else a for a in call]
    assert cli._direct_call(args) is not None  # the shortcut takes this call
    direct = run_pnpgen(*args)
    monkeypatch.setattr(cli, "_direct_call", lambda _args: None)  # the same call, parsed by Typer
    typer = run_pnpgen(*args)
    assert direct == typer
    assert direct[0] in (0, 1, 2)


@pytest.mark.parametrize("args", [
    ["referee", "burning-desire", "--help"],
    ["referee", "burning-desire", "--state=x.yaml"],
    ["referee", "burning-desire", "--json", "--json"],
    ["referee", "burning-desire", "--move", "-1"],
    ["referee", "burning-desire", "--odds"],
    ["referee"],
    ["list", "extra"],
    ["simulate", "burning-desire"],
])
def test_anything_else_goes_through_typer(args: list[str]) -> None:
    assert cli._direct_call(args) is None


@pytest.mark.parametrize("command", sorted(cli._DIRECT))
def test_the_shortcut_reads_the_options_typer_declares(command: str) -> None:
    """The shortcut's options come from the command function's signature (pnpgen.commands);
    the Typer app declares the same names, the same flags and the same arguments."""
    import typer.main

    from pnpgen import commands
    from pnpgen.app import app

    declared = typer.main.get_command(app).commands[command].params  # type: ignore[attr-defined]
    positionals, options = cli._options(getattr(commands, cli._DIRECT[command]))
    assert positionals == sum(p.param_type_name == "argument" for p in declared)
    assert {flag: (name, kind is None) for flag, (name, kind) in options.items()} == \
        {p.opts[0]: (p.name, p.is_flag) for p in declared if p.param_type_name == "option"}


def test_a_plain_call_starts_without_typer_rich_or_pyyaml(tmp_path: Path) -> None:
    """What start-up leaves out: Typer (and pydantic) for plain calls; rich for the referee;
    PyYAML once the game's files are parsed (pnpgen's cache)."""
    import subprocess
    import sys

    state = _state(tmp_path)
    code = ("import sys; from pnpgen.cli import main\n"
            "try: main()\nexcept SystemExit: pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'click', 'pydantic', 'rich', 'yaml'}),"
            " file=sys.stderr)")
    env = {"PNPGEN_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    calls = {("referee", "burning-desire", "--state", state, "--legal"): "[]",
             ("referee", "burning-desire", "--state", state, "--move", "nonsense"): "[]",
             ("list",): "['rich']"}
    for args, loaded in calls.items():
        for _ in range(2):  # the first run parses the files, the second reads them back
            done = subprocess.run([sys.executable, "-c", code, *args, "--content", CONTENT], capture_output=True,
                                  text=True, env=env, check=False)
        assert done.stderr.splitlines()[-1] == loaded, (args, done.stderr)


def test_the_verdict_word_is_coloured_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from pnpgen import commands

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    commands._verdict("LEGAL", "green", "score 1")
    assert capsys.readouterr().out == "LEGAL score 1\n"  # captured: not a terminal
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    commands._verdict("ILLEGAL", "red", "keep 7")
    assert capsys.readouterr().out == "\x1b[31mILLEGAL\x1b[0m keep 7\n"
    monkeypatch.setenv("NO_COLOR", "1")
    commands._verdict("ILLEGAL", "red", "keep 7")
    assert capsys.readouterr().out == "ILLEGAL keep 7\n"
