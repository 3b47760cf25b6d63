"""ROUTOU DICE rulebook: both languages build, with the examples, decisions, notation
appendix and quick reference, numbers drawn from game.yaml."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from pnpgen.content.game import load_game
from pnpgen.games import rules_for_content
from pnpgen.output import BuildOptions
from pnpgen.render.rulebook import check_rulebook, render_rulebooks

CONTENT = Path(__file__).resolve().parents[1] / "content" / "routou-dice"


def test_rulebook_builds_in_both_languages(tmp_path: Path) -> None:
    content = load_game(CONTENT)
    rules = rules_for_content(content)
    assert check_rulebook(content, rules) == []
    built = {f.path.stem: f.path for f in render_rulebooks(content, rules, BuildOptions(out=tmp_path, paper="B5"))}
    assert sorted(built) == ["companion-en", "companion-ja", "rulebook-en", "rulebook-ja"]

    def text(name: str) -> str:
        return " ".join(" ".join(p.extract_text().replace("\u00a0", " ").split()) for p in PdfReader(built[name]).pages)

    en, companion = text("rulebook-en"), text("companion-en")
    for words in ("Large placement", "Quick reference", "Stock cap 5", "6 in a row or 10 kills"):
        assert words in en, words
    for words in ("L · r012345 · p102/345", "Decision 1", "Decision 8", "Decision E2", "For referees",
                  "Appendix: move notation", "c33:1@33,2@43"):  # the companion: notes, notation, rule numbers
        assert words in companion and words not in en, words
    ja = text("rulebook-ja")
    for words in ("郎党配置（大）の例", "クイックリファレンス"):
        assert words in ja, words
