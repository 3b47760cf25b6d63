"""`pnpgen new GAME --kind dice|grid`: a played game (content plus its rules package) that,
once its package is installed with a real `pip install`, validates, referees and builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.test_external_game import _builds_offline


def pnpgen(site: Path | None, *args: str, cwd: Path) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    done = subprocess.run([sys.executable, "-m", "pnpgen", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    return done.returncode, done.stdout, done.stderr


KINDS = {  # kind: game id, a legal move in its example state, what that move leads to, the PDFs
    "dice": ("lucky-dice", "hold", "turn_total: 0", ["companion-en.pdf", "companion-ja.pdf", "rulebook-en.pdf",
                                                       "rulebook-ja.pdf", "score-sheet-en.pdf", "score-sheet-ja.pdf"]),
    "grid": ("five-line", "place 4 1", "winner: 1", ["board.pdf", "companion-en.pdf", "companion-ja.pdf",
                                                      "rulebook-en.pdf", "rulebook-ja.pdf"]),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_new_played_game_installs_validates_referees_and_builds(kind: str, tmp_path: Path) -> None:
    game, move, result, pdfs = KINDS[kind]
    content = tmp_path / "content"
    code, out, err = pnpgen(None, "new", game, "--kind", kind, "--content", str(content), cwd=tmp_path)
    assert code == 0, err
    package = tmp_path / f"{game}-rules"
    assert f"next: pip install -e {package}" in out
    rules_module = package / f"pnpgen_{game.replace('-', '_')}" / "__init__.py"
    assert len(rules_module.read_text(encoding="utf-8").splitlines()) <= 150
    assert (content / game / "game.yaml").read_text(encoding="utf-8").startswith(
        "# yaml-language-server: $schema=../../schema/game.schema.json")

    site = tmp_path / "site"
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(site), str(package)]
    if _builds_offline():
        command.insert(4, "--no-build-isolation")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr

    with_content = ["--content", str(content)]
    code, out, err = pnpgen(site, "validate", game, *with_content, cwd=tmp_path)
    assert code == 0 and "all checks passed" in out and "example ex2-" in out, out + err
    code, out, _ = pnpgen(site, "referee", game, "--example-state", *with_content, cwd=tmp_path)
    assert code == 0 and isinstance(yaml.safe_load(out), dict)
    state = tmp_path / "state.yaml"
    state.write_text(out, encoding="utf-8")
    code, out, _ = pnpgen(site, "referee", game, "--state", str(state), "--move", move, *with_content, cwd=tmp_path)
    assert code == 0 and f"LEGAL {move}" in out and result in out, out
    code, out, err = pnpgen(site, "referee", game, "--state", str(state), "--move", "fly", *with_content,
                            cwd=tmp_path)
    assert code == 2 and "cannot read move 'fly'" in out + err
    code, out, err = pnpgen(site, "build", game, "-q", "--out", str(tmp_path / "build"), *with_content, cwd=tmp_path)
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "build" / game).glob("*.pdf")) == pdfs


def test_a_second_new_game_of_the_same_id_is_refused(tmp_path: Path) -> None:
    content = tmp_path / "content"
    assert pnpgen(None, "new", "lucky-dice", "--kind", "dice", "--content", str(content), cwd=tmp_path)[0] == 0
    code, _, err = pnpgen(None, "new", "lucky-dice", "--kind", "dice", "--content", str(content), cwd=tmp_path)
    assert code == 2 and "already exists" in err and "Traceback" not in err
