-- The content/state edition of the engine that wrote a match's state (Engine.edition), so a
-- match stored by an older bot is upgraded step by step (Engine.upgrade) when a newer bot loads
-- it. NULL: stored before editions were recorded, which is edition 1 of every game.
ALTER TABLE matches ADD COLUMN edition INTEGER;
