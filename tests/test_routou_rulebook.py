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
    assert sorted(built) == ["rulebook-en", "rulebook-ja"]
    en = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(built["rulebook-en"]).pages)
    for text in ("Large placement", "L · r012345 · p102/345", "Decision 1",
                 "Decision 8", "Decision E2", "Appendix: move notation", "For referees", "Quick reference",
                 "c33:1@33,2@43",
                 "Stock cap 5", "6 in a row or 10 kills"):
        assert text in en, text
    ja = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(built["rulebook-ja"]).pages)
    for text in ("郎党配置（大）の例", "クイックリファレンス", "付録"):
        assert text in ja, text
