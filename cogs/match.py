"""/match … (status, hand, log, resign, leave, abandon, settings, spectate, history, export, replay) and /move.

Commands without ``match:`` act on the match of the current thread (or the user's only match);
the ``match`` option autocompletes the user's matches, those of the current channel first.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from engines import registry
from i18n import t, tm
from service.errors import UserError
from service.models import MatchInfo

from .lobby import refresh_lobby
from .play import play_path, step_message
from .replay import open_viewer, send_export, send_history
from .utils.board import board_file
from .utils.embeds import game_name, lines_embed, status_embed
from .utils.layout import turn_buttons
from .utils.matchq import order_for_channel, pending_of, pick_match
from .utils.panel import send_kwargs, wants_panel
from .utils.perms import manages_match, may_view_match
from .utils.replies import user_locale
from .utils.text import clamp, tm_text
from .utils.threads import match_channel
from .utils.translator import ls
from .utils.views import build_view

log = logging.getLogger(__name__)
LOG_EVENTS = 20
CHOICE_MAX = 100
NOTIFY_MODES = ("mention", "dm", "both", "none")
CommandFunc = TypeVar("CommandFunc")


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


async def _candidates(interaction: discord.Interaction, *, include_channel: bool = True,
                      finished: bool = False) -> list[MatchInfo]:
    """The user's matches (of this server; with ``finished``, ended ones too) and, with
    ``include_channel``, those of the current channel/thread that the user may see."""
    service = _service(interaction)
    found: dict[int, MatchInfo] = {m.id: m for m in await service.matches_for_user(interaction.user.id,
                                                                                    active_only=not finished)}
    if include_channel and interaction.channel_id is not None:
        for m in await service.matches_in_channel(interaction.channel_id):
            found.setdefault(m.id, m)
    here = [m for m in found.values() if interaction.guild_id is None or m.guild_id in (None, interaction.guild_id)]
    visible = [m for m in here if await may_view_match(interaction.client, m, interaction.user)]
    return order_for_channel(visible, interaction.channel_id)


async def resolve_match(interaction: discord.Interaction, match_id: int | None) -> MatchInfo:
    """The match a command is about (explicit id, else the thread's, else the user's only one)."""
    service = _service(interaction)
    if match_id is not None:
        match = await service.get(match_id)
    else:
        match = pick_match(await _candidates(interaction), interaction.user.id, interaction.channel_id)
        if match is None:
            raise UserError("discord.err.which_match")
    if interaction.guild_id is not None and match.guild_id not in (None, interaction.guild_id):
        raise UserError("discord.err.other_server")
    if not await may_view_match(interaction.client, match, interaction.user):
        raise UserError("core.err.no_match", match=match.id)  # as if it did not exist: ids are guessable
    interaction.extras["match"] = match.id
    return match


def match_choice_name(match: MatchInfo, locale: str) -> str:
    return clamp(t(locale, "discord.match.choice", match=match.id, game=game_name(match.game, locale),
                   status=t(locale, f"discord.match.status_{match.status}")), CHOICE_MAX)


async def match_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    return await _match_choices(interaction, current, finished=False)


async def _match_choices(interaction: discord.Interaction, current: str, *,
                         finished: bool) -> list[app_commands.Choice[int]]:
    """Matches named or numbered like ``current``; running ones first."""
    try:
        locale = user_locale(interaction)
        needle = current.strip().lstrip("#").lower()
        out = []
        for m in sorted(await _candidates(interaction, finished=finished),
                        key=lambda m: m.status in ("finished", "abandoned")):
            name = match_choice_name(m, locale)
            if needle and needle not in name.lower() and not str(m.id).startswith(needle):
                continue
            out.append(app_commands.Choice(name=name, value=m.id))
        return out[:25]
    except Exception:  # autocomplete must answer; errors show as "no options"
        log.exception("match autocomplete failed")
        return []


async def any_match_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """:func:`match_autocomplete` with the user's finished matches too (replay, export)."""
    return await _match_choices(interaction, current, finished=True)


def any_match_option(command: CommandFunc) -> CommandFunc:
    """``match:`` offering finished matches as well (apply below ``group.command``)."""
    command = app_commands.autocomplete(match=any_match_autocomplete)(command)
    command = app_commands.describe(match=ls("discord.opt.match.desc"))(command)
    return app_commands.rename(match=ls("discord.opt.match.name"))(command)


def match_option(command: CommandFunc) -> CommandFunc:
    """The ``match:`` option of every per-match command: localized name and description, and the
    user's matches as autocomplete (apply below ``group.command``)."""
    command = app_commands.autocomplete(match=match_autocomplete)(command)
    command = app_commands.describe(match=ls("discord.opt.match.desc"))(command)
    return app_commands.rename(match=ls("discord.opt.match.name"))(command)


async def action_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Next tokens of the user's pending request: value = tokens so far + the next token."""
    try:
        service = _service(interaction)
        locale = user_locale(interaction)
        match = await resolve_match(interaction, getattr(interaction.namespace, "match", None))
        reqs = await service.pending_for_user(match.id, interaction.user.id)
        if not reqs:
            return []
        tokens = current.split()
        if current.endswith(" ") or not tokens:
            prefix, partial = tokens, ""
        else:
            prefix, partial = tokens[:-1], tokens[-1].lower()
        step = await service.step(match.id, interaction.user.id, reqs[0], prefix)
        out: list[app_commands.Choice[str]] = []
        if step.complete and prefix and not partial:
            done = " ".join(prefix)
            out.append(app_commands.Choice(name=clamp(t(locale, "discord.move.complete", action=done), CHOICE_MAX),
                                           value=clamp(done, CHOICE_MAX)))
        for option in step.options:
            label = tm(locale, option.label)
            if partial and not (option.value.lower().startswith(partial) or partial in label.lower()):
                continue
            value = " ".join([*prefix, option.value])
            if len(value) > CHOICE_MAX:
                continue
            out.append(app_commands.Choice(name=clamp(f"{value} — {label}", CHOICE_MAX), value=value))
        return out[:25]
    except Exception:
        return []


async def send_private_view(interaction: discord.Interaction, info: MatchInfo) -> None:
    """The user's own private view (hand, mission), ephemeral: the answer for closed DMs too."""
    if info.seat_of(interaction.user.id) is None:
        raise UserError("core.err.not_a_player")
    if info.status == "lobby":
        raise UserError("core.err.not_started")
    locale = user_locale(interaction)
    publisher = getattr(interaction.client, "publisher", None)
    seat = next((s for s in info.seats if s.user_id == interaction.user.id), None)
    if wants_panel(info.game) and publisher is not None and seat is not None:
        # The same panel as the DM one (hand picture, the buttons to act), for closed DMs.
        async def send(**kwargs: Any) -> None:
            await interaction.followup.send(ephemeral=True, **send_kwargs(kwargs))

        await publisher.refresh_panel(info, seat, locale, None, message=send, record=False)
        return
    view = await _service(interaction).view_for_user(info.id, interaction.user.id)
    lines = [tm_text(locale, m, info.seats) for m in registry.get(info.game).private_summary(view)]
    embed = lines_embed(t(locale, "discord.hand.title", game=game_name(info.game, locale), match=info.id),
                        lines, empty=t(locale, "discord.hand.empty"))
    await interaction.followup.send(embed=embed, ephemeral=True)


async def follow_thread(bot: commands.Bot, match: MatchInfo, user: discord.abc.Snowflake) -> bool:
    """Add ``user`` to the match thread so its posts reach them; False where there is no thread
    to follow or Discord refuses (the snapshot they asked for is answered all the same)."""
    if match.thread_id is None or match.status != "active":
        return False
    thread = await match_channel(bot, match)
    if not isinstance(thread, discord.Thread):
        return False
    try:
        await thread.add_user(user)
    except discord.HTTPException as exc:
        log.info("could not add a spectator to the thread: %s", exc, extra={"match": match.id})
        return False
    return True


async def public_status(interaction: discord.Interaction, match: MatchInfo, *, with_turn: bool,
                        note: str | None = None) -> None:
    """Ephemeral board + describe lines + whose turn (+ the user's own "Take your turn")."""
    service = _service(interaction)
    locale = user_locale(interaction)
    engine = registry.get(match.game)
    if match.status == "lobby":
        raise UserError("core.err.not_started")
    view = await service.view(match.id, None)
    describe = [tm_text(locale, m, match.seats) for m in engine.describe(view)]
    pending = await pending_of(service, match)
    file = await board_file(match, view, locale)
    embed = status_embed(match, describe, pending, locale, image=file.filename if file else None)
    kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True}
    if note:
        kwargs["content"] = note
    if file is not None:
        kwargs["file"] = file
    if with_turn:
        mine = await service.pending_for_user(match.id, interaction.user.id) if match.status == "active" else []
        seat_name = next((s.name for s in match.seats if s.user_id == interaction.user.id), "")
        layout_view = build_view(turn_buttons(match.id, [(r, seat_name) for r in mine], locale))
        if layout_view is not None:
            kwargs["view"] = layout_view
    await interaction.followup.send(**kwargs)


class MatchCog(commands.Cog):
    group = app_commands.Group(name=ls("discord.cmd.match.name"), description=ls("discord.cmd.match.desc"),
                               guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(name=ls("discord.cmd.status.name"), description=ls("discord.cmd.status.desc"))
    @match_option
    async def status(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await public_status(interaction, await resolve_match(interaction, match), with_turn=True)

    @group.command(name=ls("discord.cmd.spectate.name"), description=ls("discord.cmd.spectate.desc"))
    @match_option
    async def spectate(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """The public board now, and the match thread joined so the next posts arrive too."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await resolve_match(interaction, match)
        note = None
        if await follow_thread(self.bot, info, interaction.user):
            note = t(user_locale(interaction), "discord.match.following", thread=f"<#{info.thread_id}>")
        await public_status(interaction, info, with_turn=False, note=note)

    @group.command(name=ls("discord.cmd.hand.name"), description=ls("discord.cmd.hand.desc"))
    @match_option
    async def hand(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_private_view(interaction, await resolve_match(interaction, match))

    @group.command(name=ls("discord.cmd.log.name"), description=ls("discord.cmd.log.desc"))
    @match_option
    async def log_(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await resolve_match(interaction, match)
        locale = user_locale(interaction)
        entries = sorted(await _service(interaction).log(info.id, LOG_EVENTS), key=lambda e: e.version)
        lines = [f"`{e.version}` {tm_text(locale, ev.msg, info.seats)}" for e in entries for ev in e.events if ev.to is None]
        embed = lines_embed(t(locale, "discord.log.title", game=game_name(info.game, locale), match=info.id),
                            lines[-LOG_EVENTS:], empty=t(locale, "discord.log.empty"))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @group.command(name=ls("discord.cmd.resign.name"), description=ls("discord.cmd.resign.desc"))
    @match_option
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await resolve_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _service(interaction).resign(info.id, interaction.user.id)
        await interaction.followup.send(t(user_locale(interaction), "discord.match.resigned", match=info.id),
                                        ephemeral=True)

    @group.command(name=ls("discord.cmd.leave.name"), description=ls("discord.cmd.leave.desc"))
    @match_option
    async def leave(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await resolve_match(interaction, match)
        updated = await _service(interaction).leave(info.id, interaction.user.id)
        await interaction.response.send_message(t(user_locale(interaction), "discord.match.left", match=info.id),
                                                ephemeral=True)
        await refresh_lobby(self.bot, updated)

    @group.command(name=ls("discord.cmd.abandon.name"), description=ls("discord.cmd.abandon.desc"))
    @match_option
    async def abandon(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await resolve_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The host may always; a moderator needs the right in the match's channel, not here.
        manager = interaction.user.id != info.host_id and await manages_match(self.bot, info, interaction.user)
        updated = await _service(interaction).abandon(info.id, interaction.user.id, is_manager=manager)
        await interaction.followup.send(t(user_locale(interaction), "discord.match.abandoned", match=info.id),
                                        ephemeral=True)
        if info.status == "lobby":
            await refresh_lobby(self.bot, updated)

    @group.command(name=ls("discord.cmd.settings.name"), description=ls("discord.cmd.settings.desc"))
    @app_commands.rename(notify=ls("discord.opt.notify.name"))
    @app_commands.describe(notify=ls("discord.opt.notify.desc"))
    @app_commands.choices(notify=[app_commands.Choice(name=ls(f"discord.notify.{m}"), value=m) for m in NOTIFY_MODES])
    async def settings(self, interaction: discord.Interaction, notify: str) -> None:
        if notify not in NOTIFY_MODES:
            raise UserError("core.err.bad_notify")
        await _service(interaction).set_notify(interaction.user.id, notify)  # type: ignore[arg-type]
        locale = user_locale(interaction)
        await interaction.response.send_message(
            t(locale, "discord.match.notify_set", mode=t(locale, f"discord.notify.{notify}")), ephemeral=True)

    @group.command(name=ls("stats.cmd.history.name"), description=ls("stats.cmd.history.desc"))
    async def history(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_history(interaction)

    @group.command(name=ls("stats.cmd.export.name"), description=ls("stats.cmd.export.desc"))
    @any_match_option
    async def export(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await resolve_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_export(interaction, info)

    @group.command(name=ls("stats.cmd.replay.name"), description=ls("stats.cmd.replay.desc"))
    @any_match_option
    async def replay(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await resolve_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await open_viewer(interaction, info)

    @app_commands.command(name=ls("discord.cmd.move.name"), description=ls("discord.cmd.move.desc"))
    @app_commands.rename(action=ls("discord.opt.action.name"), match=ls("discord.opt.match.name"))
    @app_commands.describe(action=ls("discord.opt.action.desc"), match=ls("discord.opt.match.desc"))
    @app_commands.autocomplete(action=action_autocomplete, match=match_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, action: str, match: int | None = None) -> None:
        info = await resolve_match(interaction, match)
        service = _service(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        reqs = await service.pending_for_user(info.id, interaction.user.id)
        if not reqs:
            raise UserError("core.err.not_your_turn")
        tokens = action.split()
        step = await service.step(info.id, interaction.user.id, reqs[0], tokens)
        if not step.complete or step.preview:
            # Not a full action yet (or worth a look first): continue with buttons from here.
            kwargs = await step_message(interaction, info.id, reqs[0], tokens)
            await interaction.edit_original_response(**kwargs)
            return
        # Played like a button's path: the result and, with it, the player's next decision.
        await play_path(interaction, info.id, reqs[0], tokens, via="move", typed=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MatchCog(bot))
