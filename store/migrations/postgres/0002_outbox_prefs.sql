-- PostgreSQL twin of ../0002_outbox_prefs.sql.
CREATE TABLE outbox (
    id           BIGSERIAL PRIMARY KEY,
    match_id     BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version      BIGINT NOT NULL,
    payload      TEXT   NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL,
    delivered_at DOUBLE PRECISION
);

CREATE INDEX outbox_pending ON outbox (delivered_at, match_id, id);

CREATE TABLE user_prefs (
    user_id BIGINT PRIMARY KEY,
    notify  TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm', 'both', 'none')),
    locale  TEXT
);

CREATE INDEX matches_host_created ON matches (host_id, created_at);
CREATE INDEX matches_channel_status ON matches (channel_id, status);
CREATE INDEX deadlines_remind ON deadlines (reminded, remind_at);
