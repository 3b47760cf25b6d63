"""The two YAML loaders agree: where libyaml may compose a file (_c_parses_alike), it gives
the same values and the same line/column positions as the pure-Python loader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen.content import yamlparse, yamlpos
from pnpgen.content.yamlpos import YList, YMap
from pnpgen.errors import ContentError
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(yamlparse._CParser is None, reason="PyYAML without libyaml")


def _python(text: str) -> Any:
    loader = yamlparse._PythonLoader(text, "f.yaml")
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _fast(text: str) -> Any:
    loader = yamlparse._FastLoader(text, "f.yaml")
    try:
        node = loader.get_single_node()
        return None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()


def _shape(value: Any) -> Any:
    """Values with every position and file name, for comparing loads exactly."""
    if isinstance(value, YMap):
        return ("map", value.file, value.position, [(k, value.key_positions[k], value.value_positions[k],
                                                     _shape(v)) for k, v in value.items()])
    if isinstance(value, YList):
        return ("list", value.file, value.position, value.item_positions, [_shape(v) for v in value])
    return (type(value).__name__, value)


SHIPPED = sorted([*(ROOT / "content").rglob("*.yaml"), *(ROOT / "tests" / "fixtures").rglob("*.yaml")])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_load_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    if not yamlparse._c_parses_alike(text):
        pytest.skip("loaded by the pure-Python loader only")
    assert _shape(_fast(text)) == _shape(_python(text))


def test_the_content_takes_the_fast_path() -> None:
    """Text with '!' or '?' in prose ("Stop!", "!=" in a quoted template) still goes to libyaml."""
    slow = [p.relative_to(ROOT).as_posix() for p in (ROOT / "content").rglob("*.yaml")
            if not yamlparse._c_parses_alike(p.read_text(encoding="utf-8"))]
    assert slow == ["content/burning-desire/rulebook.yaml"]  # '?' in prose beside flow collections


TRICKY = [
    "a: Stop! now\nb: [x, y]\n",
    "a: \"Stop!\"\nb: {c: 'd!', e: \"f != g\"}\n",
    "t: \"{% if key != 'dragon' %}x{% endif %}\"\n",
    "a: 'it''s!'\nb: don't\n",
    "list:\n  - ja: ゲーム！\n    en: Game!\n  - [1, 2.5, -3]\n",
    "a: &x {b: 1}\nc: *x\nd: [*x, *x]\n",
    "a: |\n  line!\n  two\nb: >-\n  folded!\n",
    "empty:\nnull_value: ~\nbool: yes\n",  # an empty value sits just after its key on both paths
]
DIFFERENT = ["a: [!x b]", "a: {b: !c d}", "a: x,!y", "!tag x", "a: !!str 1", "a: \"open !\n  b\"",
             "a: [b?c]", "a:\tb", "a: >#\n  x"]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_text_loads_alike(text: str) -> None:
    assert yamlparse._c_parses_alike(text)
    assert _shape(_fast(text)) == _shape(_python(text))


@pytest.mark.parametrize("text", DIFFERENT)
def test_text_libyaml_may_read_otherwise_takes_the_python_loader(text: str) -> None:
    assert not yamlparse._c_parses_alike(text)


def test_errors_name_the_file_on_both_paths(tmp_path: Path) -> None:
    for text, fast in (("a: 1\na: 2\n", True), ("a: 1\na: 2\nb: 'x\ty'\n", False)):
        path = tmp_path / "dup.yaml"
        path.write_text(text, encoding="utf-8")
        assert yamlparse._c_parses_alike(text) is fast
        with pytest.raises(ContentError) as info:
            yamlpos.load_yaml(path)
        assert str(info.value).startswith(f"{path}:2:1: duplicate key 'a'")


# --- parsed files kept in pnpgen's cache -----------------------------------------------------

def _big(path: Path, value: str) -> Path:
    """A YAML file of some size."""
    rows = "".join(f"  - {{id: row{i}, text: '{value} {i}'}}\n" for i in range(80))
    path.write_text(f"title: {value}\nrows:\n{rows}", encoding="utf-8")
    return path


def test_a_file_is_parsed_once_while_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    path = _big(tmp_path / "game.yaml", "first")
    loaded = yamlpos.load_yaml(path)
    parses: list[str] = []
    real = yamlpos._parse
    monkeypatch.setattr(yamlpos, "_parse", lambda name, text: parses.append(name) or real(name, text))
    again = yamlpos.load_yaml(path)
    assert parses == [] and _shape(again) == _shape(loaded) and again is not loaded
    assert again["rows"][5]["text"] == "first 5" and again["rows"].item_positions[5] == (8, 5)
    _big(path, "second")  # a change of text is parsed afresh, and replaces the entry
    assert yamlpos.load_yaml(path)["rows"][5]["text"] == "second 5" and parses == [str(path)]
    assert len(list((tmp_path / "cache" / "yaml").iterdir())) == 1


def test_a_damaged_entry_is_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    path = _big(tmp_path / "game.yaml", "x")
    first = _shape(yamlpos.load_yaml(path))
    (entry,) = (tmp_path / "cache" / "yaml").iterdir()
    entry.write_bytes(entry.read_bytes()[:80])  # the key, then a cut pickle
    assert _shape(yamlpos.load_yaml(path)) == first


def test_errors_are_not_kept_and_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    path = _big(tmp_path / "game.yaml", "x")
    path.write_text(path.read_text(encoding="utf-8") + "title: again\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentError, match="duplicate key 'title'"):
            yamlpos.load_yaml(path)
    assert not any((tmp_path / "cache").rglob("*.pickle"))
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    yamlpos.load_yaml(_big(tmp_path / "other.yaml", "y"))
    assert not any((tmp_path / "cache").rglob("*.pickle"))


def test_the_cache_keeps_a_bounded_number_of_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("pnpgen.cache.ENTRIES_KEPT", 10)
    for index in range(25):
        (tmp_path / f"f{index}.yaml").write_text(f"a: {index}\n", encoding="utf-8")
        assert yamlpos.load_yaml(tmp_path / f"f{index}.yaml") == {"a": index}
    assert 5 <= len(list((tmp_path / "cache" / "yaml").iterdir())) <= 10
