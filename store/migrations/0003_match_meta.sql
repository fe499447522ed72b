-- Front-end bookkeeping per match that must survive a restart (e.g. the id of the status post
-- whose buttons must be removed when the next one is sent). Small string values only.
CREATE TABLE match_meta (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (match_id, key)
);
