-- Standing answers (issue 19) are logged as what they are: source 'auto', beside 'user', 'ai',
-- 'timeout' and 'system' (a seat that could answer nothing else, resignations, upgrades). SQLite
-- cannot alter a CHECK, so the table is rebuilt with its rows (same columns, same order).
CREATE TABLE actions_0011 (
    match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    seat       INTEGER,
    request_id TEXT,
    action     TEXT    NOT NULL,
    events     TEXT    NOT NULL DEFAULT '[]',
    source     TEXT    NOT NULL CHECK (source IN ('user', 'ai', 'timeout', 'system', 'auto')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (match_id, version)
);
INSERT INTO actions_0011 (match_id, version, seat, request_id, action, events, source, created_at)
    SELECT match_id, version, seat, request_id, action, events, source, created_at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_0011 RENAME TO actions;
