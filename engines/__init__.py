"""Pure, deterministic game engines (no discord, aiosqlite or Pillow imports here)."""
