"""`pnpgen validate --format github|junit|sarif`: validate's results as CI systems read them,
and `--files`: the games a list of changed files belongs to (the pre-commit hook).

- github: one `::error file=…,line=…,col=…,title=…::message` workflow command per problem,
  which GitHub shows beside the changed line;
- junit: JUnit XML, one test suite per game and one test case per check;
- sarif: SARIF 2.1.0, one result per problem, with a rule id for each kind of check.

Paths in every format are relative to the repository (the nearest folder above the content
folder holding `.git`, else the working folder), so CI finds the files it checked out.
A problem that names no file is put on its game's game.yaml, without a line.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from pnpgen import __version__
from pnpgen.commands import error_entry
from pnpgen.content.game import MAIN_FILE, game_folders
from pnpgen.errors import PnpgenError
from pnpgen.output import atomic_output
from pnpgen.scaffold import repository_root

FORMATS = ("text", "github", "junit", "sarif")
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

# Rule ids: the kind of check a problem comes from (a check's name starts with its kind).
RULES: dict[str, tuple[str, str]] = {  # name prefix: (rule id, what the rule checks)
    "schema and rules section": ("schema", "Content files follow the schema and the engine's rules section"),
    "components": ("components", "Decks, boards and sheets render: fields, CSV rows, text that fits, images"),
    "rulebook text and references": ("rulebook", "Rulebook text fills in and its references resolve"),
    "example": ("example", "A worked example replays as the rulebook states"),
    "verification": ("verification", "Checked random playthroughs keep the rules' invariants"),
    "determinism": ("determinism", "The same seed plays the same game"),
    "smoke test": ("smoke-test", "Seeded games with the game's bots end within the step cap"),
    "end conditions": ("end-conditions", "Every declared end condition can be reached"),
    "golden playthrough": ("golden", "The golden playthrough replays unchanged"),
}
CONTENT_RULE = ("content", "A content file can be read: YAML, CSV, limits (bad input, exit 2)")


def formats(given: str, output: Path | None) -> tuple[bool, str | None]:
    """`--format` as (GitHub annotations?, the report file's format): one of FORMATS, or
    github with junit or sarif ('github,sarif'), whose report then needs --output."""
    names = [name.strip() for name in given.split(",") if name.strip()]
    unknown = [name for name in names if name not in FORMATS]
    if unknown or not names:
        raise PnpgenError(f"--format {given}: expected one of {', '.join(FORMATS)}, or github,junit or github,sarif")
    files = [name for name in names if name in ("junit", "sarif")]
    if len(files) > 1:
        raise PnpgenError(f"--format {given}: one report file at a time (junit or sarif)")
    github, file_format = "github" in names, (files[0] if files else None)
    if output is not None and file_format is None:
        raise PnpgenError(f"--output is for --format junit or sarif, not {given}")
    if github and file_format is not None and output is None:
        raise PnpgenError(f"--format {given}: the annotations go to stdout; give --output FILE for the {file_format} "
                          "report")
    return github, file_format


def rule_for(check: str, game: str) -> tuple[str, str]:
    """(rule id, description) of a check's name; a kind not listed gets its name's words
    without the game id ('contrast my-game' -> 'contrast')."""
    for prefix, rule in RULES.items():
        if check == prefix or check.startswith(prefix + " ") or check.startswith(prefix + "s"):
            return rule
    words = [w for w in check.split() if not (game and w.startswith(game))]
    slug = re.sub(r"[^a-z0-9]+", "-", " ".join(words).lower()).strip("-") or "check"
    return slug, f"pnpgen validate: {' '.join(words) or check}"


@dataclass(frozen=True)
class Problem:
    game: str  # the game folder ('' when the run stopped before any game)
    check: str
    rule: str
    text: str  # the problem without its place
    file: str  # relative to the repository, '/'-separated
    line: int | None
    column: int | None
    placed: bool  # the problem named its file (else `file` is its game's game.yaml)

    @property
    def message(self) -> str:
        """The one-line problem as validate prints it, its place relative to the repository."""
        if not self.placed:
            return self.text
        numbers = "".join(f":{n}" for n in (self.line, self.column if self.line else None) if n is not None)
        return f"{self.file}{numbers}: {self.text}"


@dataclass
class CheckResult:
    game: str
    name: str
    ok: bool
    detail: str
    problems: list[Problem]


@dataclass
class Report:
    """Validate's results as they arrive, for one of FORMATS."""

    content: Path
    repository: Path = field(init=False)
    checks: list[CheckResult] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)  # per game
    exit_code: int = 0

    def __post_init__(self) -> None:  # the nearest folder with .git, else the working folder
        self.repository = repository_root(self.content) or Path.cwd().resolve()

    def relative(self, file: str | None, game: str) -> str:
        """A problem's file relative to the repository; its game.yaml when it names none."""
        path = Path(file) if file else self.content / game / MAIN_FILE if game else self.content
        path = (Path.cwd() / path).resolve() if not path.is_absolute() else path.resolve()
        try:
            return path.relative_to(self.repository).as_posix()
        except ValueError:  # outside the repository: as it is
            return path.as_posix()

    def problem(self, game: str, check: str, problem: str | BaseException) -> Problem:
        entry = error_entry(problem)
        rule = CONTENT_RULE[0] if isinstance(problem, BaseException) else rule_for(check, game)[0]
        return Problem(game, check, rule, entry["message"], self.relative(entry["file"], game), entry["line"],
                       entry["column"], entry["file"] is not None)

    def add(self, game: str, name: str, ok: bool, detail: str, problems: list[str]) -> list[Problem]:
        found = [self.problem(game, name, p) for p in problems]
        self.checks.append(CheckResult(game, name, ok, detail, found))
        return found

    def stopped(self, error: BaseException, game: str = "") -> Problem:
        """Bad input that stopped the run (exit 2): one failed 'content' check, of the game
        whose file it names when it names one."""
        file = getattr(error, "file", None)
        if not game and file:
            game = next(iter(games_of_files(self.content, [file])), "")
        found = self.problem(game, "content", error)
        self.checks.append(CheckResult(game, "content", False, "", [found]))
        self.exit_code = 2
        return found

    @property
    def problems(self) -> list[Problem]:
        return [p for check in self.checks for p in check.problems]

    def games(self) -> list[str]:
        return list(dict.fromkeys(check.game for check in self.checks))


# --- github ------------------------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(problem: Problem) -> str:
    """One workflow command: GitHub shows `message` beside `file`'s `line` (docs: 'Setting
    an error message'); the message keeps the place, so the log reads as the plain output."""
    where = [f"file={_escape_property(problem.file)}"]
    if problem.line is not None:
        where.append(f"line={problem.line}")
        if problem.column is not None:
            where.append(f"col={problem.column}")
    title = f"pnpgen {problem.rule}" + (f" ({problem.game})" if problem.game else "")
    where.append(f"title={_escape_property(title)}")
    return f"::error {','.join(where)}::{_escape_data(problem.message)}"


# --- junit -------------------------------------------------------------------------------


def junit_xml(report: Report) -> str:
    """JUnit XML as Jenkins, GitLab and most CI systems read it: <testsuites> holding one
    <testsuite> per game, one <testcase> per check; a failed check is a <failure>, bad input
    that stopped the run an <error>; the check's detail is its <system-out>."""
    root = ElementTree.Element("testsuites", name="pnpgen validate")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for game in report.games():
        checks = [c for c in report.checks if c.game == game]
        errors = sum(1 for c in checks if c.name == "content" and not c.ok)
        failures = sum(1 for c in checks if not c.ok) - errors
        suite = ElementTree.SubElement(root, "testsuite", name=game or "pnpgen", tests=str(len(checks)),
                                       failures=str(failures), errors=str(errors), skipped="0",
                                       time=f"{report.seconds.get(game, 0.0):.3f}")
        for key, value in (("tests", len(checks)), ("failures", failures), ("errors", errors)):
            totals[key] += value
        for check in checks:
            file = check.problems[0].file if check.problems else report.relative(None, game)
            case = ElementTree.SubElement(suite, "testcase", classname=f"pnpgen.{game or 'content'}",
                                          name=check.name, file=file)
            if check.problems:
                first = check.problems[0]
                kind = "error" if check.name == "content" else "failure"
                element = ElementTree.SubElement(case, kind, message=first.message, type=first.rule)
                element.text = "\n".join(p.message for p in check.problems)
            if check.detail:
                ElementTree.SubElement(case, "system-out").text = check.detail
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{sum(report.seconds.values()):.3f}")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


# --- sarif -------------------------------------------------------------------------------


def sarif_log(report: Report) -> dict[str, object]:
    """SARIF 2.1.0: one run of the tool 'pnpgen', its rules (every kind of check), one
    result per problem at its file, line and column (columns count characters)."""
    rules: dict[str, str] = {rule: text for rule, text in (*RULES.values(), CONTENT_RULE)}
    for check in report.checks:
        rule, text = rule_for(check.name, check.game)
        if check.name != "content":
            rules.setdefault(rule, text)
    index = {rule: i for i, rule in enumerate(rules)}
    results = []
    for problem in report.problems:
        region: dict[str, int] = {}
        if problem.line is not None:
            region["startLine"] = problem.line
            if problem.column is not None:
                region["startColumn"] = problem.column
        location: dict[str, object] = {"artifactLocation": {"uri": problem.file, "uriBaseId": "SRCROOT"}}
        if region:
            location["region"] = region
        results.append({
            "ruleId": problem.rule, "ruleIndex": index[problem.rule], "level": "error",
            "message": {"text": problem.text},
            "locations": [{"physicalLocation": location}],
            "properties": {"game": problem.game, "check": problem.check},
        })
    driver = {
        "name": "pnpgen", "version": __version__, "semanticVersion": __version__,
        "rules": [{"id": rule, "name": rule.title().replace("-", ""), "shortDescription": {"text": text},
                   "defaultConfiguration": {"level": "error"}} for rule, text in rules.items()],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {"SRCROOT": {"uri": report.repository.as_uri() + "/"}},
            "invocations": [{"executionSuccessful": report.exit_code != 2, "exitCode": report.exit_code}],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def render(report: Report, fmt: str) -> str:
    """The report file's text for junit or sarif."""
    if fmt == "junit":
        return junit_xml(report)
    return json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n"


def write(report: Report, fmt: str, path: Path) -> None:
    """The junit or sarif report, written atomically."""
    with atomic_output(path) as tmp:
        tmp.write_text(render(report, fmt), encoding="utf-8")


# --- --files: the games that changed files belong to ---------------------------------------


def games_of_files(root: Path, files: list[str], golden: Path | None = None) -> list[str]:
    """The game folders (in `root`) holding any of `files`, in name order: a changed CSV or
    YAML validates its game only. A golden playthrough file (`golden/<game>.yaml`) counts
    for its game; files elsewhere (README, code) count for none."""
    folders = {p.resolve(): p.name for p in game_folders(root)}
    golden_dir = golden.resolve() if golden is not None else None
    found: set[str] = set()
    for name in files:
        path = Path(os.path.abspath(name))  # not resolved: a link inside the game is the game's
        for folder in (path.parent, *path.parent.parents):
            if folder.resolve() in folders:
                found.add(folders[folder.resolve()])
                break
        if golden_dir is not None and path.parent.resolve() == golden_dir and path.suffix == ".yaml":
            found.update(n for n in folders.values() if n == path.stem)
    return sorted(found)
