-- Response windows and 托管: a deadline remembers the window its request belongs to (the scheduler
-- wakes for an AI's delayed window answer; a window's silent seats are answered together), and a
-- seat counts its consecutive time-outs and whether the AI plays for it until its player is back.
ALTER TABLE deadlines ADD COLUMN window TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
