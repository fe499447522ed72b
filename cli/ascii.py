"""Plain-text pictures of a view for the terminal.

A game may ship ``cli/ascii_<slug>.py`` with ``render(view, names, locale) -> list[str]``; every
other game gets the generic fallback, which prints scalars as ``key: value``, 2-D grids as grids
and everything else as compact JSON, so a new engine is playable in the terminal on day one.
"""

from __future__ import annotations

import json
import unicodedata
from importlib import import_module
from types import ModuleType
from typing import Any

from engines.base import Option

#: The widest line a game's board packs short entries into (the option lists use it too).
LINE_WIDTH = 100


def display_width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` terminal columns."""
    return text + " " * max(0, width - display_width(text))


def table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Rows as aligned columns (by terminal width, so CJK names line up), two spaces apart."""
    widths = [max(display_width(r[i]) for r in rows if i < len(r)) for i in range(max(map(len, rows), default=0))]
    return [(indent + "  ".join(pad(cell, w) for cell, w in zip(row, widths, strict=False))).rstrip()
            for row in rows]


def packed(entries: list[str], width: int = LINE_WIDTH, indent: str = "  ") -> list[str]:
    """Short entries side by side in columns no wider than ``width`` (long lists stay on one
    screen)."""
    if not entries:
        return []
    cell = max(display_width(e) for e in entries) + 2
    per_row = max(1, (width - len(indent)) // cell)
    return [(indent + "".join(pad(e, cell) for e in entries[i:i + per_row])).rstrip()
            for i in range(0, len(entries), per_row)]


def side_by_side(blocks: list[list[str]], width: int, gap: int = 3, indent: str = "  ") -> list[str]:
    """Small drawings (each a list of rows, a caption first) next to each other, as many as fit
    in ``width`` columns, a blank line after each row of drawings: the shapes a choice offers
    seen at once, like the picture Discord shows."""
    lines: list[str] = []
    row: list[list[str]] = []

    def flush() -> None:
        if not row:
            return
        widths = [max(display_width(r) for r in b) for b in row]
        for r in range(max(len(b) for b in row)):
            cells = [pad(b[r] if r < len(b) else "", w) for b, w in zip(row, widths, strict=True)]
            lines.append((indent + (" " * gap).join(cells)).rstrip())
        lines.append("")
        row.clear()

    used = len(indent)
    for block in blocks:
        block_width = max(display_width(r) for r in block)
        if row and used + gap + block_width > width:
            flush()
            used = len(indent)
        used += (gap if row else 0) + block_width
        row.append(block)
    flush()
    return lines


def _is_grid(value: Any) -> bool:
    return (isinstance(value, list) and bool(value) and all(isinstance(r, list) for r in value)
            and all(not isinstance(c, list | dict) for r in value for c in r))


def _cell(value: Any) -> str:
    return "." if value is None else str(value)


def generic(view: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    grids: list[tuple[str, list[list[Any]]]] = []
    for key, value in view.items():
        if _is_grid(value):
            grids.append((key, value))
        elif isinstance(value, dict | list):
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")
        else:
            lines.append(f"{key}: {_cell(value)}")
    for key, grid in grids:
        width = max((len(_cell(c)) for r in grid for c in r), default=1)
        lines.append(f"{key}:")
        lines.extend("  " + " ".join(_cell(c).rjust(width) for c in row) for row in grid)
    return lines


def _module(game: str) -> ModuleType | None:
    if not game.isidentifier():
        return None
    try:
        return import_module(f"cli.ascii_{game}")
    except ModuleNotFoundError:
        return None


def covers_status(game: str) -> bool:
    """Whether the game's board already says what ``Engine.describe`` says (whose turn, each
    player's numbers), so the terminal prints the board alone instead of both."""
    return bool(getattr(_module(game), "COVERS_STATUS", False))


def render(view: dict[str, Any], names: list[str], locale: str) -> list[str]:
    """The game's own ASCII picture if it has one, else the generic dump."""
    module = _module(str(view.get("game", "")))
    if module is not None:
        return module.render(view, names, locale)
    return generic(view)


def render_step_picture(game: str, picture: dict[str, Any], options: list[Option], locale: str) -> list[str]:
    """Text art for a ``Step.picture`` (what the Discord front-end shows as an image), drawn by
    the game's ``render_step(picture, options, locale)``; nothing when the game has none. The
    picture only explains choices the numbered list already offers."""
    module = _module(game)
    draw = getattr(module, "render_step", None) if module is not None else None
    return [] if draw is None else draw(picture, options, locale)

