-- PostgreSQL twin of ../0005_windows_away.sql ("window" is a reserved word here, so it is quoted;
-- repo.py quotes it for both dialects).
ALTER TABLE deadlines ADD COLUMN "window" TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
