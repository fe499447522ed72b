"""Which of the bot's permissions a channel lacks for hosting a match.

Checked when a lobby opens (from the interaction's ``app_permissions``, no extra request), so a
server owner hears "give me Attach Files here" up front instead of matches that silently post
nothing.
"""

from __future__ import annotations

import discord

from i18n import t


def missing_for_match(perms: discord.Permissions, *, in_thread: bool) -> list[str]:
    """Permission names (``discord.perm.*`` keys' last part) the bot needs here but lacks.

    In a text channel the match gets a thread when possible, else plays in the channel; so
    either thread rights or plain Send Messages will do.
    """
    missing = [name for name in ("embed_links", "attach_files") if not getattr(perms, name)]
    if in_thread:
        if not perms.send_messages_in_threads:
            missing.append("send_messages_in_threads")
    elif not (perms.send_messages or (perms.create_public_threads and perms.send_messages_in_threads)):
        missing.append("send_messages")
    return missing


def describe_missing(missing: list[str], locale: str) -> str:
    return ", ".join(t(locale, f"discord.perm.{name}") for name in missing)
