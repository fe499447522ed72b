"""Permissions: which of the bot's a channel lacks for hosting a match, and what a member may do
with a match.

The bot's own are checked when a lobby opens (from the interaction's ``app_permissions``, no extra
request), so a server owner hears "give me Attach Files here" up front instead of matches that
silently post nothing. A member's are judged in the *match's* channel, never in the channel where
the command is typed: a match id is a small number anyone can guess.
"""

from __future__ import annotations

import discord

from i18n import t
from service.models import MatchInfo


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


async def _match_channel(client: discord.Client, match: MatchInfo) -> discord.abc.GuildChannel | discord.Thread | None:
    """The channel the match was opened in (its lobby message's channel; the thread's parent),
    from the cache, else by REST; None when the bot cannot find or see it."""
    channel_id = match.channel_id or match.thread_id
    if channel_id is None or match.guild_id is None:
        return None
    guild = client.get_guild(match.guild_id)
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if channel is None:
        try:
            fetched = await client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden, discord.HTTPException):
            return None
        if not isinstance(fetched, discord.abc.GuildChannel | discord.Thread):
            return None
        channel = fetched
    return channel


async def match_permissions(client: discord.Client, match: MatchInfo, member: discord.abc.User,
                            ) -> discord.Permissions | None:
    """What ``member`` may do in the match's channel (overwrites and roles applied, a thread
    judged by its parent); None when that cannot be known (channel gone, bot without access,
    member not in the server)."""
    channel = await _match_channel(client, match)
    if channel is None:
        return None
    if not isinstance(member, discord.Member):
        guild = channel.guild
        found = guild.get_member(member.id)
        if found is None:
            try:
                found = await guild.fetch_member(member.id)
            except discord.HTTPException:
                return None
        member = found
    return channel.permissions_for(member)


async def may_view_match(client: discord.Client, match: MatchInfo, member: discord.abc.User) -> bool:
    """Whether ``member`` may see the match: its host and players always, anyone else only when
    they can view the match's channel (ids are guessable: ``/match status match:7`` must not show
    a match of a channel the user cannot open)."""
    if member.id == match.host_id or match.seat_of(member.id) is not None:
        return True
    perms = await match_permissions(client, match, member)
    return perms is not None and perms.view_channel


async def manages_match(client: discord.Client, match: MatchInfo, member: discord.abc.User) -> bool:
    """Whether ``member`` may end the match for everyone as a moderator: Manage Threads or Manage
    Server *in the match's channel* (not where they happen to type the command)."""
    perms = await match_permissions(client, match, member)
    return perms is not None and perms.view_channel and bool(perms.manage_threads or perms.manage_guild)
