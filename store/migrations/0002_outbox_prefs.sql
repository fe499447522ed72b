-- Transactional outbox (changes committed with the match, delivered after), user preferences,
-- and the indexes the lobby rate limits and reminder scan need.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,
    payload      TEXT    NOT NULL,
    created_at   REAL    NOT NULL,
    delivered_at REAL
);

CREATE INDEX outbox_pending ON outbox (delivered_at, match_id, id);

CREATE TABLE user_prefs (
    user_id INTEGER PRIMARY KEY,
    notify  TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm', 'both', 'none')),
    locale  TEXT
);

CREATE INDEX matches_host_created ON matches (host_id, created_at);
CREATE INDEX matches_channel_status ON matches (channel_id, status);
CREATE INDEX deadlines_remind ON deadlines (reminded, remind_at);
