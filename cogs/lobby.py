"""/play and the lobby message: seats, options, turn time, Start (thread creation).

The lobby lives in one public message whose buttons and selects carry the match id; every change
re-renders the embed and components from the MatchInfo the service returns.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engines import registry
from engines.base import Engine, OptionSpec
from i18n import has, t
from service import reaction
from service.errors import UserError
from service.models import MatchInfo

from .errors import guarded
from .utils import ids
from .utils.dynamic import CustomIdGroups, chosen_value
from .utils.embeds import game_name, lobby_embed
from .utils.layout import (
    DEFAULT_TURN_SECONDS,
    TURN_CHOICES,
    ai_level_name,
    ai_level_picker,
    extra_option_layout,
    lobby_layout,
)
from .utils.perms import describe_missing, missing_for_match
from .utils.replies import user_locale
from .utils.text import clamp, safe_name
from .utils.translator import ls
from .utils.views import build_view

log = logging.getLogger(__name__)
#: Longest auto-archive Discord offers (7 days): weeks-long games go quiet for days.
ARCHIVE_MINUTES = 10080
THREAD_NAME_MAX = 100


def game_choices() -> list[app_commands.Choice[str]]:
    """One choice per available engine, named from the game's catalog (localized by the translator)."""
    out = []
    for slug in registry.available()[:25]:
        key = f"{slug}.name" if has(f"{slug}.name") else f"discord.game.{slug}"
        out.append(app_commands.Choice(name=app_commands.locale_str(game_name(slug, "en"), key=key), value=slug))
    return out


def match_locale(interaction: discord.Interaction, default: str) -> str:
    """The language of a match's public posts: the host's client language when it is Chinese,
    else the server's DEFAULT_LANGUAGE.

    A Chinese client is a deliberate choice; English is what most clients have by default, so
    it should not override a server owner who set DEFAULT_LANGUAGE to Chinese.
    """
    if str(interaction.locale or "").startswith("zh"):
        return user_locale(interaction)
    return default


def shown_specs(engine: Engine, options: dict[str, str]) -> list[OptionSpec]:
    """The lobby selects worth showing for the current choices.

    ``Engine.visible_options`` names the options that matter for these choices (Pentactic's deal
    only in the solo mode). Hidden options keep their value, they just are not offered.
    """
    specs = reaction.lobby_specs(engine)
    current = {s.name: options.get(s.name, s.default) for s in specs}
    names = {*engine.visible_options(current), reaction.OPTION}
    return [s for s in specs if s.name in names]


def lobby_message(match: MatchInfo, locale: str) -> dict[str, Any]:
    engine = registry.get(match.game)
    view = build_view(lobby_layout(match, shown_specs(engine, match.options), locale)) \
        if match.status == "lobby" else None
    return {"embed": lobby_embed(match, engine, locale), "view": view}


async def refresh_lobby(bot: commands.Bot, match: MatchInfo) -> None:
    """Edit the lobby message from outside its own interaction (publisher, extra-options select)."""
    if not match.lobby_message_id or not match.channel_id:
        return
    channel = bot.get_partial_messageable(match.channel_id)
    try:
        await channel.get_partial_message(match.lobby_message_id).edit(**lobby_message(match, match.locale))
    except discord.HTTPException:
        log.warning("could not refresh lobby message", extra={"match": match.id})


async def _make_thread(interaction: discord.Interaction, match: MatchInfo) -> discord.Thread | None:
    """A public thread on the lobby message when the channel and our permissions allow it."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or interaction.message is None:
        return None
    me = channel.guild.me
    if me is not None and not channel.permissions_for(me).create_public_threads:
        return None
    name = clamp(t(match.locale, "discord.thread.name", game=game_name(match.game, match.locale),
                   match=match.id), THREAD_NAME_MAX)
    try:
        return await interaction.message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException:
        log.warning("thread creation failed; playing in the channel", extra={"match": match.id})
        return None


def _check_startable(match: MatchInfo, engine: Engine, user_id: int) -> None:
    """Refuse early (before a thread is made) what the service would refuse anyway."""
    if match.status != "lobby":
        raise UserError("core.err.already_started")
    if match.host_id != user_id:
        raise UserError("core.err.not_host")
    low, high = engine.seat_range(match.options)
    if not low <= len(match.seats) <= high:
        raise UserError("core.err.seat_count", min=low, max=high, count=len(match.seats))


#: Matches whose Start this process is handling. A second click (a double-click, two tabs) is
#: refused as "already started" before any Discord call: otherwise both clicks would ask Discord
#: for a thread on the same message (400, code 160004) and one would end in the apology.
_STARTING: set[int] = set()


async def start_match(interaction: discord.Interaction, match_id: int) -> None:
    if match_id in _STARTING:  # claimed with no await in between: the two clicks cannot both pass
        raise UserError("core.err.already_started")
    _STARTING.add(match_id)
    try:
        await _start(interaction, match_id)
    finally:
        _STARTING.discard(match_id)


async def _start(interaction: discord.Interaction, match_id: int) -> None:
    service = interaction.client.service  # type: ignore[attr-defined]
    uid = interaction.user.id
    match = await service.get(match_id)
    _check_startable(match, registry.get(match.game), uid)  # before deferring: errors answer at once
    await interaction.response.defer()
    if match.thread_id is None:
        thread = await _make_thread(interaction, match)
        if thread is not None:
            await service.set_location(match_id, thread_id=thread.id)
    match = await service.start(match_id, uid)
    log.info("match started", extra={"match": match_id, "thread_id": match.thread_id, "seats": len(match.seats)})
    await interaction.edit_original_response(**lobby_message(match, match.locale))


class LobbyButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                  template=re.compile(ids.LOBBY_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.match_id, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        service = interaction.client.service  # type: ignore[attr-defined]
        mid, uid, op = self.match_id, interaction.user.id, self.groups["op"]
        if op == "start":
            await start_match(interaction, mid)
            return
        if op == "join":
            match = await service.join(mid, uid, interaction.user.display_name)
        elif op == "leave":
            match = await service.leave(mid, uid)
        elif op == "ai":
            match = await service.get(mid)
            levels = registry.get(match.game).ai_levels()
            if len(levels) > 1:
                await open_ai_picker(interaction, match, levels)
                return
            match = await service.add_ai(mid, uid)
        elif op == "unai":
            match = await service.remove_ai(mid, uid)
        elif op == "recap":
            await toggle_recap(interaction, mid)
            return
        elif op == "more":
            match = await service.get(mid)
            if match.host_id != uid:
                raise UserError("core.err.not_host")
            layout = extra_option_layout(match, shown_specs(registry.get(match.game), match.options),
                                         user_locale(interaction))
            await interaction.response.send_message(view=build_view(layout), ephemeral=True)
            return
        else:
            raise UserError("core.err.stale")
        await interaction.response.edit_message(**lobby_message(match, match.locale))
        if op == "join":
            await check_dms(interaction, match)


async def open_ai_picker(interaction: discord.Interaction, match: MatchInfo, levels: list[str]) -> None:
    """The host's level picker, as an ephemeral message under the lobby (host only, before the
    start: checked here so a guest is told at once rather than on the level's click)."""
    if match.host_id != interaction.user.id:
        raise UserError("core.err.not_host")
    if match.status != "lobby":
        raise UserError("core.err.stale")
    content, layout = ai_level_picker(match, levels, user_locale(interaction))
    await interaction.response.send_message(content, view=build_view(layout), ephemeral=True)


class LobbyAiButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                    template=re.compile(ids.LOBBY_AI_TEMPLATE)):
    """A level in the picker: adds an AI seat at that level (the service checks host, lobby and
    level) and keeps the picker open with a line saying what was added."""

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = interaction.client.service  # type: ignore[attr-defined]
            level = self.groups["level"]
            match = await service.add_ai(self.match_id, interaction.user.id, level)
            locale = user_locale(interaction)
            seat = match.seats[-1]
            added = t(locale, "discord.lobby.ai_added", name=safe_name(seat.name),
                      level=ai_level_name(level, locale))
            content, layout = ai_level_picker(match, registry.get(match.game).ai_levels(), locale, added)
            # The lobby message follows by the publisher: the seat change is a published "lobby"
            # change, paced with the channel's other edits (an edit from here too made a burst of
            # clicks answer 429, and waiting on it made a click miss Discord's 3 s).
            await interaction.response.edit_message(content=content, view=build_view(layout))
        await guarded(interaction, self.match_id, work())


async def toggle_recap(interaction: discord.Interaction, match_id: int) -> None:
    """The lobby's recap switch (host only, before the start): on by default, each click flips it."""
    from .recap import RECAP_META

    service = interaction.client.service  # type: ignore[attr-defined]
    match = await service.get(match_id)
    if match.host_id != interaction.user.id:
        raise UserError("core.err.not_host")
    if match.status != "lobby":
        raise UserError("core.err.stale")
    off = await service.get_meta(match_id, RECAP_META) != "off"
    await service.set_meta(match_id, RECAP_META, "off" if off else None)
    key = "stats.recap.switched_off" if off else "stats.recap.switched_on"
    await interaction.response.send_message(t(user_locale(interaction), key, match=match_id), ephemeral=True)


async def check_dms(interaction: discord.Interaction, match: MatchInfo) -> None:
    """Before a game with hidden information starts, make sure the bot can DM this player: a
    short DM says where the private cards and missions will arrive; when DMs are closed the
    player is told privately now (and the thread names them at the start), so they can open
    them or use /match hand."""
    engine = registry.get(match.game)
    if not engine.hidden_for(match.options):
        return
    publisher = getattr(interaction.client, "publisher", None)
    if publisher is None:
        return
    dm_locale = user_locale(interaction)
    text = t(dm_locale, "discord.lobby.dm_hello", game=game_name(match.game, dm_locale), match=match.id)
    if await publisher.try_dm(interaction.user.id, text, match_id=match.id) is False:
        await interaction.followup.send(t(dm_locale, "discord.lobby.dm_closed"), ephemeral=True)


async def _after_setting(interaction: discord.Interaction, match: MatchInfo) -> None:
    """Re-render where the select was: the lobby itself, or the ephemeral extra-options message.

    The lobby is known by its id, or by not being ephemeral: a select may come before /play has
    recorded that id (a quick first click: the store answers in about a millisecond; or a click
    reaching another shard's process), and treating the lobby as the extra-options message would
    strip its buttons."""
    message = interaction.message
    if message is not None and (message.id == match.lobby_message_id or not message.flags.ephemeral):
        await interaction.response.edit_message(**lobby_message(match, match.locale))
        return
    layout = extra_option_layout(match, shown_specs(registry.get(match.game), match.options),
                                 user_locale(interaction))
    await interaction.response.edit_message(view=build_view(layout))
    await refresh_lobby(interaction.client, match)  # type: ignore[arg-type]


class LobbyOptionSelect(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Select],
                        template=re.compile(ids.LOBBY_OPTION_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            value = chosen_value(interaction)
            service = interaction.client.service  # type: ignore[attr-defined]
            name = ids.decode_token(self.groups["name"])
            match = await service.set_option(self.match_id, interaction.user.id, name, value)
            await _after_setting(interaction, match)
        await guarded(interaction, self.match_id, work())


class LobbyTurnSelect(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Select],
                      template=re.compile(ids.LOBBY_TURN_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            value = chosen_value(interaction)
            # isascii: '²'.isdigit() is true, but int('²') raises.
            seconds = int(value) if value.isascii() and value.isdigit() else 0
            if seconds not in TURN_CHOICES:
                raise UserError("core.err.stale")
            service = interaction.client.service  # type: ignore[attr-defined]
            match = await service.set_turn_seconds(self.match_id, interaction.user.id, seconds)
            await _after_setting(interaction, match)
        await guarded(interaction, self.match_id, work())


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LobbyButton, LobbyOptionSelect, LobbyTurnSelect,
                                                                LobbyAiButton)
GAME_CHOICES = game_choices()
# Discord rejects an empty choice list: with no engine importable the option stays free text.
with_game_choices = app_commands.choices(game=GAME_CHOICES) if GAME_CHOICES else (lambda f: f)


class Lobby(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("discord.cmd.play.name"), description=ls("discord.cmd.play.desc"))
    @app_commands.rename(game=ls("discord.cmd.play.game.name"))
    @app_commands.describe(game=ls("discord.cmd.play.game.desc"))
    @with_game_choices
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: str) -> None:
        if game not in registry.available():
            raise UserError("core.err.unknown_game", game=game)
        missing = missing_for_match(interaction.app_permissions,
                                    in_thread=isinstance(interaction.channel, discord.Thread))
        if missing:
            raise UserError("discord.err.missing_permissions",
                            perms=describe_missing(missing, user_locale(interaction)))
        service = self.bot.service  # type: ignore[attr-defined]
        locale = match_locale(interaction, self.bot.settings.default_language)  # type: ignore[attr-defined]
        match = await service.create_lobby(
            game, host_id=interaction.user.id, host_name=interaction.user.display_name, locale=locale,
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, turn_seconds=DEFAULT_TURN_SECONDS,
        )
        interaction.extras["match"] = match.id
        log.info("lobby opened", extra={"match": match.id, "game": game, "user": interaction.user.id,
                                        "guild": interaction.guild_id})
        try:
            await interaction.response.send_message(**lobby_message(match, locale))
            message = await interaction.original_response()
            await service.set_location(match.id, lobby_message_id=message.id)
        except Exception:
            # A lobby nobody can see must not hold one of the channel's open-lobby slots.
            await service.discard_lobby(match.id)
            raise
        await check_dms(interaction, match)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
