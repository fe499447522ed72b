"""SQLite persistence (aiosqlite, WAL, foreign keys on).

``db.Store`` owns the connections and transactions, ``migrate`` applies the numbered
``migrations/NNNN_*.sql`` files at open, ``repo`` holds every query. Tables: matches, seats, the
append-only actions log, deadlines (one row per pending request), outbox (committed changes
waiting to be published), user_prefs, schema_version.
"""
