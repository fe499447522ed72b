"""Move an existing SQLite database into PostgreSQL (``python3 tasks.py migrate-db``).

Why a copy tool rather than a dump: both sides are first brought to the newest schema by their
own migrations, then every row is copied table by table in ONE PostgreSQL transaction, so the
target ends up either complete or untouched. Values that differ between the backends are
converted on the way: action events stored as JSON text by old SQLite rows become the packed
form (``store.compact``) the BYTEA column holds, and the id sequences continue after the highest
copied id. Leases are not copied: they belong to the processes that took them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from store import compact
from store.db import Store
from store.pg import PgStore

#: Parents before children (foreign keys), with the columns copied.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("matches", ("id", "game", "options", "status", "state", "version", "seed", "guild_id", "channel_id",
                 "thread_id", "lobby_message_id", "host_id", "locale", "turn_seconds", "created_at",
                 "updated_at", "finished_at", "result")),
    ("seats", ("match_id", "seat", "user_id", "ai_level", "name", "resigned", "missed", "away")),
    ("actions", ("match_id", "version", "seat", "request_id", "action", "events", "source", "created_at")),
    ("deadlines", ("match_id", "request_id", "seat", "due_at", "remind_at", "reminded", "window")),
    ("outbox", ("id", "match_id", "version", "payload", "created_at", "delivered_at")),
    ("user_prefs", ("user_id", "notify", "locale")),
    ("match_meta", ("match_id", "key", "value")),
)
#: Tables whose ``id`` comes from a sequence that must continue after the copied rows.
SERIALS = ("matches", "outbox")
BATCH = 2000
_FLOAT_COLUMNS = {"created_at", "updated_at", "finished_at", "due_at", "remind_at", "delivered_at"}


class TransferError(RuntimeError):
    """The copy cannot be made (the message says why); nothing was written."""


@dataclass
class TransferReport:
    rows: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        return ", ".join(f"{table} {n}" for table, n in self.rows.items())


def _convert(table: str, columns: tuple[str, ...], row: dict[str, Any]) -> tuple[Any, ...]:
    out = []
    for col in columns:
        value = row[col]
        if table == "actions" and col == "events":
            value = compact.pack(json.loads(value)) if isinstance(value, str) else bytes(value)
        elif col in _FLOAT_COLUMNS and value is not None:
            value = float(value)
        out.append(value)
    return tuple(out)


async def copy_sqlite_to_postgres(source: str | Path, url: str, *, allow_nonempty: bool = False) -> TransferReport:
    """Copy every row of the SQLite file ``source`` into the PostgreSQL database ``url``.

    Refuses (``TransferError``) when the source does not exist or the target already holds
    matches, unless ``allow_nonempty`` (ids would then collide: only for a retry of the same copy
    into a database emptied by hand)."""
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


async def _copy(src: Store, dst: PgStore, allow_nonempty: bool) -> TransferReport:
    if not allow_nonempty and await dst.fetchone("SELECT 1 AS x FROM matches LIMIT 1"):
        raise TransferError("the PostgreSQL database already holds matches; copy into an empty one")
    report = TransferReport()
    async with dst.transaction() as tx:
        for table, columns in TABLES:
            cols = ", ".join(f'"{c}"' for c in columns)
            marks = ", ".join("?" * len(columns))
            insert = f"INSERT INTO {table} ({cols}) VALUES ({marks})"
            rows = await src.fetchall(f"SELECT {cols} FROM {table}")
            for start in range(0, len(rows), BATCH):
                await tx.executemany(insert, [_convert(table, columns, r) for r in rows[start:start + BATCH]])
            report.rows[table] = len(rows)
        for table in SERIALS:
            await tx.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                             f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    for table, _ in TABLES:
        row = await dst.fetchone(f"SELECT COUNT(*) AS n FROM {table}")
        if not allow_nonempty and (row is None or row["n"] != report.rows[table]):
            raise TransferError(f"{table}: copied {report.rows[table]} rows but the target holds "
                                f"{row['n'] if row else 0}")
    return report
