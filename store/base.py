"""The store's interface, shared by the SQLite (:mod:`store.db`) and PostgreSQL (:mod:`store.pg`)
backends, and :func:`open_store`, which picks one from a path or a ``postgresql://`` URL.

Why two backends behind one interface: SQLite needs nothing installed and stays the default; a
bot that must run as several processes (sharding) needs one store they all share, with locks and
leases that work across processes. ``repo.py`` holds the SQL for both: it is written with ``?``
placeholders in the subset both dialects accept (the PostgreSQL backend rewrites ``?`` to
``$n``); the few statements that differ ask the transaction's :attr:`Tx.dialect`.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

Row = dict[str, Any]
Params = Iterable[Any] | dict[str, Any]
#: ``key -> async context manager``: what ``KeyedLocks`` is, and what :meth:`Database.shared_locks`
#: returns around it.
LockFactory = Callable[[int], AbstractAsyncContextManager[Any]]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: The largest id a row can have: SQLite's INTEGER and PostgreSQL's BIGINT are signed 64-bit, and
#: a larger Python int makes the drivers raise (OverflowError, DataError) instead of finding nothing.
ID_MAX = 2**63 - 1


def is_row_id(value: int) -> bool:
    """Whether ``value`` can be the id of a row of ours (ids count from 1 up to :data:`ID_MAX`)."""
    return isinstance(value, int) and 0 < value <= ID_MAX


def is_postgres_url(target: str | Path | None) -> bool:
    return isinstance(target, str) and target.strip().lower().startswith(POSTGRES_SCHEMES)


def new_owner_id() -> str:
    """Who holds a lease when nobody names the process (tests, tools, benches): host, process and
    a random part, so two stores never share leases by accident. A bot process passes a stable
    name instead (``Settings.lease_owner``: its instance name or its shard set), so that after a
    crash the restarted process takes its own leased rows back at once (the claim treats rows
    leased to ``owner`` as free) instead of waiting out ``LEASE_SECONDS``."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Reads:
    """``fetchall`` (each backend's) and ``fetchone`` on top of it: what ``repo.Reader`` needs."""

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:  # pragma: no cover
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetch_many(self, queries: list[tuple[str, Params]],
                         then: Callable[[list[list[Row]]], Any] | None = None) -> Any:
        """Several reads; SQLite answers them in one trip to its thread, a plain sequence of
        reads is as good elsewhere. ``then(rows)``, when given, is what is returned: SQLite runs
        it on the connection's thread, so decoding what was read (JSON, payloads) keeps off
        the event loop; elsewhere it runs here."""
        rows = [await self.fetchall(q, p) for q, p in queries]
        return rows if then is None else then(rows)


class TxBase(Reads):
    """Statements inside one open write transaction (only valid inside ``transaction()``)."""

    #: ``sqlite`` or ``postgres``; repo asks it for the few statements that differ.
    dialect = "sqlite"

    async def execute(self, sql: str, params: Params = ()) -> object:  # pragma: no cover - interface
        """A write whose result nobody reads (SQLite may queue it until the next read or the
        COMMIT; use :meth:`insert_id` or :meth:`rowcount` for an answer)."""
        raise NotImplementedError

    async def insert_id(self, sql: str, params: Params = ()) -> int:  # pragma: no cover - interface
        """An INSERT into a table with an ``id`` key; returns the new row's id."""
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:  # pragma: no cover
        raise NotImplementedError

    async def rowcount(self, sql: str, params: Params = ()) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    async def execute_one(self, sql: str, params: Params, error: BaseException) -> None:
        """A statement that must change exactly one row (the optimistic version check), else
        ``error`` is raised and the transaction rolls back. SQLite queues it with its other
        writes; here it runs at once."""
        if await self.rowcount(sql, params) != 1:
            raise error


class Database(Reads):
    """What the service needs from a store: committed reads, all-or-nothing transactions, locks
    that hold across every process sharing the store, and an owner id for leases."""

    dialect = "sqlite"
    closed = False
    #: This process's name in lease columns (``deadlines.lease_owner``, ``outbox.lease_owner``).
    owner: str = ""

    @classmethod
    async def open(cls, target: str | Path, *, target_version: int | None = None,
                   owner: str | None = None) -> Database:
        """A path (or ``:memory:``) opens SQLite; a ``postgresql://`` URL opens PostgreSQL."""
        return await open_store(target, target_version=target_version, owner=owner)

    async def close(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Any]:  # pragma: no cover - interface
        raise NotImplementedError

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
        return int(row["v"]) if row else 0

    def shared_locks(self, local: LockFactory, kind: int) -> LockFactory:
        """Per-key locks that also exclude other processes sharing this store. ``local`` (the
        service's in-process ``KeyedLocks``) is taken first; ``kind`` separates key spaces (match
        lock, delivery lock). SQLite: the store is one process's, so ``local`` is enough (the
        match row's version guard still refuses a second writer on the same file)."""
        return local


async def open_store(target: str | Path | None, *, target_version: int | None = None,
                     owner: str | None = None) -> Database:
    """The backend ``target`` names: ``postgresql://…`` → PostgreSQL, anything else → SQLite file.
    ``owner``: the lease owner id (:attr:`Database.owner`; default :func:`new_owner_id`)."""
    if is_postgres_url(target):
        from store.pg import PgStore

        return await PgStore.open(str(target).strip(), target_version=target_version, owner=owner)
    from store.db import Store

    return await Store.open(target if target is not None else ":memory:", target_version=target_version,
                            owner=owner)

