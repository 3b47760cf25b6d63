"""CSV files of a game folder (a deck's cards, a sheet's table), read strictly.

Every fault is one line naming the file and the row's line: a file over MAX_CSV_BYTES,
bytes that are not UTF-8, an unclosed quote, a header with a blank, repeated or
clashing column name, too many rows, columns or characters, a NUL character, and rows
whose cells do not match the header (more cells: a hint to quote a cell holding a comma).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import ContentError
from pnpgen.limits import MAX_CSV_BYTES, MAX_CSV_COLUMNS, MAX_CSV_ROWS, MAX_TEXT_CHARS
from pnpgen.words import LANGS


@dataclass(frozen=True)
class CsvTable:
    header: list[str]
    rows: list[tuple[list[str], int]]  # cells (stripped) and the line the row starts on


def field_pair(column: str) -> tuple[str, str] | None:
    """('name', 'en') for a column 'name_en': it also makes the two-language field 'name'."""
    base, _, lang = column.rpartition("_")
    return (base, lang) if base and lang in LANGS else None


def read_bytes(path: Path, shown: Path) -> bytes:
    """The file's bytes, refused over MAX_CSV_BYTES (never reading past the limit)."""
    too_big = ContentError(f"larger than {MAX_CSV_BYTES:,} bytes (the limit for a CSV file)", shown)
    try:
        if path.stat().st_size > MAX_CSV_BYTES:
            raise too_big
        with path.open("rb") as handle:
            data = handle.read(MAX_CSV_BYTES + 1)
    except OSError as error:
        raise ContentError(f"cannot read: {error.strerror or error}", shown) from None
    if len(data) > MAX_CSV_BYTES:
        raise too_big
    return data


def read_table(path: Path, shown: Path) -> CsvTable:
    """The header and the non-blank rows of a UTF-8 CSV file; `shown` names it in errors."""
    data = read_bytes(path, shown)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ContentError(f"not UTF-8 text ({error.reason}); save the file as UTF-8", shown, line) from None
    if "\0" in text:  # Python's csv keeps it in the cell; it would print as nothing, or break a PDF string
        raise ContentError("a NUL character (U+0000) is in this row; remove it", shown,
                           text.count("\n", 0, text.index("\0")) + 1)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    rows: list[tuple[list[str], int]] = []
    done = 0  # the last line read
    try:
        for cells in reader:
            start, done = done + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue  # blank rows are skipped (before the header too)
            _check_cells(cells, shown, start)
            if header is None:
                header = cells
                _check_header(header, shown, start)
                continue
            if len(rows) == MAX_CSV_ROWS:
                raise ContentError(f"more than {MAX_CSV_ROWS:,} rows (the limit for a CSV file)", shown, start)
            if len(cells) != len(header):
                more = "more" if len(cells) > len(header) else "fewer"
                hint = " (quote a cell that holds a comma: \"one, two\")" if (
                    len(cells) > len(header)) else ""
                raise ContentError(f"this row has {more} cells than the header row ({len(header)})"
                                   f"{hint}", shown, start)
            rows.append(([cell.strip() for cell in cells], start))
    except csv.Error as error:
        raise ContentError(_csv_problem(str(error)), shown, done + 1) from None
    if header is None:
        raise ContentError("the file is empty; its first row names the columns", shown, 1)
    return CsvTable(header, rows)


def _csv_problem(message: str) -> str:
    if "unexpected end of data" in message:
        return "a quoted cell that starts in this row is never closed (a '\"' is missing)"
    if "field larger than field limit" in message:
        return f"a cell longer than {MAX_TEXT_CHARS:,} characters (the limit)"
    return f"malformed CSV ({message})"


def _check_cells(cells: list[str], shown: Path, line: int) -> None:
    for cell in cells:
        if len(cell) > MAX_TEXT_CHARS:
            raise ContentError(f"a cell of {len(cell):,} characters; the limit is {MAX_TEXT_CHARS:,}", shown, line)


def _check_header(header: list[str], shown: Path, line: int) -> None:
    if len(header) > MAX_CSV_COLUMNS:
        raise ContentError(f"{len(header):,} columns; the limit is {MAX_CSV_COLUMNS:,}", shown, line)
    seen: dict[str, int] = {}
    for index, name in enumerate(header, 1):
        if not name.strip():
            raise ContentError(f"column {index} has no name in the header row", shown, line)
        if name in seen:
            raise ContentError(f"column '{name}' is named twice in the header row (columns {seen[name]} and "
                               f"{index})", shown, line)
        seen[name] = index
    for name in header:
        pair = field_pair(name)
        if pair and pair[0] in seen:
            raise ContentError(f"columns '{pair[0]}' and '{name}' both make the field '{pair[0]}'; rename one",
                               shown, line)
