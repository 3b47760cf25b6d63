"""The content layer: positions, schema errors with did-you-mean, atomic output."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen.content.game import load_game, load_games
from pnpgen.content.schema import Choice, Each, OneOf, Text, check, text_for
from pnpgen.content.yamlpos import YList, YMap, load_yaml
from pnpgen.errors import ContentError, UnknownGame
from pnpgen.render.pdf import atomic_output


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_positions_are_recorded(tmp_path: Path) -> None:
    data = load_yaml(write(tmp_path / "a.yaml", "title: x\nitems:\n  - 1\n  - two\n"))
    assert isinstance(data, YMap) and isinstance(data["items"], YList)
    assert data.key_positions["items"] == (2, 1)
    assert data["items"].item_positions == [(3, 5), (4, 5)]


def test_malformed_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.yaml", "a: 1\nb: [1, 2\nc: 3\n")
    with pytest.raises(ContentError) as info:
        load_yaml(path)
    assert str(info.value).startswith(f"{path}:3:")


def test_duplicate_key_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / "dup.yaml", "a: 1\nb: 2\na: 3\n")
    with pytest.raises(ContentError, match=r"dup.yaml:3:1: duplicate key 'a'"):
        load_yaml(path)


def test_unsafe_tags_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "evil.yaml", "a: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ContentError, match=r"evil.yaml:1:4: could not determine a constructor"):
        load_yaml(path)


SCHEMA = {"name": str, "count?": int, "kind?": Choice("board", "deck"), "labels?": Each(Text, min=1)}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\ncuont: 3\n", "2:1: unknown key 'cuont' (did you mean 'count'?)"),
        ("name: x\ncount: three\n", "2:8: count: expected an integer, found 'three'"),
        ("count: 3\n", "1:1: document: missing key 'name'"),
        ("name: x\nkind: dek\n", "2:7: kind: expected one of board, deck, found 'dek' (did you mean 'deck'?)"),
        ("name: x\nlabels: []\n", "2:9: labels: needs at least 1 item(s), found 0"),
        ("name: x\nlabels: [{ja: a, fr: b}]\n", "2:18: unknown key 'fr'"),
        ("name: x\ncount: true\n", "2:8: count: expected an integer, found 'true'"),
    ],
)
def test_schema_errors(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "s.yaml", text)
    with pytest.raises(ContentError) as info:
        check(load_yaml(path), SCHEMA)
    assert str(info.value) == f"{path}:{message}"


def test_schema_accepts_valid_data(tmp_path: Path) -> None:
    data = load_yaml(write(tmp_path / "s.yaml", "name: x\ncount: 2\nlabels: [a, {ja: い, en: b}]\n"))
    check(data, SCHEMA)
    assert text_for(data["labels"][1], "ja") == "い"
    assert text_for(data["labels"][1], "fr") == "い"
    check(1.5, OneOf(float, str))


GAME = """id: toy
engine: toy
title: {ja: おもちゃ, en: Toy}
players: {min: 2, max: 4}
time_minutes: 5
version: 1
rules: {}
"""


def test_game_folder_loads_and_checks_id(tmp_path: Path) -> None:
    write(tmp_path / "toy" / "game.yaml", GAME)
    game = load_game(tmp_path / "toy")
    assert game.id == "toy" and game.title("ja") == "おもちゃ"
    write(tmp_path / "other" / "game.yaml", GAME)
    with pytest.raises(ContentError, match=r"other/game.yaml:1:5: id 'toy' does not match the folder name 'other'"):
        load_game(tmp_path / "other")


def test_unknown_game_suggests_a_name(tmp_path: Path) -> None:
    write(tmp_path / "toy" / "game.yaml", GAME)
    with pytest.raises(UnknownGame, match=r"unknown game 'tyo' \(did you mean 'toy'\?\)"):
        load_games(tmp_path, ["tyo"])


def test_part_paths_cannot_leave_the_game_folder(tmp_path: Path) -> None:
    write(tmp_path / "toy" / "game.yaml", GAME + "rulebook: ../../etc/passwd.yaml\n")
    game = load_game(tmp_path / "toy")
    with pytest.raises(ContentError, match="leaves the game folder"):
        game.part("rulebook")


def test_atomic_output_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "out" / "file.pdf"
    with pytest.raises(RuntimeError), atomic_output(target) as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("boom")
    assert not target.exists()
    assert list((tmp_path / "out").iterdir()) == []
    with atomic_output(target) as tmp:
        tmp.write_bytes(b"whole")
    assert target.read_bytes() == b"whole"


PRINT_ONLY = "id: demo\ntitle: Demo\nplayers: {min: 1, max: 4}\ntime_minutes: 20\nversion: 1\n"


def test_rule_ids_merge_from_files_and_refuse_duplicates(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    write(folder / "a" / "ids.yaml", "A-1: {ja: 一, en: One}\nA-2: Two\n")
    write(folder / "b" / "ids.yaml", "B-1: Three\n")
    write(folder / "game.yaml", PRINT_ONLY + "rule_ids: [a/ids.yaml, b/ids.yaml]\n")
    labels = load_game(folder).labels("rule_ids")
    assert list(labels) == ["A-1", "A-2", "B-1"]
    assert text_for(labels["A-1"], "ja") == "一"
    write(folder / "b" / "ids.yaml", "B-1: Three\nA-2: again\n")
    with pytest.raises(ContentError, match=r"b/ids.yaml:2:1: rule_ids: 'A-2' is declared twice"):
        load_game(folder).labels("rule_ids")


def test_print_only_game_has_no_rules(tmp_path: Path) -> None:
    from pnpgen.games import find_rules, rules_for_content

    write(tmp_path / "demo" / "game.yaml", PRINT_ONLY)
    assert rules_for_content(load_game(tmp_path / "demo")) == []
    with pytest.raises(UnknownGame, match="print-only"):
        find_rules(tmp_path, "demo")
    write(tmp_path / "demo" / "game.yaml", PRINT_ONLY + "rules: {x: 1}\n")
    with pytest.raises(ContentError, match=r"game.yaml:6:1: rules: given, but no engine"):
        rules_for_content(load_game(tmp_path / "demo"))


def test_atomic_output_gives_normal_file_modes(tmp_path: Path) -> None:
    import os

    target = tmp_path / "out" / "file.txt"
    old = os.umask(0o022)
    try:
        with atomic_output(target) as tmp:
            tmp.write_text("x")
    finally:
        os.umask(old)
    assert target.read_text() == "x" and target.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["file.txt"]
