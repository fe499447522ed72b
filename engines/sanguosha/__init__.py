"""三国杀 (Sanguosha) identity mode for 2–10 players: the 108-card standard deck, beginner heroes
(4 HP, no skills), response windows for 闪/杀/无懈可击/桃, built on :mod:`engines.flow`."""

from engines.sanguosha.engine import SanguoshaEngine

ENGINE = SanguoshaEngine()

__all__ = ["ENGINE", "SanguoshaEngine"]
