"""The end-of-match recap post (issue 21): when the publisher has posted a match's result, the
recap (``render.recap``: an animated GIF of the board, 三国杀's HP timeline) is built in a worker
thread in the background and posted into the match's thread in its channel's next free slot.

Best effort: a failure is logged and the match is over all the same; a restart between the result
post and the recap loses the recap. The host turns it off in the lobby (``RECAP_META`` = "off",
``LobbyButton`` op ``recap``).
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from i18n import t
from render.recap import recap
from service.models import MatchInfo

from .utils.board import MAX_FILE_BYTES, seat_names
from .utils.embeds import game_name

log = logging.getLogger(__name__)
#: ``match_meta`` key of the lobby switch ("off": no recap).
RECAP_META = "recap"


class Recaps:
    """Background recap builds of one publisher (kept so they are not garbage-collected)."""

    def __init__(self, publisher: Any) -> None:
        self.publisher = publisher
        self._tasks: set[asyncio.Task[None]] = set()

    def after_finish(self, match: MatchInfo, channel: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._post(match, channel), name=f"recap-{match.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self) -> None:
        """Until every recap in progress is posted (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _post(self, match: MatchInfo, channel: Any) -> None:
        service = self.publisher.service
        try:
            if await service.get_meta(match.id, RECAP_META) == "off":
                return
            timeline = await service.timeline(match.id)
            locale = match.locale
            names = seat_names(match)
            title = t(locale, "stats.recap.hp_title" if match.game == "sanguosha" else "stats.recap.title",
                      game=game_name(match.game, locale), match=match.id)

            def steps() -> Any:
                return ((view, [e.msg for e in events]) for view, events in timeline.views())

            made = await asyncio.to_thread(recap, match.game, len(timeline), timeline.view_at, steps, locale, names,
                                           title)
        except Exception:
            log.exception("recap failed", extra={"match": match.id})
            return
        if made is None or len(made[0]) > MAX_FILE_BYTES:
            return
        data, filename = made

        async def send() -> None:
            await channel.send(content=title, file=discord.File(io.BytesIO(data), filename=filename))

        self.publisher.pacer.defer(getattr(channel, "id", 0), ("recap", match.id), send)
