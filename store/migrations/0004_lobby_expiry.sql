-- Lobbies idle past their time-to-live are found by status and last change (MatchService.run_due).
CREATE INDEX matches_status_updated ON matches (status, updated_at);
