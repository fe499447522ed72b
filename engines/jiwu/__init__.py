"""极武三国: a deck-building and area-control game of the Three Kingdoms for 2–4 players.

Not yet registered in ``engines/registry.py`` (the renderer and Discord wiring come later);
registering is one line there: ``"jiwu": "engines.jiwu"``.
"""

from engines.jiwu.engine import JiwuEngine

ENGINE = JiwuEngine()

__all__ = ["ENGINE", "JiwuEngine"]
