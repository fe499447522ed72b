"""MatchService: the one place that changes matches.

Every method raises ``service.errors.UserError`` for anything a user did wrong; the match is then
unchanged. Engine errors are converted to UserError.

The operations live in three layers: ``service.core`` (locks, loading, the one-transaction commit,
outbox delivery, AI and time-out moves), ``service.lobby`` (everything before the game starts) and
this module (play, reading, preferences, time). See ``service.core`` for how a change happens.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, get_args

from engines import registry
from engines.base import Action, EngineError, Event, Msg, Request, Result, Step, View
from service import codec
from service.core import (
    LEASE_SECONDS,
    check_match_id,
    default_ai_rng,
    seen_by,
    window_key,
    with_request,
)
from service.errors import UserError
from service.lobby import MAX_TURN_SECONDS, MIN_TURN_SECONDS, LobbyOps
from service.models import Change, LogEntry, MatchInfo, NotifyMode, PendingRequest
from service.replays import ReplayOps
from service.standing_ops import StandingOps
from service.stats import StatsOps
from store import repo
from store.base import is_row_id
from store.db import Tx
from store.repo import MatchRecord


def _all(writes: list[Callable[[Tx], Awaitable[None]]]) -> Callable[[Tx], Awaitable[None]]:
    """Several writes that stand or fall with one change, as one ``before`` hook."""
    async def write(tx: Tx) -> None:
        for w in writes:
            await w(tx)
    return write


__all__ = ["MAX_TURN_SECONDS", "MIN_TURN_SECONDS", "MatchService", "default_ai_rng"]

log = logging.getLogger(__name__)

#: Limits on an action's shape, checked before the engine sees it.
MAX_ACTION_TOKENS = 64
MAX_TOKEN_CHARS = 100
#: Size limits of front-end bookkeeping values (set_meta).
MAX_META_KEY = 64
MAX_META_VALUE = 4096
#: Statuses in which a match still counts as running for listings.
OPEN_STATUSES = ("lobby", "active")
#: Refusals of a click whose request may have been answered by that very click already: its
#: request is no longer pending, or its answer ended the match (``act`` then looks in the log).
_ANSWERED_REFUSALS = frozenset({"core.err.stale", "core.err.not_active"})
#: Reminders one run_due round sends at most: in practice all that are due. They need no engine
#: work, so a round starts every one at once and no backlog of time-outs and AI runs holds them
#: back (bench run_due: 600 reminders among 1 400 time-outs waited 2.6 s, median, at 100 a round).
REMINDERS_PER_ROUND = 5000


class MatchService(LobbyOps, StatsOps, ReplayOps, StandingOps):
    """The service the front-ends use. Constructor: see :class:`service.core.MatchCore`."""

    # ----- play ---------------------------------------------------------------------------
    async def step(self, match_id: int, user_id: int, request_id: str, path: Action) -> Step:
        """Choices after ``path`` for the user's request (UserError if stale / not theirs)."""
        self._check_action(path, allow_empty=True)
        m = await self._load(match_id)
        self._need_status(m, "active")
        seat = self._player(m, user_id)
        assert m.rec.state is not None
        req = self._request(m, m.rec.state, seat, request_id)
        try:
            return with_request(m.engine.step, req)(m.rec.state, seat.seat, list(path))
        except EngineError as err:
            raise UserError.from_engine(err) from err

    @staticmethod
    def _check_action(action: Any, *, allow_empty: bool = False) -> None:
        """Reject what no engine should be asked about (wrong types, absurd sizes)."""
        if not isinstance(action, list | tuple) or (not action and not allow_empty) \
                or len(action) > MAX_ACTION_TOKENS \
                or not all(isinstance(tok, str) and len(tok) <= MAX_TOKEN_CHARS for tok in action):
            raise UserError("core.err.illegal")

    async def act(self, match_id: int, user_id: int, request_id: str, action: Action) -> MatchInfo:
        """See :meth:`act_with_events`; returns only the match."""
        return (await self.act_with_events(match_id, user_id, request_id, action))[0]

    async def act_with_events(self, match_id: int, user_id: int, request_id: str,
                              action: Action) -> tuple[MatchInfo, list[Event]]:
        """:meth:`act`, also returning the events of this action the user may see (public ones
        and those addressed to their seat): the acting player sees the result (the dice) at once,
        while the thread gets one summary per turn.

        Apply under the match lock; refuse if ``request_id`` is no longer pending for the
        user's seat (stale button, double click). State + log + deadlines + outbox in one
        transaction; publish after commit; then let AI seats answer their requests.

        The engine gets the state freshly decoded from the database, i.e. a private deep copy,
        so even an engine that mutated its input could not corrupt anything on failure.

        A move that is saved is answered as saved: when anything fails after its transaction
        committed (or the commit's answer is lost), and when the same click comes again after
        it was saved (its request is no longer pending), the answer is read from the log by
        request id (:meth:`_answer_from_log`: same seat, same action, made by the player); a
        different action on an answered request is still stale.
        """
        self._check_action(action)
        try:
            return await self._act(match_id, user_id, request_id, action)
        except UserError as err:
            if err.msg.key not in _ANSWERED_REFUSALS:
                raise
            saved = await self._answer_from_log(match_id, user_id, request_id, action)
            if saved is None:
                raise
            return saved
        except Exception:
            saved = await self._answer_from_log(match_id, user_id, request_id, action)
            if saved is None:
                raise
            log.warning("act on match %s failed after its move was saved; answered from the log", match_id,
                        exc_info=True)
            # What the failure may have left undone (delivery, the AI's answer) is run_due's:
            # wake the scheduler for it rather than wait for its next round.
            self._due_changed(self._clock())
            return saved

    async def _act(self, match_id: int, user_id: int, request_id: str,
                   action: Action) -> tuple[MatchInfo, list[Event]]:
        """:meth:`act_with_events` without the answers from the log."""
        async with self._locks(match_id):
            m = await self._load(match_id)
            self._need_status(m, "active")
            seat = self._player(m, user_id)
            state = m.rec.state
            assert state is not None
            req = self._request(m, state, seat, request_id)
            if await self._hold_pass(m, seat, req, action):
                return self._info(m), []
            try:
                new_state, events = await self._cpu_now(with_request(m.engine.apply, req), state, seat.seat,
                                                    list(action))
            except EngineError as err:
                raise UserError.from_engine(err) from err
            except Exception as err:
                log.exception("engine %s failed on match %s action %r", m.rec.game, m.id, action)
                raise UserError("core.err.unexpected", match=m.id) from err
            notices, digested = await self._digest(m, seat.seat)
            attended = seat.missed or seat.away  # any action of the player ends 托管
            note = self._attend(m, seat.seat, timed_out=False)
            if seat.away:
                note = await self._back_line(m, seat.seat)
            writes = [w for w in (self._attendance_writer(m, [seat.seat]) if attended else None, digested) if w]
            await self._commit_play(m, state, new_state, seat=seat.seat, request_id=req.id, action=action,
                                    events=events, source="user", kind="acted", note=note,
                                    before=_all(writes) if writes else None, notices=notices)
        await self._after_change(match_id)
        return await self.get(match_id), seen_by(events, seat.seat)

    async def resign(self, match_id: int, user_id: int) -> MatchInfo:
        """The seat gives up. If the engine has ``resign(state, seat) -> (state, events)`` it is
        applied; otherwise the AI answers for the seat from now on. The match then ends, won by
        the seats still in, when at most one seat is still in or no human is still in."""
        async with self._locks(match_id):
            m = await self._load(match_id)
            self._need_status(m, "active")
            seat = self._player(m, user_id)
            if seat.resigned:
                raise UserError("core.err.resigned")
            state = m.rec.state
            assert state is not None
            new_state, events = state, []
            engine_resign = getattr(m.engine, "resign", None)
            if callable(engine_resign):
                try:
                    new_state, events = await self._cpu_now(engine_resign, state, seat.seat)
                except EngineError as err:
                    raise UserError.from_engine(err) from err
            m.seats = [replace(s, resigned=True) if s.seat == seat.seat else s for s in m.seats]
            forced: Result | None = None
            if m.engine.result(new_state) is None:
                live = [s for s in m.seats if not s.resigned]
                if len(live) <= 1 or all(s.user_id is None for s in live):
                    forced = Result(winners=[s.seat for s in live],
                                    summary=Msg("core.result.resigned", {"name": seat.name}))
            note = Msg("core.note.resigned", {"name": seat.name})

            async def mark(tx: Tx) -> None:
                await repo.set_resigned(tx, m.id, seat.seat)

            await self._commit_play(m, state, new_state, seat=seat.seat, request_id=None,
                                    action=["resign"], events=list(events), source="system",
                                    kind="resigned", note=note, forced_result=forced, before=mark)
        await self._after_change(match_id)
        return await self.get(match_id)

    async def come_back(self, match_id: int, user_id: int) -> MatchInfo:
        """The player of a seat marked away (托管) takes it back ("I'm back"): their requests get
        a person's clock again and the thread says so. Nothing happens if they were not away."""
        async with self._locks(match_id):
            m = await self._load(match_id)
            self._need_status(m, "active")
            seat = self._player(m, user_id)
            if not seat.away:
                return self._info(m)
            notices, digested = await self._digest(m, seat.seat)  # what happened while away
            self._attend(m, seat.seat, timed_out=False)
            note = await self._back_line(m, seat.seat)
            state = m.rec.state
            assert state is not None
            async with self.store.transaction() as tx:
                version = await self._bump(tx, m)
                await self._attendance_writer(m, [seat.seat])(tx)
                if digested is not None:
                    await digested(tx)
                ids = {d.request_id for d in await repo.get_deadlines(tx, m.id) if d.seat != seat.seat}
                await repo.delete_deadlines(tx, m.id, ids or None)  # the seat's AI deadlines go
                pending_ids = await self._sync_deadlines(tx, m, state)
                await self._emit(tx, Change("back", m.id, version, seat.seat, notices, note, pending_ids))
            self._due_changed(m.new_due)
        await self._deliver(match_id)
        return await self.get(match_id)

    async def abandon(self, match_id: int, by_user: int, *, is_manager: bool = False) -> MatchInfo:
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby", "active")
            if not is_manager:
                self._need_host(m, by_user)
            await self._commit_meta(m, "abandoned", status="abandoned", finished_at=self._clock())
        await self._deliver(match_id)
        return await self.get(match_id)

    # ----- reading ------------------------------------------------------------------------
    async def get(self, match_id: int) -> MatchInfo:
        return self._info(await self._load(match_id, with_state=False))

    async def view(self, match_id: int, seat: int | None) -> View:
        m = await self._load(match_id)
        if m.rec.state is None:
            raise UserError("core.err.not_started")
        return m.engine.view(m.rec.state, seat)

    async def view_for_user(self, match_id: int, user_id: int | None) -> View:
        """The user's own view if they hold a seat, else the public one."""
        m = await self._load(match_id)
        if m.rec.state is None:
            raise UserError("core.err.not_started")
        seat = m.seat_of(user_id) if user_id is not None else None
        return m.engine.view(m.rec.state, seat.seat if seat else None)

    async def requests_for_user(self, match_id: int, user_id: int) -> list[Request]:
        """The user's pending requests with their prompts (empty when nothing is asked of them)."""
        m = await self._load(match_id)
        seat = m.seat_of(user_id)
        if m.rec.status != "active" or m.rec.state is None or seat is None or seat.resigned:
            return []
        return [r for r in m.engine.pending(m.rec.state) if r.seat == seat.seat]

    async def pending_requests(self, match_id: int, *, humans_only: bool = True) -> list[PendingRequest]:
        """Every request the match waits for now, with deadlines (humans only by default)."""
        m = await self._load(match_id)
        if m.rec.status != "active" or m.rec.state is None:
            return []
        deadlines = {d.request_id: d for d in await repo.get_deadlines(self.store, match_id)}
        out = []
        for req in m.engine.pending(m.rec.state):
            bot = m.bot_plays(req.seat)
            if bot and humans_only:
                continue
            d = deadlines.get(req.id)
            out.append(PendingRequest(req.id, req.seat, req.kind, req.prompt,
                                      None if bot else m.seats[req.seat].user_id,
                                      None if d is None or bot else d.due_at,
                                      None if d is None or bot else d.remind_at, window_key(req)))
        return out

    async def pending_for_user(self, match_id: int, user_id: int) -> list[str]:
        """Request ids the user must answer now."""
        return [r.id for r in await self.requests_for_user(match_id, user_id)]

    async def log(self, match_id: int, limit: int = 20) -> list[LogEntry]:
        """The last ``limit`` log entries, oldest first."""
        await self._load(match_id, with_state=False)
        rows = await repo.list_actions(self.store, match_id, limit)
        return [LogEntry(r.version, r.seat, r.action, [codec.event_from_json(e) for e in r.events],
                         r.source, r.created_at) for r in rows]

    async def export(self, match_id: int, *, include_state: bool = False) -> dict[str, Any]:
        """Everything needed to rebuild the match: game, options, seats, seed and the action log
        (``service.replay.replay`` turns it back into the state). The seed reveals hidden
        information (deck order), so front-ends should offer this only for finished matches or
        to managers."""
        m = await self._load(match_id, with_state=include_state)
        if m.rec.seed is None:
            raise UserError("core.err.not_started")
        rows = await repo.list_actions(self.store, match_id)
        upgrades = [r.action for r in rows if r.source == "system" and r.action[:1] == ["upgrade"]]
        edition = int(upgrades[0][1]) if upgrades else (m.rec.edition or 1)  # the edition it started at
        out: dict[str, Any] = {
            "format": 1, "id": m.id, "game": m.rec.game, "edition": edition, "options": dict(m.rec.options),
            "seed": m.rec.seed,
            "status": m.rec.status, "version": m.rec.version, "result": m.rec.result,
            "seats": [{"seat": s.seat, "name": s.name, "ai_level": s.ai_level, "human": s.user_id is not None,
                       "resigned": s.resigned} for s in m.seats],
            "actions": [{"version": r.version, "seat": r.seat, "action": r.action, "source": r.source,
                         "created_at": r.created_at} for r in rows],
        }
        if include_state:
            out["state"] = m.rec.state
        return out

    async def upgrade_matches(self) -> int:
        """Bring every running match stored by an older bot to its engine's edition, before anyone
        acts on it (the bot calls this at start-up). Each upgrade is one change with a system
        log row ``["upgrade", from, to]`` at its version, which replays apply at the same point,
        so an export replays exactly. A match whose state cannot be upgraded is left as it is and
        logged (loading it then tells the player why). Returns how many matches moved on."""
        moved = 0
        for match_id, game, edition in await repo.active_editions(self.store):
            try:
                target = registry.get(game).edition
            except (KeyError, ImportError):
                continue
            if edition == target:
                continue
            async with self._locks(match_id):
                try:
                    m = await self._load(match_id)
                except UserError:
                    log.exception("match %s (%s, edition %s) cannot be upgraded", match_id, game, edition)
                    continue
                if m.rec.status != "active" or m.rec.edition == target:
                    continue
                start = 1 if m.rec.edition is None else m.rec.edition
                async with self.store.transaction() as tx:
                    if start == target:  # stored before editions were recorded: same content, name it
                        await repo.update_match(tx, m.id, edition=target)
                        continue
                    version = await self._bump(tx, m, state=m.rec.state)
                    await repo.insert_action(tx, m.id, version, None, None, ["upgrade", str(start), str(target)],
                                             [], "system", self._clock())
                moved += 1
        return moved

    async def _infos(self, recs: list[MatchRecord]) -> list[MatchInfo]:
        return [codec.match_info(rec, await repo.get_seats(self.store, rec.id)) for rec in recs]

    async def matches_for_user(self, user_id: int, *, active_only: bool = True) -> list[MatchInfo]:
        statuses = OPEN_STATUSES if active_only else ("lobby", "active", "finished", "abandoned")
        return await self._infos(await repo.matches_for_user(self.store, user_id, statuses))

    async def matches_in_channel(self, channel_id: int) -> list[MatchInfo]:
        """Lobbies and running matches whose channel or thread is ``channel_id``."""
        return await self._infos(await repo.matches_in_channel(self.store, channel_id, OPEN_STATUSES))

    # ----- front-end bookkeeping ---------------------------------------------------------
    async def set_meta(self, match_id: int, key: str, value: str | None) -> None:
        """Remember a small string for a match across restarts (a front-end's message ids and the
        like); ``None`` forgets it. Not part of the game and never published."""
        if len(key) > MAX_META_KEY or (value is not None and len(value) > MAX_META_VALUE):
            raise ValueError("meta key or value too long")
        check_match_id(match_id)
        async with self.store.transaction() as tx:
            await repo.set_meta(tx, match_id, key, value)

    async def get_meta(self, match_id: int, key: str) -> str | None:
        """The value ``set_meta`` kept (None: none, or no such match)."""
        if not is_row_id(match_id):
            return None  # as for any id no match has, without asking the store (it cannot bind it)
        return await repo.get_meta(self.store, match_id, key)

    # ----- users --------------------------------------------------------------------------
    async def set_notify(self, user_id: int, mode: NotifyMode) -> None:
        if mode not in get_args(NotifyMode):
            raise UserError("core.err.bad_notify")
        async with self.store.transaction() as tx:
            await repo.set_notify(tx, user_id, mode)

    async def get_notify(self, user_id: int) -> NotifyMode:
        row = await repo.get_prefs(self.store, user_id)
        return row["notify"] if row else "mention"

    async def set_user_locale(self, user_id: int, locale: str | None) -> None:
        async with self.store.transaction() as tx:
            await repo.set_user_locale(tx, user_id, locale)

    async def get_user_locale(self, user_id: int) -> str | None:
        row = await repo.get_prefs(self.store, user_id)
        return row["locale"] if row else None

    # ----- time ---------------------------------------------------------------------------
    async def _remind(self, d: repo.DeadlineRecord, version: int) -> bool:
        """Remind the seat of the due deadline ``d`` once. The outbox row names the request's seat
        and window from ``d`` (the row is the one marked, so they are its), which spares
        ``_emit`` reading the deadlines back: with the mark queued as a check, the reminder is
        one trip to the database and its delivery two (bench run_due: four and two before).

        ``version``: the match's, read with ``d`` (``repo.due_reminders_at``), not loaded again
        (a trip per reminder). A commit since may have moved it on; the reminder is still right
        to carry it: the mark fails (nothing is written) unless ``d`` is still unanswered and
        unreminded, the version is one at which the request was pending, and a publisher skips
        reminders in its public posts and tells them apart by seat (``Publisher._key``)."""
        async with self._locks(d.match_id):
            try:
                async with self.store.transaction() as tx:
                    await repo.mark_reminded(tx, d.match_id, d.request_id, _Reminded())
                    await self._emit(tx, Change("reminder", d.match_id, version, d.seat, [], None,
                                                [d.request_id], [d.seat], [d.window]))
            except _Reminded:  # reminded already, or answered meanwhile: nothing was written
                return False
        await self._deliver(d.match_id)
        return True

    async def next_due_at(self) -> float | None:
        """When ``run_due`` next has something to do for a person: the earliest reminder or
        deadline of a human request, or lobby expiry (None: nothing is scheduled). May be in the
        past when a round left work behind. AI-played requests are not counted (see
        ``repo.next_human_due``); the scheduler sleeps until this or its interval, whichever
        comes first."""
        times = [await repo.next_human_due(self.store)]
        oldest = await repo.oldest_lobby_change(self.store)
        if oldest is not None:
            times.append(oldest + self._lobby_ttl)
        return min((x for x in times if x is not None), default=None)

    async def run_due(self, limit: int = 100) -> int:
        """Send due reminders, apply timeouts (default/AI answer) and pending AI moves, close
        lobbies idle past the lobby TTL, deliver undelivered outbox entries, prune delivered
        rows past their retention. Returns how many things were done. Called by the scheduler
        loop and after start-up, so everything resumes after a restart.

        Work is grouped per match (at most ``limit`` matches with due deadlines, those due
        longest first, plus every match with a due reminder (up to :data:`REMINDERS_PER_ROUND`)
        or an undelivered change) and the
        matches are served concurrently, each by one task: deliveries and reminders at once,
        engine work (time-outs, AI runs) under a semaphore of ``due_concurrency`` slots taken
        in FIFO order. The call waits for its tasks up to ``due_wait`` seconds; a match still
        busy then (a slow engine) goes on in the background (``drain()`` waits for it) and is
        skipped by later rounds until it is done, so it never holds up other matches' reminders
        and time-outs."""
        now = self._clock()
        owner, lease = self.store.owner, now + LEASE_SECONDS  # other processes sharing the store skip these
        async with self.store.transaction() as tx:
            await repo.prune_outbox(tx, now - self._outbox_keep)
            to_deliver = await repo.claim_undelivered_match_ids(tx, owner, now, lease, limit)
            due = await repo.claim_due(tx, owner, now, lease, limit)
        work: dict[int, _DueWork] = {}
        for match_id in to_deliver:
            work.setdefault(match_id, _DueWork()).deliver = True
        for d, version in await repo.due_reminders_at(self.store, now, REMINDERS_PER_ROUND):
            work.setdefault(d.match_id, _DueWork()).reminders.append((d, version))
        for match_id, rows in due.items():
            work.setdefault(match_id, _DueWork()).deadlines = [rid for _, rid in rows]
        started = [self._start_due(match_id, w, now) for match_id, w in work.items() if match_id not in self._due_busy]
        done = 0
        if started:
            finished, _ = await asyncio.wait(started, timeout=self._due_wait)
            done += sum(t.result() for t in finished if not t.cancelled() and t.exception() is None)
        for match_id in await repo.idle_lobbies(self.store, self._clock() - self._lobby_ttl, limit):
            if match_id not in self._due_busy:
                done += await self._expire_lobby(match_id)
        return done

    def _start_due(self, match_id: int, work: _DueWork, now: float) -> asyncio.Task[int]:
        task = asyncio.get_running_loop().create_task(self._due_match(match_id, work, now))
        self._due_busy[match_id] = task
        self._tasks.add(task)  # type: ignore[arg-type]  # drain() waits for it

        def forget(t: asyncio.Task[int]) -> None:
            self._tasks.discard(t)  # type: ignore[arg-type]
            if self._due_busy.get(match_id) is t:
                del self._due_busy[match_id]
            if not t.cancelled() and t.exception() is not None:
                log.error("due work of match %s failed", match_id, exc_info=t.exception())

        task.add_done_callback(forget)
        return task

    async def _due_match(self, match_id: int, work: _DueWork, now: float) -> int:
        """One match's share of a ``run_due`` round, in the order the old serial round had."""
        done = 0
        if work.deliver:
            done += await self._deliver(match_id)
        for d, version in work.reminders:
            done += await self._remind(d, version)
        if not work.deadlines:
            return done
        async with self._due_slots:
            made = extra = 0
            # A due request's answer and the AI's answers to it are one run (``_answer_run``),
            # as long as a first AI run after the commit would be: it counts as that run's moves.
            run = 1 + min(self._ai_cap, self._batch_moves)
            closed: set[str] = set()  # claimed requests an earlier answer here closed (no row left)
            for request_id in work.deadlines:  # as claimed: due, due longest first
                if request_id in closed:
                    continue
                self._ai_idle.discard(match_id)  # set again by a run with nothing more due for the AI
                try:
                    n = await self._auto_play(match_id, request_id, deliver=False, limit=run,
                                              until=time.monotonic() + self._batch_seconds, closed=closed)
                except UserError as err:  # match vanished or game unknown: drop its deadlines
                    log.warning("dropping deadline %s of match %s: %s", request_id, match_id, err.msg.key)
                    async with self.store.transaction() as tx:
                        await repo.delete_deadlines(tx, match_id)
                    return done
                made += n
                extra += max(0, n - 1)
            if made and match_id in self._ai_owed and match_id not in self._ai_idle:
                # One AI run after all of the match's due answers; it delivers them too.
                self._ai_owed.discard(match_id)
                done += made - extra + await self._drive_ai(match_id, made=extra)
            elif made:  # nothing (more) for the AI now: no AI run to look for (as in _after_change)
                self._ai_owed.discard(match_id)
                await self._deliver(match_id)
                done += made
        return done


class _Reminded(Exception):
    """A deadline's reminder was sent already (or the deadline is gone): its transaction ends."""


@dataclass
class _DueWork:
    """What one ``run_due`` round found for one match."""

    deliver: bool = False
    #: Due reminders, each with its match's version as read with it.
    reminders: list[tuple[repo.DeadlineRecord, int]] = field(default_factory=list)
    #: The due deadlines claimed for it (request ids, due longest first).
    deadlines: list[str] = field(default_factory=list)
