"""Publishes committed match changes to Discord (implements ``service.models.Publisher``).

Public posts (thread or channel) are built only from the public view ``service.view(id, None)``
and events whose ``to`` is None, in the match's language. Private events and private summaries
go by DM to their seat's user; a user whose DMs are closed is named once in the thread and told
to use ``/match hand``.

Delivery is at-least-once, so publishing is idempotent per (match, version, kind): remembered in
memory, and across restarts recognised by the ``#id · vN`` footer of our last posts.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from typing import Any

import discord

from engines import registry
from engines.base import Msg
from i18n import t, tm
from service.models import Change, MatchInfo, SeatInfo

from .lobby import refresh_lobby
from .utils.board import board_file
from .utils.embeds import Pending, game_name, match_marker, status_embed, timestamp
from .utils.layout import turn_buttons
from .utils.matchq import pending_of
from .utils.text import join_lines
from .utils.userprefs import locale_for_user
from .utils.views import build_view

log = logging.getLogger(__name__)
CONTENT_MAX = 2000
HISTORY_SCAN = 10
_REMEMBER = 4096
STATUS_POST_META = "status_post"  # "channel id:message id" of the newest status post
_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


class DiscordPublisher:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._done: OrderedDict[tuple[int, int, str, int | None], None] = OrderedDict()
        self._last_status: dict[int, tuple[int, int]] = {}  # match -> (channel id, message id)
        self._dm_closed: set[int] = set()
        self._dm_noted: set[tuple[int, int]] = set()
        self._notified: dict[int, set[str]] = {}  # match -> request ids already announced
        self._posted: OrderedDict[str, None] = OrderedDict()  # footer markers of our posts
        self._scanned: set[int] = set()  # matches whose recent history this process has checked

    @property
    def service(self) -> Any:
        return self.bot.service

    # ----- entry point ---------------------------------------------------------------------
    async def publish(self, match: MatchInfo, change: Change) -> None:
        # Reminders of simultaneous requests share a version: the seat is part of their identity.
        key = (change.match_id, change.version, change.kind, change.seat if change.kind == "reminder" else None)
        if key in self._done:
            return
        extra = {"match": match.id, "version": change.version, "kind": change.kind}
        log.debug("publish", extra=extra)
        if change.kind in ("lobby", "finished", "abandoned") and match.lobby_message_id:
            await refresh_lobby(self.bot, match)  # the lobby message tells late visitors how it went
        if change.kind != "lobby":
            channel = await self._channel(match)
            if channel is None:
                log.warning("match channel is gone; nothing posted", extra=extra)
            else:
                try:
                    if change.kind == "reminder":
                        await self._remind(match, change, channel)
                    else:
                        await self._post_change(match, change, channel)
                except discord.HTTPException as exc:
                    if exc.status >= 500 or exc.status == 429:
                        raise  # transient: the service retries this change later
                    # Permanent (permissions removed, thread deleted, rejected payload): retrying
                    # would block the match's later changes forever, so log and move on.
                    log.error("cannot post in the match channel", extra={**extra, "status": exc.status},
                              exc_info=True)
            await self._private(match, change, channel)
        if match.status in ("finished", "abandoned"):
            self._notified.pop(match.id, None)
        self._done[key] = None
        while len(self._done) > _REMEMBER:
            self._done.popitem(last=False)

    # ----- where ---------------------------------------------------------------------------
    async def _channel(self, match: MatchInfo) -> discord.abc.Messageable | None:
        """The match's thread (unarchived first: weeks-long games go quiet) or its channel."""
        where = match.where
        if where is None:
            return None
        channel = self.bot.get_channel(where)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(where)
            except (discord.NotFound, discord.Forbidden):
                return None
        if getattr(channel, "archived", False) and not getattr(channel, "locked", False):  # a quiet thread
            try:
                channel = await channel.edit(archived=False)
            except discord.HTTPException:
                log.warning("could not unarchive thread", extra={"match": match.id})
        return channel  # type: ignore[return-value]

    async def _already_posted(self, match_id: int, channel: discord.abc.Messageable, marker: str) -> bool:
        """Whether a post of ours carries this change's footer.

        Memory answers within one process; the channel history (one request) is read only for the
        first change of a match after a restart, when a post may exist that memory lost.
        """
        if marker in self._posted:
            return True
        if match_id in self._scanned:
            return False
        self._scanned.add(match_id)
        try:
            async for message in channel.history(limit=HISTORY_SCAN):
                if message.author.id == self.bot.user.id and any(
                        e.footer and e.footer.text == marker for e in message.embeds):
                    return True
        except (discord.HTTPException, AttributeError):
            return False
        return False

    # ----- public --------------------------------------------------------------------------
    def _narration(self, match: MatchInfo, change: Change) -> list[str]:
        locale = match.locale
        lines = []
        if change.kind == "started":
            players = ", ".join(s.name for s in match.seats)
            lines.append(t(locale, "discord.publish.started", game=game_name(match.game, locale), players=players))
        lines += [tm(locale, e.msg) for e in change.events if e.to is None]
        if change.note is not None:
            lines.append(tm(locale, change.note))
        if change.kind == "finished":
            lines.append(t(locale, "discord.publish.finished"))
        return lines

    async def _post_change(self, match: MatchInfo, change: Change, channel: discord.abc.Messageable) -> None:
        locale = match.locale
        marker = match_marker(match.id, change.version)
        if await self._already_posted(match.id, channel, marker):
            return
        engine = registry.get(match.game)
        try:
            view = await self.service.view(match.id, None)
        except Exception:
            log.warning("no public view", extra={"match": match.id}, exc_info=True)
            view = None
        pending = await pending_of(self.service, match)
        lines = self._narration(match, change)
        mentions, dm_users = await self._turn_targets(match, pending, skip_seat=change.seat)
        if mentions:
            lines.append(t(locale, "discord.publish.your_turn", mentions=" ".join(mentions)))
        kwargs: dict[str, Any] = {"content": join_lines(lines, CONTENT_MAX) or None,
                                  "allowed_mentions": _MENTIONS}
        if view is not None:
            describe = [tm(locale, m) for m in engine.describe(view)]
            # The final board was just posted with the last move; the result post stays light.
            file = None if change.kind == "finished" else await board_file(match, view, locale)
            kwargs["embed"] = status_embed(match, describe, pending, locale,
                                           image=file.filename if file else None, version=change.version)
            if file is not None:
                kwargs["file"] = file
        names = {s.seat: s.name for s in match.seats}
        buttons = build_view(turn_buttons(match.id, [(p.request_id, names.get(p.seat, "")) for p in pending],
                                          locale))
        if buttons is not None:
            kwargs["view"] = buttons
        if kwargs["content"] is None and "embed" not in kwargs:
            return  # e.g. a lobby closed before it started: the lobby message says it all
        message = await channel.send(**kwargs)
        self._posted[marker] = None
        while len(self._posted) > _REMEMBER:
            self._posted.popitem(last=False)
        await self._retire_previous(match.id, (message.channel.id, message.id))
        for user_id in dm_users:
            loc = await locale_for_user(self.service, user_id, locale)
            await self._dm(match, user_id, t(loc, "discord.publish.turn_dm", game=game_name(match.game, loc),
                                             match=match.id, link=self._link(match)), channel)

    async def _retire_previous(self, match_id: int, latest: tuple[int, int]) -> None:
        """Drop the buttons of the previous status post so only the newest one invites a click.

        The newest post is remembered in the match's meta (not only in memory), so the post that
        was current when the bot restarted loses its button too.
        """
        previous = self._last_status.get(match_id)
        if previous is None:
            stored = await self.service.get_meta(match_id, STATUS_POST_META)
            if stored:
                channel_id, _, message_id = stored.partition(":")
                previous = (int(channel_id), int(message_id))
        self._last_status[match_id] = latest
        await self.service.set_meta(match_id, STATUS_POST_META, f"{latest[0]}:{latest[1]}")
        if previous is None or previous == latest:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.bot.get_partial_messageable(previous[0]).get_partial_message(previous[1]).edit(view=None)

    async def _turn_targets(self, match: MatchInfo, pending: list[Pending], skip_seat: int | None = None,
                            *, fresh_only: bool = True) -> tuple[list[str], list[int]]:
        """Mentions and DM recipients for the seats now to play, per their notify preference.

        Only requests not announced before count (a player waiting through several moves of
        others is pinged once), and the seat that just acted is skipped: in multi-step turns it
        is still its turn and a ping after each of its own clicks would be noise.
        """
        seats = {s.seat: s for s in match.seats}
        mentions: list[str] = []
        dms: list[int] = []
        if fresh_only:
            known = self._notified.setdefault(match.id, set())
            fresh = [p for p in pending if p.request_id not in known]
            known.intersection_update({p.request_id for p in pending})
            known.update(p.request_id for p in pending)
            pending = fresh
        for seat_no in dict.fromkeys(p.seat for p in pending):
            seat: SeatInfo | None = seats.get(seat_no)
            if seat is None or seat.user_id is None or seat_no == skip_seat:
                continue
            mode = await self.service.get_notify(seat.user_id)
            if mode in ("mention", "both"):
                mentions.append(f"<@{seat.user_id}>")
            if mode in ("dm", "both"):
                dms.append(seat.user_id)
        return mentions, dms

    async def _remind(self, match: MatchInfo, change: Change, channel: discord.abc.Messageable) -> None:
        locale = match.locale
        pending = [p for p in await pending_of(self.service, match)
                   if change.seat is None or p.seat == change.seat]
        if change.request_ids:
            pending = [p for p in pending if p.request_id in change.request_ids] or pending
        mentions, dms = await self._turn_targets(match, pending, fresh_only=False)
        due = next((p.due_at for p in pending if p.due_at), None)
        when = timestamp(due) if due else "-"
        if mentions:
            note = tm(locale, change.note) if change.note else ""
            text = t(locale, "discord.publish.reminder", mentions=" ".join(mentions), due=when)
            await channel.send(join_lines([text, note] if note else [text], CONTENT_MAX),
                               allowed_mentions=_MENTIONS)
        for user_id in dms:
            loc = await locale_for_user(self.service, user_id, locale)
            await self._dm(match, user_id, t(loc, "discord.publish.reminder_dm", game=game_name(match.game, loc),
                                             match=match.id, due=when, link=self._link(match)), channel)

    def _link(self, match: MatchInfo) -> str:
        guild = match.guild_id or "@me"
        return f"https://discord.com/channels/{guild}/{match.where}"

    # ----- private -------------------------------------------------------------------------
    async def _private(self, match: MatchInfo, change: Change, channel: discord.abc.Messageable | None) -> None:
        """Private events (and, for hidden-information games, the seat's summary) by DM."""
        engine = registry.get(match.game)
        hidden = engine.hidden_for(match.options)
        per_seat: dict[int, list[Msg]] = {}
        for event in change.events:
            for seat in event.to or ():
                per_seat.setdefault(seat, []).append(event.msg)
        if change.kind == "started" and hidden:
            for seat in match.seats:  # also checks that every player can receive DMs
                per_seat.setdefault(seat.seat, []).insert(0, Msg("discord.publish.dm_welcome"))
        for seat in match.seats:
            msgs = per_seat.get(seat.seat)
            if msgs is None or seat.user_id is None:
                continue
            locale = await locale_for_user(self.service, seat.user_id, match.locale)
            lines = [tm(locale, m) for m in msgs]
            if hidden:
                try:
                    view = await self.service.view(match.id, seat.seat)
                    summary = [tm(locale, m) for m in engine.private_summary(view)]
                except Exception:
                    log.warning("no private view", extra={"match": match.id, "seat": seat.seat}, exc_info=True)
                    summary = []
                if summary:
                    lines = [*lines, "", t(locale, "discord.publish.private_summary"), *summary]
            if not lines:
                continue
            header = t(locale, "discord.publish.private_header", game=game_name(match.game, locale), match=match.id)
            await self._dm(match, seat.user_id, join_lines([header, *lines], CONTENT_MAX), channel)

    async def _dm(self, match: MatchInfo, user_id: int, text: str, channel: discord.abc.Messageable | None) -> bool:
        """Send a DM; on closed DMs (50007) remember it and say so once per match in the thread."""
        if user_id in self._dm_closed:
            await self._note_dm_closed(match, user_id, channel)
            return False
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
            return True
        except (discord.Forbidden, discord.NotFound):
            self._dm_closed.add(user_id)
        except discord.HTTPException as exc:
            if getattr(exc, "code", None) != 50007:
                log.warning("DM failed", extra={"match": match.id, "user": user_id}, exc_info=True)
                return False
            self._dm_closed.add(user_id)
        await self._note_dm_closed(match, user_id, channel)
        return False

    async def _note_dm_closed(self, match: MatchInfo, user_id: int, channel: discord.abc.Messageable | None) -> None:
        if channel is None or (match.id, user_id) in self._dm_noted:
            return
        self._dm_noted.add((match.id, user_id))
        try:
            await channel.send(t(match.locale, "discord.publish.dm_closed", mention=f"<@{user_id}>"),
                               allowed_mentions=_MENTIONS)
        except discord.HTTPException:
            log.warning("could not post DM notice", extra={"match": match.id, "user": user_id})
