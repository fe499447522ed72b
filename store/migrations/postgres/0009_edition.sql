-- PostgreSQL twin of ../0009_edition.sql (see there).
ALTER TABLE matches ADD COLUMN edition INTEGER;
