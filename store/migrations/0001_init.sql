-- Matches, their seats, the append-only action log and per-request deadlines.
CREATE TABLE matches (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    seed             INTEGER,
    guild_id         INTEGER,
    channel_id       INTEGER,
    thread_id        INTEGER,
    lobby_message_id INTEGER,
    host_id          INTEGER NOT NULL,
    locale           TEXT    NOT NULL DEFAULT 'en',
    turn_seconds     INTEGER NOT NULL DEFAULT 86400,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL,
    result           TEXT
);

CREATE TABLE seats (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    ai_level TEXT,
    name     TEXT    NOT NULL,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE actions (
    match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    seat       INTEGER,
    request_id TEXT,
    action     TEXT    NOT NULL,
    events     TEXT    NOT NULL DEFAULT '[]',
    source     TEXT    NOT NULL CHECK (source IN ('user', 'ai', 'timeout', 'system')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, version)
);

CREATE TABLE deadlines (
    match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    request_id TEXT    NOT NULL,
    seat       INTEGER NOT NULL,
    due_at     REAL    NOT NULL,
    remind_at  REAL,
    reminded   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, request_id)
);

CREATE INDEX deadlines_due ON deadlines (due_at);
CREATE INDEX seats_user ON seats (user_id);
