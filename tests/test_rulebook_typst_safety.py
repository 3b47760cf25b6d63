"""Typst compiles are sealed (issue 26): content text prints literally and is never read as
Typst markup; the compile root holds only generated files; a symlink in content does not
reach it; package imports are refused; a runaway document stops with one line; a character
no bundled font has is an error naming the file and line."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.errors import ContentError
from pnpgen.output import BuildOptions
from pnpgen.render import typeset
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.typeset import TypesetError, compile_pdf
from tests.test_rulebook import FIXTURE, ToyRules

PAYLOADS = ['#read("/etc/passwd")', "#let x = 1", "$ a^2 $", "*not bold*", "_not emph_", "= not a heading",
            "<x>", "@x", '#import "@preview/cetz:0.3.0"', "\\u{41} [#1] #{1 + 1}"]


def toy_with(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "rulebook-toy"
    shutil.copytree(FIXTURE, folder)
    book = folder / "rulebook.yaml"
    old = "en: On your turn roll the die and add the result."
    assert old in book.read_text()
    book.write_text(book.read_text().replace(old, f"en: |-\n            {text}"))
    return folder


def test_payloads_print_literally_and_read_nothing(tmp_path: Path) -> None:
    lines = [*PAYLOADS, "1. at a line start", "- a dash at a line start", "/ term: not a term list"]
    text = "\n            ".join(lines)
    folder = toy_with(tmp_path, text)
    content = load_game(folder)
    built = render_rulebooks(content, [ToyRules(content)], BuildOptions(out=tmp_path / "out", langs=("en",)))
    players = next(f.path for f in built if f.path.name == "rulebook-en.pdf")
    printed = "\n".join(page.extract_text() for page in PdfReader(players).pages)
    printed = printed.translate(str.maketrans("“”‘’\u00a0", "\"\"'' ", "\u2060"))  # English quotes are curly
    for line in lines:
        assert line in printed, line
    assert "root:" not in printed  # /etc/passwd was not read


def test_the_compile_root_holds_only_generated_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A symlink in the game folder (to a file outside it) never reaches the compile root:
    the root holds the template, the book's JSON and its SVG figures, all regular files."""
    folder = tmp_path / "rulebook-toy"
    shutil.copytree(FIXTURE, folder)
    (folder / "passwd.svg").symlink_to("/etc/passwd")
    (folder / "up").symlink_to(tmp_path)
    seen: list[list[tuple[str, bool]]] = []
    real_run = subprocess.run

    def spy(command: list[str], **kw: Any) -> Any:
        root = Path(command[2])  # [python, typst_child.py, root, ...]
        seen.append([(p.name, p.is_symlink() or not p.is_file()) for p in sorted(root.iterdir())])
        return real_run(command, **kw)

    monkeypatch.setattr(typeset.subprocess, "run", spy)
    content = load_game(folder)
    render_rulebooks(content, [ToyRules(content)], BuildOptions(out=tmp_path / "out", langs=("en",)))
    assert len(seen) == 2  # the players' book and the companion
    for files in seen:
        names = [name for name, _ in files]
        assert {"book.json", "main.typ"} <= set(names)
        assert all(name in ("book.json", "main.typ") or (name.startswith("fig") and name.endswith(".svg"))
                   for name in names), names
        assert not any(linked for _, linked in files)


@pytest.mark.parametrize("source", [b'#import "@preview/cetz:0.3.0": *', b'#include "@local/x:0.1.0/lib.typ"',
                                    b"#import '@preview/x:1.0.0'"])
def test_package_imports_are_refused(source: bytes) -> None:
    with pytest.raises(TypesetError, match="package imports are refused"):
        compile_pdf({"main.typ": source})


@pytest.mark.parametrize(("source", "message"), [
    (b'#read("/etc/passwd")', "file not found"),
    (b'#read("../../../../etc/passwd")', "escape the project root"),
])
def test_nothing_outside_the_root_is_read(source: bytes, message: str) -> None:
    with pytest.raises(TypesetError, match=message) as caught:
        compile_pdf({"main.typ": source})
    assert "\n" not in str(caught.value)


def test_a_runaway_document_stops_with_one_line() -> None:
    with pytest.raises(TypesetError) as caught:
        compile_pdf({"main.typ": b"#let n = 0\n#for i in range(100000000) { n += 1 }\n#n"}, timeout=1.0)
    assert str(caught.value) == "typesetting stopped after 1 s (a runaway document)"


def test_a_character_no_font_has_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    folder = toy_with(tmp_path, "Draw the glyph \U0001f600 here.")  # an emoji: no bundled font has it
    content = load_game(folder)
    with pytest.raises(ContentError, match=r"rulebook\.yaml:\d+:\d+: no bundled font has a glyph for U\+1F600"):
        render_rulebooks(content, [ToyRules(content)], BuildOptions(out=tmp_path / "out", langs=("en",)))
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))


def test_timestamp_is_fixed_or_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert typeset.timestamp() == 946684800  # 2000-01-01
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert typeset.timestamp() == 1700000000
