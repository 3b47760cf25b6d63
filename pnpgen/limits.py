"""Budgets on everything content, a state file or a CLI option can make large.

Content is untrusted: a game folder written by someone else must not hang a build or
exhaust memory. Each limit is far above what a real game needs (the reason is beside
it) and breaking one is a one-line error naming the file, line and the limit.
docs/limits.md lists them for designers.
"""

from __future__ import annotations

# --- any file a build or the referee reads -------------------------------------------------
MAX_YAML_BYTES = 2_000_000  # the largest content YAML is ~40 KB; 50x room
MAX_CSV_BYTES = 2_000_000  # a 2,000-card CSV with long texts is ~0.5 MB
MAX_STATE_BYTES = 1_000_000  # the largest state file (a race) is ~5 KB
MAX_IMAGE_BYTES = 50_000_000  # a 600 dpi A3 PNG is ~30 MB
MAX_DEPTH = 40  # nesting of YAML mappings/lists; real content nests 8 deep
MAX_TEXT_CHARS = 20_000  # one string; the longest rulebook paragraph is ~1,500 characters
MAX_INT = 2**53  # any integer in content or a state: exact in a float, far beyond any count
MAX_CSV_ROWS = 5_000  # rows in one CSV file
MAX_CSV_COLUMNS = 200

# --- counts a build multiplies out ---------------------------------------------------------
MAX_PLAYERS = 100  # seats; the largest seed game seats 6
MAX_COPIES = 1_000  # copies of one card
MAX_CARDS = 5_000  # cards in one deck after copies (a 100-page print at 3x3 is 900)
MAX_REPEAT = 1_000  # repeated rows or blocks on a sheet
MAX_GRID_CELLS = 10_000  # cells on one board (100x100)
MAX_PAGES = 2_000  # pages in one output file
MAX_LENGTH_MM = 5_000.0  # any length in content (a 5 m banner); sizes must also be > 0 where they size a box
MAX_FONT_PT = 500.0
MAX_IMAGE_PIXELS = 100_000_000  # ~A2 at 600 dpi; Pillow's own bomb guard is 89 MP
MAX_IMAGE_MEMORY = 300_000_000  # bytes one decoded PNG/JPEG may take (pixels x bytes a pixel): an A3 page at
#                                 600 dpi is 278 MB at 4 bytes a pixel; a build holds a few copies of it
MAX_SHRINK_STEPS = 60  # text shrinking to fit halves its step; 60 steps is far below 0.1 pt

# --- templates -----------------------------------------------------------------------------
MAX_TEMPLATE_OUTPUT = 100_000  # characters one template may produce
MAX_TEMPLATE_STEPS = 10_000  # loop iterations one template may run

# --- simulation and referee ----------------------------------------------------------------
MAX_GAMES = 10_000_000  # --games; a million games is a long night
MAX_WORKERS = 256  # --workers is 1 to this (0 is refused, not read as "the default")
MAX_MCTS_ITERATIONS = 1_000_000  # mcts:N; the default is 200 and a strong bot ~10,000 (a skill check plays 4x)
MAX_SKILL_GAMES = 100_000  # --skill-games is 1 to this, as game.yaml's skill_games; reports spend ~100

# --- print kit ---
MAX_PER_PAGE = 1_000  # cards or sheets imposed on one page (10 mm counters on A4 are 20 x 28 = 560)
MAX_DRAWS = 200_000  # cells, labels, boxes and card elements drawn into one output file (kit-demo's largest: 868)

# --- rulebook templates ---
MAX_TEMPLATE_DEPTH = 16  # nesting of tags and expressions in one text; real rulebook text nests 6
MAX_TEMPLATE_WORK = 200_000  # loop iterations x nodes in the loop body (< 0.3 s); real text does 26

# --- images ---------------------------------------------------------------------------------
MAX_SVG_BYTES = 10_000_000  # a detailed Inkscape drawing is ~1 MB; embedded base64 PNGs grow it
MAX_SVG_ELEMENTS = 20_000  # elements one SVG draws (<use> copies count); art has thousands; svglib reads ~7,000/s
MAX_SVG_DEPTH = 50  # nesting of an SVG's elements as drawn (<use> copies included); Inkscape art nests ~10
MAX_SVG_TEXT_CHARS = 20_000  # characters in one SVG element's text (as MAX_TEXT_CHARS); Pillow fails past ~1M
MAX_SVG_SIDE = 1_000_000.0  # an SVG's declared width/height in its own units (also >= 1/1000)
MAX_PREVIEW_PIXELS = 25_000_000  # one preview PNG; a 5 m board is drawn at a lower resolution
MAX_PREVIEW_SHAPES = 100_000  # SVG shapes drawn into one preview (a deck's faces share it); then grey boxes
MAX_LEADING = 10.0  # text line height as a multiple of its size; books use 1.2 to 2
