"""Which status posts a batch of committed changes makes: a pure planner, no Discord, no I/O.

The publisher (:mod:`cogs.publisher`) remembers per match the newest status post while it may
still be edited, the newest version shown and which requests were announced (:class:`Memory`).
Given that and a batch of changes, :func:`plan_posts` says what the thread gets, as an ordered
list of calls (:class:`Plan`): an edit of the live post (the turn goes on, or its last lines
before a newer post), then the new posts (the last one with board and buttons, earlier ones
light), each saying when the previous post's buttons go. The publisher makes the calls.

Kept apart so the rules can be read and tested as a table (changes and memory in, plan out)
rather than through a fake Discord: which change continues a post is :func:`continues`; who is
pinged is :func:`turn_targets`.

Facts the planner needs from the service — players' notify preferences, and who is asked now
when a change does not say (the start) — come in :class:`Facts`. A plan made without one it
needed says which (``missing_users``, ``needs_pending``) and is not to be used: the caller reads
them and plans again, so the service is read only for what a plan uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from engines import registry
from engines.base import Msg
from i18n import t, tm
from service.lobby import LOBBY_EXPIRED
from service.models import Change, MatchInfo

from .utils.embeds import Pending, game_name
from .utils.panel import wants_panel
from .utils.text import join_lines, safe_msg, safe_names

CONTENT_MAX = 2000
#: Most event lines a turn's post shows (the newest ones); Discord allows 2000 characters anyway.
SUMMARY_LINES = 20


@dataclass
class Post:
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

    def copy(self) -> Post:
        """A copy the planner may change (it never changes a list inside ``lines``/``msgs``,
        only replaces them), so the publisher's memory stays as it was until the calls are made."""
        return replace(self, lines=dict(self.lines), requests=None if self.requests is None else dict(self.requests),
                       dm_users=list(self.dm_users), continued_by=set(self.continued_by), asked=list(self.asked),
                       msgs=dict(self.msgs), owners=set(self.owners))


@dataclass(frozen=True)
class Memory:
    """What the publisher remembers of a match between deliveries."""

    shown: int = -1  # the newest version a post shows (-1: none)
    live: Post | None = None  # the newest status post while it may be edited
    notified: frozenset[str] = frozenset()  # request ids whose players were told


@dataclass(frozen=True)
class Facts:
    """What the planner may need from the service."""

    notify: Mapping[int, str] = field(default_factory=dict)  # user id -> notify preference
    pending: tuple[Pending, ...] | None = None  # the requests humans must answer now (None: not read)


@dataclass(frozen=True)
class EditLive:
    """Bring the live post up to date. ``final``: it stays the newest post (board, whose turn and
    buttons renewed); else a newer post follows and it gets its complete lines, no buttons.
    ``queued``: a turn of response windows: the edit goes in the channel's next free slot (the
    newest content then wins), so the service goes on to the next window at once."""

    post: Post
    final: bool
    queued: bool = False


#: When a new post drops the buttons of the previous status post: ``after`` it, in the channel's
#: next free slot (cosmetic: its buttons answer "moved on"); ``before`` it, in its slot (the game
#: is over: no button may outlive the result); or not at all (``""``: it has none any more).
Retire = Literal["after", "before", ""]


@dataclass(frozen=True)
class Send:
    """Post ``post``. ``final``: the newest post, with the current board, whose turn and buttons;
    else a light post of an earlier turn of the batch (its lines and who was asked then)."""

    post: Post
    final: bool
    retire: Retire = ""


@dataclass(frozen=True)
class Plan:
    steps: list[EditLive | Send]  # the calls, in order
    notified: frozenset[str]  # request ids announced once the batch is out
    missing_users: frozenset[int] = frozenset()  # notify preferences it needed and lacked
    needs_pending: bool = False  # it needed who is asked now and lacked it

    @property
    def complete(self) -> bool:
        """Made with every fact it needed (else: read the missing ones and plan again)."""
        return not self.missing_users and not self.needs_pending


def line_count(post: Post) -> int:
    return sum(len(lines) for lines in post.lines.values())


def lobby_expiry(change: Change) -> bool:
    """A lobby closed for inactivity: its lobby message (refreshed) says so; the channel is not
    told, as with any lobby closed before it started."""
    return change.kind == "abandoned" and change.note is not None and change.note.key == LOBBY_EXPIRED


def asked_of(change: Change, requests: dict[str, int]) -> list[Pending]:
    """The requests after ``change``, each with its response window (public posts hide those seats)."""
    windows = dict(zip(change.request_ids, change.request_windows, strict=False))
    return [Pending(r, s, window=windows.get(r, "")) for r, s in requests.items()]


def requests_of(change: Change) -> dict[str, int] | None:
    if len(change.request_seats) != len(change.request_ids) or not change.request_ids:
        return None
    return dict(zip(change.request_ids, change.request_seats, strict=True))


def continues(post: Post, change: Change, bot_seats: set[int], *, room: bool = True) -> bool:
    """Whether ``change`` belongs to ``post``'s turn: a seat that was asked acted and nobody
    else got a new request (a seat that keeps acting gets fresh ids itself; that is no news).

    Handing the turn only to AI-played seats continues too (nobody is to be told; the moves
    arrive in one batch), and so does an AI seat handing it back to the human who acted last in
    the post (``last_human``): the same player keeps playing, a human move and the AI's answer
    make one post, edited move after move, with no ping. A post per AI turn or per move would
    crowd the thread and Discord's 5 posts / 5 s per channel. That last case needs ``room``:
    a post that shows a whole game would hide its start, so when its lines are full the game
    goes on in a new post (unpinged, see :func:`plan_posts`).

    Response windows (三国杀's 闪, 无懈可击, 桃) are part of the turn that opened them: a window
    request is never news for the thread (nobody is pinged for it), a window closing by its
    defaults (``window`` change) goes on in the same post, and once a post has shown a window,
    the turn coming back to the seats it was opened for (``owners``) is no news either.
    """
    after = requests_of(change)
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


def keep_msgs(post: Post, version: int, msgs: list[Msg] | None) -> None:
    """Remember a version's lines as messages (None: an AI summary, which has no messages)."""
    if msgs is None:
        post.msgs.pop(version, None)
    else:
        post.msgs[version] = list(msgs)


def narration_msgs(match: MatchInfo, change: Change) -> list[Msg]:
    """A change's public lines as messages (kept so a game can ``compact`` a whole turn)."""
    msgs = []
    if change.kind == "started":
        players = ", ".join(safe_names(match.seats))
        msgs.append(Msg("discord.publish.started", {"game": game_name(match.game, match.locale), "players": players}))
    msgs += [e.msg for e in change.events if e.to is None]
    if change.note is not None:
        msgs.append(safe_msg(change.note))
    if change.kind == "finished":
        msgs.append(Msg("discord.publish.finished"))
    return msgs


def ai_summaries(match: MatchInfo, changes: Sequence[Change], bot_seats: set[int]) -> dict[int, list[str]]:
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


def content(match: MatchInfo, post: Post) -> str | None:
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


def announce(notified: set[str], pending: Sequence[Pending]) -> list[Pending]:
    """Of ``pending`` (everything asked now), the requests not announced before; ``notified``
    becomes exactly what is asked now (a request asked again later is news again)."""
    fresh = [p for p in pending if p.request_id not in notified]
    notified.intersection_update({p.request_id for p in pending})
    notified.update(p.request_id for p in pending)
    return fresh


def _told(match: MatchInfo, pending: Iterable[Pending], skip_seats: Iterable[int]) -> list[tuple[int, int]]:
    """(seat, user id) of the seats asked in ``pending`` that a person plays and that are not
    skipped, once each."""
    seats = {s.seat: s for s in match.seats}
    skip = set(skip_seats)
    out = []
    for seat_no in dict.fromkeys(p.seat for p in pending):
        seat = seats.get(seat_no)
        if seat is not None and seat.user_id is not None and not seat.resigned and seat_no not in skip:
            out.append((seat_no, seat.user_id))
    return out


def notify_users(match: MatchInfo, pending: Iterable[Pending], skip_seats: Iterable[int] = ()) -> set[int]:
    """The users whose notify preference :func:`turn_targets` reads for ``pending``."""
    return {user_id for _, user_id in _told(match, pending, skip_seats)}


def turn_targets(match: MatchInfo, pending: Sequence[Pending], notify: Mapping[int, str],
                 skip_seats: Iterable[int] = ()) -> tuple[list[str], list[int]]:
    """Mentions and DM recipients for the seats asked in ``pending``, per their notify preference.

    ``skip_seats`` (who just acted) are skipped: in multi-step turns, or right after the AI
    answered them, they are at the keyboard and a ping after each of their own clicks would be
    noise. A user missing from ``notify`` is neither pinged nor DMed (see ``Plan.missing_users``).
    """
    mentions: list[str] = []
    dms: list[int] = []
    windowed = {p.seat for p in pending if p.window}
    panel = wants_panel(match.game)  # its DM panel is the prompt of a window (an edit, no new DM)
    for seat, user_id in _told(match, pending, skip_seats):
        mode = notify.get(user_id)
        if mode in ("mention", "both") and seat not in windowed:  # a public ping names who may respond
            mentions.append(f"<@{user_id}>")
        if mode in ("dm", "both") and not (panel and seat in windowed):
            dms.append(user_id)
    return mentions, dms


def plan_posts(match: MatchInfo, changes: Sequence[Change], memory: Memory, facts: Facts, *,
               channel_id: int | None) -> Plan:
    """Sort ``changes`` (one match's, in commit order) into posts: the live one continued, new
    ones; then say the calls. ``channel_id``: where posts go now (a live post elsewhere is not
    continued). Pure: ``memory`` and ``facts`` are not changed."""
    live = memory.live
    if live is not None and (live.message is None or live.message[0] != channel_id):
        live = None
    live = live.copy() if live is not None else None
    notified = set(memory.notified)
    missing: set[int] = set()
    needs_pending = False
    current, edited, posts = live, False, []
    bot_seats = {s.seat for s in match.seats if s.is_ai or s.resigned}
    summaries = ai_summaries(match, changes, bot_seats)
    names = safe_names(match.seats)
    seen = memory.shown
    for change in changes:
        # "finished" shares its version with the final move, whose post shows the result:
        # its line ("The game is over.") joins that post rather than making a new one.
        if (change.kind == "finished" and current is not None and change.version == current.version
                and change.version == seen):
            more = narration_msgs(match, change)
            current.lines[change.version] = [*current.lines.get(change.version, []),
                                              *(tm(match.locale, m, names) for m in more)]
            if change.version in current.msgs:
                current.msgs[change.version] = [*current.msgs[change.version], *more]
            edited = edited or current is live
            continue
        if change.kind in ("lobby", "reminder") or change.version <= seen or lobby_expiry(change):
            continue
        seen = change.version
        msgs = None if change.version in summaries else narration_msgs(match, change)
        lines = summaries[change.version] if msgs is None else [tm(match.locale, m, names) for m in msgs]
        requests = requests_of(change)
        human = change.seat if change.seat is not None and change.seat not in bot_seats else None
        if current is not None and continues(current, change, bot_seats,
                                             room=line_count(current) + len(lines) <= SUMMARY_LINES):
            current.lines[change.version] = lines
            keep_msgs(current, change.version, msgs)
            current.version = change.version
            current.requests = requests
            current.continued_by.add(change.seat)
            current.last_human = human if human is not None else current.last_human
            current.asked = asked_of(change, requests or {})
            current.windowed = current.windowed or any(p.window for p in current.asked)
            announce(notified, current.asked)
            edited = edited or current is live
            continue
        if requests is not None:
            asked = asked_of(change, requests)
        elif change.version < match.version or match.status != "active":
            asked = []  # (an ended match asks nobody)
        elif facts.pending is None:  # e.g. the start: the service says who is to play now
            needs_pending, asked = True, []
        else:
            asked = list(facts.pending)
        # Nobody is pinged who was just playing: the actor, and the human the AI answered.
        last_human = current.last_human if current is not None and human is None else human
        skip = {s for s in (change.seat, last_human) if s is not None}
        fresh = announce(notified, asked)
        missing.update(u for u in notify_users(match, fresh, skip) if u not in facts.notify)
        mentions, dms = turn_targets(match, fresh, facts.notify, skip)
        mention = t(match.locale, "discord.publish.your_turn", mentions=" ".join(mentions)) if mentions else ""
        if current is not None and any(p is current for p in posts) and not current.mention and not current.dm_users:
            # Not sent yet and it pings nobody: one post instead of two (the start and the
            # AI's first move, a time-out and the AI's answer).
            current.lines[change.version] = lines
            keep_msgs(current, change.version, msgs)
            current.version, current.kind, current.requests = change.version, change.kind, requests
            current.mention, current.dm_users, current.last_human = mention, dms, last_human
            current.asked = asked
            current.owners = {p.seat for p in asked if not p.window}
            current.windowed = any(p.window for p in asked)
            continue
        current = Post(change.version, change.kind, {change.version: lines}, requests, mention, dms,
                       last_human=last_human, asked=asked, owners={p.seat for p in asked if not p.window},
                       windowed=any(p.window for p in asked))
        keep_msgs(current, change.version, msgs)
        posts.append(current)
    return Plan(_steps(match, live if edited else None, posts), frozenset(notified), frozenset(missing),
                needs_pending)


def _steps(match: MatchInfo, edited: Post | None, posts: list[Post]) -> list[EditLive | Send]:
    """The calls for an edited live post (or None) and the new posts, in order."""
    if edited is not None and not posts and edited.windowed and edited.message is not None:
        # Response windows close every few seconds (a 南蛮入侵 at 8 seats is 14 of them): the
        # edit is queued for the channel's next free slot and built then, so the service goes
        # on to the next window at once and several closes fold into one edit.
        return [EditLive(edited, final=True, queued=True)]
    steps: list[EditLive | Send] = []
    if edited is not None:  # (a newer post follows: the live post loses its buttons in this edit)
        steps.append(EditLive(edited, final=not posts))
    # The previous post's buttons go after the first new post, in the channel's next free slot
    # (the news never waits behind a cosmetic edit), unless the game is over: then before it, in
    # its slot, so no "Take your turn" stays live after the result. Light posts have none.
    over = match.status in ("finished", "abandoned")
    for post in posts:
        retire: Retire = "" if steps else ("before" if over else "after")
        steps.append(Send(post, final=post is posts[-1], retire=retire))
    return steps
