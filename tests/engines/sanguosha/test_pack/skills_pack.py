"""The test pack's one skill: 测试 (test_bonus) — in the draw phase, you may draw one more card."""

from __future__ import annotations

from typing import Any

from engines.flow import Ctx, Pack
from engines.sanguosha.skills import optional

TEST_HEROES = Pack("test.heroes")


@optional("draw_count", "test_bonus", pack=TEST_HEROES)
def _bonus(ctx: Ctx, f: dict[str, Any], ev: dict[str, Any]) -> None:
    ev["n"] += 1
