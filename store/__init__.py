"""Persistence: SQLite (aiosqlite, WAL, foreign keys on; the default) or PostgreSQL (asyncpg).

``base.open_store(target)`` picks the backend (a ``postgresql://`` URL or a file path); both
implement ``base.Database``. ``db.Store`` (SQLite) and ``pg.PgStore`` own the connections and
transactions, ``migrate`` applies the numbered ``migrations/NNNN_*.sql`` files at open (PostgreSQL:
``migrations/postgres/``), ``repo`` holds every query, ``transfer`` copies SQLite into PostgreSQL.
Tables: matches, seats, the append-only actions log, deadlines (one row per pending request),
outbox (committed changes waiting to be published), user_prefs, match_meta, schema_version.
"""
