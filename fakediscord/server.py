"""FakeDiscord: one guild, a few users and channels, an aiohttp server on a random loopback port.

Tests start it, point discord.py at it with :meth:`FakeDiscord.patch_discord`, run the real bot,
and drive it as simulated users (see ``fakediscord.driver``). Every request the bot makes is
checked against Discord's limits; anything Discord would refuse is answered with the same error
AND recorded in :attr:`FakeDiscord.violations`, so a test can fail loudly even when the bot
swallows the exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from fakediscord.driver import DriverMixin
from fakediscord.errors import ApiError, FieldError, invalid_form, unknown
from fakediscord.gateway import INTENT_DM_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_GUILDS, Gateway
from fakediscord.limits import FLAG_EPHEMERAL, FLAG_LOADING, check_message
from fakediscord.model import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeUser,
    iso_now,
    snowflake,
)

API_VERSION = 10
MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True)
class Violation:
    """Something Discord would have refused or punished (a test should see none)."""

    kind: str
    route: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.route}: {self.detail}"


@dataclass(frozen=True)
class Upload:
    index: int
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class ErrorReply:
    """Any non-2xx answer the fake gave (including legitimate ones like 50007)."""

    route: str
    status: int
    code: int
    message: str


class FakeDiscord(DriverMixin):
    """The fake Discord. ``response_deadline`` is the 3-second interaction rule (settable)."""

    def __init__(self, *, response_deadline: float = 3.0, heartbeat_interval_ms: int = 41250) -> None:
        self.response_deadline = response_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.token = "fake." + secrets.token_hex(12)
        self.application_id = snowflake()
        self.guild_id = snowflake()
        self.bot_role_id = snowflake()
        self.bot_user = FakeUser(snowflake(), "TabletopBot", bot=True, roles=[self.bot_role_id])
        self.owner = FakeUser(snowflake(), "owner")
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.errors: list[ErrorReply] = []
        self.requests: list[str] = []
        self.response_times: list[float] = []
        self.gateway = Gateway(self)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._joined = iso_now()
        self._change = asyncio.Event()
        self._saved: tuple[Any, ...] | None = None
        self.general = self.add_channel("general")
        self._init_driver()

    # ----- lifecycle -----------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        from fakediscord.rest import build_app

        self._runner = web.AppRunner(build_app(self), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's REST base and default gateway at this fake (restored on exit)."""
        import discord.gateway
        import discord.http
        import yarl

        old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old

    # ----- change notification ------------------------------------------------------------------
    def notify(self) -> None:
        """Wake everybody in :meth:`wait_for`; called after every state change."""
        self._change.set()
        self._change = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0,
                       what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy and return its value; fail with context otherwise."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            event = self._change
            value = predicate()
            if value:
                return value
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}; "
                                     f"violations={[str(v) for v in self.violations]}; "
                                     f"errors={self.errors[-5:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, 0.25))

    async def wait_ready(self, timeout: float = 15.0) -> None:
        """Until a bot session is connected and has been sent its guild."""
        await self.wait_for(self.gateway.connected, timeout, "a connected bot session")

    def violate(self, kind: str, route: str, detail: str) -> None:
        self.violations.append(Violation(kind, route, detail))
        self.notify()

    # ----- world --------------------------------------------------------------------------------
    def add_user(self, name: str, *, locale: str = "en-US", dms_open: bool = True) -> FakeUser:
        user = FakeUser(snowflake(), name, locale=locale, dms_open=dms_open)
        self.users[user.id] = user
        self.notify()
        return user

    def add_channel(self, name: str) -> FakeChannel:
        ch = FakeChannel(snowflake(), 0, name=name, guild_id=self.guild_id, position=len(self.channels))
        self.channels[ch.id] = ch
        return ch

    def user(self, user_id: int | str) -> FakeUser:
        try:
            return self.users[int(user_id)]
        except (KeyError, ValueError):
            raise unknown("user") from None

    def channel(self, channel_id: int | str) -> FakeChannel:
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise unknown("channel") from None

    def message(self, message_id: int | str, channel_id: int | str | None = None) -> FakeMessage:
        try:
            msg = self.messages[int(message_id)]
        except (KeyError, ValueError):
            raise unknown("message") from None
        if msg.deleted or (channel_id is not None and msg.channel_id != int(channel_id)):
            raise unknown("message")
        return msg

    def members(self) -> list[FakeUser]:
        return [u for u in self.users.values() if u is not self.owner]

    def guild_json(self, *, members: bool) -> dict[str, Any]:
        everyone = {"id": str(self.guild_id), "name": "@everyone", "permissions": str(EVERYONE_PERMISSIONS),
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                    "flags": 0}
        bot_role = {**everyone, "id": str(self.bot_role_id), "name": "TabletopBot",
                    "permissions": str(BOT_PERMISSIONS), "position": 1, "managed": True,
                    "tags": {"bot_id": str(self.bot_user.id)}}
        people = self.members() if members else [self.bot_user]
        return {
            "id": str(self.guild_id), "name": "Fake Guild", "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(self.owner.id), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": [everyone, bot_role], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None, "description": None, "banner": None,
            "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False, "unavailable": False,
            "joined_at": self._joined, "large": False, "member_count": len(self.members()),
            "members": [u.member_json(self._joined) for u in people], "voice_states": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "channels": [c.to_json() for c in self.channels.values() if c.type == 0],
            "threads": [c.to_json() for c in self.channels.values() if c.is_thread and not c.archived],
        }

    def dm_channel_for(self, user: FakeUser) -> FakeChannel:
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipient is user:
                return ch
        ch = FakeChannel(snowflake(), 1, recipient=user)
        self.channels[ch.id] = ch
        return ch

    # ----- messages -----------------------------------------------------------------------------
    def _check(self, route: str, payload: dict[str, Any], uploads: list[Upload], *, creating: bool) -> None:
        errors = check_message(payload, [(u.filename, u.data) for u in uploads], creating=creating)
        errors += self._check_attachment_refs(payload, uploads, None)
        if errors:
            self.reject(route, errors)

    def reject(self, route: str, errors: list[FieldError]) -> None:
        detail = "; ".join(f"{e.path or '<body>'}: {e.code} {e.message}" for e in errors)
        self.violate("invalid_form", route, detail)
        raise invalid_form(errors)

    @staticmethod
    def _check_attachment_refs(payload: dict[str, Any], uploads: list[Upload],
                               msg: FakeMessage | None) -> list[FieldError]:
        refs = payload.get("attachments")
        if refs is None:
            return []
        existing = {a.id for a in msg.attachments} if msg else set()
        indices = {u.index for u in uploads}
        errors: list[FieldError] = []
        for i, ref in enumerate(refs):
            try:
                rid = int(ref.get("id"))
            except (TypeError, ValueError):
                errors.append(FieldError(f"attachments.{i}.id", "BASE_TYPE_REQUIRED", "This field is required"))
                continue
            if rid not in indices and rid not in existing:
                errors.append(FieldError(f"attachments.{i}.id", "ATTACHMENT_NOT_FOUND",
                                         f"Attachment {rid} is neither an upload nor on the message"))
        referenced = {int(r["id"]) for r in refs if str(r.get("id", "")).isdigit()}
        for u in uploads:
            if u.index not in referenced:
                errors.append(FieldError(f"files[{u.index}]", "ATTACHMENT_NOT_REFERENCED",
                                         "Uploaded file is not listed in attachments and would be dropped"))
        return errors

    def _new_attachments(self, channel_id: int, payload: dict[str, Any],
                         uploads: list[Upload]) -> list[FakeAttachment]:
        meta = {int(r["id"]): r for r in payload.get("attachments") or [] if str(r.get("id", "")).isdigit()}
        out = []
        for u in uploads:
            ref = meta.get(u.index, {})
            aid = snowflake()
            name = ref.get("filename") or u.filename
            out.append(FakeAttachment(aid, name, u.data, _guess_type(name, u.data, u.content_type),
                                      f"{self.base_url}/attachments/{channel_id}/{aid}/{name}",
                                      ref.get("description")))
        return out

    async def create_message(self, route: str, channel: FakeChannel, author: FakeUser, payload: dict[str, Any],
                             uploads: list[Upload], *, ephemeral_for: int | None = None,
                             webhook: bool = False, interaction: Any = None,
                             extra_flags: int = 0) -> FakeMessage:
        self._check(route, payload, uploads, creating=True)
        if (channel.type == 1 and channel.recipient is not None and not channel.recipient.dms_open
                and not webhook):  # interaction answers always reach the user who interacted
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.archived:
            if channel.locked:
                raise ApiError(400, 50083, "Thread is archived")
            await self.set_thread_state(channel, archived=False)
        flags = (int(payload.get("flags") or 0) & ~FLAG_LOADING) | extra_flags
        msg = FakeMessage(
            id=snowflake(), channel_id=channel.id, author=author, guild_id=channel.guild_id,
            content=str(payload.get("content") or ""), embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            attachments=self._new_attachments(channel.id, payload, uploads),
            flags=flags, ephemeral_for=ephemeral_for if flags & FLAG_EPHEMERAL else None,
            webhook_id=self.application_id if webhook else None,
            interaction_user=interaction.user if interaction is not None else None,
            interaction_id=interaction.id if interaction is not None else None,
        )
        msg.mentions = self._mentions(route, payload, msg.content)
        msg.pinged = list(msg.mentions)
        self._check_embed_files(route, msg)
        self.messages[msg.id] = msg
        channel.message_count += 1
        if not msg.ephemeral:
            await self._dispatch_message("MESSAGE_CREATE", channel, msg.to_json())
        self.notify()
        return msg

    def _mentions(self, route: str, payload: dict[str, Any], content: str) -> list[FakeUser]:
        """Who a message really pings, by Discord's allowed_mentions rules (users only)."""
        named = [int(x) for x in MENTION.findall(content or "")]
        rules = payload.get("allowed_mentions")
        if rules is None:
            allowed = named
        else:
            parse = rules.get("parse") or []
            users = [int(u) for u in rules.get("users") or []]
            if "users" in parse and users:
                self.reject(route, [FieldError("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                                               "parse:[\"users\"] and users: [ids] are mutually exclusive.")])
            allowed = named if "users" in parse else [u for u in named if u in users]
        return [self.users[u] for u in dict.fromkeys(allowed) if u in self.users]

    def _check_embed_files(self, route: str, msg: FakeMessage) -> None:
        """``attachment://name`` in an embed must name a file of the message (else no picture)."""
        names = {a.filename for a in msg.attachments}
        for i, embed in enumerate(msg.embeds):
            for key in ("image", "thumbnail"):
                url = str((embed.get(key) or {}).get("url") or "")
                if url.startswith("attachment://") and url[len("attachment://"):] not in names:
                    self.violate("embed_attachment_missing", route,
                                 f"embeds.{i}.{key} points at {url} but the message has {sorted(names)}")

    async def edit_message(self, route: str, msg: FakeMessage, payload: dict[str, Any],
                           uploads: list[Upload]) -> FakeMessage:
        merged = {"content": payload.get("content", msg.content),
                  "embeds": payload.get("embeds", msg.embeds),
                  "components": payload.get("components", msg.components),
                  "flags": payload.get("flags", msg.flags) or 0}
        if merged["flags"] != msg.flags:
            # Only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 may change; ephemeral never does.
            merged["flags"] = (int(merged["flags"]) & ~(FLAG_EPHEMERAL | FLAG_LOADING)) | (msg.flags & FLAG_EPHEMERAL)
        errors = check_message({**merged, "attachments": payload.get("attachments")},
                               [(u.filename, u.data) for u in uploads], creating=False)
        errors += self._check_attachment_refs(payload, uploads, msg)
        kept = msg.attachments
        if payload.get("attachments") is not None:
            keep = {int(r["id"]) for r in payload["attachments"] if str(r.get("id", "")).isdigit()}
            kept = [a for a in msg.attachments if a.id in keep]
        if not (merged["content"] or merged["embeds"] or merged["components"] or kept or uploads):
            errors.append(FieldError("", "50006", "Cannot send an empty message"))
        if errors:
            self.reject(route, errors)
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.is_thread and channel.archived and not msg.ephemeral:
            raise ApiError(400, 50083, "Thread is archived")
        msg.content = str(merged["content"] or "")
        msg.embeds = list(merged["embeds"] or [])
        msg.components = list(merged["components"] or [])
        msg.flags = int(merged["flags"]) & ~FLAG_LOADING
        msg.attachments = kept + self._new_attachments(msg.channel_id, payload, uploads)
        if "content" in payload:
            msg.mentions = self._mentions(route, payload, msg.content)
        self._check_embed_files(route, msg)
        msg.edited_timestamp = iso_now()
        msg.edits += 1
        if channel is not None and not msg.ephemeral:
            await self._dispatch_message("MESSAGE_UPDATE", channel, msg.to_json())
        self.notify()
        return msg

    async def delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        channel = self.channels.get(msg.channel_id)
        if channel is not None and not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if channel.guild_id:
                data["guild_id"] = str(channel.guild_id)
            await self._dispatch_message("MESSAGE_DELETE", channel, data)
        self.notify()

    async def _dispatch_message(self, event: str, channel: FakeChannel, data: dict[str, Any]) -> None:
        intent = INTENT_DM_MESSAGES if channel.type == 1 else INTENT_GUILD_MESSAGES
        await self.gateway.dispatch(event, data, intent=intent)

    # ----- threads ------------------------------------------------------------------------------
    async def create_thread(self, route: str, parent: FakeChannel, body: dict[str, Any], *,
                            from_message: FakeMessage | None) -> FakeChannel:
        name = body.get("name")
        errors: list[FieldError] = []
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.append(FieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        duration = int(body.get("auto_archive_duration") or 4320)
        if duration not in (60, 1440, 4320, 10080):
            errors.append(FieldError("auto_archive_duration", "BASE_TYPE_CHOICES",
                                     "Value must be one of (60, 1440, 4320, 10080)."))
        if errors:
            self.reject(route, errors)
        if parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if from_message is not None:
            if from_message.thread_id is not None:
                raise ApiError(400, 160004, "A thread has already been created for this message")
            tid, kind = from_message.id, 11
            from_message.thread_id = tid
        else:
            tid, kind = snowflake(), int(body.get("type") or 12)
            if kind not in (11, 12):
                self.reject(route, [FieldError("type", "BASE_TYPE_CHOICES", "Value must be one of (11, 12).")])
        thread = FakeChannel(tid, kind, name=str(name), guild_id=self.guild_id, parent_id=parent.id,
                             owner_id=self.bot_user.id, auto_archive_duration=duration,
                             members={self.bot_user.id})
        self.channels[tid] = thread
        await self.gateway.dispatch("THREAD_CREATE", {**thread.to_json(), "newly_created": True},
                                    intent=INTENT_GUILDS)
        self.notify()
        return thread

    async def set_thread_state(self, thread: FakeChannel, **changes: Any) -> None:
        for key in ("archived", "locked", "name", "auto_archive_duration"):
            if key in changes and changes[key] is not None:
                setattr(thread, key, changes[key])
        if "archived" in changes:
            thread.archive_timestamp = iso_now()
        await self.gateway.dispatch("THREAD_UPDATE", thread.to_json(), intent=INTENT_GUILDS)
        self.notify()

    # ----- reading (test side) -----------------------------------------------------------------
    def messages_in(self, channel: FakeChannel | int) -> list[FakeMessage]:
        """Public (non-ephemeral, not deleted) messages of a channel or thread, oldest first."""
        cid = channel.id if isinstance(channel, FakeChannel) else int(channel)
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted and not m.ephemeral]

    def dms_of(self, user: FakeUser) -> list[FakeMessage]:
        return [m for m in self.messages.values() if not m.deleted and
                (ch := self.channels.get(m.channel_id)) is not None and ch.type == 1 and ch.recipient is user]

    def ephemerals_of(self, user: FakeUser) -> list[FakeMessage]:
        return [m for m in self.messages.values() if m.ephemeral_for == user.id and not m.deleted]

    def visible_to(self, user: FakeUser, channel: FakeChannel | int) -> list[FakeMessage]:
        """What ``user`` sees in a channel: public messages plus their own ephemerals there."""
        cid = channel.id if isinstance(channel, FakeChannel) else int(channel)
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted
                and (not m.ephemeral or m.ephemeral_for == user.id)]

    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    def commands(self) -> list[dict[str, Any]]:
        """Commands a user can see in the guild: guild ones first, then global ones."""
        return [*self.guild_commands.get(self.guild_id, []), *self.global_commands]

    def assert_clean(self) -> None:
        """Fail with every violation listed (and interactions never answered); call at the end of a test."""
        for ix in self.unanswered():
            ix.expired = True
            self.violate("no_response", f"interaction {ix.id}", f"type {ix.type} {ix.data} was never answered")
        assert not self.violations, "Discord rule violations:\n" + "\n".join(map(str, self.violations))


def _guess_type(name: str, data: bytes, declared: str) -> str:
    """Like Discord: sniff PNG/JPEG/GIF bytes, else trust the extension, else the declared type."""
    for magic, kind in ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
                        (b"GIF8", "image/gif")):
        if data.startswith(magic):
            return kind
    lower = name.lower()
    for ext, kind in ((".png", "image/png"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"),
                      (".gif", "image/gif"), (".webp", "image/webp"), (".txt", "text/plain"),
                      (".json", "application/json")):
        if lower.endswith(ext):
            return kind
    return declared or "application/octet-stream"
