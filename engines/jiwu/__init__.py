"""极武三国: a deck-building and area-control game of the Three Kingdoms for 2–4 players.

Registered in ``engines/registry.py`` as ``jiwu``; pictures in ``render/jiwu.py``; played in
Discord through the private DM panel (``Engine.private_panel``). See ``docs/rules/jiwu.md``.
"""

from engines.jiwu.engine import JiwuEngine

ENGINE = JiwuEngine()

__all__ = ["ENGINE", "JiwuEngine"]
