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
(see ``_continues``). A NEW post, with the mention/DM per notify preference, comes when somebody
else is asked (the turn passes to another human, a phase needing others begins), at time-outs and
resignations, and at the end. Which seats are asked after each change comes with the change
(``Change.request_seats``); a change without it always gets a new post. Within one batch a post
that would ping nobody and is not sent yet takes the next post's lines instead of being a post of
its own (the start and the AI's first move, a time-out and the AI's answer).

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
from dataclasses import dataclass, field
from typing import Any

import discord

from engines import registry
from engines.base import Msg
from i18n import t, tm
from service.lobby import LOBBY_EXPIRED
from service.models import Change, MatchInfo, SeatInfo

from .lobby import refresh_lobby
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

log = logging.getLogger(__name__)
CONTENT_MAX = 2000
HISTORY_SCAN = 10
_REMEMBER = 4096
STATUS_POST_META = "status_post"  # "channel id:message id" of the newest status post
#: Most event lines a turn's post shows (the newest ones); Discord allows 2000 characters anyway.
SUMMARY_LINES = 20
#: A post pings only the users it names on purpose (``pings``/``pings_in``); nothing else.
_MENTIONS = discord.AllowedMentions.none()
#: A user whose DMs were closed is tried again after this long (they may have opened them).
DM_RETRY_SECONDS = 3600.0


@dataclass
class _Post:
    """One status post: the public lines of the changes it shows and who is asked after them."""

    version: int  # newest change shown
    kind: str  # kind of the change that opened it
    lines: dict[int, list[str]]  # version -> lines; a re-delivered version replaces, never repeats
    requests: dict[str, int] | None  # request id -> seat after the newest change; None: unknown
    mention: str = ""  # the "your turn" line; kept on edits (an edit never pings again)
    dm_users: list[int] = field(default_factory=list)
    message: tuple[int, int] | None = None  # (channel id, message id) once posted
    continued_by: set[int] = field(default_factory=set)  # seats whose later actions it shows
    asked: list[Pending] = field(default_factory=list)  # the requests with their windows
    msgs: dict[int, list[Msg]] = field(default_factory=dict)  # version -> its lines as Msgs (for compact)
    last_human: int | None = None  # the human seat that acted last in the changes it shows
    owners: set[int] = field(default_factory=set)  # seats asked (not in a window) when it opened
    windowed: bool = False  # it has shown a response window: the turn returning to owners continues


def _line_count(post: _Post) -> int:
    return sum(len(lines) for lines in post.lines.values())


def _lobby_expiry(change: Change) -> bool:
    """A lobby closed for inactivity: its lobby message (refreshed) says so; the channel is not
    told, as with any lobby closed before it started."""
    return change.kind == "abandoned" and change.note is not None and change.note.key == LOBBY_EXPIRED


def _asked(change: Change, requests: dict[str, int]) -> list[Pending]:
    """The requests after ``change``, each with its response window (public posts hide those seats)."""
    windows = dict(zip(change.request_ids, change.request_windows, strict=False))
    return [Pending(r, s, window=windows.get(r, "")) for r, s in requests.items()]


def _requests_of(change: Change) -> dict[str, int] | None:
    if len(change.request_seats) != len(change.request_ids) or not change.request_ids:
        return None
    return dict(zip(change.request_ids, change.request_seats, strict=True))


def _continues(post: _Post, change: Change, bot_seats: set[int], *, room: bool = True) -> bool:
    """Whether ``change`` belongs to ``post``'s turn: a seat that was asked acted and nobody
    else got a new request (a seat that keeps acting gets fresh ids itself; that is no news).

    Handing the turn only to AI-played seats continues too (nobody is to be told; the moves
    arrive in one batch), and so does an AI seat handing it back to the human who acted last in
    the post (``last_human``): the same player keeps playing, a human move and the AI's answer
    make one post, edited move after move, with no ping. A post per AI turn or per move would
    crowd the thread and Discord's 5 posts / 5 s per channel. That last case needs ``room``:
    a post that shows a whole game would hide its start, so when its lines are full the game
    goes on in a new post (unpinged, see ``_public``).

    Response windows (三国杀's 闪, 无懈可击, 桃) are part of the turn that opened them: a window
    request is never news for the thread (nobody is pinged for it), a window closing by its
    defaults (``window`` change) goes on in the same post, and once a post has shown a window,
    the turn coming back to the seats it was opened for (``owners``) is no news either.
    """
    after = _requests_of(change)
    if change.kind not in ("acted", "window") or post.requests is None or after is None:
        return False
    if change.kind == "acted" and (change.seat is None or change.seat not in post.requests.values()):
        return False
    windows = dict(zip(change.request_ids, change.request_windows, strict=False))
    fresh = {seat for rid, seat in after.items()
             if seat != change.seat and rid not in post.requests and not windows.get(rid)}
    if fresh <= bot_seats:
        return True
    if post.windowed and fresh <= bot_seats | post.owners:
        return True
    back = change.seat in bot_seats and post.last_human is not None
    return room and back and fresh <= bot_seats | {post.last_human}


def _keep_msgs(post: _Post, version: int, msgs: list[Msg] | None) -> None:
    """Remember a version's lines as messages (None: an AI summary, which has no messages)."""
    if msgs is None:
        post.msgs.pop(version, None)
    else:
        post.msgs[version] = list(msgs)


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
        self._live: dict[int, _Post] = {}  # match -> its newest status post, still editable
        self.panels = PanelBook()  # private panels (engines with ``private_panel``)

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
            # ``_public``), so waiting here would only hold the next window back by a slot.
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
        if any(c.kind != "lobby" and not _lobby_expiry(c) for c in todo):
            channel = await match_channel(self.bot, match)
            if channel is None:
                log.warning("match channel is gone; nothing posted", extra=extra)
            else:
                self._channel_of[match.id] = getattr(channel, "id", 0)
                try:
                    await self._public(match, todo, channel)
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
    def _narration(self, match: MatchInfo, change: Change) -> list[str]:
        names = safe_names(match.seats)
        return [tm(match.locale, m, names) for m in self._narration_msgs(match, change)]

    def _narration_msgs(self, match: MatchInfo, change: Change) -> list[Msg]:
        """A change's public lines as messages (kept so a game can ``compact`` a whole turn)."""
        locale = match.locale
        msgs = []
        if change.kind == "started":
            players = ", ".join(safe_names(match.seats))
            msgs.append(Msg("discord.publish.started", {"game": game_name(match.game, locale), "players": players}))
        msgs += [e.msg for e in change.events if e.to is None]
        if change.note is not None:
            msgs.append(safe_msg(change.note))
        if change.kind == "finished":
            msgs.append(Msg("discord.publish.finished"))
        return msgs

    def _ai_summaries(self, match: MatchInfo, changes: list[Change], bot_seats: set[int]) -> dict[int, list[str]]:
        """Lines per version for AI seats' runs of moves, when the engine can summarise them
        (``summarize(events) -> list[Msg]``, e.g. Risk): the run's summary on its last change,
        nothing on the others, instead of one line per die roll cut to the newest twenty."""
        summarize = getattr(registry.get(match.game), "summarize", None)
        if not callable(summarize):
            return {}
        names = safe_names(match.seats)
        out: dict[int, list[str]] = {}
        run: list[Change] = []

        def flush() -> None:
            if len(run) > 1:
                events = [e for c in run for e in c.events if e.to is None]
                for c in run[:-1]:
                    out[c.version] = []
                out[run[-1].version] = [tm(match.locale, m, names) for m in summarize(events)]
            run.clear()

        for change in changes:
            if change.kind != "acted" or change.seat not in bot_seats or (run and run[-1].seat != change.seat):
                flush()
            if change.kind == "acted" and change.seat in bot_seats:
                run.append(change)
        flush()
        return out

    async def _public(self, match: MatchInfo, changes: list[Change], channel: discord.abc.Messageable) -> None:
        """Sort the changes into posts (the live one continued, new ones), then make the calls:
        at most one edit of the live post, then one send per new post."""
        shown = await self._shown_upto(match.id, channel)
        live = self._live.get(match.id)
        if live is not None and (live.message is None or live.message[0] != getattr(channel, "id", None)):
            live = None
        current, edited, posts = live, False, []
        bot_seats = {s.seat for s in match.seats if s.is_ai or s.resigned}
        summaries = self._ai_summaries(match, changes, bot_seats)
        names = safe_names(match.seats)
        seen = shown
        for change in changes:
            # "finished" shares its version with the final move, whose post shows the result:
            # its line ("The game is over.") joins that post rather than making a new one.
            if (change.kind == "finished" and current is not None and change.version == current.version
                    and change.version == seen):
                current.lines.setdefault(change.version, []).extend(self._narration(match, change))
                if change.version in current.msgs:
                    current.msgs[change.version].extend(self._narration_msgs(match, change))
                edited = edited or current is live
                continue
            if change.kind in ("lobby", "reminder") or change.version <= seen or _lobby_expiry(change):
                continue
            seen = change.version
            msgs = None if change.version in summaries else self._narration_msgs(match, change)
            lines = summaries[change.version] if msgs is None else [tm(match.locale, m, names) for m in msgs]
            requests = _requests_of(change)
            human = change.seat if change.seat is not None and change.seat not in bot_seats else None
            if current is not None and _continues(current, change, bot_seats,
                                                  room=_line_count(current) + len(lines) <= SUMMARY_LINES):
                current.lines[change.version] = lines
                _keep_msgs(current, change.version, msgs)
                current.version = change.version
                current.requests = requests
                current.continued_by.add(change.seat)
                current.last_human = human if human is not None else current.last_human
                current.asked = _asked(change, requests or {})
                current.windowed = current.windowed or any(p.window for p in current.asked)
                self._announce(match.id, current.asked)
                edited = edited or current is live
                continue
            if requests is not None:
                asked = _asked(change, requests)
            else:  # e.g. the start: ask the service who is to play now
                asked = await pending_of(self.service, match) if change.version >= match.version else []
            # Nobody is pinged who was just playing: the actor, and the human the AI answered.
            last_human = current.last_human if current is not None and human is None else human
            skip = {s for s in (change.seat, last_human) if s is not None}
            mentions, dms = await self._turn_targets(match, asked, skip_seats=skip)
            mention = t(match.locale, "discord.publish.your_turn", mentions=" ".join(mentions)) if mentions else ""
            if current is not None and any(p is current for p in posts) and not current.mention and not current.dm_users:
                # Not sent yet and it pings nobody: one post instead of two (the start and the
                # AI's first move, a time-out and the AI's answer).
                current.lines[change.version] = lines
                _keep_msgs(current, change.version, msgs)
                current.version, current.kind, current.requests = change.version, change.kind, requests
                current.mention, current.dm_users, current.last_human = mention, dms, last_human
                current.asked = asked
                current.owners = {p.seat for p in asked if not p.window}
                current.windowed = any(p.window for p in asked)
                continue
            current = _Post(change.version, change.kind, {change.version: lines}, requests, mention, dms,
                            last_human=last_human, asked=asked, owners={p.seat for p in asked if not p.window},
                            windowed=any(p.window for p in asked))
            _keep_msgs(current, change.version, msgs)
            posts.append(current)
        if not edited and not posts:
            return
        if edited and live is not None and not posts and live.windowed and live.message is not None:
            # Response windows close every few seconds (a 南蛮入侵 at 8 seats is 14 of them): the
            # edit is queued for the channel's next free slot and built then, so the service goes
            # on to the next window at once and several closes fold into one edit.
            async def edit(post: _Post = live) -> None:
                # Superseded by a newer post meanwhile: still its complete lines, without buttons.
                await self._edit_live(match, post, final=self._live.get(match.id) is post, paced=False)

            # Its own queue item: retiring the post's buttons (same message) must not replace it.
            self.pacer.defer(live.message[0], (live.message[1], "lines"), edit)
            self._shown[match.id] = max(shown, live.version)
            return
        if edited and live is not None and not await self._edit_live(match, live, final=not posts):
            posts.insert(0, live)  # the post is gone (deleted by a moderator): post it again
        newest: _Post | None = live if edited and not posts else None
        for post in posts:
            await self.pacer.slot(getattr(channel, "id", None))
            kwargs = await self._post_kwargs(match, post, final=post is posts[-1])
            if kwargs["content"] is None and "embed" not in kwargs:
                continue  # e.g. a lobby closed before it started: the lobby message says it all
            message = await channel.send(**kwargs)
            post.message = (message.channel.id, message.id)
            # The live post lost its buttons in its edit above; light posts never had any.
            await self._retire_previous(match.id, post.message, edit=post is posts[0] and not edited)
            for user_id in post.dm_users:
                loc = await locale_for_user(self.service, user_id, match.locale)
                await self._dm(match, user_id, t(loc, "discord.publish.turn_dm", game=game_name(match.game, loc),
                                                 match=match.id, link=self._link(match)), channel)
            newest = post
        if newest is not None:
            self._shown[match.id] = max(shown, newest.version)
            if newest.requests and match.status == "active":
                self._live[match.id] = newest
            else:
                self._live.pop(match.id, None)

    def _content(self, match: MatchInfo, post: _Post) -> str | None:
        """The post's event lines, newest kept when they do not all fit, then the mention. A game
        with ``compact(msgs)`` (三国杀) tells the turn shorter: its lines are rebuilt from the
        messages of every change the post shows."""
        locale = match.locale
        lines = [line for version in sorted(post.lines) for line in post.lines[version]]
        compact = getattr(registry.get(match.game), "compact", None)
        if callable(compact) and post.lines and set(post.msgs) >= set(post.lines):
            names = safe_names(match.seats)
            lines = [tm(locale, m, names) for m in compact([m for v in sorted(post.msgs) for m in post.msgs[v]])]
        tail = [post.mention] if post.mention else []
        budget = CONTENT_MAX - sum(len(x) + 1 for x in tail) - 80  # room for the "earlier" line
        kept: list[str] = []
        for line in reversed(lines):
            if len(kept) >= SUMMARY_LINES or budget - len(line) - 1 < 0:
                break
            kept.append(line)
            budget -= len(line) + 1
        if not kept and lines:  # one huge line: show its start rather than nothing
            kept = [lines[-1][:max(1, budget)]]
        kept.reverse()
        if len(kept) < len(lines):
            kept.insert(0, t(locale, "publish.earlier", count=len(lines) - len(kept)))
        return join_lines(kept + tail, CONTENT_MAX) or None

    async def _post_kwargs(self, match: MatchInfo, post: _Post, *, final: bool) -> dict[str, Any]:
        """What a post shows. The newest one: the current public view's board and lines, whose
        turn with deadlines, and buttons. An earlier turn in the same batch: its lines and who
        was asked then (the current board would misrepresent it)."""
        locale = match.locale
        kwargs: dict[str, Any] = {"content": self._content(match, post), "allowed_mentions": pings_in(post.mention)}
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

    async def _edit_live(self, match: MatchInfo, post: _Post, *, final: bool, paced: bool = True) -> bool:
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
            kwargs = {"content": self._content(match, post), "allowed_mentions": pings_in(post.mention),
                      "view": None}
        kwargs.setdefault("content", None)
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**kwargs)
        except discord.NotFound:
            log.warning("the live status post is gone; posting anew", extra={"match": match.id})
            if self._live.get(match.id) is post:  # (a queued edit may find an older post gone)
                self._live.pop(match.id, None)
            return False
        return True

    async def _retire_previous(self, match_id: int, latest: tuple[int, int], *, edit: bool = True) -> None:
        """Drop the buttons of the previous status post so only the newest one invites a click.

        The newest post is remembered in the match's meta (not only in memory), so the post that
        was current when the bot restarted loses its button too. ``edit=False`` when the previous
        post has none (already retired, or a light post of the same batch).
        """
        previous = self._last_status.get(match_id)
        if previous is None:
            stored = await self.service.get_meta(match_id, STATUS_POST_META)
            if stored:
                channel_id, _, message_id = stored.partition(":")
                previous = (int(channel_id), int(message_id))
        self._last_status[match_id] = latest
        await self.service.set_meta(match_id, STATUS_POST_META, f"{latest[0]}:{latest[1]}")
        if previous is None or previous == latest or not edit:
            return
        old = self.bot.get_partial_messageable(previous[0]).get_partial_message(previous[1])

        async def retire() -> None:
            with contextlib.suppress(discord.HTTPException):
                await old.edit(view=None)

        # Cosmetic (its buttons answer "out of date" anyway): in the channel's next free slot,
        # so the news that replaced it never waits behind it.
        self.pacer.defer(previous[0], previous[1], retire)

    def _announce(self, match_id: int, pending: list[Pending]) -> list[Pending]:
        """Of ``pending`` (everything asked now), the requests not announced before; remembers them."""
        known = self._notified.setdefault(match_id, set())
        fresh = [p for p in pending if p.request_id not in known]
        known.intersection_update({p.request_id for p in pending})
        known.update(p.request_id for p in pending)
        return fresh

    async def _turn_targets(self, match: MatchInfo, pending: list[Pending], skip_seats: set[int] | None = None,
                            *, fresh_only: bool = True) -> tuple[list[str], list[int]]:
        """Mentions and DM recipients for the seats now to play, per their notify preference.

        Only requests not announced before count (a player waiting through several moves of
        others is pinged once), and ``skip_seats`` (who just acted) are skipped: in multi-step
        turns, or right after the AI answered them, they are at the keyboard and a ping after
        each of their own clicks would be noise.
        """
        seats = {s.seat: s for s in match.seats}
        mentions: list[str] = []
        dms: list[int] = []
        if fresh_only:
            pending = self._announce(match.id, pending)
        windowed = {p.seat for p in pending if p.window}
        panel = wants_panel(match.game)  # its DM panel is the prompt of a window (an edit, no new DM)
        for seat_no in dict.fromkeys(p.seat for p in pending):
            seat: SeatInfo | None = seats.get(seat_no)
            if seat is None or seat.user_id is None or seat.resigned or seat_no in (skip_seats or ()):
                continue
            mode = await self.service.get_notify(seat.user_id)
            if mode in ("mention", "both") and seat_no not in windowed:  # a public ping names who may respond
                mentions.append(f"<@{seat.user_id}>")
            if mode in ("dm", "both") and not (panel and seat_no in windowed):
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
