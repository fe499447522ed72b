"""Pillow renderers. They receive engine *views* only (never full state), so an image cannot
leak hidden information.

``render_board(view, locale, names, overlay=None) -> bytes`` (PNG) dispatches on ``view["game"]``
to ``render/<game>.py``'s ``render(view, locale, names, overlay)``. ``names`` are the seats' display
names (the engine does not know them). ``overlay`` is game-specific (a Pentactic placement preview).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def render_board(view: dict[str, Any], locale: str, names: list[str],
                 overlay: dict[str, Any] | None = None) -> bytes:
    module = import_module(f"render.{view['game']}")
    return module.render(view, locale, names, overlay)


def has_renderer(game: str) -> bool:
    try:
        import_module(f"render.{game}")
    except ImportError:
        return False
    return True
