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


async def replace_clicked_ephemeral(interaction: discord.Interaction, content: str) -> bool:
    """Turn the ephemeral message whose component was clicked into ``content`` alone (no
    buttons, embed or picture); False when the click came from no ephemeral message, or when its
    answer can no longer edit it (then the caller replies as usual).

    Discord lets a bot edit an ephemeral message only through an interaction: the click's own
    (``response.edit_message`` while unanswered, ``edit_original_response`` after a deferred
    update, whose "original" is the clicked message), or the one that sent it, for 15 minutes.
    The click's own always works, however old the message. A thinking defer made a new message,
    which is no longer the clicked one.
    """
    message = getattr(interaction, "message", None)
    if (getattr(interaction, "type", None) is not discord.InteractionType.component
            or message is None or not message.flags.ephemeral):
        return False
    kwargs: dict[str, Any] = {"content": content, "view": None, "embed": None, "attachments": []}
    try:
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        elif interaction.response.type is discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(**kwargs)
        else:
            return False
    except discord.HTTPException:  # e.g. the user dismissed it meanwhile: a reply still reaches them
        return False
    return True
