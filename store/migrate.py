"""Numbered SQL migrations, applied in order at start-up, each in its own transaction.

A migration file is ``migrations/NNNN_name.sql``; once shipped it is never edited, only followed by
a higher number. ``schema_version`` records what was applied so an old database file catches up
on the next start without losing data.

PostgreSQL has its own set in ``migrations/postgres/`` with the same numbers and names (the types
differ: 64-bit ids, 8-byte times, BYTEA); a test checks both sets stay in step. Its runner is
``store.pg.migrate``.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: Sub-folder of MIGRATIONS_DIR per dialect (SQLite's files are at the top).
DIALECT_DIRS = {"sqlite": "", "postgres": "postgres"}


def migrations(dialect: str = "sqlite") -> list[tuple[int, Path]]:
    """All shipped migrations as (number, path), ascending; numbers must be 1, 2, 3 ... with no gap,
    so a missing or duplicated file is caught at start rather than silently skipped."""
    found = []
    for path in (MIGRATIONS_DIR / DIALECT_DIRS[dialect]).glob("*.sql"):
        m = _NAME.match(path.name)
        if m:
            found.append((int(m.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migration numbers must be 1..n without gaps, found {numbers}")
    return found


async def current_version(conn: aiosqlite.Connection) -> int:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                       "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> int:
    """Bring the database up to ``target`` (default: the newest); returns the resulting version.

    Each file runs inside ``BEGIN IMMEDIATE ... COMMIT`` together with its schema_version row, so
    a crash mid-migration leaves the previous version intact (SQLite DDL is transactional).
    """
    version = await current_version(conn)
    for number, path in migrations():
        if number <= version or (target is not None and number > target):
            continue
        sql = path.read_text(encoding="utf-8")
        script = (f"BEGIN IMMEDIATE;\n{sql}\n;"
                  f"INSERT INTO schema_version (version, applied_at) VALUES ({number}, datetime('now'));"
                  "\nCOMMIT;")
        try:
            await conn.executescript(script)
        except sqlite3.Error:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            # Another process opening the same file at the same moment applied it first (its
            # BEGIN IMMEDIATE won; ours then found the tables there): that is not a failure.
            if await current_version(conn) >= number:
                version = number
                continue
            raise
        version = number
    return version
