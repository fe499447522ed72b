-- PostgreSQL twin of ../0008_channel_pace.sql (see there).
CREATE TABLE channel_pace (
    channel_id BIGINT PRIMARY KEY,
    next_at    DOUBLE PRECISION NOT NULL
);
