"""Two builds of one game into one output folder at the same time: the second is refused
with one line while the first writes, and a README never lists a file that is not there.

Real processes throughout: a holder process takes the folder's lock (as a build does) and
waits on its stdin, so the refusal does not depend on timing; then two real builds in two
languages race, and whatever order they end in, the folder is consistent.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
HOLD = ("import sys; from pathlib import Path; from pnpgen.output import build_lock\n"
        "with build_lock(Path(sys.argv[1])):\n    print('held', flush=True); sys.stdin.read()\n")


def _build(out: Path, lang: str | None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "pnpgen", "build", "kit-demo", "--content", str(FIXTURES),
                             *(["--lang", lang] if lang else []), "--out", str(out), "-q"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _assert_consistent(folder: Path) -> list[str]:
    """Every file README.txt lists is there, and every output there is listed; the names."""
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    listed = re.findall(r"^ +((?:preview/)?[\w.-]+\.(?:pdf|png|svg))\b", readme, re.MULTILINE)
    assert listed and all((folder / name).is_file() for name in listed), listed
    present = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                     if p.is_file() and not p.name.startswith("."))
    assert sorted([*listed, "README.txt"]) == present
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".pnpgen-writing")]
    return listed


def test_a_build_into_a_folder_another_build_holds_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    folder = out / "kit-demo"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        build = _build(out, "en")
        _, err = build.communicate(timeout=600)
        assert err.splitlines() == [f"error: another build is writing {folder}/ (pid {holder.pid}); wait for it "
                                    "to end, or build into another --out"]
        assert build.returncode == 2
        assert not [p for p in folder.rglob("*") if p.is_file() and p.name != f".pnpgen-writing.pid{holder.pid}"]
    finally:
        holder.communicate("", timeout=60)  # its stdin closes: the lock goes with it
    build = _build(out, "en")
    assert build.communicate(timeout=600)[1] == "" and build.returncode == 0
    assert all(name.endswith(("-en.pdf", "-en.png", "-en.svg", "contact-sheet.png"))
               for name in _assert_consistent(folder))


def test_two_builds_in_two_languages_at_once_leave_a_consistent_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _build(out, None)  # both languages: each later build removes the other's files
    assert first.communicate(timeout=600)[1] == "" and first.returncode == 0
    builds = {lang: _build(out, lang) for lang in ("ja", "en")}
    ended = {lang: (build.communicate(timeout=600)[1], build.returncode) for lang, build in builds.items()}
    refusal = re.compile(r"error: another build is writing .*/kit-demo/ \(pid \d+\); wait for it to end, or "
                         r"build into another --out")
    for err, code in ended.values():
        assert (err, code) == ("", 0) or (refusal.fullmatch(err.strip()) and code == 2), (err, code)
    assert any(code == 0 for _, code in ended.values())
    listed = _assert_consistent(out / "kit-demo")
    langs = {lang for lang in ("ja", "en") if any(name.endswith(f"-{lang}.pdf") for name in listed)}
    assert len(langs) == 1  # the files of the build that ended last, whole; none of the other's
