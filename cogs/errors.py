"""One error path for slash commands and one for components.

A :class:`~service.errors.UserError` is the user's mistake: answered ephemerally, one line, in the
user's language (a click on a dead ephemeral step message: that message becomes the line).
Anything else is our bug: logged with the match id (never shown as a traceback) and answered
with an apology. Cogs record the match they work on in ``interaction.extras["match"]``
so the log line names it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

import discord
from discord import app_commands
from discord.ext import commands

from engines.base import EngineError
from i18n import t, tm
from service.errors import UserError

from .utils.dynamic import STALE, is_claimed
from .utils.ids import BadCustomId, check_match_id
from .utils.replies import replace_clicked_ephemeral, reply, user_locale
from .utils.userprefs import remember_locale

log = logging.getLogger(__name__)
#: Refusals after which a clicked step can never be played: its request was answered or replaced,
#: the match is over, or the player resigned (the AI plays the seat). On an ephemeral message the
#: refusal replaces the message, buttons and all, so it is answered once and not on every click.
FINAL_REFUSALS = frozenset({STALE, "core.err.not_active", "core.err.resigned"})


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError | commands.CommandInvokeError) and error.original:
        error = error.original
    return error


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong, translated and ephemeral; log what is unexpected."""
    error = _unwrap(error)
    locale = user_locale(interaction)
    match_id = interaction.extras.get("match")
    if isinstance(error, EngineError):
        error = UserError.from_engine(error)
    elif isinstance(error, BadCustomId):  # a custom id we never wrote: forged, or another version's
        error = UserError(STALE)
    if isinstance(error, UserError):
        text = tm(locale, error.msg)
    elif isinstance(error, app_commands.CommandOnCooldown):
        text = t(locale, "discord.err.cooldown", seconds=int(error.retry_after) + 1)
    elif isinstance(error, app_commands.CheckFailure):
        text = t(locale, "discord.err.not_allowed")
    elif isinstance(error, ShuttingDown):
        text = t(locale, "discord.err.shutting_down")
    else:
        log.error("unexpected error", exc_info=error,
                  extra={"match": match_id, "user": interaction.user.id if interaction.user else None,
                         "custom_id": (interaction.data or {}).get("custom_id"),
                         "command": interaction.command.qualified_name if interaction.command else None})
        text = t(locale, "core.err.unexpected", match=match_id if match_id is not None else "-")
    if (isinstance(error, UserError) and error.msg.key in FINAL_REFUSALS
            and await replace_clicked_ephemeral(interaction, text)):
        return
    try:
        await reply(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver error message", extra={"match": match_id})


class ShuttingDown(Exception):
    """Raised for interactions that arrive while the bot is closing."""


async def guarded(interaction: discord.Interaction, match_id: int | None, work: Awaitable[None]) -> None:
    """Run a component callback: refuse during shutdown, count it as in flight, answer errors."""
    interaction.extras["match"] = match_id
    bot = interaction.client
    tracker = getattr(bot, "inflight", None)
    try:
        if getattr(bot, "closing_down", False):
            raise ShuttingDown()
        if match_id is not None:
            check_match_id(match_id)
        if tracker is not None:
            async with tracker:
                await work
        else:
            await work
    except Exception as exc:  # every failure gets an answer, never a traceback
        await answer_error(interaction, exc)
    finally:
        await remember_locale(bot, interaction)
        close = getattr(work, "close", None)
        if close is not None:
            close()  # never-awaited coroutine (refused during shutdown) must not warn


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """The catch-all for component clicks none of our DynamicItems takes (an id of another
    format, a forged one, a component the message does not have): discord.py would drop them and
    the user would see "This interaction failed"; they get the one-line "out of date" answer."""
    if interaction.type is not discord.InteractionType.component or interaction.response.is_done():
        return
    bot = interaction.client
    if is_claimed(interaction, list(getattr(bot, "dynamic_templates", ()))):
        return
    log.info("unclaimed component", extra={"custom_id": str((interaction.data or {}).get("custom_id"))[:100],
                                           "user": interaction.user.id if interaction.user else None})
    await answer_error(interaction, UserError(STALE))


async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    await answer_error(interaction, error)


async def setup(bot: commands.Bot) -> None:
    bot.tree.on_error = on_tree_error
    bot.add_listener(answer_unclaimed, "on_interaction")
