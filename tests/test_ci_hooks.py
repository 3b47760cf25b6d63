"""pnpgen in a designer's own CI, run for real: `pre-commit try-repo` of this repository on a
scratch game repository, the pre-commit hook `pnpgen new` writes, the GitHub Action's
`run:` steps in order in a fresh virtual environment (GitHub itself cannot be reached here),
and the GitLab template's script lines in that environment.

Each scenario installs this repository once (try-repo and the new game's hook build the hook's
environment, the Action runs its install step; dependencies come from pip's cache): three
installs, most of these tests' time, about 11 s of CPU each with pip's byte-compiling off. The
three scenarios run at once (a module fixture)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnpgen.scaffold import new_game
from tests.conftest import ROOT

BROKEN = ("dash,Dash,ダッシュ,3,Move 3 spaces.,3マス進む。,#ffb703,2",
          "dash,Dash,ダッシュ,3,Move 3 spaces.,3マス進む。,#ffb703,lots")  # cards.csv line 4
OFFLINE = ("Could not find a version", "NewConnectionError", "Network is unreachable", "Temporary failure in name")


def environment(home: Path, path: list[Path] | None = None) -> dict[str, str]:
    """This process's environment for a child: its own HOME (so ~/.cache/pnpgen is the test's),
    pip's cache kept (installs read wheels from it), no PNPGEN_* or PYTHONPATH settings."""
    pip_cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True,
                               check=False).stdout.strip()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PNPGEN_", "PRE_COMMIT", "VIRTUAL_ENV", "GIT_")) and k != "PYTHONPATH"}
    # PIP_NO_COMPILE=0 is pip's --no-compile (its "no-" options read the value inverted): the
    # installed packages are not byte-compiled, a third of an install's CPU, and nothing here needs it
    env.update(HOME=str(home), PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_COMPILE="0", GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    if pip_cache:
        env["PIP_CACHE_DIR"] = pip_cache
    if path is not None:
        env["PATH"] = os.pathsep.join([*(str(p) for p in path), env.get("PATH", "")])
    return env


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def git_repo(folder: Path, env: dict[str, str]) -> None:
    """A git repository whose HEAD commits everything in `folder`."""
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "a game"]):
        done = run(["git", *args], folder, env)
        assert done.returncode == 0, done.stderr


def pre_commit(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    done = run([sys.executable, "-m", "pre_commit", *args], cwd, env)
    text = done.stdout + done.stderr
    if done.returncode == 3 and any(sign in text for sign in OFFLINE):  # pre-commit's own error: pip offline
        pytest.skip(f"pre-commit could not build the hook's environment offline: {text[-300:]}")
    return done.returncode, text


def head_has_the_hook() -> None:
    """try-repo and `pnpgen new`'s config use this repository's HEAD commit (try-repo adds
    uncommitted changes of tracked files): its hooks file must be committed."""
    done = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-t", "HEAD:.pre-commit-hooks.yaml"],
                          capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "blob", "commit .pre-commit-hooks.yaml first"


def try_repo_runs(base: Path) -> tuple[int, str]:
    """`pre-commit try-repo` of this repository on a scratch game repository, with cards.csv
    broken on line 4. (try-repo builds a fresh store, so an install, each run: the hook passing
    on the fixed file is the new game's own hook run below, the same hook from the same
    manifest.)"""
    head_has_the_hook()
    repo = base / "game"
    new_game(repo / "content", "my-game", ci=False)
    (repo / "README.md").write_text("My game\n", encoding="utf-8")
    env = environment(base / "home")
    git_repo(repo, env)
    cards = repo / "content" / "my-game" / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    assert text.splitlines()[3] == BROKEN[0]
    cards.write_text(text.replace(BROKEN[0], BROKEN[1]), encoding="utf-8")
    return pre_commit(["try-repo", str(ROOT), "pnpgen-validate", "--files", "content/my-game/cards.csv",
                       "README.md"], repo, env)


def own_hook_runs(base: Path) -> dict[str, Any]:
    """`pnpgen new` in an empty repository, then `pre-commit run` of the config it wrote: on
    every file, then on cards.csv broken on line 4."""
    head_has_the_hook()
    repo = base / "game"
    repo.mkdir()
    env = environment(base / "home", [Path(sys.executable).parent])  # a system hook finds this pnpgen
    done = run([sys.executable, "-m", "pnpgen", "new", "my-game"], repo, env)
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    git_repo(repo, env)
    env["PRE_COMMIT_HOME"] = str(base / "pre-commit")
    passed = pre_commit(["run", "--all-files"], repo, env)
    cards = repo / "content" / "my-game" / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(BROKEN[0], BROKEN[1]), encoding="utf-8")
    return {"config": config, "all": passed, "broken": pre_commit(["run", "--files", "content/my-game/cards.csv"],
                                                                   repo, env)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[Any]]]:
    """The three slow scenarios at once (each mostly waits for its own `pip install`)."""
    with ThreadPoolExecutor(3) as pool:
        yield {"try-repo": pool.submit(try_repo_runs, tmp_path_factory.mktemp("try-repo")),
               "own-hook": pool.submit(own_hook_runs, tmp_path_factory.mktemp("own-hook")),
               "action": pool.submit(action_runs, tmp_path_factory.mktemp("action"))}


def test_try_repo_fails_on_a_broken_csv_naming_file_and_line(runs: dict[str, Future[Any]]) -> None:
    code, out = runs["try-repo"].result()
    assert code == 1, out
    assert re.search(r"pnpgen validate \(the games whose files changed\)\.+Failed", out), out
    assert "content/my-game/cards.csv:4: quantity: expected a whole number of copies, found 'lots'" in out
    assert "--quick" in out  # how to skip the slow checks locally


def test_the_new_game_passes_its_own_pre_commit_hook(runs: dict[str, Future[Any]]) -> None:
    result = runs["own-hook"].result()
    assert result["config"]["repos"][0]["hooks"][0]["id"] == "pnpgen-validate"
    code, out = result["all"]
    assert code == 0, out
    assert re.search(r"pnpgen validate \(the games whose files changed\)\.+Passed", out), out
    code, out = result["broken"]  # and it is a real check: the same hook fails on a broken CSV
    assert code == 1 and "content/my-game/cards.csv:4: quantity" in out, out


# --- the GitHub Action, step by step ----------------------------------------------------------


def action_checkout(folder: Path) -> Path:
    """This repository's tracked files as they are now, in `folder`: what GitHub checks out as
    the action's path (pip builds there, leaving build/lib behind, not in this repository)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        source = ROOT / name
        if not name or not (source.is_file() or source.is_symlink()):
            continue
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    return folder


class Runner:
    """Runs action.yml's steps as GitHub does: in order, `if:` evaluated, `${{ }}` filled in,
    each `run:` in `bash -eo pipefail` with GITHUB_OUTPUT; `uses:` steps are recorded (the
    fresh virtual environment stands for setup-python)."""

    def __init__(self, workspace: Path, env: dict[str, str], inputs: dict[str, str], path: Path = ROOT) -> None:
        self.action = yaml.safe_load((path / "action.yml").read_text(encoding="utf-8"))
        self.path = path  # the action's checkout
        self.inputs = {k: str(v.get("default", "")) for k, v in self.action["inputs"].items()} | inputs
        self.workspace, self.env = workspace, env
        self.outputs: dict[str, dict[str, str]] = {}
        self.ran: list[tuple[str, int, str]] = []  # (step, exit code, output)
        self.used: list[tuple[str, dict[str, str]]] = []

    def value(self, expression: str) -> str | bool:
        expression = expression.strip()
        compared = re.fullmatch(r"(.+?) (==|!=) '([^']*)'", expression)
        if compared:
            left = self.value(compared.group(1))
            return (left == compared.group(3)) == (compared.group(2) == "==")
        if match := re.fullmatch(r"inputs\.([\w-]+)", expression):
            return self.inputs[match.group(1)]
        if match := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
            return self.outputs.get(match.group(1), {}).get(match.group(2), "")
        known = {"github.action_path": str(self.path), "runner.os": "Linux"}
        assert expression in known, f"the test's runner does not know the expression {expression!r}"
        return known[expression]

    def expand_expressions(self, text: str) -> str:
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(self.value(m.group(1))), text)

    def run(self) -> bool:
        """Every step until one fails; whether all passed."""
        for index, step in enumerate(self.action["runs"]["steps"]):
            name = step.get("name") or step.get("uses")
            if "if" in step and self.value(step["if"]) is not True:
                continue
            if "uses" in step:
                given = step.get("with", {}).items()
                self.used.append((step["uses"], {k: self.expand_expressions(str(v)) for k, v in given}))
                continue
            assert step["shell"] == "bash"
            output = self.workspace.parent / f"github-output-{index}"
            output.write_text("", encoding="utf-8")
            env = {**self.env, "GITHUB_OUTPUT": str(output), "GITHUB_ACTION_PATH": str(self.path),
                   "GITHUB_WORKSPACE": str(self.workspace), "RUNNER_OS": "Linux",
                   **{k: self.expand_expressions(str(v)) for k, v in step.get("env", {}).items()}}
            script = self.workspace.parent / f"step-{index}.sh"
            script.write_text(self.expand_expressions(step["run"]), encoding="utf-8")
            done = run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], self.workspace, env)
            self.ran.append((name, done.returncode, done.stdout + done.stderr))
            if "id" in step:
                lines = output.read_text(encoding="utf-8").splitlines()
                self.outputs[step["id"]] = dict(line.split("=", 1) for line in lines if "=" in line)
            if done.returncode != 0:
                return False
        return True

    def step(self, name: str) -> tuple[int, str]:
        (found,) = [(code, out) for step, code, out in self.ran if step == name]
        return found


def action_runs(base: Path) -> dict[str, Any]:
    """The Action on a scratch game repository, from a fresh virtual environment with no
    pnpgen: every step with `build: "true"`; the cache key step again, on unchanged then on
    changed content; the steps after the install again with cards.csv broken on line 4."""
    workspace = base / "workspace"
    new_game(workspace / "content", "my-game", ci=False)
    venv = base / "venv"
    done = run([sys.executable, "-m", "venv", str(venv)], base, dict(os.environ))
    assert done.returncode == 0, done.stderr
    env = environment(base / "home", [venv / "bin"])
    assert not (venv / "bin" / "pnpgen").exists()
    checkout = action_checkout(base / "pnpgen")
    runner = Runner(workspace, env, {"build": "true", "sarif": "reports/pnpgen.sarif"}, checkout)
    result: dict[str, Any] = {"runner": runner, "passed": runner.run(), "workspace": workspace, "venv": venv,
                              "home": base / "home", "pdfs": sorted(p.name for p in (workspace / "build" / "my-game")
                                                                    .glob("*.pdf"))}
    if not result["passed"]:
        return result
    key_step = Runner(workspace, env, {}, checkout)
    key_step.action["runs"]["steps"] = [s for s in key_step.action["runs"]["steps"] if s.get("id") == "key"]
    key_step.run()
    result["same key"] = key_step.outputs["key"]["key"]
    cards = workspace / "content" / "my-game" / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("Move 1 space.", "Move one space."), encoding="utf-8")
    key_step.run()
    result["changed key"] = key_step.outputs["key"]["key"]

    cards.write_text(text.replace(BROKEN[0], BROKEN[1]), encoding="utf-8")
    shutil.rmtree(workspace / "build")
    (workspace / ".git").mkdir()  # the repository: annotation paths are relative to it
    broken = Runner(workspace, env, {"build": "true", "sarif": "pnpgen.sarif"}, checkout)
    broken.action["runs"]["steps"] = [s for s in broken.action["runs"]["steps"] if s.get("name") != "Install pnpgen"]
    result.update({"broken": broken, "broken passed": broken.run(), "built": (workspace / "build").exists()})
    return result


def test_the_action_installs_validates_caches_and_builds_in_order(runs: dict[str, Future[Any]]) -> None:
    result = runs["action"].result()
    runner: Runner = result["runner"]
    assert result["passed"], runner.ran
    assert [name for name, _, _ in runner.ran] == ["Install pnpgen", "Cache key from the content", "Validate",
                                                   "Build the PDFs"]
    assert (result["venv"] / "bin" / "pnpgen").exists()  # installed by the Action, into the fresh venv
    code, out = runner.step("Validate")
    assert code == 0 and "ok   my-game: components" in out and "all checks passed" in out
    sarif = json.loads((result["workspace"] / "reports" / "pnpgen.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"] == []  # the `sarif:` input's report
    # the cache: ~/.cache/pnpgen keyed by the content's hash, and filled by the run
    uses = dict(runner.used)
    assert set(uses) == {"actions/setup-python@v5", "actions/cache@v4", "actions/upload-artifact@v4"}
    assert uses["actions/setup-python@v5"] == {"python-version": "3.12"}
    key = uses["actions/cache@v4"]["key"]
    assert re.fullmatch(r"pnpgen-Linux-[0-9a-f]{64}", key) and uses["actions/cache@v4"]["path"] == "~/.cache/pnpgen"
    assert any((result["home"] / ".cache" / "pnpgen").rglob("*.pickle"))
    assert result["same key"] == key != result["changed key"]  # keyed by the content
    # the artifact: the built PDFs
    assert uses["actions/upload-artifact@v4"]["path"] == "build"
    assert {"cards-en.pdf", "cards-ja.pdf", "rulebook-en.pdf", "rulebook-ja.pdf", "board-en.pdf"} <= set(
        result["pdfs"])


def test_the_action_annotates_a_broken_csv_and_stops(runs: dict[str, Future[Any]]) -> None:
    result = runs["action"].result()
    runner: Runner = result["broken"]
    assert not result["broken passed"]
    code, out = runner.step("Validate")
    assert code == 1
    assert ("::error file=content/my-game/cards.csv,line=4,title=pnpgen components (my-game)::"
            "content/my-game/cards.csv:4: quantity: expected a whole number of copies, found 'lots'") in out
    assert [name for name, _, _ in runner.ran][-1] == "Validate" and not result["built"]  # GitHub stops there
    (found,) = json.loads((result["workspace"] / "pnpgen.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert found["ruleId"] == "components" and found["locations"][0]["physicalLocation"]["region"] == {"startLine": 4}


def test_the_gitlab_template_validates_with_a_junit_report(runs: dict[str, Future[Any]]) -> None:
    result = runs["action"].result()
    template = yaml.safe_load((ROOT / "docs" / "gitlab-ci.yml").read_text(encoding="utf-8"))
    job = template["pnpgen-validate"]
    assert job["extends"] == ".pnpgen" and job["artifacts"]["reports"]["junit"] == "pnpgen-junit.xml"
    workspace = result["workspace"]
    env = {**result["runner"].env, **{k: str(v).replace("$CI_PROJECT_DIR", str(workspace))
                                      for k, v in template["variables"].items()}}
    for line in job["script"]:  # pnpgen is installed already (the Action's venv): the job's own lines
        done = run(["bash", "-eo", "pipefail", "-c", line], workspace, env)
        assert done.returncode == 1, done.stdout + done.stderr  # the CSV is still broken
    report = (workspace / "pnpgen-junit.xml").read_text(encoding="utf-8")
    assert re.search(r'<testsuite name="my-game" tests="\d+" failures="1"', report)
    assert "content/my-game/cards.csv:4: quantity" in report
    assert any((workspace / ".cache" / "pnpgen").rglob("*.pickle"))  # PNPGEN_CACHE, the job's cache path
