"""pnpgen watch: a save rebuilds only what it touches, a broken edit keeps the last good
files and reports its line, and the --serve page shows previews and the error (in a real
headless Chromium when one is installed: Debian's `chromium`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnpgen.output import BuildOptions
from pnpgen.watch import Watcher, serve
from tests.conftest import ROOT

DEMO = ROOT / "tests" / "fixtures" / "kit-demo"


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Watcher, Path]]:
    """kit-demo copied, built, and watched in a thread until the test ends."""
    folder = tmp_path / "content" / "kit-demo"
    shutil.copytree(DEMO, folder)
    watcher = Watcher(folder, BuildOptions(out=tmp_path / "build", content_root=folder.parent), say=lambda _: None)
    assert watcher.build_all()
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
    thread.start()
    time.sleep(0.5)  # the watcher is listening
    yield watcher, folder
    stop.set()
    thread.join(timeout=10)


def wait_for(watcher: Watcher, version: int, seconds: float = 30) -> None:
    with watcher.changed:
        assert watcher.changed.wait_for(lambda: watcher.status.version > version, timeout=seconds)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.pdf")}


def test_one_card_edit_rebuilds_only_its_deck(watched: tuple[Watcher, Path]) -> None:
    watcher, folder = watched
    before = mtimes(watcher.game_dir)
    version = watcher.status.version
    edit(folder / "cards.csv", "ember,Ember,", "ember,Embers,")
    wait_for(watcher, version)
    assert watcher.status.error is None and watcher.status.rebuilt == ["spells"]
    after = mtimes(watcher.game_dir)
    changed = sorted(name for name in after if after[name] != before[name])
    assert changed == ["spells-backs-shifted-en.pdf", "spells-backs-shifted-ja.pdf", "spells-en.pdf",
                       "spells-ja.pdf"]  # the deck's files only
    svg = (watcher.game_dir / "preview" / "spells-en.svg").read_text(encoding="utf-8")
    assert "Embers" in svg
    readme = (watcher.game_dir / "README.txt").read_text(encoding="utf-8")
    assert "spells-ja.pdf" in readme and "preview/spells-en.svg" in readme


def test_broken_edit_keeps_the_last_good_files(watched: tuple[Watcher, Path]) -> None:
    watcher, folder = watched
    before = mtimes(watcher.game_dir)
    version = watcher.status.version
    edit(folder / "deck.yaml", "size: poker", "size: pokr")
    wait_for(watcher, version)
    error = watcher.status.error or ""
    assert error.startswith(f"{folder / 'deck.yaml'}:") and "did you mean" not in error and "'pokr'" in error
    assert mtimes(watcher.game_dir) == before
    version = watcher.status.version
    edit(folder / "deck.yaml", "size: pokr", "size: bridge")
    wait_for(watcher, version)
    assert watcher.status.error is None and watcher.status.rebuilt == ["spells"]


def test_page_shows_previews_and_the_error(watched: tuple[Watcher, Path]) -> None:
    watcher, folder = watched
    server = serve(watcher, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        status = json.loads(urllib.request.urlopen(f"{url}/status", timeout=10).read())
        assert status["error"] is None and "spells-ja.svg" in status["previews"]
        page = urllib.request.urlopen(url + "/", timeout=10).read().decode()
        assert '<img src="/preview/spells-en.svg' in page
        assert urllib.request.urlopen(f"{url}/preview/spells-en.svg", timeout=10).read().startswith(b"<svg")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{url}/preview/../../deck.yaml", timeout=10)
        version = watcher.status.version
        edit(folder / "cards.csv", "ember,Ember,", "ember,Cinder,")  # a CSV row: the card's new image
        wait_for(watcher, version)
        stamp = re.search(r'spells-en\.svg\?v=([^"]+)"', urllib.request.urlopen(url + "/", timeout=10).read().decode())
        assert stamp is not None
        card = urllib.request.urlopen(f"{url}/preview/spells-en.svg?v={stamp.group(1)}", timeout=10).read()
        assert b"Cinder" in card
        version = watcher.status.version
        edit(folder / "deck.yaml", "size: poker", "size: pokr")
        wait_for(watcher, version)
        page = urllib.request.urlopen(url + "/", timeout=10).read().decode()
        assert 'id="error">' + str(folder / "deck.yaml") in page
        browser = shutil.which("chromium") or shutil.which("chromium-browser")
        if browser is None:  # .ci/run installs Debian's chromium
            pytest.skip("no chromium: the page was checked over HTTP only")
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                              "--virtual-time-budget=3000", url + "/"], capture_output=True, text=True,
                             timeout=120, check=False).stdout
        assert "found 'pokr'" in dom and "spells-ja.svg" in dom  # the banner and the last good previews
        shown = re.search(r'src="(/preview/spells-en\.svg\?v=[^"]+)"', dom)  # the edited card, still shown
        assert shown is not None and b"Cinder" in urllib.request.urlopen(url + shown.group(1), timeout=10).read()
    finally:
        server.shutdown()
        server.server_close()


def test_json_lines_one_envelope_per_rebuild(tmp_path: Path) -> None:
    """`pnpgen watch --json`: stdout holds one JSON envelope per finished rebuild."""
    import os
    import sys

    folder = tmp_path / "content" / "kit-demo"
    shutil.copytree(DEMO, folder)
    process = subprocess.Popen([sys.executable, "-m", "pnpgen", "watch", "kit-demo", "--json", "--lang", "en",
                                "--content", str(folder.parent), "--out", str(tmp_path / "build")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        first = json.loads(process.stdout.readline())
        assert first["ok"] is True and first["errors"] == [] and first["version"] == 1
        time.sleep(1.0)  # the watcher is listening
        edit(folder / "deck.yaml", "size: poker", "size: pokr")
        broken = json.loads(process.stdout.readline())
        assert broken["ok"] is False and broken["version"] == 2
        (error,) = broken["errors"]
        assert error["file"] == str(folder / "deck.yaml") and error["line"] and "'pokr'" in error["message"]
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_shared_layouts_file_rebuilds_the_decks_that_use_it(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "harbour"
    shutil.copytree(ROOT / "tests" / "fixtures" / "harbour", folder)
    watcher = Watcher(folder, BuildOptions(out=tmp_path / "build", langs=("en",), content_root=folder.parent),
                      say=lambda _: None)
    assert watcher.build_all()
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,), daemon=True)
    thread.start()
    time.sleep(0.5)
    try:
        version = watcher.status.version
        edit(folder / "layouts.yaml", "HARBOUR NIGHT", "HARBOUR LIGHTS")
        wait_for(watcher, version)
        assert watcher.status.error is None and sorted(watcher.status.rebuilt) == ["harbour", "storm-promo"]
    finally:
        stop.set()
        thread.join(timeout=10)


def test_a_colour_typo_in_a_csv_keeps_the_last_good_files(watched: tuple[Watcher, Path]) -> None:
    """A CSV cell drawn by `fill: "{{ colour }}"` that is no colour: one line naming the
    layout line and the card; the watch goes on and nothing is written."""
    watcher, folder = watched
    before = mtimes(watcher.game_dir)
    version = watcher.status.version
    edit(folder / "cards.csv", "#e76f51", "grean")  # the first row's colour
    wait_for(watcher, version)
    error = watcher.status.error or ""
    assert error.startswith(f"{folder / 'deck.yaml'}:14:") and "(cards.csv:2)" in error
    assert "unknown colour 'grean'" in error and "internal error" not in error
    assert mtimes(watcher.game_dir) == before
    version = watcher.status.version
    edit(folder / "cards.csv", "grean", "#e76f52")
    wait_for(watcher, version)
    assert watcher.status.error is None and watcher.status.rebuilt == ["spells"]


def test_a_bug_in_a_rebuild_is_said_and_the_watch_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception that is not a content error (a bug) is one 'internal error' line; the
    last good files stay and the next rebuild runs."""
    folder = tmp_path / "content" / "kit-demo"
    shutil.copytree(DEMO, folder)
    said: list[str] = []
    watcher = Watcher(folder, BuildOptions(out=tmp_path / "build", content_root=folder.parent), say=said.append)
    assert watcher.build_all()
    before = mtimes(watcher.game_dir)

    def broken(*_: object) -> None:
        raise ValueError("a bug")

    with monkeypatch.context() as patch:
        patch.setattr(Watcher, "_render", broken)
        assert not watcher.rebuild(None)
    assert said[-1] == "internal error, please report: ValueError: a bug"
    assert watcher.status.error == said[-1] and mtimes(watcher.game_dir) == before
    assert watcher.rebuild(None) and watcher.status.error is None
