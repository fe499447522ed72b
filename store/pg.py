"""The PostgreSQL backend (asyncpg): the store several bot processes share.

Why it looks like this:

- ``repo.py`` is written once, with SQLite's ``?`` placeholders; :func:`to_dollar` rewrites them to
  ``$1, $2 …`` (outside quoted text) once per statement text, and asyncpg prepares and caches it.
- Reads and transactions use a connection pool; unlike SQLite's single writer, transactions of
  different matches run in parallel. Writes of one match are serialised by :meth:`shared_locks`
  and, as on SQLite, the match row's version guard (``UPDATE … WHERE version = ?``).
- Cross-process locks are session-level advisory locks (``pg_try_advisory_lock``) on a few
  connections of their own per process (:data:`LOCK_CONNECTIONS`, a key always on the same one):
  the lock must be held across the engine's work, which runs outside any transaction, so
  ``pg_advisory_xact_lock`` would pin a pooled connection (and an open transaction) per match in
  play. One connection for all keys was the bottleneck with a dozen busy matches (each lock and
  unlock waits for the connection). A lock taken by a process that dies is released by
  PostgreSQL when its connection closes, so a crashed process never blocks a match. The process's
  own ``KeyedLocks`` is taken first, so the shared connection only ever polls when another
  process holds the match (a short back-off, never a blocking call that would hold up every
  other lock of the process). Should the lock connection be lost while locks are held, the
  version guard still refuses the second of two writers.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import asyncpg

from store.base import Database, LockFactory, Params, Row, TxBase, new_owner_id
from store.migrate import migrations

log = logging.getLogger(__name__)

#: Pool size per process: reads and transactions of concurrently served matches. A bot process
#: serves at most ``due_concurrency`` (8) time-outs plus the clicks in flight; more would only
#: queue inside PostgreSQL.
POOL_MIN = 1
POOL_MAX = 10
#: Advisory lock key: ``kind << KIND_SHIFT | key`` (match ids stay far below 2**48).
KIND_SHIFT = 48
#: Back-off while another process holds a lock: first wait, growth, cap (seconds).
LOCK_POLL_FIRST = 0.002
LOCK_POLL_MAX = 0.05
LOCK_RECONNECTS = 3  # lock connections opened anew for one acquire before it gives up
#: Connections per process that hold advisory locks (key ``k`` always uses ``k % LOCK_CONNECTIONS``).
LOCK_CONNECTIONS = 4
#: Serialises migrations of processes starting together (an arbitrary fixed advisory key).
MIGRATION_LOCK = 0x6D696772


@functools.lru_cache(maxsize=4096)
def to_dollar(sql: str) -> str:
    """``?`` placeholders → ``$1, $2 …``; ``?`` inside '…' strings, "…" names or comments stays."""
    out: list[str] = []
    n = 0
    i = 0
    quote: str | None = None
    while i < len(sql):
        ch = sql[i]
        if quote:
            out.append(ch)
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "-" and sql.startswith("--", i):
            end = sql.find("\n", i)
            end = len(sql) if end < 0 else end
            out.append(sql[i:end])
            i = end
            continue
        elif ch == "?":
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _args(params: Params) -> tuple[Any, ...]:
    if isinstance(params, dict):
        raise TypeError("the PostgreSQL backend takes positional (?) parameters only")
    return tuple(params)


def _count(status: str) -> int:
    """Rows touched, from a command status such as ``UPDATE 3`` or ``INSERT 0 1``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except (ValueError, IndexError):
        return 0


class PgTx(TxBase):
    """Statements of one open transaction on one pooled connection."""

    dialect = "postgres"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Runs one statement; returns the rows it touched (use :meth:`insert_id` for an id)."""
        return _count(await self._conn.execute(to_dollar(sql), *_args(params)))

    async def insert_id(self, sql: str, params: Params = ()) -> int:
        value = await self._conn.fetchval(to_dollar(sql) + " RETURNING id", *_args(params))
        return int(value)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [_args(r) for r in rows]
        if batch:
            await self._conn.executemany(to_dollar(sql), batch)

    async def rowcount(self, sql: str, params: Params = ()) -> int:
        return await self.execute(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [dict(r) for r in await self._conn.fetch(to_dollar(sql), *_args(params))]


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Pool release without asyncpg's default reset (``pg_advisory_unlock_all(); CLOSE ALL;
    UNLISTEN *; RESET ALL``): one more round trip per read, measured as a third of a bot's
    statements. Nothing here leaves session state on a pooled connection: transactions end in
    their context manager, the only advisory locks on them are transaction-scoped, and session
    locks live on the lock connections."""


class _AdvisoryLocks:
    """``key -> async context manager`` holding ``local(key)`` and the advisory lock of ``key``."""

    def __init__(self, store: PgStore, local: LockFactory, kind: int) -> None:
        self._store = store
        self._local = local
        self._kind = kind

    def __call__(self, key: int) -> AbstractAsyncContextManager[None]:
        return self._hold(key)

    @asynccontextmanager
    async def _hold(self, key: int) -> AsyncIterator[None]:
        async with self._local(key):
            lock_key = (self._kind << KIND_SHIFT) | int(key)
            try:
                await self._store._advisory_acquire(lock_key)
            except asyncio.CancelledError:
                # The server may have granted the lock just before the cancel reached us; left
                # held, it would shut other processes out of the match until this one exits.
                # (Unlocking a lock not held only makes PostgreSQL log a warning.)
                await asyncio.shield(self._store._advisory_release(lock_key))
                raise
            try:
                yield
            finally:
                await self._store._advisory_release(lock_key)


class PgStore(Database):
    """Open with ``await PgStore.open(url)`` (or ``store.base.open_store(url)``)."""

    dialect = "postgres"

    def __init__(self, url: str, pool: asyncpg.Pool, owner: str | None = None) -> None:
        self.path = url
        self._pool = pool
        self.closed = False
        self.owner = owner or new_owner_id()
        self._lock_conns: list[asyncpg.Connection | None] = [None] * LOCK_CONNECTIONS
        self._lock_guards = [asyncio.Lock() for _ in range(LOCK_CONNECTIONS)]

    @classmethod
    async def open(cls, url: str, *, target_version: int | None = None,  # type: ignore[override]
                   owner: str | None = None) -> PgStore:
        pool = await asyncpg.create_pool(url, min_size=POOL_MIN, max_size=POOL_MAX, reset=_keep_session)
        try:
            async with pool.acquire() as conn:
                await migrate(conn, target_version)
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool, owner)

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for conn in self._lock_conns:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        await self._pool.close()

    # ----- reads --------------------------------------------------------------------------------
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [dict(r) for r in await self._pool.fetch(to_dollar(sql), *_args(params))]

    # ----- writes -------------------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTx]:
        """All-or-nothing: commits when the block ends normally, rolls back on any exception."""
        async with self._pool.acquire() as conn:
            tr = conn.transaction()
            await tr.start()
            try:
                yield PgTx(conn)
                await self._commit(tr)
            except BaseException:
                if not conn.is_closed():
                    try:
                        await tr.rollback()
                    except Exception:  # keep the original error; the server rolls back on close anyway
                        log.exception("rollback failed")
                raise

    async def _commit(self, tr: Any) -> None:
        """Separate so crash tests can make the commit itself fail (as ``store.db.Store._commit``)."""
        await tr.commit()

    # ----- cross-process locks ------------------------------------------------------------------
    def shared_locks(self, local: LockFactory, kind: int) -> LockFactory:
        return _AdvisoryLocks(self, local, kind)

    def lock_connection(self, key: int) -> asyncpg.Connection | None:
        """The connection holding ``key``'s advisory lock when it is held (tests kill it)."""
        return self._lock_conns[key % LOCK_CONNECTIONS]

    async def _lock_call(self, sql: str, key: int) -> Any:
        i = key % LOCK_CONNECTIONS
        async with self._lock_guards[i]:
            conn = self._lock_conns[i]
            if conn is None or conn.is_closed():
                conn = self._lock_conns[i] = await asyncpg.connect(self.path)
            try:
                return await conn.fetchval(sql, key)
            except Exception:  # not CancelledError (a BaseException): a cancelled call keeps it
                # A connection the server has just terminated can still look open and then fail
                # with any of asyncpg's errors (seen: InternalClientError "another operation is
                # in progress"). Its session locks are gone with it either way; drop it so the
                # next call opens a fresh one instead of failing again. Terminating also makes
                # sure no lock stays held by a connection in an unknown state: a lock left
                # behind would shut its match out until this process ends, while a lock lost
                # early (another match's, on the same connection) leaves the version guard.
                self._lock_conns[i] = None
                conn.terminate()
                raise

    async def _advisory_acquire(self, key: int) -> None:
        delay = LOCK_POLL_FIRST
        broken = 0
        while True:
            try:
                if await self._lock_call("SELECT pg_try_advisory_lock($1)", key):
                    return
            except (OSError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                    asyncpg.PostgresConnectionError, asyncpg.AdminShutdownError):
                # The lock connection died under us (``_lock_call`` dropped it): whatever it held
                # is released, so asking again on a fresh connection is safe. A server that stays
                # away still fails the action after a few tries.
                broken += 1
                if broken >= LOCK_RECONNECTS:
                    raise
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(LOCK_POLL_MAX, delay * 2)

    async def _advisory_release(self, key: int) -> None:
        try:
            await self._lock_call("SELECT pg_advisory_unlock($1)", key)
        except Exception:
            # The connection is gone (``_lock_call`` dropped it), and with it every lock it
            # held: nothing left to release.
            log.warning("advisory unlock of %s failed; the lock went with its connection", key)


async def current_version(conn: asyncpg.Connection) -> int:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                       "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(conn: asyncpg.Connection, target: int | None = None) -> int:
    """Bring the database up to ``target`` (default newest), each file in its own transaction with
    its schema_version row (PostgreSQL DDL is transactional). An advisory lock makes processes
    that start together take turns, so none applies a file another has applied."""
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        version = await current_version(conn)
        for number, path in migrations("postgres"):
            if number <= version or (target is not None and number > target):
                continue
            async with conn.transaction():
                await conn.execute(path.read_text(encoding="utf-8"))
                await conn.execute("INSERT INTO schema_version (version, applied_at) VALUES ($1, now()::text)",
                                   number)
            version = number
        return version
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
