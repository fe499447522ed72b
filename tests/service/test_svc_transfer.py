"""``tasks.py migrate-db``: a played SQLite database copied into PostgreSQL reads the same and
plays on there; every column of every table is copied (found from the schema, so is the test's
data); a non-empty target, or schemas that differ, are refused untouched."""

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
from store import compact, repo
from store.base import open_store
from store.db import Store
from store.pg import PgStore
from store.transfer import LEASE_COLUMNS, SKIPPED_TABLES, TransferError, copy_sqlite_to_postgres

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


# ----- every column of every table, whatever later migrations add ---------------------------------
#: Columns whose values a CHECK constraint limits (anything else gets a value made from its type).
_CHECKED = {("matches", "status"): ("finished", "abandoned"), ("actions", "source"): ("timeout", "system"),
            ("user_prefs", "notify"): ("dm", "none")}
_ROWS = 2


def _value(table: str, column: str, pg_type: str, k: int) -> object:
    """Row ``k``'s value of a column, never NULL and never the column's default: made from the
    target's type, so the copy is checked with values only that type holds (64-bit ids)."""
    if (table, column) in _CHECKED:
        return _CHECKED[(table, column)][k]
    if (table, column) == ("actions", "events"):  # the old JSON text form, then the packed one
        events = [{"msg": {"key": f"ev{k}", "params": {"n": k}}, "to": [k]}]
        return json.dumps(events) if k == 0 else compact.pack(events)
    if pg_type == "bigint":
        return 2**62 + 1_000_003 * (k + 1) + len(column)
    if pg_type in ("integer", "smallint"):
        return 7_000 + 10 * k + len(column)
    if pg_type == "double precision":
        return 1_700_000_000.25 + k + len(column) / 8
    if pg_type == "text":
        return f'{table}.{column}.{k} "引号" ✓'
    raise AssertionError(f"no test value for {table}.{column} ({pg_type}): teach _value this type")


async def _fill_every_column(src: Store, types: dict[str, dict[str, str]]) -> list[str]:
    """``_ROWS`` rows in every table of ``src``, every column set; foreign keys point at the
    parent's row of the same number. Returns the tables in the order filled."""
    tables = [r["name"] for r in await src.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
    filled: list[str] = []
    values: dict[str, list[dict[str, object]]] = {}
    while len(filled) < len(tables):
        for table in tables:
            if table in filled:
                continue
            fks = await src.fetchall(f'PRAGMA foreign_key_list("{table}")')
            if any(fk["table"] not in filled for fk in fks):
                continue
            columns = [r["name"] for r in await src.fetchall(f'PRAGMA table_info("{table}")')]
            rows = []
            for k in range(_ROWS):
                row = {c: _value(table, c, types[table][c], k) for c in columns}
                for fk in fks:
                    row[fk["from"]] = values[fk["table"]][k][fk["to"]]
                rows.append(row)
            values[table] = rows
            cols = ", ".join(f'"{c}"' for c in columns)
            async with src.transaction() as tx:
                await tx.executemany(f'INSERT INTO "{table}" ({cols}) VALUES ({", ".join("?" * len(columns))})',
                                     [tuple(r[c] for c in columns) for r in rows])
            filled.append(table)
    return filled


def _comparable(table: str, row: dict) -> dict:  # type: ignore[type-arg]
    out = {c: v for c, v in row.items() if c not in LEASE_COLUMNS}
    if table == "actions":
        out["events"] = compact.unpack(out["events"] if isinstance(out["events"], str) else bytes(out["events"]))
    return out


def _key(row: dict) -> str:  # type: ignore[type-arg]
    return repr(sorted(row.items(), key=lambda kv: kv[0]))


async def test_every_column_of_every_table_is_copied(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "full.sqlite3"
    dst = await PgStore.open(pg_url)  # the target's schema, to choose values its types hold
    src = await Store.open(path)
    try:
        types: dict[str, dict[str, str]] = {}
        for r in await dst.fetchall("SELECT table_name, column_name, data_type FROM information_schema.columns"
                                    " WHERE table_schema = current_schema()"):
            types.setdefault(r["table_name"], {})[r["column_name"]] = r["data_type"]
        tables = await _fill_every_column(src, types)
        assert {"matches", "deadlines", "actions", "channel_pace"} <= set(tables)
        for table in tables:  # the fill itself left nothing NULL or at its default
            info = {r["name"]: r["dflt_value"] for r in await src.fetchall(f'PRAGMA table_info("{table}")')}
            for row in await src.fetchall(f'SELECT * FROM "{table}"'):
                for column, value in row.items():
                    assert value is not None and str(value) != str(info[column]).strip("'"), (table, column)
        before = {t: await src.fetchall(f'SELECT * FROM "{t}"') for t in tables}
        parents = {t: {fk["table"] for fk in await src.fetchall(f'PRAGMA foreign_key_list("{t}")')} for t in tables}
    finally:
        await src.close()
        await dst.close()

    report = await copy_sqlite_to_postgres(path, pg_url)

    dst = await PgStore.open(pg_url)
    try:
        copied = [t for t in tables if t not in SKIPPED_TABLES]
        assert sorted(report.rows) == sorted(copied) and set(report.rows.values()) == {_ROWS}
        order = list(report.rows)
        for child, parent in [(c, p) for c in copied for p in parents[c]]:
            assert order.index(parent) < order.index(child), (parent, child)  # foreign keys hold
        for table in copied:
            after = await dst.fetchall(f'SELECT * FROM "{table}"')
            assert sorted(map(_key, (_comparable(table, r) for r in after))) == \
                sorted(map(_key, (_comparable(table, r) for r in before[table]))), table
            for row in after:  # leases stay the copying processes' own: none is carried over
                assert all(row[c] is None for c in LEASE_COLUMNS & set(row)), table
        for table in SKIPPED_TABLES:
            if table != "schema_version":
                assert (await dst.fetchone(f'SELECT COUNT(*) AS n FROM "{table}"'))["n"] == 0
        new_id = await dst.fetchone("SELECT nextval(pg_get_serial_sequence('matches', 'id')) AS n")
        assert new_id["n"] > max(r["id"] for r in before["matches"])
    finally:
        await dst.close()


@pytest.mark.parametrize("side", ["sqlite", "postgres"])
async def test_a_column_on_one_side_only_is_refused(tmp_path: Path, pg_url: str, side: str) -> None:
    path = tmp_path / "odd.sqlite3"
    await _played_sqlite(path, Clock())
    target = await Store.open(path) if side == "sqlite" else await PgStore.open(pg_url)
    try:
        async with target.transaction() as tx:
            await tx.execute("ALTER TABLE deadlines ADD COLUMN extra INTEGER")
            await tx.execute("CREATE TABLE odd (x INTEGER)")
    finally:
        await target.close()
    where = "the SQLite database" if side == "sqlite" else "PostgreSQL"
    with pytest.raises(TransferError) as err:
        await copy_sqlite_to_postgres(path, pg_url)
    assert f"deadlines: columns only in {where}: extra" in str(err.value)
    assert f"tables only in {where}: odd" in str(err.value)
    dst = await PgStore.open(pg_url)
    try:
        assert (await dst.fetchone("SELECT COUNT(*) AS n FROM matches"))["n"] == 0  # nothing written
    finally:
        await dst.close()
