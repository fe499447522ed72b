"""The permission check that runs before a lobby opens."""

from __future__ import annotations

import discord

import bot as botmod
from cogs.utils.perms import describe_missing, missing_for_match
from i18n import t


def test_the_invite_permissions_are_enough_everywhere() -> None:
    assert missing_for_match(botmod.PERMISSIONS, in_thread=False) == []
    assert missing_for_match(botmod.PERMISSIONS, in_thread=True) == []


def test_threads_or_channel_posting_either_suffices() -> None:
    threads_only = discord.Permissions(embed_links=True, attach_files=True, create_public_threads=True,
                                       send_messages_in_threads=True)
    assert missing_for_match(threads_only, in_thread=False) == []
    channel_only = discord.Permissions(embed_links=True, attach_files=True, send_messages=True)
    assert missing_for_match(channel_only, in_thread=False) == []
    assert missing_for_match(channel_only, in_thread=True) == ["send_messages_in_threads"]


def test_missing_permissions_are_named_in_the_users_language() -> None:
    missing = missing_for_match(discord.Permissions.none(), in_thread=False)
    assert missing == ["embed_links", "attach_files", "send_messages"]
    text = describe_missing(missing, "zh-TW")
    assert t("zh-TW", "discord.perm.attach_files") in text and "attach_files" not in text
