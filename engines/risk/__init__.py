"""Risk (戰國風雲): world conquest for 2–6 players, with neutral, HQ and secret-mission variants."""

from engines.risk.battle import resolve_battle
from engines.risk.engine import RiskEngine

ENGINE = RiskEngine()

__all__ = ["ENGINE", "RiskEngine", "resolve_battle"]
