"""Answering an interaction the right way whatever happened before (responded, deferred or not)."""

from __future__ import annotations

from typing import Any

import discord

from i18n import normalize_locale


def user_locale(interaction: discord.Interaction) -> str:
    """The clicking user's client language, mapped to a catalog we ship."""
    return normalize_locale(str(interaction.locale) if interaction.locale else None)


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kwargs: Any) -> None:
    """Send a message as the first response, or as a follow-up once responded/deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
