"""`pnpgen play GAME`: a local web table. The position drawn by the game's own drawing, its
legal moves as buttons, bots, seeded or hand-entered dice, undo and redo, a log in notation;
a referee page; one page per seat in a game with hidden information (docs/play.md).

table.py holds the game being played and what each seat may see; server.py serves it
(Starlette and uvicorn: `pip install 'pnpgen[play]'`); static/ holds the pages (plain HTML
and JS, no build step).
"""

from __future__ import annotations

INSTALL_HINT = "pnpgen play needs Starlette and uvicorn: pip install 'pnpgen[play]'"
