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
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

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
    await _wal(conn)
    await conn.execute("PRAGMA synchronous = NORMAL")
    return conn


async def _wal(conn: aiosqlite.Connection) -> None:
    """Switch a new file to WAL. The switch needs the file to itself and SQLite does not wait for
    it (no busy handler): processes opening a new file together see "database is locked" (one
    run in a few on a busy machine), so retry until the busy timeout is spent."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() > give_up:
                raise
            await asyncio.sleep(0.02)


class Tx(TxBase):
    """Statements inside one open write transaction (only valid inside ``Store.transaction``).

    Writes whose result nobody needs (``execute``, ``executemany``) are queued and sent to the
    connection's thread together with the next statement that returns something (``insert``,
    ``rowcount``, a fetch) or with the COMMIT: each trip to that thread costs more than a small
    statement does (``bench_run_due``: a change was ~13 trips, now ~4). A queued write that fails
    raises from that later call, still inside the transaction, so it rolls back as before.
    """

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, first: str | None = None) -> None:
        self._conn = conn
        #: (sql, params, kind): kind "one" (a statement), "many" (executemany) or "check" (a
        #: statement that must change exactly one row, else its error is raised).
        self._queued: list[tuple[str, Any, str]] = [] if first is None else [(first, (), "one")]
        self._errors: dict[int, BaseException] = {}

    async def _run(self, sql: str | None, params: Any, how: str,
                   then: Callable[[list[list[Row]]], Any] | None = None) -> Any:
        """The queued writes, then ``sql`` (if any), in ONE call on the connection's thread.
        ``how``: "insert" (lastrowid), "rowcount", "rows", or "many" (``params`` is then a list
        of (sql, params) reads, answered by a list of row lists, or by ``then`` of it)."""
        queued, self._queued = self._queued, []
        errors, self._errors = self._errors, {}

        def work() -> Any:
            raw = self._conn._conn  # noqa: SLF001 - aiosqlite runs this on the connection's own thread
            for i, (q_sql, q_params, kind) in enumerate(queued):
                if kind == "many":
                    raw.executemany(q_sql, q_params)
                elif raw.execute(q_sql, q_params).rowcount != 1 and kind == "check":
                    raise errors[i]
            if how == "many":
                rows = [[dict(r) for r in raw.execute(q, p).fetchall()] for q, p in params]
                return rows if then is None else then(rows)
            if sql is None:
                return None
            cur = raw.execute(sql, params)
            if how == "insert":
                return int(cur.lastrowid or 0)
            if how == "rowcount":
                return int(cur.rowcount)
            return [dict(r) for r in cur.fetchall()]

        return await self._conn._execute(work)  # noqa: SLF001 - the one public-less way to batch calls

    async def execute(self, sql: str, params: Params = ()) -> None:
        """Queue one statement (sent with the next call that needs an answer, or the COMMIT)."""
        self._queued.append((sql, params, "one"))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Queue one statement for many parameter rows."""
        self._queued.append((sql, list(rows), "many"))

    async def execute_one(self, sql: str, params: Params, error: BaseException) -> None:
        """Queue a statement that must change exactly one row (an optimistic version check);
        otherwise ``error`` is raised when it is sent, which rolls the transaction back."""
        self._errors[len(self._queued)] = error
        self._queued.append((sql, params, "check"))

    async def insert_id(self, sql: str, params: Params = ()) -> int:
        """Run one insert now (with the queued writes); returns its lastrowid."""
        return int(await self._run(sql, params, "insert"))

    async def rowcount(self, sql: str, params: Params = ()) -> int:
        return int(await self._run(sql, params, "rowcount"))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._run(sql, params, "rows"))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetch_many(self, queries: list[tuple[str, Params]],
                         then: Callable[[list[list[Row]]], Any] | None = None) -> Any:
        """Several reads in one call on the connection's thread (with the queued writes first);
        ``then``: as :meth:`Store.fetch_many`."""
        return await self._run(None, queries, "many", then)

    async def flush(self, then: str | None = None) -> None:
        """Send the queued writes now, followed by ``then`` (the COMMIT)."""
        if self._queued or then is not None:
            await self._run(then, (), "rowcount" if then else "none")


class Store(Database):
    """Open with ``await Store.open(path)``; ``await store.close()`` when done."""

    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 owner: str | None = None) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._tx: Tx | None = None  # the open transaction (under the lock)
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

    async def fetch_many(self, queries: list[tuple[str, Params]],
                         then: Callable[[list[list[Row]]], Any] | None = None) -> Any:
        """Several reads in ONE call on the reader's thread, each fetched to the end (see above):
        loading a match is three small queries, and the trips cost more than the queries.

        ``then(rows)``, when given, runs on that thread too and is what is returned: decoding
        the rows there (a match's state, outbox payloads) keeps the event loop free; it holds
        the GIL all the same, but the loop is the one thread every match waits for (bench
        run_due: the loop was kept up to 25 ms)."""
        def work() -> Any:
            raw = self._reader._conn  # noqa: SLF001 - aiosqlite runs this on the connection's own thread
            rows = [[dict(r) for r in raw.execute(q, p).fetchall()] for q, p in queries]
            return rows if then is None else then(rows)

        return await self._reader._execute(work)  # noqa: SLF001

    # ----- writes ----------------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """All-or-nothing: commits when the block ends normally, rolls back on any exception."""
        async with self._lock:
            # BEGIN goes to the connection with the first statement that needs an answer.
            tx = self._tx = Tx(self._writer, "BEGIN IMMEDIATE")
            try:
                yield tx
                await self._commit()
            except BaseException:
                if not self.closed and self._writer.in_transaction:
                    try:
                        await self._writer.execute("ROLLBACK")
                    except Exception:  # keep the original error; SQLite rolls back on close anyway
                        log.exception("rollback failed")
                raise

    async def _commit(self) -> None:
        """The open transaction's queued writes and the COMMIT in one call. Separate so crash
        tests can make the commit itself fail."""
        assert self._tx is not None
        await self._tx.flush("COMMIT")

