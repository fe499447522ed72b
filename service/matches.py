"""MatchService: the one place that changes matches.

Every method raises ``service.errors.UserError`` for anything a user did wrong; the match is then
unchanged. Engine errors are converted to UserError.

How a change happens (the same for lobby edits, moves, AI moves, time-outs, resignations):

1. take the match's asyncio lock (one per match; different matches run concurrently);
2. read the committed match from the store and check the caller may do this now;
3. let the engine compute the new state (CPU work goes to a worker thread so the event loop
   keeps serving other matches);
4. in ONE transaction: the match row (guarded by its version), the action log row, the
   deadlines of the now-pending requests and the outbox row(s) describing the change;
5. after the commit, hand the outbox rows to the publisher and mark them delivered.

A crash anywhere before the commit leaves the match as it was; a crash after it leaves an
undelivered outbox row that :meth:`MatchService.run_due` delivers later. Seats played by the AI
(AI seats and resigned humans) have a deadline that is due at once, so the deadlines table is also
the durable to-do list of AI moves still owed after a restart.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, get_args

from engines import registry
from engines.base import Action, Engine, EngineError, Event, Msg, Request, Result, State, Step, View
from i18n import t
from service import codec
from service.deadlines import deadline_for
from service.errors import UserError
from service.locks import KeyedLocks
from service.models import Change, ChangeKind, LogEntry, MatchInfo, NotifyMode, PendingRequest, Publisher
from store import repo
from store.db import Store, Tx
from store.repo import MatchRecord, SeatRecord

log = logging.getLogger(__name__)

#: Lobby rate limits: at most this many lobbies per user per window, open lobbies per channel.
LOBBIES_PER_USER = 3
LOBBY_WINDOW_SECONDS = 600.0
OPEN_LOBBIES_PER_CHANNEL = 5
#: Accepted turn lengths (seconds).
MIN_TURN_SECONDS = 30
MAX_TURN_SECONDS = 30 * 86400
#: AI moves one call may make before leaving the rest to the next ``run_due`` (loop guard).
AI_MOVES_PER_CALL = 200
#: How long an AI request whose engine call crashed waits before it is tried again.
AI_RETRY_SECONDS = 300.0
#: Delivered outbox rows are kept this long (for debugging deliveries), then deleted.
OUTBOX_KEEP_SECONDS = 7 * 86400.0
#: Limits on an action's shape, checked before the engine sees it.
MAX_ACTION_TOKENS = 64
MAX_TOKEN_CHARS = 100
#: Statuses in which a match still counts as running for listings.
OPEN_STATUSES = ("lobby", "active")


def default_ai_rng(match_id: int, version: int) -> random.Random:
    """Deterministic per (match, version), so a replayed or retried AI move is the same move."""
    return random.Random(f"ai:{match_id}:{version}")


@dataclass
class _Match:
    rec: MatchRecord
    seats: list[SeatRecord]
    engine: Engine

    @property
    def id(self) -> int:
        return self.rec.id

    def seat_of(self, user_id: int) -> SeatRecord | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def bot_plays(self, seat: int) -> bool:
        """AI seats and resigned humans are answered by the AI."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return s is None or s.user_id is None or s.resigned


class MatchService:
    def __init__(
        self,
        store: Store,
        *,
        publisher: Publisher | None = None,
        clock: Callable[[], float] = time.time,
        ai_rng: Callable[[int, int], random.Random] | None = None,
        rate_limits: bool = True,
        ai_moves_per_call: int = AI_MOVES_PER_CALL,
        offload: bool = True,
        ai_in_background: bool = False,
    ) -> None:
        """``clock`` is injectable for deadline tests; ``ai_rng(match_id, version)`` seeds AIs.

        ``rate_limits=False`` lifts the lobby limits (benchmarks, the terminal front-end);
        ``offload=False`` runs engine calls on the event loop thread (cheaper for tiny engines).
        ``ai_in_background=True`` makes act()/start()/resign() return right after their own
        change is published and lets the AI answer in a background task (a chat front-end then
        answers the click at once; the AI's moves arrive through the publisher). ``drain()``
        waits for those tasks.
        """
        self.store = store
        self._publisher = publisher
        self._clock = clock
        self._ai_rng = ai_rng or default_ai_rng
        self._rate_limits = rate_limits
        self._ai_cap = ai_moves_per_call
        self._offload = offload
        self._locks = KeyedLocks()
        self._delivery_locks = KeyedLocks()
        self._ai_in_background = ai_in_background
        self._tasks: set[asyncio.Task[None]] = set()

    def set_publisher(self, publisher: Publisher | None) -> None:
        self._publisher = publisher

    # ----- helpers ---------------------------------------------------------------------------
    async def _cpu(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._offload:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    async def _load(self, match_id: int, *, with_state: bool = True) -> _Match:
        rec = await repo.get_match(self.store, match_id, with_state=with_state)
        if rec is None:
            raise UserError("core.err.no_match", match=match_id)
        try:
            engine = registry.get(rec.game)
        except (KeyError, ImportError) as err:
            raise UserError("core.err.unknown_game", game=rec.game) from err
        return _Match(rec, await repo.get_seats(self.store, match_id), engine)

    @staticmethod
    def _info(m: _Match) -> MatchInfo:
        return codec.match_info(m.rec, m.seats)

    @staticmethod
    def _need_status(m: _Match, *statuses: str) -> None:
        if m.rec.status in statuses:
            return
        if m.rec.status == "lobby":
            raise UserError("core.err.not_started")
        if "lobby" in statuses and m.rec.status == "active":
            raise UserError("core.err.already_started")
        raise UserError("core.err.not_active")

    @staticmethod
    def _need_host(m: _Match, user_id: int) -> None:
        if m.rec.host_id != user_id:
            raise UserError("core.err.not_host")

    def _player(self, m: _Match, user_id: int) -> SeatRecord:
        seat = m.seat_of(user_id)
        if seat is None:
            raise UserError("core.err.not_a_player")
        return seat

    @staticmethod
    def _request(m: _Match, state: State, seat: SeatRecord, request_id: str) -> Request:
        """The pending request ``request_id`` if it is ``seat``'s to answer."""
        if seat.resigned:
            raise UserError("core.err.resigned")
        for req in m.engine.pending(state):
            if req.id == request_id:
                if req.seat != seat.seat:
                    raise UserError("core.err.not_your_turn")
                return req
        raise UserError("core.err.stale")

    async def _bump(self, tx: Tx, m: _Match, **fields: Any) -> int:
        """Advance the match row one version; refuses (as stale) if another writer got there first."""
        version = m.rec.version + 1
        ok = await repo.bump_match(tx, m.id, m.rec.version, version=version, updated_at=self._clock(),
                                   **fields)
        if not ok:
            raise UserError("core.err.stale")
        return version

    async def _emit(self, tx: Tx, change: Change) -> None:
        await repo.insert_outbox(tx, change.match_id, change.version, codec.change_to_json(change),
                                 self._clock())

    async def _sync_deadlines(self, tx: Tx, m: _Match, state: State) -> list[str]:
        """Deadlines for exactly the pending requests; a request still pending keeps its deadline.

        Human requests get the turn clock; requests the AI answers are due at once.
        """
        now = self._clock()
        pending = m.engine.pending(state)
        existing = {d.request_id: d for d in await repo.get_deadlines(tx, m.id)}
        keep: set[str] = set()
        for req in pending:
            old = existing.get(req.id)
            if old is not None and old.seat == req.seat and not (m.bot_plays(req.seat) and old.due_at > now):
                keep.add(req.id)
        await repo.delete_deadlines(tx, m.id, keep)
        for req in pending:
            if req.id in keep:
                continue
            if m.bot_plays(req.seat):
                await repo.insert_deadline(tx, m.id, req.id, req.seat, now, None)
            else:
                due, remind = deadline_for(now, m.rec.turn_seconds)
                await repo.insert_deadline(tx, m.id, req.id, req.seat, due, remind)
        return [r.id for r in pending]

    async def _commit_play(self, m: _Match, state: State, new_state: State, *, seat: int | None,
                           request_id: str | None, action: Action, events: list[Event], source: str,
                           kind: ChangeKind, note: Msg | None = None,
                           forced_result: Result | None = None,
                           before: Callable[[Tx], Awaitable[None]] | None = None) -> None:
        """One transaction for one game step: match row, log row, deadlines, outbox (and
        ``before``, any other write that must stand or fall with it)."""
        result = forced_result or m.engine.result(new_state)
        reason = "resigned" if forced_result is not None else "game"
        now = self._clock()
        async with self.store.transaction() as tx:
            if before is not None:
                await before(tx)
            fields: dict[str, Any] = {"state": new_state}
            if result is not None:
                fields.update(status="finished", finished_at=now, result=codec.result_to_json(result, reason))
            version = await self._bump(tx, m, **fields)
            await repo.insert_action(tx, m.id, version, seat, request_id, list(action),
                                     [e.to_json() for e in events], source, now)
            if result is not None:
                await repo.delete_deadlines(tx, m.id)
                pending_ids: list[str] = []
            else:
                pending_ids = await self._sync_deadlines(tx, m, new_state)
            await self._emit(tx, Change(kind, m.id, version, seat, list(events), note, pending_ids))
            if result is not None:
                await self._emit(tx, Change("finished", m.id, version, None, [], result.summary, []))

    async def _commit_meta(self, m: _Match, kind: ChangeKind | None, *, seats: list[SeatRecord] | None = None,
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
        change never overtakes an earlier one (run_due retries)."""
        publisher = self._publisher
        if publisher is None:
            return 0
        sent = 0
        async with self._delivery_locks(match_id):
            for row in await repo.undelivered(self.store, match_id):
                try:
                    change = codec.change_from_json(row.payload)
                    info = await self.get(match_id)
                    await publisher.publish(info, change)
                    async with self.store.transaction() as tx:
                        await repo.mark_delivered(tx, row.id, self._clock())
                except Exception:  # the change is committed; the caller must not see a failure
                    log.exception("publishing change %s of match %s failed; will retry", row.id, match_id)
                    break
                sent += 1
        return sent

    async def _after_change(self, match_id: int) -> None:
        """Publish, then let the AI answer. The caller's own change is committed by now, so a
        failure here is logged rather than raised; the AI's deadlines are due, so run_due retries."""
        await self._deliver(match_id)
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
    async def _auto_play(self, match_id: int, request_id: str | None = None) -> bool:
        """Answer one request the service must answer itself: ``request_id`` when given (a due
        deadline), else the first pending request of a seat the AI plays. Returns whether a move
        was committed."""
        async with self._locks(match_id):
            m = await self._load(match_id)
            if m.rec.status != "active" or m.rec.state is None:
                async with self.store.transaction() as tx:  # leftovers must not be retried forever
                    await repo.delete_deadlines(tx, m.id)
                return False
            state = m.rec.state
            pending = m.engine.pending(state)
            if request_id is not None:
                req = next((r for r in pending if r.id == request_id), None)
            else:
                req = next((r for r in pending if m.bot_plays(r.seat)), None)
            if req is None:
                if request_id is not None:
                    async with self.store.transaction() as tx:
                        await repo.delete_deadlines(tx, m.id, {r.id for r in pending} - {request_id})
                return False
            rng = self._ai_rng(m.id, m.rec.version)
            bot = m.bot_plays(req.seat)
            try:
                if bot:
                    seat = m.seats[req.seat] if req.seat < len(m.seats) else None
                    level = (seat.ai_level if seat else None) or "normal"
                    action = await self._cpu(m.engine.ai_action, state, req.seat, rng, level)
                else:
                    action = await self._cpu(m.engine.timeout_action, state, req, rng)
                new_state, events = await self._cpu(m.engine.apply, state, req.seat, action)
            except Exception:
                log.exception("automatic move for request %s of match %s failed", req.id, m.id)
                async with self.store.transaction() as tx:
                    await repo.insert_deadline(tx, m.id, req.id, req.seat,
                                               self._clock() + AI_RETRY_SECONDS, None)
                return False
            if bot:
                await self._commit_play(m, state, new_state, seat=req.seat, request_id=req.id,
                                        action=action, events=events, source="ai", kind="acted")
            else:
                note = Msg("core.note.timeout", {"name": m.seats[req.seat].name})
                await self._commit_play(m, state, new_state, seat=req.seat, request_id=req.id,
                                        action=action, events=events, source="timeout", kind="timeout",
                                        note=note)
        await self._deliver(match_id)
        return True

    async def _drive_ai(self, match_id: int, budget: int | None = None) -> int:
        """Let the AI answer its pending requests, one transaction each, up to ``budget`` moves."""
        moves = 0
        cap = self._ai_cap if budget is None else budget
        while moves < cap and await self._auto_play(match_id):
            moves += 1
        return moves

    # ----- lobby -------------------------------------------------------------------------
    async def create_lobby(self, game: str, *, host_id: int, host_name: str, locale: str,
                           guild_id: int | None = None, channel_id: int | None = None,
                           options: dict[str, str] | None = None,
                           turn_seconds: int = 86400, seat_host: bool = True) -> MatchInfo:
        """Open a lobby; the host takes seat 0. Rate-limited per user and channel.

        ``seat_host=False`` opens a lobby the host only manages (all-AI matches, spectating).
        """
        try:
            engine = registry.get(game)
        except (KeyError, ImportError) as err:
            raise UserError("core.err.unknown_game", game=game) from err
        try:
            opts = engine.normalize_options(dict(options or {}))
        except EngineError as err:
            raise UserError.from_engine(err) from err
        self._check_turn_seconds(turn_seconds)
        now = self._clock()
        async with self.store.transaction() as tx:
            if self._rate_limits:  # checked inside the transaction so two quick clicks cannot both pass
                recent = await repo.count_created_since(tx, host_id, now - LOBBY_WINDOW_SECONDS)
                if recent >= LOBBIES_PER_USER:
                    raise UserError("core.err.rate_user", count=LOBBIES_PER_USER,
                                    minutes=int(LOBBY_WINDOW_SECONDS // 60))
                if channel_id is not None and \
                        await repo.count_open_lobbies(tx, channel_id) >= OPEN_LOBBIES_PER_CHANNEL:
                    raise UserError("core.err.rate_channel", count=OPEN_LOBBIES_PER_CHANNEL)
            match_id = await repo.insert_match(tx, game=game, options=opts, host_id=host_id, locale=locale,
                                               turn_seconds=turn_seconds, guild_id=guild_id,
                                               channel_id=channel_id, now=now)
            if seat_host:
                await repo.replace_seats(tx, match_id, [SeatRecord(0, host_id, None, host_name)])
            await self._emit(tx, Change("lobby", match_id, 0))
        await self._deliver(match_id)
        return await self.get(match_id)

    async def _lobby_edit(self, match_id: int, edit: Callable[[_Match], dict[str, Any]]) -> MatchInfo:
        """Run ``edit`` (checks + new seats/fields) on a lobby under its lock and commit it."""
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby")
            fields = edit(m)
            await self._commit_meta(m, "lobby", **fields)
        await self._deliver(match_id)
        return await self.get(match_id)

    async def join(self, match_id: int, user_id: int, name: str) -> MatchInfo:
        def edit(m: _Match) -> dict[str, Any]:
            if m.seat_of(user_id) is not None:
                raise UserError("core.err.already_joined")
            _, most = m.engine.seat_range(m.rec.options)
            if len(m.seats) >= most:
                raise UserError("core.err.lobby_full", seats=most)
            return {"seats": [*m.seats, SeatRecord(len(m.seats), user_id, None, name)]}

        return await self._lobby_edit(match_id, edit)

    async def leave(self, match_id: int, user_id: int) -> MatchInfo:
        """Leave a lobby; the host leaving closes it (abandoned). In a running game, use resign."""
        def edit(m: _Match) -> dict[str, Any]:
            if m.rec.host_id == user_id:
                return {"status": "abandoned", "finished_at": self._clock()}
            seat = self._player(m, user_id)
            return {"seats": [s for s in m.seats if s.seat != seat.seat]}

        return await self._lobby_edit(match_id, edit)

    async def add_ai(self, match_id: int, by_user: int, level: str | None = None) -> MatchInfo:
        def edit(m: _Match) -> dict[str, Any]:
            self._need_host(m, by_user)
            levels = m.engine.ai_levels()
            chosen = level or ("normal" if "normal" in levels else levels[0])
            if chosen not in levels:
                raise UserError("core.err.bad_ai_level", level=chosen)
            _, most = m.engine.seat_range(m.rec.options)
            if len(m.seats) >= most:
                raise UserError("core.err.lobby_full", seats=most)
            number = sum(1 for s in m.seats if s.user_id is None) + 1
            name = t(m.rec.locale, "core.ai.name", number=number)
            return {"seats": [*m.seats, SeatRecord(len(m.seats), None, chosen, name)]}

        return await self._lobby_edit(match_id, edit)

    async def remove_ai(self, match_id: int, by_user: int) -> MatchInfo:
        """Remove the most recently added AI seat."""
        def edit(m: _Match) -> dict[str, Any]:
            self._need_host(m, by_user)
            bots = [s for s in m.seats if s.user_id is None]
            if not bots:
                raise UserError("core.err.no_ai")
            return {"seats": [s for s in m.seats if s.seat != bots[-1].seat]}

        return await self._lobby_edit(match_id, edit)

    async def set_option(self, match_id: int, by_user: int, name: str, value: str) -> MatchInfo:
        def edit(m: _Match) -> dict[str, Any]:
            self._need_host(m, by_user)
            if name not in {spec.name for spec in m.engine.option_specs()}:
                raise UserError("core.err.bad_option", option=name, value=value)
            try:
                opts = m.engine.normalize_options({**m.rec.options, name: value})
            except EngineError as err:
                raise UserError.from_engine(err) from err
            return {"options": opts}

        return await self._lobby_edit(match_id, edit)

    @staticmethod
    def _check_turn_seconds(seconds: int) -> None:
        if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
            raise UserError("core.err.bad_turn_seconds", min=MIN_TURN_SECONDS, max=MAX_TURN_SECONDS)

    async def set_turn_seconds(self, match_id: int, by_user: int, seconds: int) -> MatchInfo:
        """Host only, in the lobby or during play (applies from the next request on)."""
        self._check_turn_seconds(seconds)
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby", "active")
            self._need_host(m, by_user)
            # During play nothing visible changes, so nothing is published.
            await self._commit_meta(m, "lobby" if m.rec.status == "lobby" else None, turn_seconds=seconds)
        await self._deliver(match_id)
        return await self.get(match_id)

    async def set_location(self, match_id: int, *, thread_id: int | None = None,
                           lobby_message_id: int | None = None) -> MatchInfo:
        """Record where the Discord layer put the match; no change is published."""
        fields = {k: v for k, v in (("thread_id", thread_id), ("lobby_message_id", lobby_message_id))
                  if v is not None}
        if fields:
            async with self._locks(match_id):
                await self._load(match_id, with_state=False)
                async with self.store.transaction() as tx:
                    await repo.update_match(tx, match_id, **fields)
        return await self.get(match_id)

    async def start(self, match_id: int, by_user: int) -> MatchInfo:
        """Deal the game (engine.new_state with a fresh seed), arm deadlines, publish 'started'."""
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            self._need_status(m, "lobby")
            self._need_host(m, by_user)
            least, most = m.engine.seat_range(m.rec.options)
            if not least <= len(m.seats) <= most:
                raise UserError("core.err.seat_count", min=least, max=most)
            seed = secrets.randbits(63)
            try:
                state = await self._cpu(m.engine.new_state, dict(m.rec.options), len(m.seats), seed)
            except EngineError as err:
                raise UserError.from_engine(err) from err
            async with self.store.transaction() as tx:
                version = await self._bump(tx, m, status="active", state=state, seed=seed)
                pending_ids = await self._sync_deadlines(tx, m, state)
                await self._emit(tx, Change("started", m.id, version, None, [], None, pending_ids))
        await self._after_change(match_id)
        return await self.get(match_id)

    # ----- play ---------------------------------------------------------------------------
    async def step(self, match_id: int, user_id: int, request_id: str, path: Action) -> Step:
        """Choices after ``path`` for the user's request (UserError if stale / not theirs)."""
        self._check_action(path, allow_empty=True)
        m = await self._load(match_id)
        self._need_status(m, "active")
        seat = self._player(m, user_id)
        assert m.rec.state is not None
        self._request(m, m.rec.state, seat, request_id)
        try:
            return m.engine.step(m.rec.state, seat.seat, list(path))
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
        """Apply under the match lock; refuse if ``request_id`` is no longer pending for the
        user's seat (stale button, double click). State + log + deadlines + outbox in one
        transaction; publish after commit; then let AI seats answer their requests.

        The engine gets the state freshly decoded from the database, i.e. a private deep copy,
        so even an engine that mutated its input could not corrupt anything on failure.
        """
        self._check_action(action)
        async with self._locks(match_id):
            m = await self._load(match_id)
            self._need_status(m, "active")
            seat = self._player(m, user_id)
            state = m.rec.state
            assert state is not None
            req = self._request(m, state, seat, request_id)
            try:
                new_state, events = await self._cpu(m.engine.apply, state, seat.seat, list(action))
            except EngineError as err:
                raise UserError.from_engine(err) from err
            except Exception as err:
                log.exception("engine %s failed on match %s action %r", m.rec.game, m.id, action)
                raise UserError("core.err.unexpected", match=m.id) from err
            await self._commit_play(m, state, new_state, seat=seat.seat, request_id=req.id, action=action,
                                    events=events, source="user", kind="acted")
        await self._after_change(match_id)
        return await self.get(match_id)

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
                    new_state, events = await self._cpu(engine_resign, state, seat.seat)
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
                                      None if d is None or bot else d.remind_at))
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

    async def _infos(self, recs: list[MatchRecord]) -> list[MatchInfo]:
        return [codec.match_info(rec, await repo.get_seats(self.store, rec.id)) for rec in recs]

    async def matches_for_user(self, user_id: int, *, active_only: bool = True) -> list[MatchInfo]:
        statuses = OPEN_STATUSES if active_only else ("lobby", "active", "finished", "abandoned")
        return await self._infos(await repo.matches_for_user(self.store, user_id, statuses))

    async def matches_in_channel(self, channel_id: int) -> list[MatchInfo]:
        """Lobbies and running matches whose channel or thread is ``channel_id``."""
        return await self._infos(await repo.matches_in_channel(self.store, channel_id, OPEN_STATUSES))

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
    async def _remind(self, match_id: int, request_id: str, seat: int) -> bool:
        async with self._locks(match_id):
            m = await self._load(match_id, with_state=False)
            async with self.store.transaction() as tx:
                if not await repo.mark_reminded(tx, match_id, request_id):
                    return False
                await self._emit(tx, Change("reminder", match_id, m.rec.version, seat, [], None, [request_id]))
        await self._deliver(match_id)
        return True

    async def run_due(self, limit: int = 100) -> int:
        """Send due reminders, apply timeouts (default/AI answer) and pending AI moves, deliver
        undelivered outbox entries. Returns how many things were done. Called by the scheduler
        loop and after start-up, so everything resumes after a restart."""
        done = 0
        async with self.store.transaction() as tx:
            await repo.prune_outbox(tx, self._clock() - OUTBOX_KEEP_SECONDS)
        for match_id in sorted({row.match_id for row in await repo.undelivered(self.store, limit=limit)}):
            done += await self._deliver(match_id)
        now = self._clock()
        for d in await repo.due_reminders(self.store, now, limit):
            done += await self._remind(d.match_id, d.request_id, d.seat)
        for d in await repo.due_deadlines(self.store, now, limit):
            try:
                if await self._auto_play(d.match_id, d.request_id):
                    done += 1
                    done += await self._drive_ai(d.match_id)
            except UserError as err:  # match vanished or game unknown: drop its deadlines
                log.warning("dropping deadline %s of match %s: %s", d.request_id, d.match_id, err.msg.key)
                async with self.store.transaction() as tx:
                    await repo.delete_deadlines(tx, d.match_id)
        return done
