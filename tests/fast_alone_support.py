"""Helpers the Fast Alone puzzle tests share: referee scenarios, own content copies, sheets."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from pypdf import PdfReader
from typer.testing import CliRunner

from pnpgen.cli import app
from pnpgen.content.game import load_game
from pnpgen.errors import BadMove, ImpossibleState
from pnpgen.games import rules_for_content
from tests.conftest import ROOT

CONTENT = ROOT / "content"
FOLDER = CONTENT / "fast-alone"
REFEREE = ROOT / "tests" / "referee" / "fast-alone"


def check_referee_scenario(path: Path) -> None:
    """Run `pnpgen referee` on a scenario state file and hold it to its .expected file:
    exit code, texts said (and not said), the rule cited, and the same verdict in --json."""
    expected = yaml.safe_load(path.with_suffix(".expected").read_text(encoding="utf-8"))
    args = ["referee", f"fast-alone/{path.parent.name}", "--state", str(path), "--content", str(CONTENT)]
    if "move" in expected:
        args += ["--move", str(expected["move"])]
    result = CliRunner().invoke(app, args)
    if expected["exit"] == 2:  # a state that cannot happen (names file and line), or an unreadable move
        if "move" in expected and not isinstance(result.exception, ImpossibleState):
            assert isinstance(result.exception, BadMove), result.output
        else:
            assert isinstance(result.exception, ImpossibleState), result.output
            assert str(result.exception).startswith(f"{path}:"), result.exception
            assert str(result.exception).split(":")[1].isdigit(), result.exception
        message = str(result.exception)
        for text in expected["says"]:
            assert text in message
        return
    assert result.exit_code == expected["exit"], result.output
    said = " ".join(result.output.split())
    for text in expected["says"]:
        assert text in said, said
    for text in expected.get("not_says", []):
        assert text not in said, said
    if "rule" in expected:
        assert f"rule {expected['rule']} (" in said
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["legal"] is (expected["exit"] == 0) and data["rule"] == expected.get("rule")


def own_copy(tmp_path: Path, key: str, edit: Callable[[Any], Any], text: bool = False) -> Path:
    """A content root holding fast-alone with only the puzzle `key`, its rules.yaml changed
    by `edit`: on the parsed data in place, or (text=True) from old text to new text."""
    root = tmp_path / "content"
    folder = root / "fast-alone"
    shutil.copytree(FOLDER / key, folder / key)
    game = yaml.safe_load((FOLDER / "game.yaml").read_text(encoding="utf-8"))
    game.update(rules={key: f"{key}/rules.yaml"}, rule_ids=[f"{key}/ids.yaml"],
                end_conditions=[f"{key}/ends.yaml"], examples=[f"{key}/examples.yaml"])
    for part in ("rulebook", "components"):
        game.pop(part, None)
    game["simulation"].pop("difficulty_table", None)
    (folder / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
    data_file = folder / key / "rules.yaml"
    old = data_file.read_text(encoding="utf-8")
    if text:
        new = edit(old)
    else:
        data = yaml.safe_load(old)
        edit(data)
        new = yaml.safe_dump(data, allow_unicode=True)
    data_file.write_text(new, encoding="utf-8")
    return root


def build_sheet(component_id: str, tmp_path: Path, lang: str = "en") -> tuple[Path, str]:
    """One of the collection's write-on sheets, built through the print kit; its path and text."""
    from pnpgen.output import BuildOptions
    from pnpgen.render.kit import components, jobs, type_module

    content = load_game(FOLDER)
    item = next(c for c in components(content) if c["id"] == component_id)
    module = type_module(str(item["type"]))
    assert module is not None
    job = next(j for j in jobs(content, rules_for_content(content), BuildOptions(out=tmp_path), item)
               if j.lang == lang)
    assert module.check(item, job) == []
    path = module.render(item, job)[0].path
    return path, "\n".join(page.extract_text() for page in PdfReader(path).pages)
