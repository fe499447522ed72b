-- Per-channel post pacing shared by several bot processes (PostgreSQL deployments): the earliest
-- moment (Unix time) the next post or edit may go to a channel. One process keeps this in memory;
-- several reserve their slots here, so together they stay under Discord's ~5 per 5 s per channel.
CREATE TABLE channel_pace (
    channel_id INTEGER PRIMARY KEY,
    next_at    REAL NOT NULL
);
