"""鬪三國 (3KingdomsBattle): tile laying, garrisons, civil and national wars for 3–5 players.

Not yet registered in ``engines/registry.py`` (the renderer and Discord wiring come later);
registering is one line there: ``"kingdoms_battle": "engines.kingdoms_battle"``.
"""

from engines.kingdoms_battle.engine import KingdomsBattleEngine

ENGINE = KingdomsBattleEngine()

__all__ = ["ENGINE", "KingdomsBattleEngine"]
