"""``tasks.py migrate-db``: a played SQLite database copied into PostgreSQL reads the same and
plays on there; a non-empty target is refused untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import svc_toy_engine
from svc_helpers import BOB, HOST, Clock, Recorder, play_own_turn, toy, two_humans

from service.matches import MatchService
from store import repo
from store.base import open_store
from store.db import Store
from store.transfer import TransferError, copy_sqlite_to_postgres

__all__ = ["toy"]
pytestmark = pytest.mark.usefixtures("toy")
ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent


async def _played_sqlite(path: Path, clock: Clock) -> tuple[int, int]:
    store = await Store.open(path)
    service = MatchService(store, publisher=Recorder(), clock=clock, offload=False)
    try:
        mid = (await two_humans(service)).id
        for _ in range(3):
            await play_own_turn(service, mid, HOST)
            await play_own_turn(service, mid, BOB)
        lobby = await service.create_lobby(svc_toy_engine.SLUG, host_id=1_234_567_890_123_456_789, host_name="Z",
                                           locale="zh-CN", channel_id=987_654_321_098_765_432)
        await service.set_meta(mid, "post", "1234")
        await service.set_notify(BOB, "dm")
        async with store.transaction() as tx:  # a row from before the events were packed (JSON text)
            await tx.execute("UPDATE actions SET events = ? WHERE match_id = ? AND version = "
                             "(SELECT MIN(version) FROM actions WHERE match_id = ?)",
                             (json.dumps([{"msg": {"key": "old"}, "to": None}]), mid, mid))
        return mid, lobby.id
    finally:
        await store.close()


async def _snapshot(store, mid: int) -> dict:  # type: ignore[no-untyped-def]
    return {
        "match": await repo.get_match(store, mid),
        "seats": await repo.get_seats(store, mid),
        "log": await repo.list_actions(store, mid),
        "deadlines": await repo.get_deadlines(store, mid),
        "outbox": [(o.id, o.version, o.payload) for o in await repo.undelivered(store, mid)],
        "meta": await repo.get_meta(store, mid, "post"),
        "prefs": await repo.get_prefs(store, BOB),
    }


async def test_a_played_database_moves_and_plays_on(tmp_path: Path, pg_url: str) -> None:
    clock = Clock()
    path = tmp_path / "old.sqlite3"
    mid, lobby_id = await _played_sqlite(path, clock)
    src = await Store.open(path)
    before = {m: await _snapshot(src, m) for m in (mid, lobby_id)}
    await src.close()

    report = await copy_sqlite_to_postgres(path, pg_url)
    assert report.rows["matches"] == 2 and report.rows["actions"] >= 6

    dst = await open_store(pg_url)
    try:
        after = {m: await _snapshot(dst, m) for m in (mid, lobby_id)}
        assert after == before
        assert after[mid]["log"][0].events == [{"msg": {"key": "old"}, "to": None}]
        service = MatchService(dst, publisher=Recorder(), clock=clock, offload=False)  # type: ignore[arg-type]
        await play_own_turn(service, mid, HOST)  # the copied match plays on
        fresh = await two_humans(service)  # and new ids continue after the copied ones
        assert fresh.id > lobby_id
        with pytest.raises(TransferError, match="already holds matches"):
            await copy_sqlite_to_postgres(path, pg_url)
        assert len(await repo.list_actions(dst, mid)) == len(before[mid]["log"]) + 1  # untouched
    finally:
        await dst.close()


def test_the_command(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "cmd.sqlite3"
    import asyncio

    asyncio.run(_played_sqlite(path, Clock()))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "tools.migrate_db", "--from", str(path), "--to", pg_url],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "matches 2" in done.stdout
    again = subprocess.run([sys.executable, "-m", "tools.migrate_db", "--from", str(path), "--to", pg_url],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert again.returncode == 1 and "already holds matches" in again.stderr
    bad = subprocess.run([sys.executable, "-m", "tools.migrate_db", "--from", str(path), "--to", str(path)],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert bad.returncode == 2 and "postgresql://" in bad.stderr
