"""Crash safety: a failure at any point of act() leaves the match fully before or fully after the
move; committed changes that were not published are delivered after a restart; a process killed
with SIGKILL in the middle of play leaves a consistent database."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import svc_toy_engine
from svc_helpers import BOB, HOST, Clock, Recorder, db_target, play_own_turn, toy, two_humans

import store.db as store_db
from service.errors import UserError
from service.matches import MatchService
from store import repo
from store.db import Store
from store.pg import PgStore, PgTx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
__all__ = ["db_target", "toy"]
pytestmark = pytest.mark.usefixtures("toy")


async def snapshot(store: Store, match_id: int) -> dict:
    """Everything a move may change, read from committed data."""
    q = {
        "match": "SELECT state, version, status, result FROM matches WHERE id = ?",
        "log": "SELECT version, action, source FROM actions WHERE match_id = ? ORDER BY version",
        "deadlines": "SELECT request_id, seat, due_at FROM deadlines WHERE match_id = ? ORDER BY request_id",
        "outbox": "SELECT version, payload FROM outbox WHERE match_id = ? ORDER BY id",
    }
    return {k: await store.fetchall(sql, (match_id,)) for k, sql in q.items()}


async def check_consistent(store: Store, match_id: int) -> None:
    """State == replay of the log; every logged move has its outbox row; version == last entry."""
    row = await store.fetchone("SELECT seed, options, state, version FROM matches WHERE id = ?", (match_id,))
    seats = len(await repo.get_seats(store, match_id))
    log = await repo.list_actions(store, match_id)
    expected = svc_toy_engine.replay(row["seed"], seats, json.loads(row["options"]),
                                     [(a.seat, a.action) for a in log])
    assert json.loads(row["state"]) == expected
    if log:
        assert log[-1].version == row["version"]
    outbox_versions = {r["version"] for r in await store.fetchall(
        "SELECT version FROM outbox WHERE match_id = ?", (match_id,))}
    assert {a.version for a in log} <= outbox_versions


class Injected(Exception):
    pass


async def test_failure_at_every_statement_of_act(db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    svc_toy_engine.install()
    clock = Clock()
    recorder = Recorder()
    store = await Store.open(db_target)
    service = MatchService(store, publisher=recorder, clock=clock, offload=False)
    mid = (await two_humans(service)).id

    budget = {"left": -1}  # statements allowed before the injected failure; -1 = never fail
    tx_class = PgTx if isinstance(store, PgStore) else store_db.Tx
    originals = {name: getattr(tx_class, name) for name in ("execute", "executemany", "execute_one", "insert_id",
                                                            "rowcount", "fetchone", "fetchall")}

    def failing(name: str) -> Callable[..., Awaitable[Any]]:
        async def call(self: store_db.Tx, sql: str, params: Any = (), *rest: Any) -> Any:
            if budget["left"] == 0:
                raise Injected(f"before {sql[:30]}")
            if budget["left"] > 0:
                budget["left"] -= 1
            return await originals[name](self, sql, params, *rest)
        return call

    for name in originals:
        monkeypatch.setattr(tx_class, name, failing(name))
    real_commit = type(store)._commit

    async def failing_commit(self: Store, *args: Any) -> None:
        if budget["left"] == 0:
            raise Injected("at commit")
        await real_commit(self, *args)

    monkeypatch.setattr(type(store), "_commit", failing_commit)

    outcomes = []
    for point in range(30):
        user = HOST if await service.pending_for_user(mid, HOST) else BOB
        (rid,) = await service.pending_for_user(mid, user)
        before = await snapshot(store, mid)
        budget["left"] = point
        try:
            await service.act(mid, user, rid, ["add", "1"])
            failed = False
        except Injected:
            failed = True
        budget["left"] = -1
        after = await snapshot(store, mid)
        if failed:
            assert after == before, f"partial write when failing at point {point}"
            outcomes.append("before")
        else:
            assert after["match"][0]["version"] == before["match"][0]["version"] + 1
            assert len(after["log"]) == len(before["log"]) + 1
            outcomes.append("after")
        await service.run_due()  # anything committed but unpublished goes out now
        assert await repo.undelivered(store, mid) == []
        await check_consistent(store, mid)
        if outcomes[-3:] == ["after"] * 3:
            break
    assert "before" in outcomes and outcomes[-1] == "after"
    assert outcomes.index("after") >= 4  # the move's transaction has several statements, each tried
    versions = [c.version for c in recorder.changes if c.kind == "acted"]
    assert sorted(set(versions)) == [r["version"] for r in (await snapshot(store, mid))["log"]]
    await store.close()


async def test_crash_after_commit_before_publish(db_target: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    svc_toy_engine.install()
    path = db_target
    clock = Clock()
    store = await Store.open(path)
    first = Recorder()
    service = MatchService(store, publisher=first, clock=clock, offload=False)
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="H", locale="en")
    await service.add_ai(info.id, HOST)
    mid = (await service.start(info.id, HOST)).id
    (rid,) = await service.pending_for_user(mid, HOST)

    async def die(match_id: int) -> None:  # the process "dies" right after the commit
        await store.close()
        raise Injected("killed")

    monkeypatch.setattr(service, "_after_change", die)
    with pytest.raises(Injected):
        await service.act(mid, HOST, rid, ["add", "1"])
    published_before = len(first.changes)

    store2 = await Store.open(path)
    second = Recorder()
    service2 = MatchService(store2, publisher=second, clock=clock, offload=False)
    try:
        assert len(await repo.undelivered(store2, mid)) == 1
        assert await service2.run_due() >= 2  # delivers the move, then the AI answers it
        assert second.changes[0].kind == "acted" and second.changes[0].seat == 0
        assert any(c.seat == 1 for c in second.changes[1:])
        assert len(first.changes) == published_before
        assert await service2.pending_for_user(mid, HOST)  # the human's turn again
        await play_own_turn(service2, mid, HOST)
        await check_consistent(store2, mid)
    finally:
        await store2.close()


def test_sigkill_during_play_leaves_a_consistent_database(db_target: Path | str) -> None:
    path = db_target
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    proc = subprocess.Popen([sys.executable, str(HERE / "svc_crash_worker.py"), str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    moves = 0
    watchdog = threading.Timer(120, proc.kill)  # a hung worker must not hang the suite
    watchdog.start()
    try:
        assert proc.stdout is not None
        for _line in proc.stdout:
            moves += 1
            if moves >= 60:
                break
        else:
            pytest.fail(f"worker ended early: {proc.stderr.read() if proc.stderr else ''}")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    async def inspect() -> None:
        svc_toy_engine.install()
        store = await Store.open(path)
        try:
            if store.dialect == "sqlite":  # PostgreSQL's own crash safety is not ours to check
                assert (await store.fetchone("PRAGMA integrity_check"))["integrity_check"] == "ok"
            ids = [r["id"] for r in await store.fetchall("SELECT id FROM matches WHERE status != 'lobby'")]
            assert ids
            total = 0
            for mid in ids:
                await check_consistent(store, mid)
                total += len(await repo.list_actions(store, mid))
            assert total >= moves
            service = MatchService(store, offload=False)
            await service.run_due()
            active = await repo.active_match_ids(store)
            for mid in active:  # play goes on where the killed process stopped
                user = HOST if await service.pending_for_user(mid, HOST) else BOB
                await play_own_turn(service, mid, user)
                await check_consistent(store, mid)
        finally:
            await store.close()

    asyncio.run(inspect())


async def test_two_processes_on_one_file_cannot_both_answer(tmp_path: Path) -> None:
    """Locks are per process; the version guard in the UPDATE protects across processes.

    SQLite only: it is about two processes on one SQLite FILE, whose match locks do not see each
    other. On PostgreSQL the match lock holds across processes (this overtaking would wait for
    it); the same race there is ``test_svc_shared_store.test_two_processes_racing_for_one_request_apply_it_once``."""
    path = tmp_path / "shared.sqlite3"
    store_a, store_b = await Store.open(path), await Store.open(path)
    try:
        service_a = MatchService(store_a, offload=False)
        service_b = MatchService(store_b, offload=False)
        mid = (await two_humans(service_a)).id
        (rid,) = await service_b.pending_for_user(mid, HOST)
        real_cpu = service_b._cpu_now  # a person's move

        async def overtaken(fn: Callable[..., Any], *args: Any) -> Any:
            await service_a.act(mid, HOST, rid, ["add", "1"])  # the other process commits first
            return await real_cpu(fn, *args)

        service_b._cpu_now = overtaken  # type: ignore[method-assign]
        with pytest.raises(UserError) as e:
            await service_b.act(mid, HOST, rid, ["add", "2"])
        assert e.value.msg.key == "core.err.stale"
        log = await repo.list_actions(store_a, mid)
        assert [a.action for a in log] == [["add", "1"]]
        await check_consistent(store_b, mid)
    finally:
        await store_a.close()
        await store_b.close()
