"""The words the renderer itself prints (rulebook labels, the check ruler, deck and board
captions), in every language: render.words.yaml, read once."""

from __future__ import annotations

from pathlib import Path

from pnpgen.words import Words

WORDS = Words.load(Path(__file__).with_name("render.words.yaml"))
