"""Pentactic boards as letter grids: ``.`` free, ``o`` disc, piece letters upper case for the
first seat and lower case for the others, ``*`` marks the last move. Columns a.., rows 1.. as in
the engine's cell tokens (``c5``)."""

from __future__ import annotations

from typing import Any

from i18n import t


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
