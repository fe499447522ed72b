"""The machinery every match change goes through; the public operations build on it.

How a change happens (the same for lobby edits, moves, AI moves, time-outs, resignations):

1. take the match's asyncio lock (one per match; different matches run concurrently);
2. read the committed match from the store and check the caller may do this now;
3. let the engine compute the new state (CPU work goes to a worker thread so the event loop
   keeps serving other matches);
4. in ONE transaction: the match row (guarded by its version), the action log row, the
   deadlines of the now-pending requests and the outbox row(s) describing the change;
5. after the commit, hand the outbox rows to the publisher and mark them delivered.

An AI's run of consecutive moves is committed in one transaction per delivery batch (a crash loses
at most that batch, replayed move for move: :meth:`MatchCore._answer_run`), and its outbox rows are
delivered together when the run ends, or every ``ai_batch_seconds`` / ``ai_batch_moves``
(:class:`service.settings.ServiceSettings`) during a long run: a chat front-end then posts one summary per turn instead
of one message per die roll (``Publisher.publish_batch``; rows are marked delivered after it
returns, so delivery stays at least once and in order). A change after which the AI must answer
at once (a human's move against the AI) is not delivered on its own: it goes out in the AI run's
first batch, so the move and the answer make one post.

A publisher may also have ``async def settle(match_id)``: it is awaited (under the match's
delivery lock) before the undelivered rows are read, and returns when the publisher may post for
that match again (a chat front-end paces its posts per channel). Changes committed meanwhile are
then read and published in the same batch: pacing folds them instead of queueing posts.

A crash anywhere before the commit leaves the match as it was; a crash after it leaves an
undelivered outbox row that :meth:`MatchService.run_due` delivers later. Seats played by the AI
(AI seats and resigned humans) have a deadline that is due at once, so the deadlines table is also
the durable to-do list of AI moves still owed after a restart.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import gc
import inspect
import logging
import random
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Any

from engines import registry
from engines.base import (
    Action,
    Engine,
    EngineError,
    Event,
    Msg,
    Request,
    Result,
    State,
    default_action,
    upgrade_state,
)
from service import codec, results, standing
from service.deadlines import deadline_for
from service.errors import UserError
from service.lazy_random import LazyRandom
from service.locks import KeyedLocks
from service.models import Change, ChangeKind, MatchInfo, Publisher
from service.reaction import reaction_seconds
from service.settings import DEFAULTS, ServiceSettings
from store import repo
from store.base import LockFactory, is_row_id
from store.db import Store, Tx
from store.repo import MatchRecord, SeatRecord

#: Match meta ``digest:<seat>``: the last log version a player's digest covered.
DIGEST_META = "digest:"

log = logging.getLogger(__name__)

#: Key spaces of the store's shared locks (``Database.shared_locks``): one match's changes, and
#: its outbox deliveries.
LOCK_MATCH = 1
LOCK_DELIVERY = 2
#: How long a run_due round's claim on due deadlines / undelivered rows keeps other processes
#: off them (service clock); a crashed process's claims run out after this.
LEASE_SECONDS = 30.0

#: Outbox payload key of ``Change.request_seats`` (added here, next to the codec's fields).
_REQUEST_SEATS = "request_seats"
#: Outbox payload key of ``Change.request_windows``.
_REQUEST_WINDOWS = "request_windows"
#: How long an AI request whose engine call crashed waits before it is tried again.
AI_RETRY_SECONDS = 300.0
#: Worker threads for engine calls a person waits for (the service's own engine work has its
#: own, below).
PEOPLE_THREADS = 2
#: Worker threads for the service's own engine work (AI runs, time-outs, window answers): two, so
#: one slow match leaves a thread to the others. More add nothing (engine work is pure Python and
#: holds the GIL) but threads the event loop must win the GIL back from: with the default pool's
#: six, bench run_due saw the loop kept waiting up to 27 ms, with two up to 17 ms, and finish a
#: little sooner.
AI_THREADS = 2
#: The GIL switch interval (seconds) once engine threads run: a thread that wants the GIL waits
#: up to this long before the holder must let go, and the event loop competes with every engine
#: thread, so Python's 5 ms became waits of 30-40 ms for the loop beside a long AI move (bench
#: run_due, a 2 s move); at 1 ms the loop waited at most ~9 ms, for ~5 % more CPU in total.
SWITCH_INTERVAL = 0.001
#: ``MatchInfo.result["reason"]``: the engine decided; the service ended it after resignations;
#: the engine's only winners had resigned (the AI played them), so nobody wins.
REASON_GAME, REASON_RESIGNED, REASON_WINNERS_RESIGNED = "game", "resigned", "winners_resigned"


@functools.lru_cache(maxsize=256)
def _takes_request(func: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False
    return "request" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def with_request(fn: Callable[..., Any], request: Request | None) -> Callable[..., Any]:
    """``fn`` (an engine's step/apply/ai_action) told which request is answered, when it takes a
    ``request`` keyword; engines written before the keyword existed are called as before."""
    if request is None or not _takes_request(getattr(fn, "__func__", fn)):
        return fn
    return functools.partial(fn, request=request)


def is_window(req: Request) -> bool:
    """A response-window request: asked in a window, or with a default answer, or short. Its
    silent seats get the default (not the AI), and the AI answers it after a delay."""
    return bool(req.window) or req.default is not None or req.short


def window_key(req: Request) -> str:
    """The window ``req`` belongs to; a lone window-like request is a window of its own."""
    return req.window or (req.id if is_window(req) else "")


def settle_heap() -> None:
    """Call once start-up has built what lives as long as the process (loaded game data, render
    caches): those objects are moved where the cyclic garbage collector no longer walks them
    (``gc.freeze``). A full collection walks every tracked object holding the GIL, wherever it
    is triggered (an AI thread allocates the most), and with start-up's objects in the heap it
    stopped the event loop for 15-22 ms at a time: the loop's longest waits in bench roundtrip
    and run_due were those collections; after it, 2-4 ms."""
    gc.collect()
    gc.freeze()


def check_match_id(match_id: int) -> None:
    """An id no match can have (below 1, past 64 bits) is answered like an id no match has, before
    it reaches the store, whose drivers would raise OverflowError, or a lock key."""
    if not is_row_id(match_id):
        raise UserError("core.err.no_match", match=match_id)


def _checked_locks(locks: LockFactory) -> LockFactory:
    """``locks`` refusing (:func:`check_match_id`) a key no match can have before it is taken:
    on PostgreSQL the key becomes an advisory lock key, which must fit 64 bits too."""
    def take(match_id: int) -> AbstractAsyncContextManager[Any]:
        check_match_id(match_id)
        return locks(match_id)
    return take


def seen_by(events: list[Event], seat: int) -> list[Event]:
    """The events ``seat`` may see: public ones and those addressed to it."""
    return [e for e in events if e.to is None or seat in e.to]


def default_ai_rng(match_id: int, version: int) -> random.Random:
    """Deterministic per (match, version), so a replayed or retried AI move is the same move;
    seeded only when drawn from (``service.lazy_random``)."""
    return LazyRandom(f"ai:{match_id}:{version}")


@dataclass
class _Ahead:
    """A service move's writes encoded in the worker thread that computed the move, so the event
    loop only hands them to the store: the new state's JSON, and each step's events as the log
    stores them (packed) and as its outbox payload has them (JSON list text). Bench run_due's
    loop spent ~13 % of its CPU encoding these, each step's events twice (log and outbox)."""

    state: repo.Encoded
    packed: list[bytes]
    events: list[str]

    @staticmethod
    def of(state: State, per_step: Iterable[list[Event]]) -> _Ahead:
        packed: list[bytes] = []
        texts: list[str] = []
        for events in per_step:
            as_json = [e.to_json() for e in events]
            packed.append(repo.pack_events(as_json))
            texts.append(repo.dumps(as_json))
        return _Ahead(repo.Encoded.of(state), packed, texts)

    def joined(self, more: list[Event]) -> str:
        """Every step's events and then ``more`` as one JSON list (a window's one outbox row)."""
        parts = [t[1:-1] for t in self.events if t != "[]"] + [repo.dumps(e.to_json()) for e in more]
        return "[" + ",".join(parts) + "]"


@dataclass
class _Delivery:
    """A delivery's read, decoded (``MatchCore._delivery_of``): the undelivered rows, each row's
    change or the error that kept it from being read, and the match (None when nothing is to
    be delivered or the match is gone)."""

    rows: list[repo.OutboxRecord]
    changes: list[Change | Exception]
    info: MatchInfo | None


@dataclass
class LoadedMatch:
    rec: MatchRecord
    seats: list[SeatRecord]
    engine: Engine
    #: Earliest reminder/due time among human deadlines armed in the current transaction.
    new_due: float | None = None
    #: The committed deadlines, when loaded with them (``_load(with_deadlines=True)``).
    deadlines: list[repo.DeadlineRecord] = field(default_factory=list)
    #: request id -> (seat, window) of the deadlines the current transaction's
    #: ``_sync_deadlines`` left (what ``_emit`` would otherwise read back).
    synced: dict[str, tuple[int, str]] | None = None

    @property
    def id(self) -> int:
        return self.rec.id

    def seat_of(self, user_id: int) -> SeatRecord | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def bot_plays(self, seat: int) -> bool:
        """AI seats, resigned humans and humans marked away are answered by the AI."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return s is None or s.user_id is None or s.resigned or s.away


class MatchCore:
    """Locks, loading, the one-transaction commit, outbox delivery and AI/time-out moves."""

    def __init__(
        self,
        store: Store,
        *,
        publisher: Publisher | None = None,
        clock: Callable[[], float] = time.time,
        ai_rng: Callable[[int, int], random.Random] | None = None,
        rate_limits: bool = True,
        offload: bool = True,
        ai_in_background: bool = False,
        settings: ServiceSettings = DEFAULTS,
    ) -> None:
        """``clock`` is injectable for deadline tests; ``ai_rng(match_id, version)`` seeds AIs.

        ``rate_limits=False`` lifts the lobby limits (benchmarks, the terminal front-end);
        ``offload=False`` runs engine calls on the event loop thread (cheaper for tiny engines).
        ``ai_in_background=True`` makes act()/start()/resign() return right after their own
        change is published and lets the AI answer in a background task (a chat front-end then
        answers the click at once; the AI's moves arrive through the publisher). ``drain()``
        waits for those tasks. ``settings`` holds the tunables (window timings, AI batches,
        away-after, lobby expiry, the scheduler's backlog): :class:`service.settings.ServiceSettings`,
        where their defaults are written.
        """
        self.store = store
        self._publisher = publisher
        self._clock = clock
        self._ai_rng = ai_rng or default_ai_rng
        self._rate_limits = rate_limits
        self.settings = settings
        self._ai_cap = settings.ai_moves_per_call
        self._offload = offload
        # Held across processes when the store is shared (PostgreSQL: advisory locks).
        # Every public operation on a match takes its lock or loads it first: both refuse ids
        # no match can have (check_match_id).
        self._locks = _checked_locks(store.shared_locks(KeyedLocks(), LOCK_MATCH))
        self._delivery_locks = _checked_locks(store.shared_locks(KeyedLocks(), LOCK_DELIVERY))
        self._ai_in_background = ai_in_background
        self._tasks: set[asyncio.Task[None]] = set()
        self._batch_seconds = settings.ai_batch_seconds
        self._batch_moves = max(1, settings.ai_batch_moves)
        self._lobby_ttl = settings.lobby_ttl
        self._due_listener: Callable[[float], None] | None = None
        self._ai_window_delay = settings.ai_window_delay
        self._away_after = max(1, settings.away_after)
        #: Matches whose newest change asks the AI for an answer due now: their next delivery is
        #: the AI run's (``_sync_deadlines``).
        self._ai_owed: set[int] = set()
        self._people_pool: ThreadPoolExecutor | None = None
        self._ai_pool: ThreadPoolExecutor | None = None
        #: Matches whose last AI run ended with nothing more due for the AI (spares _drive_ai
        #: a last look that would find nothing).
        self._ai_idle: set[int] = set()
        self._outbox_keep = settings.outbox_keep_seconds
        self._due_slots = asyncio.Semaphore(max(1, settings.due_concurrency))
        self._due_wait = settings.due_wait
        #: Matches a run_due round is serving now (later rounds leave them alone).
        self._due_busy: dict[int, asyncio.Task[int]] = {}

    def set_publisher(self, publisher: Publisher | None) -> None:
        self._publisher = publisher

    def set_due_listener(self, listener: Callable[[float], None] | None) -> None:
        """``listener(at)`` is called after a commit that armed something due at ``at`` (a human
        request's reminder or deadline, a new lobby's expiry), so a clock sleeping until the
        previously earliest due time (``Scheduler.reschedule``) can wake earlier."""
        self._due_listener = listener

    def _due_changed(self, at: float | None) -> None:
        if at is None or self._due_listener is None:
            return
        try:
            self._due_listener(at)
        except Exception:  # the commit stands; the scheduler's regular round still comes
            log.exception("due listener failed")

    # ----- helpers ---------------------------------------------------------------------------
    async def _cpu(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Engine work of the service's own moves (AI, time-outs) in :data:`AI_THREADS` threads."""
        if not self._offload:
            return fn(*args)
        if self._ai_pool is None:
            self._ai_pool = ThreadPoolExecutor(AI_THREADS, thread_name_prefix="engine-ai")
            if sys.getswitchinterval() > SWITCH_INTERVAL:  # process-wide: see SWITCH_INTERVAL
                sys.setswitchinterval(SWITCH_INTERVAL)
        call = functools.partial(contextvars.copy_context().run, fn, *args)  # as asyncio.to_thread does
        return await asyncio.get_running_loop().run_in_executor(self._ai_pool, call)

    async def _cpu_now(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Engine work somebody is waiting for (a person's move, a start) in threads of its own:
        in the shared pool it would queue behind every AI run in progress (measured with 1 000
        live matches: act() p99 13 s, the queue, not the work)."""
        if not self._offload:
            return fn(*args)
        if self._people_pool is None:
            self._people_pool = ThreadPoolExecutor(PEOPLE_THREADS, thread_name_prefix="engine-people")
        return await asyncio.get_running_loop().run_in_executor(self._people_pool, functools.partial(fn, *args))

    def _bot_due(self, now: float, req: Request) -> float:
        """When the AI answers ``req``: at once, or a window's uniform delay after it opened."""
        return now + self._ai_window_delay if is_window(req) else now

    def _human_due(self, now: float, m: LoadedMatch, req: Request) -> tuple[float, float | None]:
        """(due_at, remind_at) of a person's request: a reaction (a short window: 闪, 无懈, a
        duel's move) gets the match's reaction time, never the turn clock (``service.reaction``;
        a live one no reminder), and in an asynchronous match so does every other window (观星,
        遗计: seconds of thought live, but a day's wait for the table otherwise); everything else
        the turn clock."""
        if req.short or (is_window(req) and self._async_match(m)):
            return deadline_for(now, self._reaction_seconds(m))
        return deadline_for(now, m.rec.turn_seconds)

    def _reaction_seconds(self, m: LoadedMatch) -> float:
        return reaction_seconds(m.rec.options, m.rec.turn_seconds, self.settings)

    async def _standing_action(self, db: Any, m: LoadedMatch, state: State, req: Request,
                               stands: dict[int, dict[str, str] | None] | None = None) -> Action | None:
        """The player's standing answer to the window request ``req`` (``service.standing``),
        computed from their own view; None: they are asked. ``stands`` caches the settings read
        per seat; games without standing answers read nothing."""
        if type(m.engine).standing_specs is Engine.standing_specs:
            return None
        cache: dict[int, dict[str, str] | None] = {} if stands is None else stands
        await self._read_standing(db, m, [req.seat], cache)
        return self._standing_answer(m, state, req, cache[req.seat])

    @staticmethod
    async def _read_standing(db: Any, m: LoadedMatch, seats: Iterable[int],
                             cache: dict[int, dict[str, str] | None]) -> None:
        """Read the standing answer settings of ``seats`` not in ``cache`` yet into it: apart
        from :meth:`_standing_answer`, so the answers can be worked out in a worker thread with
        the reads (awaits) done before."""
        for seat in seats:
            if seat not in cache:
                cache[seat] = standing.decode(await repo.get_meta(db, m.id, standing.meta_key(seat)))

    @staticmethod
    def _standing_answer(m: LoadedMatch, state: State, req: Request,
                         settings: dict[str, str] | None) -> Action | None:
        """The engine side of :meth:`_standing_action` (no awaits: a worker thread may run it)."""
        try:
            view = m.engine.view(state, req.seat)
            return standing.answer(m.engine, view, req, settings)
        except Exception:  # a helper must never block a move: the player is simply asked
            log.exception("standing answer of seat %s in match %s failed; asking", req.seat, m.id)
            return None

    async def _hold_pass(self, m: LoadedMatch, seat: SeatRecord, req: Request, action: Action) -> bool:
        """A player's "pass" (the window's default) before the uniform delay after the window
        opened is not applied yet: its deadline moves to that moment, marked ``AUTO_HELD``, and
        it is applied then like the service's own passes. So a quick pass closes a window no
        sooner than an automatic one, and nobody can tell the two apart. True when held.

        A player coming back from 托管 (``missed``/``away`` set) is applied at once instead, so
        their return is written and announced with their answer."""
        if not is_window(req) or list(action) != default_action(req) or seat.missed or seat.away:
            return False
        rows = {d.request_id: d for d in await repo.get_deadlines(self.store, m.id)}
        d = rows.get(req.id)
        if d is None or d.opened_at is None:
            return False
        floor = d.opened_at + self._ai_window_delay
        if self._clock() >= floor:
            return False
        async with self.store.transaction() as tx:
            await self._bump(tx, m, steps=0)  # refused as stale if the match moved on meanwhile
            await repo.insert_deadline(tx, m.id, req.id, req.seat, floor, None, d.window, d.opened_at,
                                       repo.AUTO_HELD)
        self._due_changed(floor)
        return True

    async def _load(self, match_id: int, *, with_state: bool = True, with_deadlines: bool = False) -> LoadedMatch:
        """The committed match and its seats (and deadlines: ``LoadedMatch.deadlines``), one read."""
        check_match_id(match_id)
        found = await repo.load_match(self.store, match_id, with_state=with_state, with_deadlines=with_deadlines)
        rec = found.rec
        if rec is None:
            raise UserError("core.err.no_match", match=match_id)
        try:
            engine = registry.get(rec.game)
        except (KeyError, ImportError) as err:
            raise UserError("core.err.unknown_game", game=rec.game) from err
        if rec.state is not None and rec.edition != engine.edition:
            try:  # stored by an older bot: upgraded here, written with its edition on the next change
                rec.state = upgrade_state(engine, rec.state, rec.edition)
            except EngineError as err:
                raise UserError.from_engine(err) from err
        return LoadedMatch(rec, found.seats, engine, deadlines=found.deadlines)

    @staticmethod
    def _info(m: LoadedMatch) -> MatchInfo:
        return codec.match_info(m.rec, m.seats)

    @staticmethod
    def _need_status(m: LoadedMatch, *statuses: str) -> None:
        if m.rec.status in statuses:
            return
        if m.rec.status == "lobby":
            raise UserError("core.err.not_started")
        if "lobby" in statuses and m.rec.status == "active":
            raise UserError("core.err.already_started")
        raise UserError("core.err.not_active")

    @staticmethod
    def _need_host(m: LoadedMatch, user_id: int) -> None:
        if m.rec.host_id != user_id:
            raise UserError("core.err.not_host")

    def _player(self, m: LoadedMatch, user_id: int) -> SeatRecord:
        seat = m.seat_of(user_id)
        if seat is None:
            raise UserError("core.err.not_a_player")
        return seat

    @staticmethod
    def _request(m: LoadedMatch, state: State, seat: SeatRecord, request_id: str) -> Request:
        """The pending request ``request_id`` if it is ``seat``'s to answer."""
        if seat.resigned:
            raise UserError("core.err.resigned")
        for req in m.engine.pending(state):
            if req.id == request_id:
                if req.seat != seat.seat:
                    raise UserError("core.err.not_your_turn")
                return req
        raise UserError("core.err.stale")

    async def _answer_from_log(self, match_id: int, user_id: int, request_id: str,
                               action: Action) -> tuple[MatchInfo, list[Event]] | None:
        """What ``act`` answers for a move that is saved already: the match as it is now and the
        events the player may see of their logged answer to ``request_id``, when that answer is
        this very action, made by this user's seat and by the player (not their time-out or the
        AI for them). None when the log holds no such answer, or cannot be read now.

        Why: a move is saved once its transaction commits, whatever fails after (a connection
        dropped right after COMMIT fails the reads that follow), and a click repeated after
        that finds its request no longer pending; both would tell the player a saved move failed.
        Request ids are unique within a match, so the log row answers for that one request."""
        try:
            m = await self._load(match_id, with_state=False)
            seat = m.seat_of(user_id)
            if seat is None:
                return None
            row = await repo.answer_of(self.store, match_id, request_id, seat.seat)
        except Exception:  # the caller's own error is the answer then
            log.warning("could not read the log of match %s for request %s", match_id, request_id, exc_info=True)
            return None
        if row is None or row.source != "user" or row.action != list(action):
            return None
        return self._info(m), seen_by([codec.event_from_json(e) for e in row.events], seat.seat)

    async def _bump(self, tx: Tx, m: LoadedMatch, steps: int = 1, **fields: Any) -> int:
        """Advance the match row ``steps`` versions (one per logged action); the transaction
        refuses (as stale) if another writer got there first."""
        version = m.rec.version + steps
        if "state" in fields and m.rec.edition != m.engine.edition:
            fields["edition"] = m.engine.edition  # the state was upgraded on load (see _load)
        await repo.bump_match(tx, m.id, m.rec.version, stale=UserError("core.err.stale"), version=version,
                              updated_at=self._clock(), **fields)
        return version

    async def _emit(self, tx: Tx, change: Change, m: LoadedMatch | None = None, events: str | None = None) -> None:
        """The change's outbox row. ``m``: the match whose deadlines this transaction has just
        synced (``m.synced``), which spares reading them back. ``events``: the change's events
        as JSON text, encoded ahead (:class:`_Ahead`)."""
        payload = codec.change_to_json(change, with_events=events is None)
        seats = list(change.request_seats)
        windows = list(change.request_windows)
        if change.request_ids and (not seats or not windows):  # the deadlines, synced in this transaction, know them
            if m is not None and m.synced is not None:
                by_id = m.synced
            else:
                by_id = {d.request_id: (d.seat, d.window) for d in await repo.get_deadlines(tx, change.match_id)}
            seats = seats or [by_id[r][0] for r in change.request_ids if r in by_id]
            windows = windows or [by_id[r][1] for r in change.request_ids if r in by_id]
        if seats and len(seats) == len(change.request_ids):  # the codec predates this field
            payload[_REQUEST_SEATS] = seats
        if any(windows) and len(windows) == len(change.request_ids):
            payload[_REQUEST_WINDOWS] = windows
        await repo.insert_outbox(tx, change.match_id, change.version,
                                 payload if events is None else repo.Encoded.with_key(payload, "events", events),
                                 self._clock())

    @staticmethod
    def _change_of(payload: dict[str, Any]) -> Change:
        # Built once with every field: ``dataclasses.replace`` copied the whole change twice per
        # row (bench run_due: a third of the decoding).
        asked = len(payload.get("request_ids", ()))
        seats = payload.get(_REQUEST_SEATS)
        windows = payload.get(_REQUEST_WINDOWS)
        return codec.change_from_json(
            payload,
            request_seats=[int(s) for s in seats] if isinstance(seats, list) and len(seats) == asked else [],
            request_windows=[str(w) for w in windows] if isinstance(windows, list) and len(windows) == asked else [])

    @classmethod
    def _delivery_of(cls, found: repo.MatchRows) -> _Delivery:
        """What a delivery read, decoded: the match and each undelivered row's change (or why it
        cannot be read). Runs where the rows were read (``repo.load_match_then``: SQLite's
        connection thread), so decoding the payloads keeps off the event loop."""
        changes: list[Change | Exception] = []
        for row in found.undelivered:
            try:
                changes.append(cls._change_of(row.payload))
            except Exception as err:  # reported, in order, by the delivery (see _deliver_batch)
                changes.append(err)
        info = codec.match_info(found.rec, found.seats) if found.rec is not None and found.undelivered else None
        return _Delivery(found.undelivered, changes, info)

    async def _sync_deadlines(self, tx: Tx, m: LoadedMatch, state: State, *,
                              known: list[repo.DeadlineRecord] | None = None,
                              pending: list[Request] | None = None) -> list[str]:
        """Deadlines for exactly the pending requests; a request still pending keeps its deadline.

        Human requests get the turn clock (a short window in live play its own timeout);
        requests the AI answers are due at once, window requests after the uniform delay. A
        person's window request the engine says they cannot answer with anything but its
        default (``Engine.can_answer``) is due at the uniform delay too, marked ``AUTO_CANNOT``:
        the service passes for them then, as the AI would. A seat the AI has just taken over gets
        its AI deadline, except in a window, which keeps its close time (an AI pass may have been
        moved there, see :meth:`_answer_window`).

        Each window row remembers when its window opened. Once no person who may still decide is
        left in a window (the rest are AI seats and known defaults), its remaining rows are due
        at once, but never before the uniform delay after the window opened: a window closes
        when everybody has answered, and its timing never tells whether anybody could.

        ``known``: the match's deadlines as this transaction sees them, when the caller has them
        (loaded under the match lock, nothing written to them since): spares a read, a trip to
        the database before the commit. ``pending``: ``state``'s requests, when worked out.
        """
        now = self._clock()
        pending = m.engine.pending(state) if pending is None else pending
        existing = {d.request_id: d for d in (known if known is not None else await repo.get_deadlines(tx, m.id))}
        keep: set[str] = set()
        for req in pending:
            old = existing.get(req.id)
            if old is not None and old.seat == req.seat \
                    and not (m.bot_plays(req.seat) and not old.window and old.due_at > now):
                keep.add(req.id)
        if set(existing) - keep:
            await repo.delete_deadlines(tx, m.id, keep)
        opened: dict[str, float] = {}  # window -> when it opened, as its kept rows remember
        for rid in keep:
            d = existing[rid]
            if d.window and d.opened_at is not None:
                opened[d.window] = min(opened.get(d.window, d.opened_at), d.opened_at)
        rows: dict[str, repo.DeadlineRow] = {}
        stands: dict[int, dict[str, str] | None] = {}  # seat -> its standing answers, read once
        for req in pending:
            if req.id in keep:
                d = existing[req.id]
                rows[req.id] = (d.request_id, d.seat, d.due_at, d.remind_at, d.window, d.opened_at, d.auto)
                continue
            window = window_key(req)
            at = opened.setdefault(window, now) if window else None
            auto = repo.AUTO_NONE
            if m.bot_plays(req.seat):
                due, remind = self._bot_due(now, req), None
                first: float | None = due if window else None  # the clock must wake for it
            elif window and not m.engine.can_answer(state, req):
                due, remind, auto = now + self._ai_window_delay, None, repo.AUTO_CANNOT
                first = due
            elif window and await self._standing_action(tx, m, state, req, stands) is not None:
                due, remind, auto = now + self._ai_window_delay, None, repo.AUTO_STANDING
                first = due
            else:
                due, remind = self._human_due(now, m, req)
                first = remind if remind is not None else due
            rows[req.id] = (req.id, req.seat, due, remind, window, at, auto)
            if first is not None:
                m.new_due = first if m.new_due is None else min(m.new_due, first)
        new = [row for rid, row in rows.items() if rid not in keep]
        for window, members in self._windows(pending).items():
            if any(not m.bot_plays(r.seat) and rows[r.id][6] == repo.AUTO_NONE for r in members):
                continue  # somebody may still decide: the window waits for them
            start = opened.get(window)
            close = now if start is None else max(now, start + self._ai_window_delay)
            for r in members:
                row = rows[r.id]
                if row[2] > close:
                    new = [x for x in new if x[0] != r.id] + [(*row[:2], close, *row[3:])]
                    m.new_due = close if m.new_due is None else min(m.new_due, close)
        await repo.insert_deadlines(tx, m.id, new)
        # Read after the commit (_after_change, run_due's _due_match): whether an AI run has
        # anything to answer now. A request the AI answers later (a window's, at its uniform
        # delay) is not owed now: the AI run would load the match to find nothing (bench run_due:
        # 37 of 129 runs after a time-out); its deadline row stays due for a later round, which
        # the commit's due time wakes (``m.new_due``). Only a hint: if it is stale, the change
        # is delivered anyway (the AI run ends with a delivery, and run_due delivers leftovers).
        due_at = {row[0]: row[2] for row in rows.values()} | {row[0]: row[2] for row in new}
        if any(m.bot_plays(req.seat) and due_at[req.id] <= now for req in pending):
            self._ai_owed.add(m.id)
        else:
            self._ai_owed.discard(m.id)
        # (request id, seat, due, remind, window, ...): by position, whatever follows the window
        m.synced = {**{k: (d.seat, d.window) for k, d in existing.items() if k in keep},
                    **{row[0]: (row[1], row[4]) for row in new}}
        return [r.id for r in pending]

    @staticmethod
    def _windows(pending: list[Request]) -> dict[str, list[Request]]:
        """The pending window requests by window."""
        out: dict[str, list[Request]] = {}
        for req in pending:
            key = window_key(req)
            if key:
                out.setdefault(key, []).append(req)
        return out

    @staticmethod
    def _without_resigned(m: LoadedMatch, result: Result) -> tuple[Result, str]:
        """The engine's result with resigned seats taken out of the winners: the AI played them
        after their players gave up, and a player who resigned must not be declared the winner.
        The engine's summary (which may name or count the winners) is replaced when it changes."""
        resigned = {s.seat for s in m.seats if s.resigned}
        dropped = [w for w in result.winners if w in resigned]
        if not dropped:
            return result, REASON_GAME
        names = ", ".join(m.seats[w].name for w in dropped if 0 <= w < len(m.seats))
        kept = [w for w in result.winners if w not in resigned]
        if kept:
            return replace(result, winners=kept, summary=Msg("core.result.resigned_excluded", {"names": names})), \
                REASON_GAME
        return replace(result, winners=[], summary=Msg("core.result.winners_resigned", {"names": names})), \
            REASON_WINNERS_RESIGNED

    async def _commit_play(self, m: LoadedMatch, state: State, new_state: State, *, seat: int | None,
                           request_id: str | None, action: Action, events: list[Event], source: str,
                           kind: ChangeKind, note: Msg | None = None,
                           forced_result: Result | None = None,
                           before: Callable[[Tx], Awaitable[None]] | None = None,
                           notices: list[Event] | None = None,
                           known: list[repo.DeadlineRecord] | None = None,
                           pending: list[Request] | None = None, ahead: _Ahead | None = None) -> None:
        """One transaction for one game step: match row, log row, deadlines, outbox (and
        ``before``, any other write that must stand or fall with it). ``notices``: private
        events for the publisher only (a returning player's digest), not the log. ``known``,
        ``pending``: see :meth:`_sync_deadlines`. ``ahead``: ``new_state`` and ``events``
        encoded by the worker thread (:class:`_Ahead`; not with ``notices``)."""
        result, reason = forced_result, REASON_RESIGNED
        if result is None:
            engine_result = m.engine.result(new_state)
            if engine_result is not None:
                result, reason = self._without_resigned(m, engine_result)
        now = self._clock()
        async with self.store.transaction() as tx:
            if before is not None:
                await before(tx)
            fields: dict[str, Any] = {"state": new_state if ahead is None else ahead.state}
            if result is not None:
                fields.update(status="finished", finished_at=now, result=codec.result_to_json(result, reason))
            version = await self._bump(tx, m, **fields)
            await repo.insert_action(tx, m.id, version, seat, request_id, list(action),
                                     [e.to_json() for e in events] if ahead is None else ahead.packed[0], source, now)
            if result is not None:
                await repo.delete_deadlines(tx, m.id)
                pending_ids: list[str] = []
            else:
                pending_ids = await self._sync_deadlines(tx, m, new_state, known=known, pending=pending)
            await self._emit(tx, Change(kind, m.id, version, seat, [*(notices or ()), *events], note, pending_ids), m,
                             None if ahead is None or notices else ahead.events[0])
            if result is not None:
                await self._emit(tx, Change("finished", m.id, version, None, [], result.summary, []))
                await self._record_result(tx, m, new_state, fields["result"], now)
        if result is not None:
            self._ai_owed.discard(m.id)
        self._due_changed(m.new_due)

    @staticmethod
    async def _record_result(tx: Tx, m: LoadedMatch, state: State, result: dict[str, Any], now: float) -> None:
        """The result rows and rating changes (``service.results``), in the finishing transaction."""
        await results.record(tx, match_id=m.id, guild_id=m.rec.guild_id, game=m.rec.game, finished_at=now,
                             teams=m.engine.teams(state), result=result, seats=m.seats)

    async def _digest(self, m: LoadedMatch, seat: int) -> tuple[list[Event], Callable[[Tx], Awaitable[None]] | None]:
        """A player back in an asynchronous match after at least a reaction time away: the
        game's digest (``Engine.digest``) of the public lines since their last move, addressed to
        them alone, so they read one summary instead of a ping per event. Given by "I'm back" or
        by their first move, whichever comes first, never twice for the same lines: the second
        value writes (in the change's transaction) the last version the digest covered
        (match meta ``digest:<seat>``)."""
        if not self._async_match(m):
            return [], None
        rows = await repo.actions_since_player(self.store, m.id, seat)
        own = bool(rows) and rows[0].seat == seat and rows[0].source == "user"
        if not own or self._clock() - rows[0].created_at < self._reaction_seconds(m):
            return [], None
        key = f"{DIGEST_META}{seat}"
        done = int(await repo.get_meta(self.store, m.id, key) or 0)
        fresh = [r for r in rows[1:] if r.version > done]
        msgs = [e.msg for r in fresh for e in map(codec.event_from_json, r.events) if e.to is None]
        notices = [Event(msg, (seat,)) for msg in m.engine.digest(msgs, seat)]
        if not notices:
            return [], None
        upto = str(fresh[-1].version)

        async def mark(tx: Tx) -> None:
            await repo.set_meta(tx, m.id, key, upto)

        return notices, mark

    async def _commit_meta(self, m: LoadedMatch, kind: ChangeKind | None, *, seats: list[SeatRecord] | None = None,
                           note: Msg | None = None, **fields: Any) -> None:
        """A change that is not a game step (lobby edits, abandon): row + outbox."""
        async with self.store.transaction() as tx:
            version = await self._bump(tx, m, **fields)
            if seats is not None:
                await repo.replace_seats(tx, m.id, seats)
            if fields.get("status") in ("abandoned", "finished"):
                await repo.delete_deadlines(tx, m.id)
            if kind is not None:
                await self._emit(tx, Change(kind, m.id, version, None, [], note, []))

    # ----- delivery ------------------------------------------------------------------------------
    async def _deliver(self, match_id: int) -> int:
        """Publish the match's undelivered changes in order; stop at the first failure so a later
        change never overtakes an earlier one (run_due retries).

        A publisher with ``publish_batch`` gets them all in one call and they are marked
        delivered together after it returns; otherwise ``publish`` is called per change."""
        publisher = self._publisher
        if publisher is None:
            return 0
        async with self._delivery_locks(match_id):
            settle = getattr(publisher, "settle", None)
            if callable(settle):
                try:
                    await settle(match_id)
                except Exception:  # pacing is a courtesy; delivery must not depend on it
                    log.exception("publisher settle failed for match %s", match_id)
            # The rows and the match they go with, in one read, decoded where they were read.
            found = await repo.load_match_then(self.store, match_id, self._delivery_of, with_state=False,
                                               with_undelivered=True)
            rows = found.rows
            if not rows:
                return 0
            first = found.info
            batch = getattr(publisher, "publish_batch", None)
            if callable(batch):
                return await self._deliver_batch(match_id, found, batch)
            sent = 0
            for row, decoded in zip(rows, found.changes, strict=True):
                try:
                    if isinstance(decoded, Exception):
                        raise decoded
                    change = decoded
                    info = first or self._info(await self._load(match_id, with_state=False))
                    first = None  # later rows: the match as it is by then
                    await publisher.publish(info, change)
                    async with self.store.transaction() as tx:
                        await repo.mark_delivered(tx, [row.id], self._clock())
                except Exception:  # the change is committed; the caller must not see a failure
                    log.exception("publishing change %s of match %s failed; will retry", row.id, match_id)
                    break
                sent += 1
        return sent

    async def _deliver_batch(self, match_id: int, found: _Delivery,
                             batch: Callable[[MatchInfo, list[Change]], Awaitable[None]]) -> int:
        rows = found.rows
        changes: list[Change] = []
        for row, decoded in zip(rows, found.changes, strict=True):
            if isinstance(decoded, Exception):  # an unreadable row blocks those after it, as in per-change delivery
                log.error("outbox row %s of match %s is unreadable", row.id, match_id, exc_info=decoded)
                break
            changes.append(decoded)
        if not changes:
            return 0
        try:
            info = found.info or self._info(await self._load(match_id, with_state=False))
            await batch(info, changes)
            async with self.store.transaction() as tx:
                await repo.mark_delivered(tx, [row.id for row in rows[:len(changes)]], self._clock())
        except Exception:
            log.exception("publishing %d changes of match %s failed; will retry", len(changes), match_id)
            return 0
        return len(changes)

    async def _after_change(self, match_id: int) -> None:
        """Publish, then let the AI answer. The caller's own change is committed by now, so a
        failure here is logged rather than raised; the AI's deadlines are due, so run_due retries.

        When the change asks the AI, its delivery is left to the AI run (``_drive_ai`` delivers
        whatever is undelivered, also when it fails or finds nothing to do): a human's move and
        the AI's answer reach the publisher together, as one post."""
        if match_id in self._ai_owed:
            self._ai_owed.discard(match_id)
        else:
            # Nothing was asked of the AI (the commit's pending requests are all people's): no
            # AI run to look for, which spares a human move three reads and a second delivery.
            await self._deliver(match_id)
            return
        if self._ai_in_background:
            task = asyncio.get_running_loop().create_task(self._drive_logged(match_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            await self._drive_logged(match_id)

    async def _drive_logged(self, match_id: int) -> None:
        try:
            await self._drive_ai(match_id)
        except Exception:
            log.exception("AI moves after a change of match %s failed; run_due will retry", match_id)

    async def drain(self) -> None:
        """Wait until background AI moves have finished (shutdown, tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ----- AI and time-outs -------------------------------------------------------------------------
    async def _auto_play(self, match_id: int, request_id: str | None = None, *, deliver: bool = True,
                         limit: int = 1, until: float | None = None, closed: set[str] | None = None) -> int:
        """Answer one request the service must answer itself: ``request_id`` when given (a due
        deadline), else the first pending request of a seat the AI plays whose deadline is due.
        A window request is answered together with the rest of its window that is due (see
        :meth:`_answer_window`). With ``limit`` > 1 an AI move, or a person's time-out
        (``request_id``), is followed, in the same transaction, by the AI's next moves while
        only AI seats are asked (see :meth:`_answer_run`), up to ``limit`` moves or the
        ``until`` (``time.monotonic``) mark. Returns how many moves were committed.
        ``deliver=False`` leaves publishing to the caller (an AI run batches).

        ``closed``: filled, when a change was committed, with the requests pending before it that
        have no deadline row after it (answered, or their window closed): a caller holding
        several claimed deadlines of the match (run_due) skips those instead of loading the match
        again to find each answered (bench run_due: 772 of 2 000 due items, a load and a
        transaction each)."""
        async with self._locks(match_id):
            m = await self._load(match_id, with_deadlines=True)
            if m.rec.status != "active" or m.rec.state is None:
                async with self.store.transaction() as tx:  # leftovers must not be retried forever
                    await repo.delete_deadlines(tx, m.id)
                return False
            state = m.rec.state
            pending = m.engine.pending(state)
            now = self._clock()
            deadlines = {d.request_id: d for d in m.deadlines}

            def due(r: Request) -> bool:
                d = deadlines.get(r.id)
                return d is None or d.due_at <= now

            if request_id is not None:
                req = next((r for r in pending if r.id == request_id and due(r)), None)
            else:
                req = next((r for r in pending if m.bot_plays(r.seat) and due(r)), None)
            if req is None:
                if request_id is not None:
                    async with self.store.transaction() as tx:
                        await repo.delete_deadlines(tx, m.id, {r.id for r in pending})
                return False
            if is_window(req):
                key = window_key(req)
                members = sorted((r for r in pending if window_key(r) == key), key=lambda r: (r.seat, r.id))
                done = int(await self._answer_window(m, state, [r for r in members if due(r)],
                                                     [r for r in members if not due(r)], deadlines))
            elif limit > 1 and (m.bot_plays(req.seat) or request_id is not None):
                done = await self._answer_run(m, state, req, deadlines, now, limit, until)
            else:
                done = int(await self._answer_one(m, state, req))
            if done and closed is not None:
                # The commit synced the deadlines to the requests pending after it (m.synced);
                # none are left when it ended the match.
                left = m.synced or {}
                closed.update(r.id for r in pending if r.id not in left)
        if done and deliver:
            await self._deliver(match_id)
        return done

    async def _answer_run(self, m: LoadedMatch, state: State, req: Request,
                          deadlines: dict[str, repo.DeadlineRecord], now: float, limit: int,
                          until: float | None) -> int:
        """The AI's move for ``req`` and its following moves, committed in ONE transaction.

        After each move the next request is taken while it is an AI-played seat's plain (not
        window) request that is due — new requests of AI seats are due at once, so this is the
        AI's turn (or several AI seats' turns) until a person is asked, the game ends, ``limit``
        moves are made or the ``until`` mark passes. Each move keeps its own version, log row
        and outbox row, and its AI rng is seeded from (match id, the version before it) as when
        every move was its own transaction, so a run a crash lost is replayed move for move by
        the next ``run_due``. Cost: one transaction instead of one per move (the match row is
        written once, deadlines synced once).

        ``req`` may be a person's request that timed out (run_due): its time-out answer is the
        run's first move (counted and noted as :meth:`_answer_one` does), and the AI's answers
        to it follow in the same transaction, as the AI run after its commit would have made
        them, instead of loading and committing the match once more for them (bench run_due: a
        load and a commit a time-out)."""
        note: Msg | None = None
        timed_out = not m.bot_plays(req.seat)
        if timed_out:  # before the AI moves: a seat marked away now is the AI's from its next ask
            line = self._attend(m, req.seat, timed_out=True) if req.default is None else None
            note = line or Msg("core.note.timeout", {"name": m.seats[req.seat].name})
        steps, after, cur, idle, ahead = await self._cpu(self._ai_moves_ahead, m, state, req, deadlines, now, limit,
                                                         until, timed_out)
        if not steps:
            await self._retry_later(m, req)
            return 0
        if idle:
            self._ai_idle.add(m.id)  # nothing else is due for the AI: the run is over
        # The deadlines were loaded under the match lock held since, and nothing wrote them.
        known = m.deadlines
        if len(steps) == 1:
            r, action, events, _ = steps[0]
            if timed_out:
                await self._commit_play(m, state, cur, seat=r.seat, request_id=r.id, action=action,
                                        events=events, source="timeout", kind="timeout", note=note,
                                        before=self._attendance_writer(m, [r.seat]), known=known,
                                        pending=after[0], ahead=ahead)
            else:
                await self._commit_play(m, state, cur, seat=r.seat, request_id=r.id, action=action,
                                        events=events, source="ai", kind="acted", known=known, pending=after[0],
                                        ahead=ahead)
        else:
            await self._commit_steps(m, cur, steps, deferred=[], until=None, after=after, timeout_note=note,
                                     known=known, ahead=ahead)
        return len(steps)

    def _ai_moves_ahead(self, *args: Any) -> tuple[list[tuple[Request, Action, list[Event], str]],
                                                    list[list[Request]], State, bool, _Ahead | None]:
        """:meth:`_ai_moves` and, in the same worker-thread call, its writes encoded
        (:class:`_Ahead`; None without steps)."""
        steps, after, cur, idle = self._ai_moves(*args)
        return steps, after, cur, idle, _Ahead.of(cur, (evs for _, _, evs, _ in steps)) if steps else None

    def _ai_moves(self, m: LoadedMatch, state: State, req: Request, deadlines: dict[str, repo.DeadlineRecord],
                  now: float, limit: int, until: float | None, timed_out: bool = False,
                  ) -> tuple[list[tuple[Request, Action, list[Event], str]], list[list[Request]], State, bool]:
        """The engine side of :meth:`_answer_run`, all of it in ONE worker-thread call: a Risk
        move is ~0.05 ms of engine work, two thread hops per move cost more than the moves
        (``bench_run_due``). Returns (steps, the requests pending after each, the last state,
        whether nothing else is due for the AI); no steps when the first move failed.

        ``timed_out``: the first move is a person's time-out (``timeout_action``). The AI goes on
        only when no window is pending after it, with the AI seats' requests due at once, as the
        deadlines the time-out's own commit would have synced have them; else the run ends there
        and the AI run that follows the commit takes over (windows wait for their delay)."""
        steps: list[tuple[Request, Action, list[Event], str]] = []
        after: list[list[Request]] = []  # the requests pending after each move
        cur = state
        while True:
            seat = m.seats[req.seat] if req.seat < len(m.seats) else None
            level = (seat.ai_level if seat else None) or "normal"
            rng = self._ai_rng(m.id, m.rec.version + len(steps))
            timeout = timed_out and not steps
            try:
                if timeout:
                    action = m.engine.timeout_action(cur, req, rng)
                else:
                    action = with_request(m.engine.ai_action, req)(cur, req.seat, rng, level)
                new_state, events = with_request(m.engine.apply, req)(cur, req.seat, action)
            except Exception:
                log.exception("automatic move for request %s of match %s failed", req.id, m.id)
                # with moves made: commit them; the next call meets the failure first and retries later
                return steps, after, cur, False
            steps.append((req, list(action), events, "timeout" if timeout else "ai"))
            cur = new_state
            pending = m.engine.pending(cur)
            after.append(pending)
            if len(steps) >= limit or m.engine.result(cur) is not None \
                    or (until is not None and time.monotonic() >= until):
                return steps, after, cur, False
            if timeout:
                if any(is_window(r) for r in pending):
                    return steps, after, cur, False
                deadlines = {}  # synced after a commit, the AI seats' plain requests are due at once
            nxt = next((r for r in pending if m.bot_plays(r.seat) and not is_window(r)
                        and (r.id not in deadlines or deadlines[r.id].due_at <= now)), None)
            if nxt is None:
                idle = not any(m.bot_plays(r.seat) and (deadlines[r.id].due_at <= now if r.id in deadlines
                                                        else self._bot_due(now, r) <= now) for r in pending)
                return steps, after, cur, idle
            req = nxt

    async def _answer_one(self, m: LoadedMatch, state: State, req: Request) -> bool:
        """The AI's move for an AI-played seat, or a person's expired turn (timeout_action)."""
        rng = self._ai_rng(m.id, m.rec.version)
        bot = m.bot_plays(req.seat)

        def move() -> tuple[Action, State, list[Event], _Ahead]:  # one worker-thread call, not two
            if bot:
                seat = m.seats[req.seat] if req.seat < len(m.seats) else None
                level = (seat.ai_level if seat else None) or "normal"
                action = with_request(m.engine.ai_action, req)(state, req.seat, rng, level)
            else:
                action = m.engine.timeout_action(state, req, rng)
            new_state, events = with_request(m.engine.apply, req)(state, req.seat, action)
            return action, new_state, events, _Ahead.of(new_state, [events])

        try:
            action, new_state, events, ahead = await self._cpu(move)
        except Exception:
            log.exception("automatic move for request %s of match %s failed", req.id, m.id)
            await self._retry_later(m, req)
            return False
        if bot:
            await self._commit_play(m, state, new_state, seat=req.seat, request_id=req.id,
                                    action=action, events=events, source="ai", kind="acted", ahead=ahead)
            return True
        # Silence is an answer where the request has a default ("no 闪", "no 无懈"): only a
        # decision nobody made counts toward away, or one ignored window would hand a player's
        # 桃 and 无懈 to the AI.
        line = self._attend(m, req.seat, timed_out=True) if req.default is None else None
        note = line or Msg("core.note.timeout", {"name": m.seats[req.seat].name})
        await self._commit_play(m, state, new_state, seat=req.seat, request_id=req.id,
                                action=action, events=events, source="timeout", kind="timeout",
                                note=note, before=self._attendance_writer(m, [req.seat]), ahead=ahead)
        return True

    async def _retry_later(self, m: LoadedMatch, req: Request) -> None:
        async with self.store.transaction() as tx:
            await repo.insert_deadline(tx, m.id, req.id, req.seat, self._clock() + AI_RETRY_SECONDS, None,
                                       window_key(req))

    async def _answer_window(self, m: LoadedMatch, state: State, due: list[Request], later: list[Request],
                             deadlines: dict[str, repo.DeadlineRecord]) -> bool:
        """Answer the due requests of one response window together, in seat order: the AI's
        answer for AI-played seats, the request's default (``timeout_action`` when it has none)
        for silent people. All of it is ONE transaction and ONE outbox row (one post), however
        many seats were silent.

        Each answer is applied to the state the previous one left, and only while its request is
        still pending with the same id (a real answer may close the window). An AI whose answer
        is just the default, in a window where people still have time, waits for the window to
        close (its deadline moves there): its pass is then part of the one batch, and a quick
        AI pass cannot tell the table anything a person's silence would not.
        """
        close = max((deadlines[r.id].due_at for r in later if r.id in deadlines), default=None)
        stands: dict[int, dict[str, str] | None] = {}  # read here: the worker call cannot await
        await self._read_standing(self.store, m, [r.seat for r in due if not m.bot_plays(r.seat) and r.id in deadlines
                                                  and deadlines[r.id].auto == repo.AUTO_STANDING], stands)
        steps, deferred, asks, cur, failed, ahead = await self._cpu(self._window_moves, m, state, due, deadlines, close,
                                                             stands)
        for req in asks:  # a standing answer that no longer answers: the player is asked
            await self._ask_after_all(m, req, deadlines)
        # The deadlines loaded under the match lock are the store's still, unless a player was
        # asked again just now: then the commit reads them (see _sync_deadlines' ``known``).
        known = None if asks else m.deadlines
        if failed is not None:
            await self._retry_later(m, failed)
            return False
        if not steps:
            if deferred and close is not None:
                async with self.store.transaction() as tx:
                    await self._defer(tx, m, deferred, close, deadlines)
            return False
        await self._commit_steps(m, cur, steps, deferred=deferred, until=close, rows=deadlines, known=known,
                                 ahead=ahead)
        return True

    def _window_moves(self, m: LoadedMatch, state: State, due: list[Request],
                      deadlines: dict[str, repo.DeadlineRecord], close: float | None,
                      stands: dict[int, dict[str, str] | None],
                      ) -> tuple[list[tuple[Request, Action, list[Event], str]], list[Request], list[Request], State,
                                 Request | None, _Ahead | None]:
        """The engine side of :meth:`_answer_window`, all of it in ONE worker-thread call (was
        two per answer: the AI's choice, then ``apply``), the standing answers worked out from
        the settings read before (``stands``). Returns (steps, the answers deferred to the
        window's close, the requests whose standing answer no longer answers (their players are
        asked), the last state, the request whose answer failed, if one did, and the writes
        encoded ahead when there are steps and none failed)."""
        rng = self._ai_rng(m.id, m.rec.version)
        steps: list[tuple[Request, Action, list[Event], str]] = []
        deferred: list[Request] = []
        asks: list[Request] = []
        cur = state
        for req in due:
            if req.id not in {r.id: r for r in m.engine.pending(cur) if r.seat == req.seat}:
                continue  # the window closed or moved on (a real answer came first)
            bot = m.bot_plays(req.seat)
            auto = deadlines[req.id].auto if req.id in deadlines else repo.AUTO_NONE
            try:
                if bot:
                    seat = m.seats[req.seat] if req.seat < len(m.seats) else None
                    level = (seat.ai_level if seat else None) or "normal"
                    action = with_request(m.engine.ai_action, req)(cur, req.seat, rng, level)
                    if close is not None and action == default_action(req):
                        deferred.append(req)
                        continue
                elif auto == repo.AUTO_STANDING:
                    standing_act = self._standing_answer(m, cur, req, stands.get(req.seat))
                    if standing_act is None:  # the player changed it meanwhile: they are asked
                        asks.append(req)
                        continue
                    action = standing_act
                    if close is not None:
                        # A standing answer waits while a person in the window may still decide
                        # (it is applied once they have, or at the close): applied a second after
                        # the opening, a pick — a 极武三国 duel move — would show the table that
                        # this seat answers by a setting, and its next picks could be guessed.
                        deferred.append(req)
                        continue
                else:
                    action = default_action(req) or m.engine.timeout_action(cur, req, rng)
                    if close is not None and auto != repo.AUTO_NONE:
                        deferred.append(req)  # a known pass waits with the AI's for the window's close
                        continue
                cur, events = with_request(m.engine.apply, req)(cur, req.seat, action)
            except Exception:
                log.exception("automatic answer to window request %s of match %s failed", req.id, m.id)
                return steps, deferred, asks, cur, req, None
            # a standing answer is the player's own choice, made ahead: "auto" in the log
            source = "ai" if bot else "user" if auto == repo.AUTO_HELD else "auto" if auto == repo.AUTO_STANDING \
                else "system" if auto == repo.AUTO_CANNOT else "timeout"
            steps.append((req, list(action), events, source))
            if m.engine.result(cur) is not None:
                break
        ahead = _Ahead.of(cur, (evs for _, _, evs, _ in steps)) if steps else None
        return steps, deferred, asks, cur, None, ahead

    async def _ask_after_all(self, m: LoadedMatch, req: Request, rows: dict[str, repo.DeadlineRecord]) -> None:
        """A standing answer that no longer answers ``req`` (its player changed the setting after
        the window opened): the player gets the rest of their reaction time, as if asked at the
        window's opening."""
        d = rows.get(req.id)
        opened = d.opened_at if d is not None and d.opened_at is not None else self._clock()
        due, remind = self._human_due(opened, m, req)
        async with self.store.transaction() as tx:
            await repo.insert_deadline(tx, m.id, req.id, req.seat, due, remind, window_key(req), opened,
                                       repo.AUTO_NONE)
        self._due_changed(remind if remind is not None and remind > self._clock() else due)

    @staticmethod
    async def _defer(tx: Tx, m: LoadedMatch, reqs: list[Request], until: float,
                     rows: dict[str, repo.DeadlineRecord]) -> list[repo.DeadlineRecord]:
        """Move the known passes ``reqs`` of a window to its close ``until`` (keeping when the
        window opened and why the answer is known). Returns the rows as written."""
        written: list[repo.DeadlineRecord] = []
        for req in reqs:
            d = rows.get(req.id)
            row = repo.DeadlineRecord(m.id, req.id, req.seat, until, None, False, window_key(req),
                                      d.opened_at if d else None, d.auto if d else repo.AUTO_NONE)
            await repo.insert_deadline(tx, m.id, row.request_id, row.seat, row.due_at, row.remind_at, row.window,
                                       row.opened_at, row.auto)
            written.append(row)
        return written

    def _async_match(self, m: LoadedMatch) -> bool:
        """Played asynchronously (a turn clock longer than a live one): nobody sits at the table."""
        return m.rec.turn_seconds > self.settings.async_turn_seconds

    def _attend(self, m: LoadedMatch, seat: int, *, timed_out: bool, reaction: bool = False) -> Msg | None:
        """Count a person's time-out (or, ``timed_out=False``, their own action) in ``m.seats``;
        returns the line the thread gets when the seat is now marked away or is back.
        ``reaction``: a silent window of an async match (away after ``away_after_reactions``)."""
        s = m.seats[seat] if 0 <= seat < len(m.seats) else None
        if s is None or s.user_id is None or s.resigned:
            return None
        missed = s.missed + 1 if timed_out else 0
        limit = max(1, self.settings.away_after_reactions) if reaction else self._away_after
        away = (s.away or missed >= limit) if timed_out else False
        m.seats[seat] = replace(s, missed=missed, away=away)
        if away and not s.away:
            if reaction:
                return Msg("publish.away_reactions", {"name": s.name, "n": missed})
            return Msg("publish.away", {"name": s.name})
        if s.away and not away:
            return Msg("publish.back", {"name": s.name})
        return None

    async def _back_line(self, m: LoadedMatch, seat: int) -> Msg:
        """The line of a player back from away: what the AI did for them meanwhile, in one line."""
        moves = await repo.ai_moves_since_player(self.store, m.id, seat)
        return Msg("publish.back_summary", {"name": m.seats[seat].name, "n": moves})

    @staticmethod
    def _attendance_writer(m: LoadedMatch, seats: list[int]) -> Callable[[Tx], Awaitable[None]]:
        """Writes the seats' time-out counts and away flags as ``m.seats`` has them now."""
        async def write(tx: Tx) -> None:
            for seat in dict.fromkeys(seats):
                s = m.seats[seat]
                await repo.set_attendance(tx, m.id, seat, missed=s.missed, away=s.away)
        return write

    async def _commit_steps(self, m: LoadedMatch, new_state: State,
                            steps: list[tuple[Request, Action, list[Event], str]], *,
                            deferred: list[Request], until: float | None,
                            after: list[list[Request]] | None = None,
                            rows: dict[str, repo.DeadlineRecord] | None = None,
                            timeout_note: Msg | None = None,
                            known: list[repo.DeadlineRecord] | None = None, ahead: _Ahead | None = None) -> None:
        """One transaction for several answers of one window: a log row (and version) per answer,
        the final state, attendance, deadlines, and ONE outbox row with all their events.

        ``after`` (an AI run, :meth:`_answer_run`: the requests pending after each step) makes
        it one outbox row per step instead, each an ``acted`` change naming the requests pending
        after it, so a publisher sees the same changes as when every move was committed alone.
        The match row is written once, its version moved on by the number of steps.

        ``timeout_note`` (with ``after``): the first step is a person's time-out, counted already
        (:meth:`_answer_run`); its change is the ``timeout`` change with this note. ``known``:
        see :meth:`_sync_deadlines`. ``ahead``: the state and the steps' events encoded by the
        worker thread (:class:`_Ahead`)."""
        counted = self._async_match(m)  # an async match's silent reactions count toward away
        lines = [line for i, (req, _, _, source) in enumerate(steps)
                 if source == "timeout" and (req.default is None or counted)
                 and not (i == 0 and timeout_note is not None)
                 if (line := self._attend(m, req.seat, timed_out=True, reaction=req.default is not None))
                 is not None]
        result, reason = None, REASON_GAME
        engine_result = m.engine.result(new_state)
        if engine_result is not None:
            result, reason = self._without_resigned(m, engine_result)
        now = self._clock()
        events = [e for _, _, evs, _ in steps for e in evs] + [Event(line) for line in lines]
        timed_out = [req.seat for req, _, _, source in steps if source == "timeout"]
        first = m.rec.version + 1
        async with self.store.transaction() as tx:
            await self._attendance_writer(m, timed_out)(tx)
            if deferred and until is not None:
                written = await self._defer(tx, m, deferred, until, rows or {})
                if known is not None:  # the deadlines as this transaction now has them
                    moved = {d.request_id: d for d in written}
                    known = [moved.pop(d.request_id, d) for d in known] + list(moved.values())
            fields: dict[str, Any] = {"state": new_state if ahead is None else ahead.state}
            if result is not None:
                fields.update(status="finished", finished_at=now, result=codec.result_to_json(result, reason))
            version = await self._bump(tx, m, steps=len(steps), **fields)
            await repo.insert_actions(tx, m.id, [
                (first + i, req.seat, req.id, action, [e.to_json() for e in evs] if ahead is None else ahead.packed[i],
                 source)
                for i, (req, action, evs, source) in enumerate(steps)], now)
            if result is not None:
                await repo.delete_deadlines(tx, m.id)
                pending_ids: list[str] = []
            else:
                pending_ids = await self._sync_deadlines(tx, m, new_state, known=known,
                                                         pending=after[-1] if after else None)
            if after is not None:
                for i, ((req, _, evs, _), asked) in enumerate(zip(steps, after, strict=True)):
                    last = i == len(steps) - 1
                    ids = pending_ids if last else [r.id for r in asked]
                    seats = [] if last else [r.seat for r in asked]
                    windows = [] if last else [window_key(r) for r in asked]
                    timeout = i == 0 and timeout_note is not None
                    await self._emit(tx, Change("timeout" if timeout else "acted", m.id, first + i, req.seat,
                                                list(evs), timeout_note if timeout else None, ids, seats,
                                                windows), m, None if ahead is None else ahead.events[i])
            else:
                single_ai = len(steps) == 1 and steps[0][3] == "ai"
                kind: ChangeKind = "acted" if single_ai else "window"
                seat = steps[0][0].seat if single_ai else None
                await self._emit(tx, Change(kind, m.id, version, seat, events, None, pending_ids), m,
                                 None if ahead is None else ahead.joined([Event(line) for line in lines]))
            if result is not None:
                await self._emit(tx, Change("finished", m.id, version, None, [], result.summary, []))
                await self._record_result(tx, m, new_state, fields["result"], now)
        m.rec.version = version
        if result is not None:
            self._ai_owed.discard(m.id)
        self._due_changed(m.new_due)

    async def _drive_ai(self, match_id: int, budget: int | None = None, made: int = 0) -> int:
        """Let the AI answer its pending requests, up to ``budget`` moves, one transaction per
        run of AI moves that is delivered together (see :meth:`_answer_run`).

        The moves are delivered as batches: when the run ends (also by an error), and during a
        long run every ``ai_batch_seconds`` or ``ai_batch_moves``. Anything committed before
        the call (a timeout move) goes out with the first batch. ``made``: AI moves made
        already and not delivered yet (a time-out's run, run_due), counted as this call's."""
        moves = unsent = made
        cap = self._ai_cap if budget is None else budget
        last = time.monotonic()
        try:
            self._ai_idle.discard(match_id)
            if unsent >= self._batch_moves:
                await self._deliver(match_id)
                unsent = 0
            while moves < cap and match_id not in self._ai_idle:
                # One transaction per delivery batch: the moves a batch will publish together
                # are committed together (a crash loses at most this batch, replayed as it was).
                made = await self._auto_play(match_id, deliver=False,
                                             limit=max(1, min(cap - moves, self._batch_moves - unsent)),
                                             until=last + self._batch_seconds)
                if not made:
                    break
                moves += made
                unsent += made
                if unsent >= self._batch_moves or time.monotonic() - last >= self._batch_seconds:
                    await self._deliver(match_id)
                    unsent = 0
                    last = time.monotonic()
        finally:
            await self._deliver(match_id)
        return moves

