"""Pillow renderers. They receive engine *views* only (never full state), so an image cannot
leak hidden information.

``render_board(view, locale, names, overlay=None) -> bytes`` (PNG) dispatches on ``view["game"]``
to ``render/<game>.py``'s ``render(view, locale, names, overlay)``. ``names`` are the seats' display
names (the engine does not know them). ``overlay`` is game-specific (a Pentactic placement preview).

``render_step_picture(view, picture, locale, names) -> bytes | None`` draws an engine step's
``Step.picture`` (which way a piece can be turned, where each corner cell puts it) through
``render/<game>.py``'s ``render_step_picture`` when the game has one.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


def render_board(view: dict[str, Any], locale: str, names: list[str],
                 overlay: dict[str, Any] | None = None) -> bytes:
    module = import_module(f"render.{view['game']}")
    return module.render(view, locale, names, overlay)


def render_step_picture(view: dict[str, Any], picture: dict[str, Any], locale: str,
                        names: list[str]) -> bytes | None:
    """The PNG for ``picture`` (a ``Step.picture``), or None when the game draws no such pictures.

    A picture is a help next to buttons that already work, so a game without a renderer or
    without step pictures is not an error.
    """
    try:
        module = import_module(f"render.{view['game']}")
    except ImportError:
        return None
    draw = getattr(module, "render_step_picture", None)
    return None if draw is None else draw(view, picture, locale, names)


def has_renderer(game: str) -> bool:
    try:
        import_module(f"render.{game}")
    except ImportError:
        return False
    return True
