"""Board images for messages: rendered off the event loop, never fatal when a renderer fails."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from render import has_renderer, render_board
from service.models import MatchInfo

log = logging.getLogger(__name__)
#: Discord's default upload limit; a bigger image is left out rather than failing the post.
MAX_FILE_BYTES = 10 * 1024 * 1024


def seat_names(match: MatchInfo) -> list[str]:
    return [s.name for s in sorted(match.seats, key=lambda s: s.seat)]


async def board_file(match: MatchInfo, view: dict[str, Any], locale: str, *, filename: str = "board.png",
                     overlay: dict[str, Any] | None = None) -> discord.File | None:
    """The rendered view as an attachment, or None (no renderer, renderer error, too big).

    Rendering takes tens of milliseconds of CPU, so it runs in a worker thread to keep the
    gateway heartbeat and other interactions responsive.
    """
    game = view.get("game", match.game)
    if not has_renderer(game):
        return None
    view = {**view, "game": game}
    try:
        png = await asyncio.to_thread(render_board, view, locale, seat_names(match), overlay)
    except Exception:
        log.exception("render failed", extra={"match": match.id})
        return None
    if len(png) > MAX_FILE_BYTES:
        log.warning("board image too big", extra={"match": match.id, "bytes": len(png)})
        return None
    return discord.File(io.BytesIO(png), filename=filename)
