"""Plain-text pictures of a view for the terminal.

A game may ship ``cli/ascii_<slug>.py`` with ``render(view, names, locale) -> list[str]``; every
other game gets the generic fallback, which prints scalars as ``key: value``, 2-D grids as grids
and everything else as compact JSON, so a new engine is playable in the terminal on day one.
"""

from __future__ import annotations

import json
from importlib import import_module
from types import ModuleType
from typing import Any

from engines.base import Option


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

