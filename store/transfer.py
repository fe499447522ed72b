"""Move an existing SQLite database into PostgreSQL (``python3 tasks.py migrate-db``).

Why a copy tool rather than a dump: both sides are first brought to the newest schema by their
own migrations, then every row is copied table by table in ONE PostgreSQL transaction, so the
target ends up either complete or untouched.

What is copied is read from the two schemas, not listed here: every table of the migrated SQLite
file and every column of it, parents before children (its foreign keys), so a column or table a
later migration adds is copied without anyone remembering to add it. The two sides must agree:
a table or column present on one side only is a :class:`TransferError` before anything is
written, never a silent drop. The only things left out are named below (:data:`SKIPPED_TABLES`,
:data:`LEASE_COLUMNS`), each with its reason.

Values that differ between the backends are converted on the way, by the target column's type:
times become floats, and action events stored as JSON text by old SQLite rows become the packed
form (``store.compact``) the BYTEA column holds. The id sequences continue after the highest
copied id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from store import compact
from store.db import Store
from store.pg import PgStore

#: Tables not copied, and why.
SKIPPED_TABLES: dict[str, str] = {
    "schema_version": "each side records its own migrations",
    "channel_pace": "the running processes' post pacing (moments already past when the copy runs)",
}
#: Columns not copied in any table: leases belong to the processes that took them, so the copied
#: rows start unclaimed (the target's columns keep their defaults).
LEASE_COLUMNS = frozenset({"lease_owner", "lease_until"})
#: Columns holding ``store.compact`` values whose old SQLite rows may still be JSON text.
PACKED_COLUMNS = frozenset({("actions", "events")})
BATCH = 2000
_FLOAT_TYPES = frozenset({"double precision", "real", "numeric"})


class TransferError(RuntimeError):
    """The copy cannot be made (the message says why); nothing was written."""


@dataclass
class TransferReport:
    rows: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        return ", ".join(f"{table} {n}" for table, n in self.rows.items())


@dataclass
class _Table:
    """One table to copy: its name, the columns copied and the target's type of each."""

    name: str
    columns: tuple[str, ...]
    types: tuple[str, ...]


async def copy_sqlite_to_postgres(source: str | Path, url: str, *, allow_nonempty: bool = False) -> TransferReport:
    """Copy every row of the SQLite file ``source`` into the PostgreSQL database ``url``.

    Refuses (``TransferError``) when the source does not exist, the two schemas differ, or the
    target already holds matches, unless ``allow_nonempty`` (ids would then collide: only for a
    retry of the same copy into a database emptied by hand)."""
    if not Path(source).is_file():
        raise TransferError(f"no SQLite database at {source}")
    src = await Store.open(source)  # brings an old file to the newest schema first
    try:
        dst = await PgStore.open(url)
        try:
            return await _copy(src, dst, allow_nonempty)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _sqlite_tables(src: Store) -> dict[str, tuple[list[str], set[str]]]:
    """SQLite's tables in creation order: name -> (columns, the tables it references)."""
    names = [r["name"] for r in await src.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        " ORDER BY rowid")]
    out: dict[str, tuple[list[str], set[str]]] = {}
    for name in names:
        columns = [r["name"] for r in await src.fetchall(f'PRAGMA table_info("{name}")')]
        parents = {r["table"] for r in await src.fetchall(f'PRAGMA foreign_key_list("{name}")')}
        out[name] = (columns, parents - {name})
    return out


async def _postgres_tables(dst: PgStore) -> dict[str, dict[str, str]]:
    """PostgreSQL's tables (of the schema the URL works in): name -> {column: data type}."""
    tables = {r["table_name"]: {} for r in await dst.fetchall(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")}
    for r in await dst.fetchall("SELECT table_name, column_name, data_type FROM information_schema.columns"
                                " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"):
        if r["table_name"] in tables:
            tables[r["table_name"]][r["column_name"]] = r["data_type"]
    return tables


def _plan(source: dict[str, tuple[list[str], set[str]]], target: dict[str, dict[str, str]]) -> list[_Table]:
    """The tables to copy, parents before children, after checking both sides have the same
    tables and columns (apart from the named exclusions)."""
    src_names = set(source) - set(SKIPPED_TABLES)
    dst_names = set(target) - set(SKIPPED_TABLES)
    problems = []
    if src_names - dst_names:
        problems.append(f"tables only in the SQLite database: {', '.join(sorted(src_names - dst_names))}")
    if dst_names - src_names:
        problems.append(f"tables only in PostgreSQL: {', '.join(sorted(dst_names - src_names))}")
    for name in sorted(src_names & dst_names):
        src_cols = set(source[name][0]) - LEASE_COLUMNS
        dst_cols = set(target[name]) - LEASE_COLUMNS
        if src_cols - dst_cols:
            problems.append(f"{name}: columns only in the SQLite database: {', '.join(sorted(src_cols - dst_cols))}")
        if dst_cols - src_cols:
            problems.append(f"{name}: columns only in PostgreSQL: {', '.join(sorted(dst_cols - src_cols))}")
    if problems:
        raise TransferError("the two schemas differ (is one side's migration missing?): " + "; ".join(problems))
    ordered: list[_Table] = []
    placed: set[str] = set()
    waiting = [n for n in source if n in src_names]  # creation order (already parents first)
    while waiting:
        name = next((n for n in waiting if source[n][1] & src_names <= placed), None)
        if name is None:
            raise TransferError(f"foreign keys form a cycle between {', '.join(waiting)}")
        columns = tuple(c for c in source[name][0] if c not in LEASE_COLUMNS)
        ordered.append(_Table(name, columns, tuple(target[name][c] for c in columns)))
        placed.add(name)
        waiting.remove(name)
    return ordered


def _convert(table: _Table, row: dict[str, Any]) -> tuple[Any, ...]:
    out = []
    for col, kind in zip(table.columns, table.types, strict=True):
        value = row[col]
        if value is None:
            pass
        elif (table.name, col) in PACKED_COLUMNS:
            value = compact.pack(json.loads(value)) if isinstance(value, str) else bytes(value)
        elif kind in _FLOAT_TYPES:
            value = float(value)
        out.append(value)
    return tuple(out)


async def _copy(src: Store, dst: PgStore, allow_nonempty: bool) -> TransferReport:
    if not allow_nonempty and await dst.fetchone("SELECT 1 AS x FROM matches LIMIT 1"):
        raise TransferError("the PostgreSQL database already holds matches; copy into an empty one")
    plan = _plan(await _sqlite_tables(src), await _postgres_tables(dst))
    report = TransferReport()
    async with dst.transaction() as tx:
        for table in plan:
            cols = ", ".join(f'"{c}"' for c in table.columns)
            marks = ", ".join("?" * len(table.columns))
            insert = f'INSERT INTO "{table.name}" ({cols}) VALUES ({marks})'
            rows = await src.fetchall(f'SELECT {cols} FROM "{table.name}"')
            try:
                for start in range(0, len(rows), BATCH):
                    await tx.executemany(insert, [_convert(table, r) for r in rows[start:start + BATCH]])
            except (asyncpg.PostgresError, asyncpg.DataError) as err:
                raise TransferError(f"{table.name}: {err}") from err
            report.rows[table.name] = len(rows)
        for table in plan:
            if "id" not in table.columns:
                continue
            seq = await tx.fetchone("SELECT pg_get_serial_sequence(?, 'id') AS seq", (table.name,))
            if seq and seq["seq"]:  # the id comes from a sequence: it continues after the copied rows
                await tx.execute(f"SELECT setval(?, COALESCE((SELECT MAX(id) FROM \"{table.name}\"), 0) + 1,"
                                 " false)", (seq["seq"],))
    for table in plan:
        row = await dst.fetchone(f'SELECT COUNT(*) AS n FROM "{table.name}"')
        if not allow_nonempty and (row is None or row["n"] != report.rows[table.name]):
            raise TransferError(f"{table.name}: copied {report.rows[table.name]} rows but the target holds "
                                f"{row['n'] if row else 0}")
    return report
