"""Where a match is posted: its thread, woken up when it went quiet.

Shared by the publisher (every post) and ``/match spectate`` (joining the thread), so a
weeks-long game's archived thread is found and revived the same way by both.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from service.models import MatchInfo

log = logging.getLogger(__name__)


async def match_channel(bot: commands.Bot | discord.Client, match: MatchInfo) -> discord.abc.Messageable | None:
    """The match's thread (unarchived first: weeks-long games go quiet) or its channel; None when
    it is gone or hidden from the bot."""
    where = match.where
    if where is None:
        return None
    channel = bot.get_channel(where)
    if channel is None:
        try:
            channel = await bot.fetch_channel(where)
        except (discord.NotFound, discord.Forbidden):
            return None
    if getattr(channel, "archived", False) and not getattr(channel, "locked", False):  # a quiet thread
        try:
            channel = await channel.edit(archived=False)  # type: ignore[union-attr]
        except discord.HTTPException:
            log.warning("could not unarchive thread", extra={"match": match.id})
    return channel  # type: ignore[return-value]
