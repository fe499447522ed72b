-- PostgreSQL twin of ../0004_lobby_expiry.sql.
CREATE INDEX matches_status_updated ON matches (status, updated_at);
