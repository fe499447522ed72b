-- Match results and ratings (issue 21). ``match_results`` has one row per finished match that had
-- a person in it, written in the transaction that finished it; ``seq`` is the order in which
-- those transactions took the ratings (service.results serialises them), which is the order
-- ``tasks.py ratings --rebuild`` replays them in. ``seat_results`` is each seat's place and, for a
-- rated match, its rating before and after (NULL: not rated). ``ratings`` is the current
-- openskill (Plackett-Luce) rating of a person per server (0: outside a server) and game.
CREATE TABLE match_results (
    match_id    INTEGER PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL UNIQUE,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    rated       INTEGER NOT NULL,
    finished_at REAL    NOT NULL
);

CREATE TABLE seat_results (
    match_id     INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER,
    ai_level     TEXT,
    team         INTEGER NOT NULL,
    place        INTEGER NOT NULL,
    won          INTEGER NOT NULL,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX seat_results_user ON seat_results (user_id, match_id);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
