"""The fake's in-memory world (users, channels, threads, messages) and its Discord JSON shapes.

Objects keep only what tests look at and what discord.py needs to parse them; ``to_json``
produces the payloads the real API would send, so the client's own parsers run unchanged.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from fakediscord.limits import FLAG_EPHEMERAL

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count()

# Permission bits the bot's role gets: what a sensible invite link asks for.
BOT_PERMISSIONS = sum(1 << b for b in (
    6,   # add reactions
    10,  # view channel
    11,  # send messages
    13,  # manage messages
    14,  # embed links
    15,  # attach files
    16,  # read message history
    18,  # use external emojis
    31,  # use application commands
    34,  # manage threads
    35,  # create public threads
    36,  # create private threads
    38,  # send messages in threads
))
EVERYONE_PERMISSIONS = sum(1 << b for b in (6, 10, 11, 14, 15, 16, 18, 31, 35, 38))
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
MANAGE_GUILD = 1 << 5
MANAGE_THREADS = 1 << 34
ALL_PERMISSIONS = (1 << 53) - 1


def snowflake() -> int:
    """A fresh id whose timestamp part is now, like Discord's (discord.py derives created_at)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A simulated person (or the bot). ``dms_open`` False makes DMs fail with 50007."""

    id: int
    name: str
    locale: str = "en-US"
    dms_open: bool = True
    bot: bool = False
    roles: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name,
                "discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0}

    def member_json(self, joined: str) -> dict[str, Any]:
        return {"user": self.to_json(), "nick": None, "roles": [str(r) for r in self.roles],
                "joined_at": joined, "deaf": False, "mute": False, "flags": 0, "pending": False}

    def __str__(self) -> str:
        return self.name


@dataclass
class FakeChannel:
    """A text channel (0), DM (1), public (11) or private (12) thread."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=iso_now)
    position: int = 0
    message_count: int = 0
    members: set[int] = field(default_factory=set)
    #: Permission overwrites of a text channel: target id -> (type 0 role / 1 member, allow, deny).
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def to_json(self) -> dict[str, Any]:
        if self.type == 1:
            assert self.recipient is not None
            return {"id": str(self.id), "type": 1, "last_message_id": None,
                    "recipients": [self.recipient.to_json()], "flags": 0}
        out: dict[str, Any] = {"id": str(self.id), "type": self.type, "name": self.name,
                               "guild_id": str(self.guild_id), "flags": 0, "nsfw": False,
                               "last_message_id": None, "rate_limit_per_user": 0}
        if self.is_thread:
            out.update({
                "parent_id": str(self.parent_id), "owner_id": str(self.owner_id),
                "message_count": self.message_count, "total_message_sent": self.message_count,
                "member_count": max(1, len(self.members)),
                "thread_metadata": {"archived": self.archived, "locked": self.locked,
                                    "auto_archive_duration": self.auto_archive_duration,
                                    "archive_timestamp": self.archive_timestamp,
                                    "invitable": self.type == 12},
            })
        else:
            overwrites = [{"id": str(k), "type": kind, "allow": str(allow), "deny": str(deny)}
                          for k, (kind, allow, deny) in self.overwrites.items()]
            out.update({"position": self.position, "permission_overwrites": overwrites, "topic": None,
                        "parent_id": None, "default_auto_archive_duration": 1440})
        return out


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                               "url": self.url, "proxy_url": self.url, "content_type": self.content_type}
        if self.description:
            out["description"] = self.description
        if self.content_type.startswith("image/png") and len(self.data) >= 24:
            out["width"] = int.from_bytes(self.data[16:20], "big")
            out["height"] = int.from_bytes(self.data[20:24], "big")
        return out


@dataclass
class FakeMessage:
    """A message as stored: ``ephemeral_for`` is the only user who can see an ephemeral one."""

    id: int
    channel_id: int
    author: FakeUser
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: int | None = None
    webhook_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_id: int | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    edits: int = 0
    thread_id: int | None = None
    #: users mentioned now (``mentions`` in the payload) / pinged when the message was sent.
    mentions: list[FakeUser] = field(default_factory=list)
    pinged: list[FakeUser] = field(default_factory=list)
    #: the ``allowed_mentions`` of every send/edit of it, in order (None: the request had none).
    allowed_mentions: list[dict[str, Any] | None] = field(default_factory=list)
    created_mono: float = field(default_factory=time.monotonic)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    def custom_ids(self) -> list[str]:
        """Every custom id in the message's components (any nesting)."""
        out: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("custom_id"):
                    out.append(comp["custom_id"])
                walk(comp.get("components") or [])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(self.components)
        return out

    def component(self, custom_id: str) -> dict[str, Any] | None:
        found: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("custom_id") == custom_id:
                    found.append(comp)
                walk(comp.get("components") or [])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(self.components)
        return found[0] if found else None

    def buttons(self) -> list[dict[str, Any]]:
        """All buttons (type 2) in order, for tests that pick one by label or id."""
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("type") == 2:
                    out.append(comp)
                walk(comp.get("components") or [])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(self.components)
        return out

    def selects(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("type") in (3, 5, 6, 7, 8):
                    out.append(comp)
                walk(comp.get("components") or [])

        walk(self.components)
        return out

    def text(self) -> str:
        """Everything readable in the message (content, embeds, v2 text displays), for asserts."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name')} {f.get('value')}" for f in e.get("fields") or []]
            parts += [(e.get("footer") or {}).get("text") or "", (e.get("author") or {}).get("name") or ""]

        def walk(items: list[dict[str, Any]]) -> None:
            for comp in items:
                if comp.get("type") == 10:
                    parts.append(str(comp.get("content") or ""))
                walk(comp.get("components") or [])
                if isinstance(comp.get("accessory"), dict):
                    walk([comp["accessory"]])

        walk(self.components)
        return "\n".join(p for p in parts if p)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "author": self.author.to_json(),
            "content": self.content, "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp, "tts": False, "mention_everyone": False,
            "mentions": [u.to_json() for u in self.mentions], "mention_roles": [], "attachments": [a.to_json() for a in self.attachments],
            "embeds": self.embeds, "pinned": False, "type": 20 if self.interaction_user else 0,
            "flags": self.flags, "components": self.components,
        }
        if self.guild_id:
            out["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        if self.interaction_user is not None:
            out["interaction_metadata"] = {
                "id": str(self.interaction_id), "type": 2, "user": self.interaction_user.to_json(),
                "authorizing_integration_owners": {},
            }
        return out
