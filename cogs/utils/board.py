"""Board images for messages: rendered off the event loop, never fatal when a renderer fails."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import Any

import discord

from render import has_renderer, render_board, render_step_picture
from service.models import MatchInfo

log = logging.getLogger(__name__)
#: Discord's default upload limit; a bigger image is left out rather than failing the post.
MAX_FILE_BYTES = 10 * 1024 * 1024


def seat_names(match: MatchInfo) -> list[str]:
    return [s.name for s in sorted(match.seats, key=lambda s: s.seat)]


async def _png_file(match: MatchInfo, draw: Callable[[], bytes | None], filename: str) -> discord.File | None:
    """Run a renderer in a worker thread (tens of ms of CPU must not stall the gateway heartbeat
    or other interactions); a failing, empty or too-big image is left out, never fatal."""
    try:
        png = await asyncio.to_thread(draw)
    except Exception:
        log.exception("render failed", extra={"match": match.id})
        return None
    if png is None:
        return None
    if len(png) > MAX_FILE_BYTES:
        log.warning("board image too big", extra={"match": match.id, "bytes": len(png)})
        return None
    return discord.File(io.BytesIO(png), filename=filename)


async def board_file(match: MatchInfo, view: dict[str, Any], locale: str, *, filename: str = "board.png",
                     overlay: dict[str, Any] | None = None) -> discord.File | None:
    """The rendered view as an attachment, or None (no renderer, renderer error, too big)."""
    game = view.get("game", match.game)
    if not has_renderer(game):
        return None
    view = {**view, "game": game}
    return await _png_file(match, lambda: render_board(view, locale, seat_names(match), overlay), filename)


async def step_picture_file(match: MatchInfo, view: dict[str, Any], picture: dict[str, Any], locale: str, *,
                            filename: str = "step.png") -> discord.File | None:
    """The picture an engine step asks for (which way a piece turns, where a cell puts it)."""
    view = {**view, "game": view.get("game", match.game)}
    return await _png_file(match, lambda: render_step_picture(view, picture, locale, seat_names(match)), filename)
