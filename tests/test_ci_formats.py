"""`pnpgen validate --format github|junit|sarif`, `--files` and `pnpgen new`'s CI files, on a
fixture game with three problems (tests/fixtures/ci): each format names the three problems
at their file, line and column, relative to the repository, and passes its format's check
(GitHub's workflow-command syntax, a JUnit structural check, the SARIF 2.1.0 JSON Schema)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
import yaml

from pnpgen import ci_report, scaffold
from tests.conftest import ROOT, CliRun

FIXTURE = ROOT / "tests" / "fixtures" / "ci"
CONTENT = FIXTURE / "content"
GAME = "tests/fixtures/ci/content/three-problems"
EXPECTED = {  # (file, line, column, rule id)
    (f"{GAME}/cards.csv", 4, None, "components"),
    (f"{GAME}/components.yaml", 22, 12, "components"),
    (f"{GAME}/rulebook.yaml", 2, 41, "rulebook"),
}

# GitHub's workflow command: `::error file=F,line=L,col=C,title=T::message`, properties
# escaped (% CR LF : ,) and the message escaped (% CR LF).
COMMAND = re.compile(r"^::error (?P<props>[^:\r\n]*)::(?P<message>[^\r\n]*)$")
PROPERTY = re.compile(r"^(?P<key>file|line|endLine|col|endColumn|title)=(?P<value>[^,:]*)$")


def github_annotations(stdout: str) -> list[dict[str, str]]:
    """Every ::error line, checked against the command syntax, as its properties and message."""
    found = []
    for line in stdout.splitlines():
        if not line.startswith("::"):
            continue
        match = COMMAND.match(line)
        assert match, f"not a GitHub workflow command: {line!r}"
        props: dict[str, str] = {}
        for part in match.group("props").split(","):
            prop = PROPERTY.match(part)
            assert prop and prop.group("key") not in props, f"bad property {part!r} in {line!r}"
            props[prop.group("key")] = prop.group("value").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
        for key in ("line", "col"):
            assert key not in props or props[key].isdigit(), line
        found.append({**props, "message": match.group("message")})
    return found


@pytest.fixture(scope="module")
def checks() -> list[dict[str, object]]:
    """The fixture's checks as `--json` lists them (one run for the module)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "pnpgen", "validate", "--content", str(CONTENT), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    envelope = json.loads(done.stdout)
    return [{"game": game["id"], **check} for game in envelope["games"] for check in game["checks"]]


def test_github_format_is_one_error_command_per_problem_at_its_line(run_pnpgen: CliRun) -> None:
    code, out, err = run_pnpgen("validate", "--content", str(CONTENT), "--format", "github")
    assert code == 1, err
    annotations = github_annotations(out)
    assert len(annotations) == 3 == len(out.split("::error ")) - 1
    got = {(a["file"], int(a["line"]), int(a["col"]) if "col" in a else None,
            a["title"].split()[1]) for a in annotations}
    assert got == EXPECTED
    for annotation in annotations:  # the message reads as the plain line, its place relative to the repository
        assert annotation["message"].startswith(f"{annotation['file']}:{annotation['line']}")
        assert (ROOT / annotation["file"]).is_file()
    assert "quantity: expected a whole number of copies, found 'lots'" in out
    assert "FAIL three-problems: components" in out and "2 check(s) failed" in out


def test_junit_report_has_one_testcase_per_check_and_game(run_pnpgen: CliRun, tmp_path: Path,
                                                          checks: list[dict[str, object]]) -> None:
    report = tmp_path / "reports" / "pnpgen.xml"
    code, out, err = run_pnpgen("validate", "--content", str(CONTENT), "--format", "junit", "--output", str(report))
    assert code == 1, err
    assert "FAIL three-problems: components" in out  # the usual lines, besides the file
    root = ElementTree.parse(report).getroot()
    # structure (the JUnit XML that Jenkins, GitLab and pytest write)
    assert root.tag == "testsuites"
    totals = {"tests": 0, "failures": 0, "errors": 0}
    cases = []
    for suite in root:
        assert suite.tag == "testsuite" and suite.get("name")
        float(suite.get("time", "x"))
        suite_cases = list(suite)
        assert all(c.tag == "testcase" for c in suite_cases)
        counts = {"tests": len(suite_cases),
                  "failures": sum(c.find("failure") is not None for c in suite_cases),
                  "errors": sum(c.find("error") is not None for c in suite_cases)}
        for key, value in counts.items():
            assert int(suite.get(key, "-1")) == value
            totals[key] += value
        assert int(suite.get("skipped", "-1")) == 0
        for case in suite_cases:
            assert case.get("name") and case.get("classname")
            assert {child.tag for child in case} <= {"failure", "error", "skipped", "system-out", "system-err"}
            assert len([child for child in case if child.tag in ("failure", "error")]) <= 1
            for failure in case.iter("failure"):
                assert failure.get("message") and failure.get("type") and failure.text
            cases.append((suite.get("name"), case))
    for key, value in totals.items():
        assert int(root.get(key, "-1")) == value
    # one test case per check and game, failing exactly when the check failed
    assert [(game, case.get("name")) for game, case in cases] == [(c["game"], c["name"]) for c in checks]
    failed = {case.get("name"): case.find("failure") for _, case in cases if case.find("failure") is not None}
    assert set(failed) == {"components", "rulebook text and references"}
    components = failed["components"]
    assert components is not None and components.get("type") == "components" and components.text
    assert components.text.splitlines() == [
        f"{GAME}/cards.csv:4: quantity: expected a whole number of copies, found 'lots'",
        f"{GAME}/components.yaml:22:12: at: cell [9, 6] is outside the 8x6 grid"]


def sarif_schema() -> dict[str, object]:
    schema: dict[str, object] = json.loads((FIXTURE / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    return schema


def test_sarif_report_passes_the_sarif_schema_with_a_rule_per_kind(run_pnpgen: CliRun, tmp_path: Path) -> None:
    report = tmp_path / "pnpgen.sarif"
    code, _, err = run_pnpgen("validate", "--content", str(CONTENT), "--format", "sarif", "-o", str(report))
    assert code == 1, err
    log = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert len({rule["id"] for rule in rules}) == len(rules)
    got = set()
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "SRCROOT"
        region = location["region"]
        got.add((location["artifactLocation"]["uri"], region["startLine"], region.get("startColumn"),
                 result["ruleId"]))
    assert got == EXPECTED
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == ROOT.as_uri() + "/"
    assert run["invocations"] == [{"executionSuccessful": True, "exitCode": 1}]
    # a broken SARIF log fails the same schema: the check can fail
    del log["runs"][0]["tool"]["driver"]["name"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(sarif_schema()).validate(log)


def test_github_annotations_and_a_report_file_in_one_run(run_pnpgen: CliRun, tmp_path: Path) -> None:
    report = tmp_path / "pnpgen.sarif"
    code, out, _ = run_pnpgen("validate", "--content", str(CONTENT), "--format", "github,sarif", "-o", str(report))
    assert code == 1 and len(github_annotations(out)) == 3
    log = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    assert len(log["runs"][0]["results"]) == 3
    for formats, message in (("github,sarif", "give --output FILE for the sarif report"),
                             ("junit,sarif", "one report file at a time")):
        code, out, err = run_pnpgen("validate", "--content", str(CONTENT), "--format", formats)
        assert code == 2 and message in err and not out, err


def test_a_report_to_stdout_is_the_report_alone(run_pnpgen: CliRun) -> None:
    code, out, _ = run_pnpgen("validate", "--content", str(CONTENT), "--format", "sarif")
    assert code == 1 and len(json.loads(out)["runs"][0]["results"]) == 3
    code, out, _ = run_pnpgen("validate", "--content", str(CONTENT), "--format", "junit")
    assert code == 1 and ElementTree.fromstring(out.encode()).get("failures") == "2"


def test_bad_input_is_reported_in_every_format_with_exit_2(run_pnpgen: CliRun, tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    (content / ".git").mkdir()  # the repository: paths are relative to it
    game = content / "three-problems" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("players: {min: 2, max: 4}", "players: {min: 2"),
                    encoding="utf-8")
    code, out, err = run_pnpgen("validate", "--content", str(content), "--format", "github")
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err
    (annotation,) = github_annotations(out)
    assert annotation["file"] == "three-problems/game.yaml" and annotation["line"].isdigit()
    assert annotation["title"] == "pnpgen content (three-problems)"
    report = tmp_path / "out.sarif"
    code, _, _ = run_pnpgen("validate", "--content", str(content), "--format", "sarif", "--output", str(report))
    assert code == 2
    log = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(sarif_schema()).validate(log)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "content" and log["runs"][0]["invocations"][0]["exitCode"] == 2
    code, out, _ = run_pnpgen("validate", "--content", str(content), "--format", "junit")
    assert code == 2 and ElementTree.fromstring(out.encode()).get("errors") == "1"


def test_a_problem_naming_no_file_is_put_on_its_game_yaml(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = ci_report.Report(tmp_path)
    (problem,) = report.add("my-game", "smoke test my-game", False, "", ["3 game(s) hit the step cap of 500"])
    assert problem.rule == "smoke-test" and problem.line is None
    assert ci_report.github_line(problem) == ("::error file=my-game/game.yaml,title=pnpgen smoke-test (my-game)"
                                              "::3 game(s) hit the step cap of 500")
    jsonschema.Draft4Validator(sarif_schema()).validate(ci_report.sarif_log(report))
    (added,) = report.add("my-game", "colour contrast my-game", False, "", ["a.yaml:1: text 1.2:1 on its fill"])
    assert added.rule == "colour-contrast"  # a kind of check not listed gets its own rule id
    assert "colour-contrast" in {r["id"] for r in ci_report.sarif_log(report)["runs"][0]["tool"]["driver"]["rules"]}
    assert "%3A" in ci_report.github_line(ci_report.Problem("g", "c", "r", "t", "a:b,c.yaml", 1, None, True))


def test_files_mode_validates_only_the_games_holding_changed_files(run_pnpgen: CliRun, tmp_path: Path) -> None:
    content = tmp_path / "content"
    shutil.copytree(CONTENT / "three-problems", content / "broken")
    shutil.copytree(CONTENT / "three-problems", content / "fine")
    fine = content / "fine"
    for name in ("broken", "fine"):
        main = content / name / "game.yaml"
        main.write_text(main.read_text(encoding="utf-8").replace("id: three-problems", f"id: {name}"),
                        encoding="utf-8")
    (fine / "cards.csv").write_text((fine / "cards.csv").read_text(encoding="utf-8").replace(",lots", ",2"),
                                    encoding="utf-8")
    for name in ("components.yaml", "rulebook.yaml"):
        text = (fine / name).read_text(encoding="utf-8")
        (fine / name).write_text(text.replace("[9, 6]", "[8, 6]").replace("{{ nope }}", "us"), encoding="utf-8")
    (tmp_path / "README.md").write_text("notes\n", encoding="utf-8")
    assert ci_report.games_of_files(content, [str(fine / "cards.csv"), str(tmp_path / "README.md"),
                                              str(content / "broken" / "game.yaml")]) == ["broken", "fine"]
    assert ci_report.games_of_files(content, [str(tmp_path / "README.md")]) == []
    golden = tmp_path / "tests" / "golden"
    assert ci_report.games_of_files(content, [str(golden / "fine.yaml")], golden) == ["fine"]

    code, out, err = run_pnpgen("validate", "--files", "--content", str(content), str(fine / "cards.csv"),
                                str(tmp_path / "README.md"))
    assert code == 0 and "fine: components" in out and "broken" not in out, out + err
    assert "--quick" in err and "SKIP=pnpgen-validate" in err  # how to skip the slow checks locally
    code, out, _ = run_pnpgen("validate", "--files", "--content", str(content), str(content / "broken" / "cards.csv"))
    assert code == 1 and "broken/cards.csv:4: quantity" in out and "fine:" not in out
    code, out, _ = run_pnpgen("validate", "--files", "--content", str(content), str(tmp_path / "README.md"))
    assert code == 0 and "no game folder" in out


def test_format_options_are_checked(run_pnpgen: CliRun) -> None:
    for args, message in ((["--format", "xml"], "--format xml: expected one of text, github, junit, sarif"),
                          (["--format", "github", "--json"], "--json and --format github both write stdout"),
                          (["--output", "x.xml"], "--output is for --format junit or sarif"),
                          (["--format", "junit", "--output", str(CONTENT / "r.xml")], "inside the content folder")):
        code, out, err = run_pnpgen("validate", "--content", str(CONTENT), *args)
        assert code == 2 and message in out + err and "Traceback" not in out + err, out + err  # --json: on stdout
    assert not (CONTENT / "r.xml").exists()


# --- pnpgen new: the CI files ----------------------------------------------------------------


def test_new_writes_the_ci_files_into_the_repository(run_pnpgen: CliRun, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    code, out, err = run_pnpgen("new", "my-game", "--content", str(repo / "games" / "content"))
    assert code == 0, err
    config = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (hook,) = config["repos"][0]["hooks"]
    assert hook["id"] == "pnpgen-validate"
    assert "games/content" in json.dumps(hook)  # the content folder, relative to the repository
    workflow = yaml.safe_load((repo / ".github" / "workflows" / "pnpgen.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["validate"]["steps"]
    assert any("--format github" in step.get("run", "") for step in steps) or any(
        "pnpgen" in step.get("uses", "") for step in steps)
    assert f"wrote {repo / '.pre-commit-config.yaml'}" in out and "pre-commit install" in out
    # a second game keeps them; --no-ci writes none
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    code, out, _ = run_pnpgen("new", "other-game", "--content", str(repo / "games" / "content"))
    assert code == 0 and (repo / ".pre-commit-config.yaml").read_text(encoding="utf-8") == "repos: []\n"
    code, out, _ = run_pnpgen("new", "third-game", "--no-ci", "--content", str(tmp_path / "plain" / "content"))
    assert code == 0 and not (tmp_path / "plain" / ".pre-commit-config.yaml").exists()
    assert not (tmp_path / "plain" / ".github").exists()


def test_ci_files_follow_where_pnpgen_came_from(tmp_path: Path) -> None:
    rev = "a" * 40
    on_github = scaffold.Source("https://github.com/someone/pnpgen", rev,
                                f"pnpgen @ git+https://github.com/someone/pnpgen@{rev}", f"someone/pnpgen@{rev}")
    (tmp_path / "a" / "content").mkdir(parents=True)
    scaffold.ci_files(tmp_path / "a" / "content", source=on_github)
    config = yaml.safe_load((tmp_path / "a" / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert config["repos"][0]["repo"] == on_github.repo and config["repos"][0]["rev"] == on_github.rev
    workflow = yaml.safe_load((tmp_path / "a" / ".github" / "workflows" / "pnpgen.yml").read_text(encoding="utf-8"))
    action = workflow["jobs"]["validate"]["steps"][1]
    assert action["uses"] == on_github.action and action["with"]["content"] == "content"

    unknown = scaffold.Source(None, None, "pnpgen==0.1.0", None)  # a wheel: the pnpgen on PATH
    (tmp_path / "b" / "content").mkdir(parents=True)
    scaffold.ci_files(tmp_path / "b" / "content", source=unknown)
    config = yaml.safe_load((tmp_path / "b" / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (hook,) = config["repos"][0]["hooks"]
    assert config["repos"][0]["repo"] == "local" and hook["language"] == "system"
    assert hook["entry"] == "pnpgen validate --files --content content"
    text = (tmp_path / "b" / ".github" / "workflows" / "pnpgen.yml").read_text(encoding="utf-8")
    assert 'pip install "pnpgen==0.1.0"' in text and "say where CI gets it" in text

    # a played game: its rules package is installed beside pnpgen in CI
    (tmp_path / "c" / "content").mkdir(parents=True)
    scaffold.ci_files(tmp_path / "c" / "content", tmp_path / "c" / "dice-rules", source=on_github)
    text = (tmp_path / "c" / ".github" / "workflows" / "pnpgen.yml").read_text(encoding="utf-8")
    assert f'pip install "{on_github.pip}" ./dice-rules' in text
    config = yaml.safe_load((tmp_path / "c" / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert config["repos"][0]["repo"] == "local"


def check(tool: str, *args: str) -> int:
    """check-jsonschema's or pre-commit's command line, run in this process: its exit code."""
    import os

    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        if tool == "pre_commit":
            from pre_commit.main import main as pre_commit

            return pre_commit(list(args))
        from check_jsonschema.cli.main_command import main as check_jsonschema

        return int(check_jsonschema.main(list(args), standalone_mode=False) or 0)  # click: the exit code
    finally:
        os.chdir(cwd)


def test_ci_files_pass_the_schemas_of_github_gitlab_and_pre_commit(tmp_path: Path) -> None:
    """action.yml, docs/gitlab-ci.yml and every variant of what `pnpgen new` writes, against
    the schemas GitHub's and GitLab's editors use (as check-jsonschema vendors them) and
    pre-commit's own checks of a hooks file and a config."""
    rev = "b" * 40
    sources = {"github": scaffold.Source("https://github.com/someone/pnpgen", rev, "pnpgen @ git+https://x/y",
                                         f"someone/pnpgen@{rev}"),
               "wheel": scaffold.Source(None, None, "pnpgen==0.1.0", None),
               "folder": scaffold.Source(str(ROOT), rev, "pnpgen==0.1.0", None)}
    for name, source in sources.items():
        (tmp_path / name / "content").mkdir(parents=True)
        scaffold.ci_files(tmp_path / name / "content", source=source)
    (tmp_path / "played" / "content").mkdir(parents=True)
    scaffold.ci_files(tmp_path / "played" / "content", tmp_path / "played" / "dice-rules", source=sources["github"])
    workflows = sorted(str(p) for p in tmp_path.glob("*/.github/workflows/pnpgen.yml"))
    configs = sorted(str(p) for p in tmp_path.glob("*/.pre-commit-config.yaml"))
    assert len(workflows) == len(configs) == 4
    for args in (["check_jsonschema", "--builtin-schema", "vendor.github-actions", "action.yml"],
                 ["check_jsonschema", "--builtin-schema", "vendor.github-workflows", *workflows],
                 ["check_jsonschema", "--builtin-schema", "vendor.gitlab-ci", "docs/gitlab-ci.yml"],
                 ["pre_commit", "validate-manifest", ".pre-commit-hooks.yaml"],
                 ["pre_commit", "validate-config", *configs]):
        assert check(*args) == 0, args
    # the checks can fail: a workflow job without runs-on, a hook without entry
    broken = tmp_path / "broken.yml"
    broken.write_text(Path(workflows[0]).read_text(encoding="utf-8").replace("runs-on: ubuntu-latest", ""),
                      encoding="utf-8")
    assert check("check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(broken)) != 0
    hooks = tmp_path / "hooks.yaml"
    hooks.write_text((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8").replace("  entry:", "  x-entry:"),
                     encoding="utf-8")
    assert check("pre_commit", "validate-manifest", str(hooks)) != 0


def test_quick_leaves_out_the_checks_that_play_games(run_pnpgen: CliRun) -> None:
    code, out, err = run_pnpgen("validate", "routou-dice", "--quick", "--json")
    assert code == 0, out + err
    names = [check["name"] for check in json.loads(out)["games"][0]["checks"]]
    assert "components" in names and "example six-in-a-row" in names and "golden playthrough routou-dice" in names
    assert not [n for n in names if n.split()[0] in ("verification", "determinism", "smoke", "end")], names
