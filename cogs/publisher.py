"""Publishes committed match changes to Discord (implements ``service.models.Publisher``).

Public posts (thread or channel) are built only from the public view ``service.view(id, None)``
and events whose ``to`` is None, in the match's language. Private events and private summaries
go by DM to their seat's user; a user whose DMs are closed is named once in the thread and told
to use ``/match hand`` (and tried again after ``DM_RETRY_SECONDS``: people open their DMs).

One status post per turn: while the seats being asked stay the same (a Risk turn of placements,
attacks and a fortify; an AI's run of moves delivered as one batch) the current post is EDITED —
newest board, buttons, and the turn's public event lines so far (the oldest left out past Discord's
limits). A turn handed only to AI seats stays in the post of the turn it ends, and when the AI
hands it back to the human who was just playing (Pentactic or Risk against the AI) the same post
goes on too, as long as its lines fit: that player is at the keyboard, so no ping and no new post
(see ``cogs.postplan.continues``). A NEW post, with the mention/DM per notify preference, comes
when somebody else is asked (the turn passes to another human, a phase needing others begins), at
time-outs and resignations, and at the end. Which seats are asked after each change comes with the change
(``Change.request_seats``); a change without it always gets a new post. Within one batch a post
that would ping nobody and is not sent yet takes the next post's lines instead of being a post of
its own (the start and the AI's first move, a time-out and the AI's answer). Which posts and
edits a batch makes is decided by a pure planner (``cogs.postplan.plan_posts``); this module
makes the calls it lists, reads what it needs from the service, and remembers the result.

Pacing (``cogs.utils.pacing``): at most one post or edit per channel per ``post_interval``
seconds (Discord allows about 5 per 5 s per channel). ``settle`` lets the service wait for the
match's channel before it reads the undelivered changes, so updates arriving meanwhile are folded
into one post or edit.

Delivery is at-least-once, so publishing is idempotent per (match, version, kind): remembered in
memory, and across restarts recognised by the ``#id · vN`` footer of our last posts (a change
whose version is not newer than the newest footer was shown already; delivery is in order).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from engines import registry
from engines.base import Msg
from i18n import t, tm
from service.models import Change, MatchInfo, SeatInfo

from .lobby import refresh_lobby
from .postplan import (
    CONTENT_MAX,
    SUMMARY_LINES,
    EditLive,
    Facts,
    Memory,
    Plan,
    Post,
    Send,
    announce,
    content,
    lobby_expiry,
    notify_users,
    plan_posts,
    turn_targets,
)
from .recap import Recaps
from .utils.board import board_file
from .utils.embeds import Pending, game_name, marker_version, status_embed, timestamp, turn_embed
from .utils.layout import turn_buttons
from .utils.matchq import pending_of
from .utils.pacing import ChannelPacer
from .utils.panel import PANEL_META, PanelBook, panel_kwargs, panel_state, send_kwargs, wants_panel
from .utils.text import join_lines, pings, pings_in, safe_msg, safe_names
from .utils.threads import match_channel
from .utils.userprefs import locale_for_user
from .utils.views import build_view

__all__ = ["CONTENT_MAX", "DM_RETRY_SECONDS", "STATUS_POST_META", "SUMMARY_LINES", "DiscordPublisher"]

log = logging.getLogger(__name__)
HISTORY_SCAN = 10
_REMEMBER = 4096
STATUS_POST_META = "status_post"  # "channel id:message id" of the newest status post
#: A post pings only the users it names on purpose (``pings``/``pings_in``); nothing else.
_MENTIONS = discord.AllowedMentions.none()
#: A user whose DMs were closed is tried again after this long (they may have opened them).
DM_RETRY_SECONDS = 3600.0


class DiscordPublisher:
    def __init__(self, bot: Any, *, clock: Callable[[], float] = time.monotonic,
                 post_interval: float = 0.0) -> None:
        """``clock`` (seconds) times the DM retry; injectable for tests. ``post_interval``: the
        least time between two posts/edits in one channel (the bot passes its setting; 0 = no
        pacing, for unit tests)."""
        self.bot = bot
        self._clock = clock
        self.pacer = ChannelPacer(post_interval)
        self._channel_of: dict[int, int] = {}  # match -> the channel its posts go to
        self._done: OrderedDict[tuple[int, int, str, int | None], None] = OrderedDict()
        self._last_status: dict[int, tuple[int, int]] = {}  # match -> (channel id, message id)
        self._dm_closed: dict[int, float] = {}  # user -> when their DMs were found closed
        self._dm_noted: set[tuple[int, int]] = set()
        self._notified: dict[int, set[str]] = {}  # match -> request ids already announced
        self._shown: dict[int, int] = {}  # match -> newest version shown publicly
        self._live: dict[int, Post] = {}  # match -> its newest status post, still editable
        self.panels = PanelBook()  # private panels (engines with ``private_panel``)
        self.recaps = Recaps(self)  # end-of-match recaps (cogs.recap)

    @property
    def service(self) -> Any:
        return self.bot.service

    # ----- entry points --------------------------------------------------------------------
    async def publish(self, match: MatchInfo, change: Change) -> None:
        await self.publish_batch(match, [change])

    async def settle(self, match_id: int) -> None:
        """Return when the match's channel may take a post or edit again (the service awaits it
        before reading the undelivered changes, so what is committed meanwhile is folded in)."""
        channel_id = self._channel_of.get(match_id)
        live = self._live.get(match_id)
        if live is not None and live.windowed:
            # A turn of response windows: its edits are queued (newest content wins, see
            # ``_queue_live_edit``), so waiting here would only hold the next window back by a slot.
            return
        if channel_id is not None:
            await self.pacer.settle(channel_id)

    async def publish_batch(self, match: MatchInfo, changes: list[Change]) -> None:
        """Publish changes of one match, in commit order: public posts first (one per turn,
        the newest with board and buttons), then one DM per seat with its private events."""
        todo = [c for c in changes if self._key(c) not in self._done]
        if not todo:
            return
        await self._own_memory(match.id)
        extra = {"match": match.id, "versions": f"{todo[0].version}-{todo[-1].version}", "changes": len(todo)}
        log.debug("publish", extra=extra)
        if match.lobby_message_id and any(c.kind in ("lobby", "finished", "abandoned") for c in todo):
            await self.pacer.slot(match.channel_id)
            await refresh_lobby(self.bot, match)  # the lobby message tells late visitors how it went
        channel = None
        if any(c.kind != "lobby" and not lobby_expiry(c) for c in todo):
            channel = await match_channel(self.bot, match)
            if channel is None:
                log.warning("match channel is gone; nothing posted", extra=extra)
            else:
                self._channel_of[match.id] = getattr(channel, "id", 0)
                try:
                    await self._public(match, todo, channel)
                    if any(c.kind == "finished" for c in todo):
                        self.recaps.after_finish(match, channel)
                    for change in todo:
                        if change.kind == "reminder":
                            await self._remind(match, change, channel)
                            # The status post is no longer the newest message: the next change
                            # gets a fresh one at the bottom instead of editing one far above.
                            self._live.pop(match.id, None)
                except discord.HTTPException as exc:
                    if exc.status >= 500 or exc.status == 429:
                        raise  # transient: the service retries these changes later
                    # Permanent (permissions removed, thread deleted, rejected payload): retrying
                    # would block the match's later changes forever, so log and move on.
                    log.error("cannot post in the match channel", extra={**extra, "status": exc.status},
                              exc_info=True)
            await self._private(match, todo, channel)
        if match.status in ("finished", "abandoned"):
            self.panels.forget(match.id)
            self._notified.pop(match.id, None)
            self._live.pop(match.id, None)
            self._channel_of.pop(match.id, None)
        for change in todo:
            self._done[self._key(change)] = None
        while len(self._done) > _REMEMBER:
            self._done.popitem(last=False)

    async def _own_memory(self, match_id: int) -> None:
        """On a store shared by several bot processes, what this publisher remembers of a match
        (the live post, the newest version shown, who was told) is a cache, valid only while this
        process made the match's last delivery: another process may have posted since. So the
        last deliverer is recorded in ``match_meta`` (read under the service's delivery lock, which
        holds across processes), and when it was someone else the match is forgotten here, as
        after a restart: the state is rebuilt from the store and the thread's history."""
        store = getattr(self.bot, "store", None)
        if getattr(store, "dialect", "sqlite") != "postgres":
            return  # one process owns the store: its memory is the truth
        me = str(store.owner)  # type: ignore[union-attr]
        if await self.service.get_meta(match_id, "publisher") == me:
            return
        self._live.pop(match_id, None)
        self._shown.pop(match_id, None)
        self._notified.pop(match_id, None)
        self._channel_of.pop(match_id, None)
        self.panels.forget(match_id)
        await self.service.set_meta(match_id, "publisher", me)

    @staticmethod
    def _key(change: Change) -> tuple[int, int, str, int | None]:
        # Reminders of simultaneous requests share a version: the seat is part of their identity.
        return change.match_id, change.version, change.kind, change.seat if change.kind == "reminder" else None

    # ----- where ---------------------------------------------------------------------------
    async def _shown_upto(self, match_id: int, channel: discord.abc.Messageable) -> int:
        """The newest version a post of ours shows (-1: none).

        Memory answers within one process; the channel history (one request) is read only for the
        first change of a match after a restart, when a post may exist that memory lost.
        """
        if match_id in self._shown:
            return self._shown[match_id]
        newest = -1
        try:
            async for message in channel.history(limit=HISTORY_SCAN):
                if message.author.id != self.bot.user.id:
                    continue
                for embed in message.embeds:
                    version = marker_version(embed.footer.text if embed.footer else None, match_id)
                    if version is not None:
                        newest = max(newest, version)
        except (discord.HTTPException, AttributeError):
            pass
        self._shown[match_id] = newest
        return newest

    # ----- public --------------------------------------------------------------------------
    async def _public(self, match: MatchInfo, changes: list[Change], channel: discord.abc.Messageable) -> None:
        """Plan the posts from the changes and what is remembered (:func:`cogs.postplan.plan_posts`,
        which says which facts of the service it needs), then make the calls."""
        channel_id = getattr(channel, "id", None)
        shown = await self._shown_upto(match.id, channel)
        memory = Memory(shown, self._live.get(match.id), frozenset(self._notified.get(match.id, ())))
        facts = Facts()
        plan = plan_posts(match, changes, memory, facts, channel_id=channel_id)
        while not plan.complete:  # (at most once per seat: each round reads what the last one lacked)
            notify = dict(facts.notify)
            for user_id in plan.missing_users:
                notify[user_id] = await self.service.get_notify(user_id)
            pending = facts.pending
            if plan.needs_pending:
                pending = tuple(await pending_of(self.service, match))
            facts = Facts(notify, pending)
            plan = plan_posts(match, changes, memory, facts, channel_id=channel_id)
        self._notified[match.id] = set(plan.notified)
        await self._make(match, plan, shown, channel)

    async def _make(self, match: MatchInfo, plan: Plan, shown: int, channel: discord.abc.Messageable) -> None:
        """Make a plan's calls in order: the live post's edit, then the new posts (each in the
        channel's slot), and remember the newest post."""
        newest: Post | None = None
        for step in plan.steps:
            if isinstance(step, EditLive):
                if step.queued:
                    self._queue_live_edit(match, step.post)
                    self._live[match.id] = step.post
                    self._shown[match.id] = max(shown, step.post.version)
                    return
                # A queued edit of the same post would only repeat an older state of it.
                assert step.post.message is not None
                self.pacer.discard(step.post.message[0], (step.post.message[1], "lines"))
                if await self._edit_live(match, step.post, final=step.final):
                    newest = step.post
                    continue
                step = Send(step.post, step.final)  # the post is gone (deleted by a moderator): post it again
            if await self._send(match, step, channel):
                newest = step.post
        if newest is not None:
            self._shown[match.id] = max(shown, newest.version)
            if newest.requests and match.status == "active":
                self._live[match.id] = newest
            else:
                self._live.pop(match.id, None)

    async def _send(self, match: MatchInfo, step: Send, channel: discord.abc.Messageable) -> bool:
        """Post ``step.post`` in the channel's next slot, retiring the previous status post's
        buttons as the plan says; False when there is nothing to post."""
        post = step.post
        await self.pacer.slot(getattr(channel, "id", None))
        kwargs = await self._post_kwargs(match, post, final=step.final)
        if kwargs["content"] is None and "embed" not in kwargs:
            return False  # e.g. a lobby closed before it started: the lobby message says it all
        previous = await self._status_post(match.id)
        if step.retire == "before" and previous is not None:
            await self._retire(previous)  # in this post's slot: the game is over, nothing may wait
        message = await channel.send(**kwargs)
        post.message = (message.channel.id, message.id)
        await self._set_status_post(match.id, post.message)
        if step.retire == "after" and previous is not None and previous != post.message:
            # Cosmetic (its buttons answer "out of date" anyway): in the channel's next free slot,
            # so the news that replaced it never waits behind it.
            self.pacer.defer(previous[0], previous[1], lambda old=previous: self._retire(old))
        for user_id in post.dm_users:
            loc = await locale_for_user(self.service, user_id, match.locale)
            await self._dm(match, user_id, t(loc, "discord.publish.turn_dm", game=game_name(match.game, loc),
                                             match=match.id, link=self._link(match)), channel)
        return True

    def _queue_live_edit(self, match: MatchInfo, post: Post) -> None:
        """Edit the live post in its channel's next free slot, built then (response windows)."""
        assert post.message is not None
        channel_id, message_id = post.message

        async def edit() -> None:
            # Superseded by a newer post meanwhile: still its complete lines, without buttons.
            live = self._live.get(match.id)
            await self._edit_live(match, post, final=live is not None and live.message == post.message, paced=False)

        # Its own queue item: retiring the post's buttons (same message) must not replace it.
        self.pacer.defer(channel_id, (message_id, "lines"), edit)

    def _content(self, match: MatchInfo, post: Post) -> str | None:
        """The post's text (:func:`cogs.postplan.content`)."""
        return content(match, post)

    async def _post_kwargs(self, match: MatchInfo, post: Post, *, final: bool) -> dict[str, Any]:
        """What a post shows. The newest one: the current public view's board and lines, whose
        turn with deadlines, and buttons. An earlier turn in the same batch: its lines and who
        was asked then (the current board would misrepresent it)."""
        locale = match.locale
        kwargs: dict[str, Any] = {"content": content(match, post), "allowed_mentions": pings_in(post.mention)}
        if not final:
            kwargs["embed"] = turn_embed(match, post.asked, locale, version=post.version)
            return kwargs
        engine = registry.get(match.game)
        try:
            view = await self.service.view(match.id, None)
        except Exception:
            log.warning("no public view", extra={"match": match.id}, exc_info=True)
            view = None
        pending = await pending_of(self.service, match)
        if view is not None:
            describe = [tm(locale, m, safe_names(match.seats)) for m in engine.describe(view)]
            # The final board was just posted with the last move; the result post stays light.
            file = None if post.kind == "finished" else await board_file(match, view, locale)
            kwargs["embed"] = status_embed(match, describe, pending, locale,
                                           image=file.filename if file else None, version=post.version)
            if file is not None:
                kwargs["file"] = file
        names = {s.seat: s.name for s in match.seats}
        kwargs["view"] = build_view(turn_buttons(match.id, [(p.request_id, names.get(p.seat, "")) for p in pending
                                                            if not p.window], locale,
                                                 window=any(p.window for p in pending),
                                                 back=any(s.away and not s.resigned for s in match.seats)))
        if kwargs["view"] is None:
            del kwargs["view"]
        return kwargs

    async def _edit_live(self, match: MatchInfo, post: Post, *, final: bool, paced: bool = True) -> bool:
        """Bring the live post up to date. ``final``: it stays the newest post (board, whose turn,
        buttons are renewed); else a newer post follows and this one only gets its complete lines
        and loses its buttons. False when the post no longer exists."""
        assert post.message is not None
        channel_id, message_id = post.message
        if paced:  # (a deferred edit runs in its slot already)
            await self.pacer.slot(channel_id)  # before building: the newest board once it is our turn
        if final:
            kwargs = await self._post_kwargs(match, post, final=True)
            file = kwargs.pop("file", None)
            kwargs["attachments"] = [file] if file is not None else []  # no stale board left behind
            kwargs.setdefault("view", None)
        else:
            kwargs = {"content": content(match, post), "allowed_mentions": pings_in(post.mention),
                      "view": None}
        kwargs.setdefault("content", None)
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**kwargs)
        except discord.NotFound:
            log.warning("the live status post is gone; posting anew", extra={"match": match.id})
            live = self._live.get(match.id)
            if live is not None and live.message == post.message:  # (a queued edit may find an older post gone)
                self._live.pop(match.id, None)
            return False
        return True

    async def _status_post(self, match_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of the newest status post, remembered in the match's meta (not
        only in memory), so the post that was current when the bot restarted loses its buttons too."""
        latest = self._last_status.get(match_id)
        if latest is None:
            stored = await self.service.get_meta(match_id, STATUS_POST_META)
            if stored:
                channel_id, _, message_id = stored.partition(":")
                latest = (int(channel_id), int(message_id))
        return latest

    async def _set_status_post(self, match_id: int, latest: tuple[int, int]) -> None:
        self._last_status[match_id] = latest
        await self.service.set_meta(match_id, STATUS_POST_META, f"{latest[0]}:{latest[1]}")

    async def _retire(self, message: tuple[int, int]) -> None:
        """Drop a status post's buttons so only the newest one invites a click."""
        old = self.bot.get_partial_messageable(message[0]).get_partial_message(message[1])
        with contextlib.suppress(discord.HTTPException):
            await old.edit(view=None)

    async def _turn_targets(self, match: MatchInfo, pending: list[Pending], skip_seats: set[int] | None = None,
                            *, fresh_only: bool = True) -> tuple[list[str], list[int]]:
        """Mentions and DM recipients for the seats now to play (:func:`cogs.postplan.turn_targets`);
        with ``fresh_only`` only requests not announced before count (a player waiting through
        several moves of others is pinged once)."""
        if fresh_only:
            pending = announce(self._notified.setdefault(match.id, set()), pending)
        skip = skip_seats or set()
        notify = {u: await self.service.get_notify(u) for u in notify_users(match, pending, skip)}
        return turn_targets(match, pending, notify, skip)

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
            note = tm(locale, safe_msg(change.note), safe_names(match.seats)) if change.note else ""
            text = t(locale, "discord.publish.reminder", mentions=" ".join(mentions), due=when)
            await self.pacer.slot(getattr(channel, "id", None))
            await channel.send(join_lines([text, note] if note else [text], CONTENT_MAX),
                               allowed_mentions=pings_in(text))
        for user_id in dms:
            loc = await locale_for_user(self.service, user_id, locale)
            await self._dm(match, user_id, t(loc, "discord.publish.reminder_dm", game=game_name(match.game, loc),
                                             match=match.id, due=when, link=self._link(match)), channel)

    def _link(self, match: MatchInfo) -> str:
        guild = match.guild_id or "@me"
        return f"https://discord.com/channels/{guild}/{match.where}"

    # ----- private -------------------------------------------------------------------------
    async def _private(self, match: MatchInfo, changes: list[Change],
                       channel: discord.abc.Messageable | None) -> None:
        """Private events (and, for hidden-information games, the seat's summary) by DM: one DM
        per seat for the whole batch."""
        engine = registry.get(match.game)
        hidden = engine.hidden_for(match.options)
        per_seat: dict[int, list[Msg]] = {}
        if wants_panel(match.game):
            await self._panels(match, changes, channel)
            return
        for change in changes:
            for event in change.events:
                for seat in event.to or ():
                    per_seat.setdefault(seat, []).append(event.msg)
            if change.kind == "started" and hidden:
                for seat in match.seats:  # also checks that every player can receive DMs
                    per_seat.setdefault(seat.seat, []).insert(0, Msg("discord.publish.dm_welcome"))
        names = safe_names(match.seats)
        for seat in match.seats:
            msgs = per_seat.get(seat.seat)
            if msgs is None or seat.user_id is None:
                continue
            locale = await locale_for_user(self.service, seat.user_id, match.locale)
            lines = [tm(locale, m, names) for m in msgs]
            if hidden:
                try:
                    view = await self.service.view(match.id, seat.seat)
                    summary = [tm(locale, m, names) for m in engine.private_summary(view)]
                except Exception:
                    log.warning("no private view", extra={"match": match.id, "seat": seat.seat}, exc_info=True)
                    summary = []
                if summary:
                    lines = [*lines, "", t(locale, "discord.publish.private_summary"), *summary]
            if not lines:
                continue
            header = t(locale, "discord.publish.private_header", game=game_name(match.game, locale), match=match.id)
            await self._dm(match, seat.user_id, join_lines([header, *lines], CONTENT_MAX), channel)

    async def _panels(self, match: MatchInfo, changes: list[Change],
                      channel: discord.abc.Messageable | None) -> None:
        """Private events join their seats' panels; then every player's panel is edited if what
        it shows changed (a hand, a prompt, the end) — at most one DM call per player per batch,
        none for a seat with nothing new (e.g. a window it can only pass)."""
        names = safe_names(match.seats)
        locales = {s.seat: await locale_for_user(self.service, s.user_id, match.locale)
                   for s in match.seats if s.user_id is not None}
        for change in changes:
            for event in change.events:
                for seat_no in event.to or ():
                    if seat_no in locales:
                        self.panels.add_notes(match.id, seat_no, [tm(locales[seat_no], event.msg, names)])
        if match.status not in ("active", "finished"):
            return
        for seat in match.seats:
            # A resigned player's seat is the AI's now: their panel is left as it was.
            if seat.user_id is not None and not seat.resigned and (match.id, seat.seat) not in self.panels.held:
                await self.refresh_panel(match, seat, locales[seat.seat], channel)

    async def refresh_panel(self, match: MatchInfo, seat: SeatInfo, locale: str,
                            channel: discord.abc.Messageable | None, *, message: Any = None,
                            extra: str | None = None, record: bool = True) -> None:
        """Edit (or send, the first time) ``seat``'s panel when what it shows changed. ``message``:
        edit that one instead (a click's own message, through its interaction); ``record``: it is
        the seat's DM panel, so remember what it shows now (not for an ephemeral copy)."""
        notes = self.panels.notes_of(match.id, seat.seat)
        try:
            state = await panel_state(self.service, match, seat, notes)
        except Exception:
            log.warning("no panel state", extra={"match": match.id, "seat": seat.seat}, exc_info=True)
            return
        key = (match.id, seat.seat)
        if message is None and self.panels.shown.get(key) == state.fingerprint:
            return
        kwargs = await panel_kwargs(self.service, self.bot.paths, match, seat, locale, state, notes, extra)
        if message is not None:
            await message(**kwargs)
            if record:
                self.panels.shown[key] = state.fingerprint
            return
        if await self._panel_deliver(match, seat, kwargs, channel):
            self.panels.shown[key] = state.fingerprint

    async def _panel_deliver(self, match: MatchInfo, seat: SeatInfo, kwargs: dict[str, Any],
                             channel: discord.abc.Messageable | None) -> bool:
        """Edit the seat's panel DM, or send it when there is none yet (or it was deleted)."""
        assert seat.user_id is not None
        key = (match.id, seat.seat)
        meta = PANEL_META.format(seat=seat.seat)
        where = self.panels.messages.get(key)
        if where is None:
            stored = await self.service.get_meta(match.id, meta)
            if stored:
                channel_id, _, message_id = stored.partition(":")
                where = (int(channel_id), int(message_id))
        if where is not None:
            await self.pacer.slot(("dm", seat.user_id))
            try:
                await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(**kwargs)
            except discord.NotFound:
                where = None  # deleted by the player: send a new one
            except discord.HTTPException:
                log.warning("panel edit failed", extra={"match": match.id, "seat": seat.seat}, exc_info=True)
                return False
            else:
                self.panels.messages[key] = where
                return True
        if self.dms_closed(seat.user_id):
            await self._note_dm_closed(match, seat.user_id, channel)
            return False
        try:
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            await self.pacer.slot(("dm", seat.user_id))
            sent = await user.send(**send_kwargs(kwargs))
        except discord.HTTPException as exc:
            if isinstance(exc, discord.Forbidden | discord.NotFound) or getattr(exc, "code", None) == 50007:
                self._dm_closed[seat.user_id] = self._clock()
                await self._note_dm_closed(match, seat.user_id, channel)
            else:
                log.warning("panel DM failed", extra={"match": match.id, "seat": seat.seat}, exc_info=True)
            return False
        where = (sent.channel.id, sent.id)
        self.panels.messages[key] = where
        await self.service.set_meta(match.id, meta, f"{where[0]}:{where[1]}")
        self._dm_closed.pop(seat.user_id, None)
        return True

    def dms_closed(self, user_id: int) -> bool:
        """Whether the user's DMs are known to be closed; forgotten after ``DM_RETRY_SECONDS``
        (people open their DMs when told to), so they are tried again then."""
        since = self._dm_closed.get(user_id)
        if since is None:
            return False
        if self._clock() - since >= DM_RETRY_SECONDS:
            del self._dm_closed[user_id]
            return False
        return True

    def dm_reopened(self, user_id: int) -> None:
        """Forget that the user's DMs were closed (a front-end that saw them work again)."""
        self._dm_closed.pop(user_id, None)

    async def _dm(self, match: MatchInfo, user_id: int, text: str, channel: discord.abc.Messageable | None) -> bool:
        """Send a DM; on closed DMs (50007) remember it for a while and say so once per match in
        the thread."""
        if self.dms_closed(user_id):
            await self._note_dm_closed(match, user_id, channel)
            return False
        sent = await self.try_dm(user_id, text, match_id=match.id)
        if sent is None:
            return False
        if not sent:
            await self._note_dm_closed(match, user_id, channel)
        return sent

    async def try_dm(self, user_id: int, text: str, *, match_id: int | None = None) -> bool | None:
        """Send a DM now: True when sent, False when the user's DMs are closed (remembered for a
        while), None on another failure. The lobby uses it to check DMs before a game starts."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await self.pacer.slot(("dm", user_id))
            await user.send(text)
        except (discord.Forbidden, discord.NotFound):
            self._dm_closed[user_id] = self._clock()
            return False
        except discord.HTTPException as exc:
            if getattr(exc, "code", None) != 50007:
                log.warning("DM failed", extra={"match": match_id, "user": user_id}, exc_info=True)
                return None
            self._dm_closed[user_id] = self._clock()
            return False
        # Open again: should they close them later, the thread is told again.
        self._dm_noted = {k for k in self._dm_noted if k[1] != user_id}
        self._dm_closed.pop(user_id, None)
        return True

    async def _note_dm_closed(self, match: MatchInfo, user_id: int, channel: discord.abc.Messageable | None) -> None:
        if channel is None or (match.id, user_id) in self._dm_noted:
            return
        self._dm_noted.add((match.id, user_id))
        try:
            await self.pacer.slot(getattr(channel, "id", None))
            await channel.send(t(match.locale, "discord.publish.dm_closed", mention=f"<@{user_id}>"),
                               allowed_mentions=pings([user_id]))
        except discord.HTTPException:
            log.warning("could not post DM notice", extra={"match": match.id, "user": user_id})
