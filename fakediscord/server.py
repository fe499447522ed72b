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
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from fakediscord.driver import DriverMixin
from fakediscord.errors import FieldError, invalid_form, unknown
from fakediscord.gateway import Gateway
from fakediscord.messages import MessagesMixin
from fakediscord.model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FakeChannel,
    FakeMessage,
    FakeUser,
    iso_now,
    snowflake,
)

API_VERSION = 10
#: Discord's per-channel message bucket as observed: 5 creates/edits per 5 s, then 429.
CHANNEL_RATE_LIMIT = (5, 5.0)
#: Discord's global limit: requests per second per bot, over every route but the interaction
#: ones (callbacks and the interaction webhooks are exempt), whichever process sends them.
GLOBAL_RATE_LIMIT = 50


@dataclass(frozen=True)
class Violation:
    """Something Discord would have refused or punished (a test should see none)."""

    kind: str
    route: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.route}: {self.detail}"


@dataclass(frozen=True)
class ErrorReply:
    """Any non-2xx answer the fake gave (including legitimate ones like 50007)."""

    route: str
    status: int
    code: int
    message: str


class FakeDiscord(MessagesMixin, DriverMixin):
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
        #: Seconds an interaction's token works on its webhook routes (followups, editing or
        #: deleting its messages): Discord's 15 minutes, then 401 / 50027 (settable for tests).
        self.token_lifetime = 15 * 60.0
        #: (messages, seconds) per channel before 429, like Discord's channel bucket, counting
        #: message POSTs and PATCHes alike (Discord: about 5 per 5 s); None = off.
        self.rate_limit: tuple[int, float] | None = CHANNEL_RATE_LIMIT
        #: Routes answered 429 (discord.py waits and retries them): a live game should have none.
        self.rate_limited: list[str] = []
        #: Requests per second before a global 429 (``GLOBAL_RATE_LIMIT``); None = off.
        self.global_limit: int | None = GLOBAL_RATE_LIMIT
        #: Loop times of the requests let through that count against the global limit.
        self.global_calls: list[float] = []
        #: Every message POST/PATCH let through: (loop time, channel id, method).
        self.message_calls: list[tuple[float, int, str]] = []
        #: Server-wide permissions granted to users beyond @everyone's (see ``grant``).
        self.guild_permissions: dict[int, int] = {}
        self._posted: dict[int, list[float]] = {}
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

    async def set_overwrite(self, channel: FakeChannel, target: FakeUser | None, *, allow: int = 0,
                            deny: int = 0) -> None:
        """Give ``channel`` a permission overwrite for ``target`` (None: @everyone), like a server
        admin would, and tell connected clients (CHANNEL_UPDATE) so their caches follow."""
        if target is None:
            channel.overwrites[self.guild_id] = (0, allow, deny)
        else:
            channel.overwrites[target.id] = (1, allow, deny)
        await self.gateway.dispatch("CHANNEL_UPDATE", channel.to_json())
        self.notify()

    def grant(self, user: FakeUser, permissions: int) -> None:
        """Server-wide permissions for ``user`` on top of @everyone's (a moderator role)."""
        self.guild_permissions[user.id] = self.guild_permissions.get(user.id, 0) | permissions

    def permissions_in(self, channel: FakeChannel, user: FakeUser) -> int:
        """Discord's permission computation: @everyone + the user's server-wide grants, then the
        channel's @everyone, role and member overwrites in that order; a thread uses its parent."""
        if channel.is_thread and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id]
        base = EVERYONE_PERMISSIONS | self.guild_permissions.get(user.id, 0)
        if user.id == self.bot_user.id:
            base |= BOT_PERMISSIONS
        if user is self.owner or base & ADMINISTRATOR:
            return ALL_PERMISSIONS
        perms = base
        everyone = channel.overwrites.get(self.guild_id)
        if everyone is not None:
            perms = (perms & ~everyone[2]) | everyone[1]
        allow = deny = 0
        for role in user.roles:
            ow = channel.overwrites.get(role)
            if ow is not None:
                allow, deny = allow | ow[1], deny | ow[2]
        perms = (perms & ~deny) | allow
        mine = channel.overwrites.get(user.id)
        if mine is not None and mine[0] == 1:
            perms = (perms & ~mine[2]) | mine[1]
        return perms

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

    def reject(self, route: str, errors: list[FieldError]) -> None:
        """Record a violation and answer 400 Invalid Form Body, as Discord would."""
        detail = "; ".join(f"{e.path or '<body>'}: {e.code} {e.message}" for e in errors)
        self.violate("invalid_form", route, detail)
        raise invalid_form(errors)

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

    def take_rate_slot(self, channel_id: int, route: str) -> float:
        """0 when a message POST/PATCH may go now, else the seconds to wait (answered 429)."""
        now = asyncio.get_running_loop().time()
        if self.rate_limit is None:
            self.message_calls.append((now, channel_id, route.split(" ", 1)[0]))
            return 0.0
        limit, per = self.rate_limit
        recent = [t for t in self._posted.get(channel_id, []) if now - t < per]
        if len(recent) >= limit:
            self.rate_limited.append(route)
            self._posted[channel_id] = recent
            return per - (now - recent[0])
        self._posted[channel_id] = [*recent, now]
        self.message_calls.append((now, channel_id, route.split(" ", 1)[0]))
        return 0.0

    def take_global_slot(self, route: str) -> float:
        """0 when a request counted against the global limit may go now, else the seconds to
        wait (answered 429 with ``global: true``)."""
        now = asyncio.get_running_loop().time()
        if self.global_limit is not None:
            recent = [t for t in self.global_calls[-self.global_limit:] if now - t < 1.0]
            if len(recent) >= self.global_limit:
                self.rate_limited.append(route)
                return 1.0 - (now - recent[0])
        self.global_calls.append(now)
        return 0.0

    def global_peak(self, window: float = 1.0) -> int:
        """Most requests counted against the global limit within any ``window`` seconds."""
        return _densest(self.global_calls, window)

    def calls_in(self, channel: FakeChannel | int, window: float = 60.0) -> int:
        """Most message POSTs and PATCHes the bot made in the channel within any ``window``
        seconds (posts per minute by default)."""
        cid = channel.id if isinstance(channel, FakeChannel) else int(channel)
        return _densest((t for t, c, _ in self.message_calls if c == cid), window)

    def burst(self, channel: FakeChannel | int, window: float = 5.0) -> int:
        """Most public messages created in the channel within any ``window`` seconds.

        Discord allows a bot about 5 messages per 5 s per channel before answering 429 (discord.py
        then waits), so a high number means players would watch the bot stall.
        """
        return _densest((m.created_mono for m in self.messages_in(channel)), window)

    def assert_not_rate_limited(self) -> None:
        """Fail when any message POST/PATCH was answered 429: discord.py waits those out, so a
        bot that trips the channel bucket only looks slow, and players watch it stall."""
        assert not self.rate_limited, f"{len(self.rate_limited)} requests answered 429: {self.rate_limited[:5]}"

    def commands(self) -> list[dict[str, Any]]:
        """Commands a user can see in the guild: guild ones first, then global ones."""
        return [*self.guild_commands.get(self.guild_id, []), *self.global_commands]

    def assert_clean(self) -> None:
        """Fail with every violation listed (and interactions never answered); call at the end of a test."""
        for ix in self.unanswered():
            ix.expired = True
            self.violate("no_response", f"interaction {ix.id}", f"type {ix.type} {ix.data} was never answered")
        assert not self.violations, "Discord rule violations:\n" + "\n".join(map(str, self.violations))
        # A 429 is Discord saying the bot went too fast: discord.py waits and retries, so the test
        # would pass while players watch the bot stall. Tests that provoke one on purpose clear
        # ``rate_limited`` (or don't call this).
        self.assert_not_rate_limited()


def _densest(moments: Iterable[float], window: float) -> int:
    """Most of ``moments`` within any ``window`` seconds (a sliding window over the sorted times)."""
    times = sorted(moments)
    best, lo = 0, 0
    for hi, moment in enumerate(times):
        while lo < hi and moment - times[lo] > window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best
