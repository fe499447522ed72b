"""SQLite persistence (aiosqlite, WAL): matches, seats, action log, deadlines, outbox, preferences."""
