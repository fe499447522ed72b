-- PostgreSQL twin of ../0001_init.sql (same tables and columns). Types differ where SQLite's would
-- be wrong here: Discord ids and seeds are 64-bit (BIGINT, not INTEGER), times are DOUBLE
-- PRECISION (PostgreSQL's REAL is 4 bytes), ids come from BIGSERIAL.
CREATE TABLE matches (
    id               BIGSERIAL PRIMARY KEY,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    state            TEXT,
    version          BIGINT  NOT NULL DEFAULT 0,
    seed             BIGINT,
    guild_id         BIGINT,
    channel_id       BIGINT,
    thread_id        BIGINT,
    lobby_message_id BIGINT,
    host_id          BIGINT  NOT NULL,
    locale           TEXT    NOT NULL DEFAULT 'en',
    turn_seconds     BIGINT  NOT NULL DEFAULT 86400,
    created_at       DOUBLE PRECISION NOT NULL,
    updated_at       DOUBLE PRECISION NOT NULL,
    finished_at      DOUBLE PRECISION,
    result           TEXT
);

CREATE TABLE seats (
    match_id BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  BIGINT,
    ai_level TEXT,
    name     TEXT    NOT NULL,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE actions (
    match_id   BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version    BIGINT  NOT NULL,
    seat       INTEGER,
    request_id TEXT,
    action     TEXT    NOT NULL,
    events     BYTEA   NOT NULL,
    source     TEXT    NOT NULL CHECK (source IN ('user', 'ai', 'timeout', 'system')),
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, version)
);

CREATE TABLE deadlines (
    match_id   BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    request_id TEXT    NOT NULL,
    seat       INTEGER NOT NULL,
    due_at     DOUBLE PRECISION NOT NULL,
    remind_at  DOUBLE PRECISION,
    reminded   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, request_id)
);

CREATE INDEX deadlines_due ON deadlines (due_at);
CREATE INDEX seats_user ON seats (user_id);
