"""鬪三國 (3KingdomsBattle): tile laying, garrisons, civil and national wars for 3–5 players.

Registered in ``engines/registry.py`` as ``kingdoms_battle``: played in Discord (board and
placement pictures in ``render/kingdoms_battle.py``) and in the terminal (``python -m cli play
kingdoms_battle``, text board in ``cli/ascii_kingdoms_battle.py``). Rules and choices:
``docs/rules/kingdoms_battle.md``.
"""

from engines.kingdoms_battle.engine import KingdomsBattleEngine

ENGINE = KingdomsBattleEngine()

__all__ = ["ENGINE", "KingdomsBattleEngine"]
