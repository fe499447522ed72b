"""Several processes on one PostgreSQL store: cross-process match locks, leases on due work,
one time-out and one action however many services race for them.

Each "process" is a MatchService with a PgStore of its own (its own pool, lock connection and
lease owner id), which is what a second bot process has; the subprocess test kills one for real.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
import svc_toy_engine
from svc_helpers import BOB, HOST, Clock, Recorder, play_own_turn, toy, two_humans

from service.core import LEASE_SECONDS
from service.locks import KeyedLocks
from service.matches import MatchService
from store import migrate, repo
from store.base import open_store
from store.pg import PgStore, to_dollar

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
__all__ = ["toy"]
pytestmark = pytest.mark.usefixtures("toy")


def test_placeholders_are_rewritten_outside_quotes_only() -> None:
    assert to_dollar("SELECT a FROM t WHERE x = ? AND y IN (?, ?)") == \
        "SELECT a FROM t WHERE x = $1 AND y IN ($2, $3)"
    assert to_dollar("SELECT '?' AS q, \"w?\" FROM t WHERE z = ? -- why?\n AND v = ?") == \
        "SELECT '?' AS q, \"w?\" FROM t WHERE z = $1 -- why?\n AND v = $2"
    assert to_dollar("SELECT 'it''s ?' WHERE a = ?") == "SELECT 'it''s ?' WHERE a = $1"


def test_both_migration_sets_are_in_step() -> None:
    """Same numbers and names: a migration added for one dialect only would fail here."""
    sqlite = [(n, p.name) for n, p in migrate.migrations("sqlite")]
    postgres = [(n, p.name) for n, p in migrate.migrations("postgres")]
    assert sqlite == postgres and len(sqlite) >= 6


@pytest.fixture
async def pair(pg_url: str) -> AsyncIterator[tuple[PgStore, PgStore]]:
    a = await open_store(pg_url)
    b = await open_store(pg_url)
    assert isinstance(a, PgStore) and isinstance(b, PgStore) and a.owner != b.owner
    yield a, b
    await a.close()
    await b.close()


async def test_migrations_run_once_and_reopen(pg_url: str) -> None:
    first, second = await asyncio.gather(open_store(pg_url), open_store(pg_url))  # start together
    try:
        rows = await first.fetchall("SELECT version FROM schema_version ORDER BY version")
        assert [r["version"] for r in rows] == [n for n, _ in migrate.migrations("postgres")]
        assert await second.schema_version() == len(rows)
    finally:
        await first.close()
        await second.close()


async def test_64_bit_ids_times_and_packed_events_round_trip(pair: tuple[PgStore, PgStore]) -> None:
    a, _ = pair
    snowflake = 1_234_567_890_123_456_789
    async with a.transaction() as tx:
        mid = await repo.insert_match(tx, game="svc_toy", options={"target": "15"}, host_id=snowflake,
                                      locale="zh-TW", turn_seconds=60, guild_id=snowflake + 1,
                                      channel_id=snowflake + 2, now=1_700_000_000.123456)
        await repo.insert_action(tx, mid, 1, 0, "r1", ["add", "1"], [{"msg": {"key": "k"}, "to": None}],
                                 "user", 1_700_000_000.5)
        await repo.set_meta(tx, mid, "post", "x")
        await repo.set_meta(tx, mid, "post", "y")
    rec = await repo.get_match(a, mid)
    assert rec is not None and rec.host_id == snowflake and rec.channel_id == snowflake + 2
    assert rec.created_at == 1_700_000_000.123456
    (act,) = await repo.list_actions(a, mid)
    assert act.events == [{"msg": {"key": "k"}, "to": None}] and act.action == ["add", "1"]
    assert await repo.get_meta(a, mid, "post") == "y"


async def test_a_match_lock_excludes_the_other_process_and_dies_with_its_holder(
        pair: tuple[PgStore, PgStore]) -> None:
    a, b = pair
    lock_a, lock_b, order = _match_locks(a, b)
    async with lock_a(7):
        waiter = asyncio.create_task(_take(lock_b, 7, order))
        await asyncio.sleep(0.2)
        assert order == []  # b waits while a holds match 7 ...
        async with lock_b(8):  # ... but another match is free
            order.append("b8")
        order.append("a-done")
    await asyncio.wait_for(waiter, 5)
    assert order == ["b8", "a-done", "b7"]

    # A holder that dies (its connection closes, as with kill -9) releases the lock.
    async with lock_a(9):
        pid = a.lock_connection((1 << 48) | 9).get_server_pid()  # type: ignore[union-attr]
        waiter = asyncio.create_task(_take(lock_b, 9, order))
        await asyncio.sleep(0.1)
        assert order[-1] == "b7"
        async with b.transaction() as tx:
            await tx.execute("SELECT pg_terminate_backend(?)", (pid,))
        await asyncio.wait_for(waiter, 5)
        assert order[-1] == "b9"


async def test_a_lock_connection_that_fails_mid_call_is_replaced_not_reused(
        pair: tuple[PgStore, PgStore], monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection the server has just terminated can still look open and fail with asyncpg's
    InternalClientError (seen in CI on the release after ``pg_terminate_backend``): the release
    must not raise, and the next acquire must work on a fresh connection."""
    a, b = pair
    lock_a, lock_b, order = _match_locks(a, b)
    real = asyncpg.Connection.fetchval
    failing: set[int] = set()

    async def fetchval(self: asyncpg.Connection, *args: object, **kw: object) -> object:
        if id(self) in failing:
            failing.discard(id(self))
            raise asyncpg.InternalClientError("cannot switch to state 11; another operation (2) is in progress")
        return await real(self, *args, **kw)

    monkeypatch.setattr(asyncpg.Connection, "fetchval", fetchval)
    key = (1 << 48) | 11
    async with lock_a(11):
        held_on = a.lock_connection(key)
        assert held_on is not None
        failing.add(id(held_on))  # the unlock fails
    assert held_on.is_closed() and a.lock_connection(key) is None
    await asyncio.wait_for(_take(lock_b, 11, order), 5)  # the lock went with its connection
    assert order == ["b11"]

    # The acquire's first call fails on a broken connection; it asks again on a fresh one.
    async with lock_a(11):
        first = a.lock_connection(key)
        assert first is not None
    failing.add(id(first))
    async with lock_a(11):
        second = a.lock_connection(key)
        assert second is not None and second is not first and first.is_closed()
        waiter = asyncio.create_task(_take(lock_b, 11, order))
        await asyncio.sleep(0.2)
        assert order == ["b11"]  # really held: b waits
    await asyncio.wait_for(waiter, 5)
    assert order == ["b11", "b11"]


def _match_locks(a: PgStore, b: PgStore):  # type: ignore[no-untyped-def]
    """Each store's match locks (as each process's service builds them) and a record of takes."""
    order: list[str] = []
    return a.shared_locks(KeyedLocks(), 1), b.shared_locks(KeyedLocks(), 1), order


async def _take(locks, key: int, order: list[str]) -> None:  # type: ignore[no-untyped-def]
    async with locks(key):
        order.append(f"b{key}")


async def _due_match(store: PgStore, now: float) -> int:
    async with store.transaction() as tx:
        mid = await repo.insert_match(tx, game="svc_toy", options={}, host_id=1, locale="en", turn_seconds=60,
                                      guild_id=None, channel_id=None, now=now)
        await repo.insert_deadline(tx, mid, "r1", 0, now - 1, None)
        await repo.insert_outbox(tx, mid, 0, {"kind": "lobby"}, now)
    return mid


async def test_leases_split_due_work_and_expire(pair: tuple[PgStore, PgStore]) -> None:
    a, b = pair
    now = 1000.0
    m1, m2 = await _due_match(a, now), await _due_match(a, now)
    async with a.transaction() as tx:
        assert await repo.claim_due_match_ids(tx, a.owner, now, now + 30, 10) == [m1, m2]
        assert await repo.claim_undelivered_match_ids(tx, a.owner, now, now + 30, 10) == [m1, m2]
    async with b.transaction() as tx:  # a holds them: b gets nothing ...
        assert await repo.claim_due_match_ids(tx, b.owner, now + 1, now + 31, 10) == []
        assert await repo.claim_undelivered_match_ids(tx, b.owner, now + 1, now + 31, 10) == []
    async with a.transaction() as tx:  # ... a renews its own
        assert await repo.claim_due_match_ids(tx, a.owner, now + 2, now + 32, 10) == [m1, m2]
    async with b.transaction() as tx:  # a stops renewing (crashed): after the lease b takes over
        assert await repo.claim_due_match_ids(tx, b.owner, now + 33, now + 63, 10) == [m1, m2]
        assert await repo.claim_undelivered_match_ids(tx, b.owner, now + 33, now + 63, 10) == [m1, m2]


async def test_a_claim_skips_rows_another_claim_is_locking(pair: tuple[PgStore, PgStore]) -> None:
    """FOR UPDATE SKIP LOCKED: while a's claim is uncommitted, b passes over its rows at once
    instead of waiting for a's transaction (and then finding them leased)."""
    a, b = pair
    now = 1000.0
    m1 = await _due_match(a, now)
    async with a.transaction() as tx:
        assert await repo.claim_due_match_ids(tx, a.owner, now, now + 30, 1) == [m1]
        m2 = await _due_match(b, now)
        async with b.transaction() as tx_b:
            got = await asyncio.wait_for(repo.claim_due_match_ids(tx_b, b.owner, now, now + 30, 10), 2)
        assert got == [m2]


async def _service_pair(url: str, clock: Clock) -> tuple[MatchService, MatchService, Recorder, Recorder]:
    ra, rb = Recorder(), Recorder()
    sa = MatchService(await open_store(url), publisher=ra, clock=clock, offload=False)  # type: ignore[arg-type]
    sb = MatchService(await open_store(url), publisher=rb, clock=clock, offload=False)  # type: ignore[arg-type]
    return sa, sb, ra, rb


async def test_two_processes_racing_for_one_request_apply_it_once(pg_url: str) -> None:
    clock = Clock()
    sa, sb, ra, rb = await _service_pair(pg_url, clock)
    try:
        mid = (await two_humans(sa)).id
        for _ in range(6):
            (rid,) = await sa.pending_for_user(mid, HOST)
            verb = (await sa.step(mid, HOST, rid, [])).options[0].value
            action = [verb, "1"]
            results = await asyncio.gather(*(s.act(mid, HOST, rid, action) for s in (sa, sb, sa, sb)),
                                           return_exceptions=True)
            # Applied once (the log below); the clicks that found it applied, in either process,
            # get its answer from the log.
            assert all(r == results[0] for r in results) and not isinstance(results[0], BaseException), results
            await play_own_turn(sb, mid, BOB)
        log = await repo.list_actions(sa.store, mid)
        first = log[0].version
        assert [a.version for a in log] == list(range(first, first + len(log)))  # no gap, nothing twice
        assert len(log) == 12
        published = sorted(c.version for c in ra.changes + rb.changes if c.match_id == mid and c.kind == "acted")
        assert published == sorted(set(published)) and len(published) == 12  # each change posted once
    finally:
        await sa.store.close()
        await sb.store.close()


async def test_two_schedulers_apply_a_time_out_once(pg_url: str) -> None:
    clock = Clock()
    sa, sb, ra, rb = await _service_pair(pg_url, clock)
    try:
        mids = [(await _lobby_started(sa, i)).id for i in range(6)]
        clock.advance(3601)  # every match's turn times out
        # Three matches per round each: the second service's claim skips the first's leases.
        done = await asyncio.gather(sa.run_due(limit=3), sb.run_due(limit=3), sa.run_due(limit=3),
                                    sb.run_due(limit=3))
        await asyncio.gather(sa.drain(), sb.drain())
        assert sum(done) > 0
        # Claims that race can all pick the same earliest matches (one wins, the others skip
        # its locked rows and get nothing this round); the rest is due work for the next
        # rounds, which the service that has done less serves first.
        for _ in range(6):
            if not await repo.due_match_ids(sa.store, clock(), 10):
                break
            by_load = sorted(((sa, ra), (sb, rb)), key=lambda sr: sum(c.kind == "timeout" for c in sr[1].changes))
            for s, _ in by_load:
                await s.run_due(limit=3)
                await s.drain()
        assert not await repo.due_match_ids(sa.store, clock(), 10)
        for mid in mids:
            log = await repo.list_actions(sa.store, mid)
            assert [a.source for a in log].count("timeout") == 1, log
            kinds = [c.kind for c in ra.changes + rb.changes if c.match_id == mid]
            assert kinds.count("timeout") == 1
        assert {c.match_id for c in ra.changes if c.kind == "timeout"} and \
            {c.match_id for c in rb.changes if c.kind == "timeout"}  # the leases split the work
    finally:
        await sa.store.close()
        await sb.store.close()


async def _lobby_started(service: MatchService, i: int):  # type: ignore[no-untyped-def]
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST + 1000 * i, host_name="H", locale="en",
                                      options={"target": "30"}, turn_seconds=3600)
    await service.join(info.id, BOB + 1000 * i, "B")
    return await service.start(info.id, HOST + 1000 * i)


async def test_a_killed_process_leaves_its_work_to_another(pg_url: str) -> None:
    """kill -9 a process stuck publishing its time-outs: its match and delivery locks go with its
    connections, so another process delivers what it committed (each change once, in order) and,
    after its leases run out, does what it had claimed — every time-out applied exactly once."""
    clock = Clock()
    ra = Recorder()
    sa = MatchService(await open_store(pg_url), publisher=ra, clock=clock, offload=False)  # type: ignore[arg-type]
    try:
        mids = [(await _lobby_started(sa, i)).id for i in range(4)]
        ra.changes.clear()
        clock.advance(3601)
        line = _worker_killed_when(pg_url, clock.now, "", "publish")  # a fresh owner id
        stuck = int(line.split()[1])
        await sa.run_due()  # its delivery lock died with it: what it committed is posted now
        assert [c.kind for c in ra.changes if c.match_id == stuck] == ["timeout"]
        clock.advance(LEASE_SECONDS + 1)  # and whatever it had leased but not done, after the lease
        for _ in range(3):
            await sa.run_due()
        await sa.drain()
        for mid in mids:
            log = await repo.list_actions(sa.store, mid)
            assert [a.source for a in log].count("timeout") == 1, (mid, log)
            versions = [c.version for c in ra.changes if c.match_id == mid]
            assert versions == sorted(set(versions)), (mid, versions)  # in order, none twice
            assert [c.kind for c in ra.changes if c.match_id == mid].count("timeout") == 1
        assert await repo.undelivered(sa.store) == []
    finally:
        await sa.store.close()


def _worker_killed_when(pg_url: str, now: float, owner: str, mode: str) -> str:
    """Run ``svc_pg_worker.py`` until it reports being stuck (``mode``), then kill -9 it; its
    report line. ``owner`` "" gives the worker a fresh lease owner id."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)])}
    proc = subprocess.Popen([sys.executable, str(HERE / "svc_pg_worker.py"), pg_url, str(now), owner, mode],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    watchdog = threading.Timer(60, proc.kill)  # a hung worker must not hang the suite
    watchdog.start()
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("publishing" if mode == "publish" else mode), (line, proc.stderr.read() if proc.stderr else "")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        watchdog.cancel()
    return line


async def test_a_process_restarted_after_kill_9_resumes_its_leases_at_once(pg_url: str) -> None:
    """The process slot "shards 1 of 3" claims every due time-out and is killed with SIGKILL
    inside the first one's engine call. A different live process respects its leases; the slot's
    restarted process (same lease owner, as ``Settings.lease_owner`` gives a restarted bot) applies
    them at once, at the same clock, each exactly once, without waiting out ``LEASE_SECONDS``."""
    clock = Clock()
    ra = Recorder()
    sa = MatchService(await open_store(pg_url), publisher=ra, clock=clock, offload=False)  # type: ignore[arg-type]
    try:
        mids = [(await _lobby_started(sa, i)).id for i in range(4)]
        clock.advance(3601)
        _worker_killed_when(pg_url, clock.now, "shards 1 of 3", "engine")
        await sa.run_due()
        await sa.drain()
        for mid in mids:  # nothing applied by the dead process, nothing taken over by a live one
            assert [a.source for a in await repo.list_actions(sa.store, mid)].count("timeout") == 0
        rb = Recorder()
        sb = MatchService(await open_store(pg_url, owner="shards 1 of 3"), publisher=rb, clock=clock,  # type: ignore[arg-type]
                          offload=False)
        try:
            clock.advance(1)  # the dead process's leases run 29 s more
            await sb.run_due()
            await sb.drain()
            for mid in mids:
                assert [a.source for a in await repo.list_actions(sb.store, mid)].count("timeout") == 1, mid
            assert sorted(c.match_id for c in rb.changes if c.kind == "timeout") == mids
            assert await repo.undelivered(sb.store) == []
        finally:
            await sb.store.close()
    finally:
        await sa.store.close()


async def test_a_cancelled_wait_for_a_match_lock_leaves_nothing_held(pair: tuple[PgStore, PgStore]) -> None:
    a, b = pair
    lock_a, lock_b, order = _match_locks(a, b)
    async with lock_b(5):
        waiting = asyncio.create_task(_take(lock_a, 5, order))
        await asyncio.sleep(0.1)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
    assert order == []
    await asyncio.wait_for(_take(lock_b, 5, order), 2)  # free again, for every process
    async with a.transaction() as tx:
        held = await tx.fetchone("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory'")
    assert held is not None and held["n"] == 0
