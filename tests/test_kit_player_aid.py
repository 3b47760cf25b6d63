"""Burning Desire player aids: one poker card per seat, the score table in Japanese and
English taken from the rules data, one shared back."""

from __future__ import annotations

import shutil
from pathlib import Path

from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.kit import components, is_localized, jobs
from pnpgen.render.kit.deck import render
from tests.conftest import ROOT
from tests.kit_pdf import MM, box_mm, drawing, texts, unembedded_fonts


def build_player_aid(folder: Path, out: Path) -> Path:
    content = load_game(folder)
    rules = rules_for_content(content)
    aid = next(c for c in components(content) if c["id"] == "player-aid")
    assert not is_localized(aid, content)  # both languages on every card: one file
    [job] = jobs(content, rules, BuildOptions(out=out), aid)
    built, shifted = render(aid, job)  # the deck, and its backs moved for each calibration reading
    assert shifted.path.name == "player-aid-backs-shifted.pdf"
    return built.path


def test_one_card_per_seat_with_both_score_tables(tmp_path: Path) -> None:
    content = load_game(ROOT / "content" / "burning-desire")
    seats = content.data["players"]["max"]
    path = build_player_aid(content.folder, tmp_path)
    assert path.name == "player-aid.pdf"
    reader = PdfReader(str(path))
    fronts = reader.pages[0].extract_text()
    for seat in range(1, seats + 1):
        assert f"プレイヤー{seat}" in fronts and f"Player {seat}" in fronts
    assert f"Player {seats + 1}" not in fronts
    # each card: a 88 × 63 mm poker card turned landscape
    clips = [tuple(v / MM for v in c) for c in drawing(reader, 0).clips]
    assert len(clips) == seats
    trim = box_mm(reader.pages[0].trimbox)
    assert abs((trim[2] - trim[0]) - 3 * 88) < 0.1  # three cards side by side
    # the score table, from game.yaml, in both languages on every card
    rules = rules_for_content(content)[0]
    for lang in ("ja", "en"):
        table = rules.rulebook_table("scores", lang)
        assert fronts.count(table[0][0]) == seats  # the header, once per card
    points = [str(p) for combo in content.data["rules"]["combinations"] for p in combo["points"]]
    runs = [t for t, _x, _y in texts(reader, 0)]
    for value in set(points):
        assert runs.count(value) >= 2 * seats * points.count(value)  # ja and en table on each card
    assert "1000" in fronts  # the threshold, from the rules
    # one shared back behind every card
    backs = [t for t, _x, _y in texts(reader, 1)]
    assert backs.count("BURNING DESIRE") == seats
    assert unembedded_fonts(path) == []


def test_seats_and_points_follow_game_yaml(tmp_path: Path) -> None:
    folder = tmp_path / "content" / "burning-desire"
    shutil.copytree(ROOT / "content" / "burning-desire", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    text = text.replace("players: {min: 2, max: 5}", "players: {min: 2, max: 3}")
    text = text.replace("points: [10, 25, 60, 120, 250, 500]", "points: [10, 25, 60, 120, 250, 777]")
    game.write_text(text, encoding="utf-8")
    reader = PdfReader(str(build_player_aid(folder, tmp_path / "build")))
    fronts = reader.pages[0].extract_text()
    assert "Player 3" in fronts and "Player 4" not in fronts
    runs = [t for t, _x, _y in texts(reader, 0)]
    assert runs.count("777") == 2 * 3 and "500" not in runs
