"""Remembering each user's Discord language, so DMs (which have no interaction) use it too."""

from __future__ import annotations

import logging
from typing import Any

import discord

from .replies import user_locale

log = logging.getLogger(__name__)


async def remember_locale(client: Any, interaction: discord.Interaction) -> None:
    """Store the user's client language when it changed (one cached compare per interaction)."""
    service = getattr(client, "service", None)
    cache: dict[int, str] | None = getattr(client, "user_locales", None)
    setter = getattr(service, "set_user_locale", None)
    if setter is None or cache is None or interaction.user is None or interaction.locale is None:
        return
    locale = user_locale(interaction)
    if cache.get(interaction.user.id) == locale:
        return
    try:
        await setter(interaction.user.id, locale)
    except Exception:  # a preference must never break the interaction that carried it
        log.warning("could not store user locale", extra={"user": interaction.user.id}, exc_info=True)
        return
    cache[interaction.user.id] = locale


async def locale_for_user(service: Any, user_id: int, fallback: str) -> str:
    """The language a user last used with us, else ``fallback`` (the match language)."""
    getter = getattr(service, "get_user_locale", None)
    if getter is None:
        return fallback
    try:
        return await getter(user_id) or fallback
    except Exception:
        return fallback
