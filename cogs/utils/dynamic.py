"""How every DynamicItem of ours reads its custom id.

Parsing only keeps the id's named groups: ``from_custom_id`` must not raise (discord.py would log
and drop the click unanswered), so all the work, decoding included, happens in ``callback`` under
``guarded``. Every template has a digits-only ``match`` group, so ``match_id`` cannot fail.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord


class CustomIdGroups:
    """Mixin placed before ``discord.ui.DynamicItem[...]`` in the bases."""

    groups: dict[str, str]
    match_id: int

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        self = cls(item)  # type: ignore[call-arg]
        self.groups = match.groupdict()
        self.match_id = int(match["match"])
        return self
