"""The generated JSON Schemas (pnpgen schema) against the loader: every shipped content file
is valid, the committed schema/ folder is what the specs generate, and on the bad-input
corpus the schema rejects every file whose fault is a schema fault (unknown or missing key,
wrong type, out of range)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from pnpgen.schemas import KINDS, schema_for_game, schema_text, schemas
from tests.conftest import ROOT, CliRun

SCHEMAS = schemas()
CORPUS = ROOT / "tests" / "bad_input" / "content"
ROOTS = [ROOT / "content", ROOT / "tests" / "fixtures", ROOT / "examples" / "pig" / "content"]
# Faults a schema can express; the others (references, overflowing text, an engine's own
# rules: keys, budgets) are for pnpgen validate, and an editor must not guess at them.
SCHEMA_FAULT = re.compile(r"unknown key|missing key|: expected (text|an integer|a number|true/false|a list|a mapping|"
                          r"one of)|out of range|needs at least")


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def content_files(game: Path) -> list[tuple[str, Path]]:
    """(kind, file) for game.yaml and each file it names as components, rulebook or examples."""
    data = _load(game / "game.yaml")
    files = [(schema_for_game(data, SCHEMAS), game / "game.yaml")]
    for key in ("components", "rulebook", "examples"):
        value = data.get(key) if isinstance(data, dict) else None
        names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        files += [(key, game / name) for name in names if isinstance(name, str) and (game / name).is_file()]
    return files


def problems(kind: str, path: Path) -> list[str]:
    try:
        data = _load(path)
    except yaml.YAMLError as error:
        return [f"not YAML: {error}"]
    validator = jsonschema.Draft202012Validator(SCHEMAS[kind])
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(data)]


SHIPPED = [(kind, path) for root in ROOTS for game in sorted(p.parent for p in root.glob("*/game.yaml"))
           for kind, path in content_files(game)]


def test_schemas_are_valid_json_schemas() -> None:
    assert set(KINDS) | {"game-burning_desire", "game-fast_alone"} <= set(SCHEMAS)
    for schema in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_enough_shipped_files() -> None:
    kinds = {kind for kind, _ in SHIPPED}
    assert {"game", "components", "rulebook", "examples"} <= kinds and len(SHIPPED) >= 25


@pytest.mark.parametrize(("kind", "path"), SHIPPED, ids=[str(p.relative_to(ROOT)) for _, p in SHIPPED])
def test_every_shipped_file_is_valid(kind: str, path: Path) -> None:
    assert problems(kind, path) == []


CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())
SCHEMA_CASES = [c for c in CASES if re.search(r"\.ya?ml:\d+:\d+: ", expected := (CORPUS / c / "expected.txt").read_text(
    encoding="utf-8")) and SCHEMA_FAULT.search(expected) and "template" not in expected]


def test_corpus_has_schema_faults() -> None:
    assert len(SCHEMA_CASES) >= 12


@pytest.mark.parametrize("case", SCHEMA_CASES)
def test_schema_rejects_what_the_loader_rejects(case: str) -> None:
    """The loader's error in expected.txt names the file; the schema flags that file too."""
    expected = (CORPUS / case / "expected.txt").read_text(encoding="utf-8")
    games = [p.parent for p in (CORPUS / case).glob("*/game.yaml")]
    flagged = {path.name: problems(kind, path) for game in games for kind, path in content_files(game)}
    named = [name for name in flagged if f"/{name}:" in expected]
    assert named, f"no file of the case is named in {expected!r}"
    assert any(flagged[name] for name in named), expected


def test_committed_schemas_are_generated(repo_root: Path) -> None:
    """schema/ in the repository (for editors) is exactly what `pnpgen schema` writes, for
    every kind and each of pnpgen's own engines (another installed package adds its own)."""
    committed = sorted((repo_root / "schema").glob("*.schema.json"))
    assert {f"{kind}.schema.json" for kind in KINDS} <= {p.name for p in committed}
    for path in committed:
        assert path.read_text(encoding="utf-8") == schema_text(SCHEMAS[path.name.removesuffix(".schema.json")])


def test_schema_command_writes_every_kind(run_pnpgen: CliRun, tmp_path: Path) -> None:
    code, out, err = run_pnpgen("schema", "--out", str(tmp_path), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["ok"] is True and data["errors"] == []
    assert sorted(Path(p).name for p in data["files"]) == sorted(f"{k}.schema.json" for k in SCHEMAS)
    game = json.loads((tmp_path / "game.schema.json").read_text(encoding="utf-8"))
    assert "players" in game["required"] and game["properties"]["ages"]["anyOf"][1]["type"] == "integer"
