"""The database handle: one writer connection (transactions serialised by a lock) and one reader.

aiosqlite runs each connection on its own thread, but coroutines sharing one connection would
interleave their statements inside each other's transactions. So every write goes through
:meth:`Store.transaction`, which holds a store-wide lock from ``BEGIN IMMEDIATE`` to ``COMMIT``;
reads go through a second connection that, thanks to WAL, only ever sees committed data.

This is the default backend (nothing to install); :mod:`store.pg` is the PostgreSQL one for several
processes, both behind :class:`store.base.Database`. ``Store.open`` given a ``postgresql://`` URL
opens that one instead, so every caller can take either.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from store.base import Database, Params, Row, TxBase, is_postgres_url, new_owner_id, open_store
from store.migrate import migrate

log = logging.getLogger(__name__)

__all__ = ["Params", "Row", "Store", "Tx"]

#: How long a connection waits for another process holding the write lock before failing.
BUSY_TIMEOUT_MS = 5000


async def _connect(path: str) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await conn.execute("PRAGMA foreign_keys = ON")
    # WAL + NORMAL: a committed transaction survives a killed process; only an OS crash or power
    # loss can drop the last few commits, never corrupt the file.
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    return conn


class Tx(TxBase):
    """Statements inside one open write transaction (only valid inside ``Store.transaction``)."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns lastrowid for inserts (rowcount is rarely needed)."""
        async with self._conn.execute(sql, params) as cur:
            return int(cur.lastrowid or 0)

    async def insert_id(self, sql: str, params: Params = ()) -> int:
        return await self.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """One statement for many parameter rows (one round trip to the connection's thread)."""
        await self._conn.executemany(sql, rows)

    async def rowcount(self, sql: str, params: Params = ()) -> int:
        async with self._conn.execute(sql, params) as cur:
            return int(cur.rowcount)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [dict(r) for r in await self._conn.execute_fetchall(sql, params)]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


class Store(Database):
    """Open with ``await Store.open(path)``; ``await store.close()`` when done."""

    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 owner: str | None = None) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self.closed = False
        self.owner = owner or new_owner_id()

    @classmethod
    async def open(cls, path: str | Path, *, target_version: int | None = None,  # type: ignore[override]
                   owner: str | None = None) -> Store:
        """Open (creating parent folders and the file) and migrate to ``target_version``
        (default newest; tests use an older target to build old databases). A ``postgresql://``
        URL opens the PostgreSQL backend instead (same interface)."""
        if is_postgres_url(path):
            return await open_store(path, target_version=target_version, owner=owner)  # type: ignore[return-value]
        p = str(path)
        if p != ":memory:":
            Path(p).parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(p)
        try:
            await migrate(writer, target_version)
            # An in-memory database exists once per connection, so it must share the writer.
            reader = writer if p == ":memory:" else await _connect(p)
        except BaseException:
            await writer.close()
            raise
        return cls(p, writer, reader, owner)

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    # ----- reads (committed data only) -----------------------------------------------------
    # Each read runs and is fetched to the end in ONE call on the connection's thread. Were the
    # execute and the fetch separate awaits, another coroutine's query could start while this
    # statement is still open; the connection's read transaction would then never end and it
    # would keep serving an old snapshot (found by the soak test: stale refusals of valid moves).
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        rows = await self._reader.execute_fetchall(sql, params)
        return [dict(r) for r in rows]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    # ----- writes ----------------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """All-or-nothing: commits when the block ends normally, rolls back on any exception."""
        async with self._lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._writer)
                await self._commit()
            except BaseException:
                if not self.closed and self._writer.in_transaction:
                    try:
                        await self._writer.execute("ROLLBACK")
                    except Exception:  # keep the original error; SQLite rolls back on close anyway
                        log.exception("rollback failed")
                raise

    async def _commit(self) -> None:
        """Separate so crash tests can make the commit itself fail."""
        await self._writer.execute("COMMIT")

