-- PostgreSQL twin of ../0010_ratings.sql (see there).
CREATE TABLE match_results (
    match_id    BIGINT  PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    seq         BIGINT  NOT NULL UNIQUE,
    guild_id    BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    rated       INTEGER NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE seat_results (
    match_id     BIGINT  NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      BIGINT,
    ai_level     TEXT,
    team         INTEGER NOT NULL,
    place        INTEGER NOT NULL,
    won          INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION,
    sigma_before DOUBLE PRECISION,
    mu_after     DOUBLE PRECISION,
    sigma_after  DOUBLE PRECISION,
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX seat_results_user ON seat_results (user_id, match_id);

CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
