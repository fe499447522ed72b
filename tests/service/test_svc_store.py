"""The store: opening, pragmas, migrations (also on an old database), transactions.

Opening, pragmas and the migrations of old files are about the SQLite FILE (the PostgreSQL
migrations are tested in ``test_svc_shared_store``, moving a file into PostgreSQL in
``test_svc_transfer``) and stay SQLite-only; transactions, foreign keys and committed-only reads
run on both backends (``db_target``)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest
from svc_helpers import db_target

from store import repo
from store.db import Store
from store.migrate import migrations

__all__ = ["db_target"]


async def test_open_creates_folders_and_sets_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "x.sqlite3"
    store = await Store.open(path)
    try:
        assert path.exists()
        assert (await store.fetchone("PRAGMA journal_mode"))["journal_mode"] == "wal"
        assert (await store.fetchone("PRAGMA foreign_keys"))["foreign_keys"] == 1
        assert (await store.fetchone("PRAGMA busy_timeout"))["timeout"] >= 1000
        assert await store.schema_version() == len(migrations()) >= 2
    finally:
        await store.close()


async def test_reopen_does_not_reapply(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    await (await Store.open(path)).close()
    store = await Store.open(path)
    try:
        rows = await store.fetchall("SELECT version FROM schema_version ORDER BY version")
        assert [r["version"] for r in rows] == list(range(1, len(migrations()) + 1))
    finally:
        await store.close()


async def test_old_database_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await Store.open(path, target_version=1)
    assert await old.schema_version() == 1
    assert await old.fetchone("SELECT name FROM sqlite_master WHERE name = 'outbox'") is None
    async with old.transaction() as tx:
        mid = await repo.insert_match(tx, game="svc_toy", options={"target": "10"}, host_id=5, locale="zh-TW",
                                      turn_seconds=600, guild_id=1, channel_id=2, now=123.0)
        await repo.replace_seats(tx, mid, [repo.SeatRecord(0, 5, None, "主持人")])
        await repo.insert_action(tx, mid, 1, 0, "r0", ["add", "1"], [], "user", 124.0)
    await old.close()

    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(migrations())
        rec = await repo.get_match(store, mid)
        assert rec is not None and rec.options == {"target": "10"} and rec.locale == "zh-TW"
        assert [s.name for s in await repo.get_seats(store, mid)] == ["主持人"]
        assert [a.action for a in await repo.list_actions(store, mid)] == [["add", "1"]]
        async with store.transaction() as tx:  # the new tables work on the migrated file
            await repo.insert_outbox(tx, mid, 1, {"kind": "lobby"}, 125.0)
            await repo.set_notify(tx, 5, "dm")
        assert len(await repo.undelivered(store, mid)) == 1
        assert (await repo.get_prefs(store, 5))["notify"] == "dm"
    finally:
        await store.close()


# A shipped migration has run on users' databases: editing it would leave those behind the
# schema the code expects. A change to the schema is a new numbered file; this list only grows.
SHIPPED_MIGRATIONS = {
    1: "42d300fb32856ce7aa8efabfeea4a4aca1206f2b79d395dbf8c423527efb2a7a",
    2: "4bb79a8106d4817ef3368d48cfa1c4ce2fd5f62a0427650192bf9bc4c7e441de",
    3: "5a279d0898219f94899b38d00122be378b05832f1d1e37fbf2babecf1b8f5927",
    4: "b135b686bcc47f23dc5286f1957f2753b65d31cf5aea9484281df22207a74e9b",
    5: "f43c8f47022559dd62b467543c44b8c244d4c1a97fd06b3ce7fafca90b388991",
    6: "8e2ac72dbbfb9dcfc7856c63b54376be1d00a8ddb93cd2eeb0de2583275a16fb",
    7: "e85079583dd3268c97c2392de47d52556234e534bc2ac363bd3cc56fa94299e7",
    8: "c2539b32a14376a4535ad1ad6ed707392cb8733c2846c863990c6a0a1cfca461",
    9: "b688025296dce3b864f6c0986940f37ee8601088364b79a45605b58ff6c5f769",
    10: "3a51598d8d7cafb7145d5fcf15dda8c9b149d63279a986ada476e0c341dc1957",
}


def test_shipped_migrations_are_never_edited() -> None:
    found = {n: hashlib.sha256(path.read_bytes()).hexdigest() for n, path in migrations()}
    assert {n: found[n] for n in SHIPPED_MIGRATIONS} == SHIPPED_MIGRATIONS


@pytest.mark.parametrize("start", range(1, len(SHIPPED_MIGRATIONS)))
async def test_every_older_version_upgrades_with_its_matches_playable(tmp_path: Path, start: int) -> None:
    path = tmp_path / f"v{start}.sqlite3"
    old = await Store.open(path, target_version=start)
    async with old.transaction() as tx:
        mid = await repo.insert_match(tx, game="svc_toy", options={}, host_id=7, locale="en",
                                      turn_seconds=60, guild_id=1, channel_id=2, now=1.0)
        await repo.replace_seats(tx, mid, [repo.SeatRecord(0, 7, None, "Ann")])
    await old.close()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(migrations())
        assert (await repo.get_match(store, mid)) is not None
        async with store.transaction() as tx:  # every newer table takes rows for the old match
            await repo.insert_outbox(tx, mid, 1, {"kind": "lobby"}, 2.0)
            await repo.set_meta(tx, mid, "status_post", "42")
        assert await repo.get_meta(store, mid, "status_post") == "42"
    finally:
        await store.close()


async def test_transaction_rolls_back_on_error(db_target: Path | str) -> None:
    store = await Store.open(db_target)
    try:
        with pytest.raises(RuntimeError):
            async with store.transaction() as tx:
                await repo.insert_match(tx, game="g", options={}, host_id=1, locale="en", turn_seconds=60,
                                        guild_id=None, channel_id=None, now=1.0)
                raise RuntimeError("boom")
        assert (await store.fetchone("SELECT COUNT(*) AS n FROM matches"))["n"] == 0
    finally:
        await store.close()


async def test_foreign_keys_cascade_and_reject_orphans(db_target: Path | str) -> None:
    store = await Store.open(db_target)
    try:
        with pytest.raises((sqlite3.IntegrityError, asyncpg.ForeignKeyViolationError)):
            async with store.transaction() as tx:
                await repo.replace_seats(tx, 999, [repo.SeatRecord(0, 1, None, "x")])
        async with store.transaction() as tx:
            mid = await repo.insert_match(tx, game="g", options={}, host_id=1, locale="en", turn_seconds=60,
                                          guild_id=None, channel_id=None, now=1.0)
            await repo.replace_seats(tx, mid, [repo.SeatRecord(0, 1, None, "x")])
            await tx.execute("DELETE FROM matches WHERE id = ?", (mid,))
        assert (await store.fetchone("SELECT COUNT(*) AS n FROM seats"))["n"] == 0
    finally:
        await store.close()


async def test_reader_sees_only_committed_data(db_target: Path | str) -> None:
    store = await Store.open(db_target)
    try:
        async with store.transaction() as tx:
            await repo.insert_match(tx, game="g", options={"a": "1"}, host_id=1, locale="en", turn_seconds=60,
                                    guild_id=None, channel_id=None, now=1.0)
            assert (await store.fetchone("SELECT COUNT(*) AS n FROM matches"))["n"] == 0
        row = await store.fetchone("SELECT options FROM matches")
        assert json.loads(row["options"]) == {"a": "1"}
    finally:
        await store.close()


async def test_failed_migration_leaves_previous_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    import store.migrate as migrate_mod

    folder = tmp_path / "migrations"
    folder.mkdir()
    shutil.copy(migrate_mod.MIGRATIONS_DIR / "0001_init.sql", folder)
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n", encoding="utf-8")
    monkeypatch.setattr(migrate_mod, "MIGRATIONS_DIR", folder)
    path = tmp_path / "m.sqlite3"
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path)
    monkeypatch.setattr(migrate_mod, "MIGRATIONS_DIR", folder.parent / "none")  # nothing to apply
    (folder.parent / "none").mkdir()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == 1
        assert await store.fetchone("SELECT name FROM sqlite_master WHERE name = 'half_done'") is None
    finally:
        await store.close()


def test_migration_numbers_must_be_contiguous(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import store.migrate as migrate_mod

    (tmp_path / "0001_a.sql").write_text("", encoding="utf-8")
    (tmp_path / "0003_c.sql").write_text("", encoding="utf-8")
    monkeypatch.setattr(migrate_mod, "MIGRATIONS_DIR", tmp_path)
    with pytest.raises(RuntimeError):
        migrations()


async def test_in_memory_store_works_with_the_service() -> None:
    import svc_toy_engine

    from service.matches import MatchService

    svc_toy_engine.install()
    store = await Store.open(":memory:")
    try:
        service = MatchService(store, offload=False)
        info = await service.create_lobby(svc_toy_engine.SLUG, host_id=1, host_name="H", locale="en")
        await service.add_ai(info.id, 1)
        info = await service.start(info.id, 1)
        assert info.status == "active" and await service.pending_for_user(info.id, 1)
    finally:
        await store.close()
        svc_toy_engine.uninstall()


async def test_processes_opening_a_new_file_together_all_get_a_migrated_store(tmp_path: Path) -> None:
    """Each store's migration runs ``BEGIN IMMEDIATE`` per file; the ones that lose the race find
    the file applied by the winner and go on (they used to fail with "table already exists")."""
    for i in range(3):
        path = tmp_path / f"together{i}.sqlite3"
        stores = await asyncio.gather(*(Store.open(path) for _ in range(4)), return_exceptions=True)
        opened = [s for s in stores if isinstance(s, Store)]
        try:
            assert len(opened) == 4, stores
            assert {await s.schema_version() for s in opened} == {len(migrations())}
        finally:
            for s in opened:
                await s.close()
