-- Response windows the service answers by itself: when the request's window opened (nothing
-- closes a window earlier than the uniform delay after that) and whether its answer is already
-- known to be the default: 1 = the seat can answer nothing else ("pass" at the uniform delay),
-- 2 = the player passed before the uniform delay (held until then), 0 = the seat decides.
ALTER TABLE deadlines ADD COLUMN opened_at REAL;
ALTER TABLE deadlines ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
