-- PostgreSQL twin of ../0003_match_meta.sql.
CREATE TABLE match_meta (
    match_id BIGINT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    key      TEXT   NOT NULL,
    value    TEXT   NOT NULL,
    PRIMARY KEY (match_id, key)
);
