"""Pentactic boards as letter grids: ``.`` free, ``o`` disc, piece letters upper case for the
first seat and lower case for the others, ``*`` marks the last move. Columns a.., rows 1.. as in
the engine's cell tokens (``c5``)."""

from __future__ import annotations

from typing import Any

from cli.ascii import side_by_side
from engines.base import Option
from engines.pentactic import orientations
from i18n import t, tm

#: Columns between two drawn orientations, and the widest row of drawings before wrapping.
GAP = 3
PICTURE_WIDTH = 78


def _board(view: dict[str, Any], board: dict[str, Any]) -> list[str]:
    w, h = view["width"], view["height"]
    grid = [["." for _ in range(w)] for _ in range(h)]
    for disc in board["discs"]:
        x, y = disc["cell"]
        grid[y][x] = "o"
    for piece in board["pieces"]:
        letter = piece["piece"].upper() if piece["seat"] == 0 else piece["piece"].lower()
        for x, y in piece["cells"]:
            grid[y][x] = letter
    last = view.get("last")
    marked = {tuple(c) for c in last["cells"]} if last and last["board"] == board["owner"] else set()
    out = ["    " + " ".join(chr(ord("a") + x) + " " for x in range(w))]
    for y in range(h):
        cells = [grid[y][x] + ("*" if (x, y) in marked else " ") for x in range(w)]
        out.append(f"{y + 1:>3} " + " ".join(cells))
    return out


def render(view: dict[str, Any], names: list[str], locale: str) -> list[str]:
    lines: list[str] = []
    for board in view["boards"]:
        owner = board["owner"]
        name = names[owner] if isinstance(owner, int) and 0 <= owner < len(names) else str(owner)
        lines.append(t(locale, "core.cli.board_of", name=name))
        lines.extend(_board(view, board))
    for p in view["players"]:
        name = names[p["seat"]] if p["seat"] < len(names) else str(p["seat"])
        lines.append(t(locale, "core.cli.pentactic_player", name=name, pieces=" ".join(p["pieces_left"]) or "-",
                       discs=p["discs_left"], score="-" if p["score"] is None else p["score"]))
    return lines


def _shape_rows(cells: list[tuple[int, int]]) -> list[str]:
    """One orientation as rows of ``#`` (covered) and ``.`` (the rest of its bounding box)."""
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    covered = set(cells)
    return [" ".join("#" if (x, y) in covered else "." for x in range(w)) for y in range(h)]


def render_step(picture: dict[str, Any], options: list[Option], locale: str) -> list[str]:
    """The orientation choice drawn as text: each offered orientation under its menu number and
    label (``1. ↻1``), side by side, so the player sees the shapes the image shows on Discord.
    Other pictures (the labelled anchor squares) need no art: the board above already shows
    the squares by name."""
    if picture.get("kind") != "orientations":
        return []
    table = orientations(str(picture["piece"]))
    blocks: list[list[str]] = []
    for i, option in enumerate(options, 1):
        if not option.value.isdecimal() or int(option.value) >= len(table):
            continue
        rows = _shape_rows([(int(x), int(y)) for x, y in table[int(option.value)]])
        blocks.append([f"{i}. {tm(locale, option.label)}", *rows])
    return side_by_side(blocks, PICTURE_WIDTH, GAP)
