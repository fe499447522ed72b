-- PostgreSQL twin of ../0006_window_floor.sql (see there).
ALTER TABLE deadlines ADD COLUMN opened_at DOUBLE PRECISION;
ALTER TABLE deadlines ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
