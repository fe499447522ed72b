"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME and event dispatch.

Sessions outlive connections so a client that drops can RESUME and get the events it missed,
and a brand-new client (a restarted bot) simply IDENTIFYs and becomes the current session.
Transport compression ``zlib-stream`` is implemented for real (one compressor per connection,
each payload flushed with Z_SYNC_FLUSH) because that is what discord.py asks for.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

log = logging.getLogger(__name__)

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME = 0, 1, 2, 3, 6
OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 7, 8, 9, 10, 11

INTENT_GUILDS = 1 << 0
INTENT_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12


class Connection:
    """One websocket; serialises sends so the zlib stream stays in order."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                log.debug("send on a closing websocket dropped")


@dataclass
class Session:
    id: str
    intents: int
    seq: int = 0
    conn: Connection | None = None
    backlog: list[dict[str, Any]] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.backlog.append(payload)
        del self.backlog[:-500]
        if self.conn is not None:
            await self.conn.send(payload)


class Gateway:
    """Owns the sessions; ``current`` is the session events go to."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.connections: set[web.WebSocketResponse] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.compress_modes: list[str | None] = []
        #: Several bot processes (one per shard): when set, every live session gets the guild
        #: events (each process keeps its caches), and each interaction goes to the session this
        #: picks among the live ones (a DM's goes to shard 0 on Discord, a guild's to the guild's
        #: shard; a test may pick at random). None: the newest session gets everything.
        self.route: Callable[[list[Session]], Session] | None = None

    def live(self) -> list[Session]:
        """Sessions with a connection that got READY, oldest first."""
        return [s for s in self.sessions.values() if s.conn is not None and s.ready.is_set()]

    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int = INTENT_GUILDS) -> bool:
        """Send to the current session if it subscribed to ``intent``; False when nobody is there."""
        if self.route is not None:
            live = self.live()
            if not live:
                return False
            targets = [self.route(live)] if event == "INTERACTION_CREATE" else live
            for session in targets:
                if not intent or session.intents & intent:
                    await session.dispatch(event, data)
            return True
        session = self.current
        if session is None:
            return False
        if intent and not session.intents & intent:
            return True
        await session.dispatch(event, data)
        return True

    def connected(self) -> bool:
        s = self.current
        return s is not None and s.conn is not None and s.ready.is_set()

    async def close_all(self) -> None:
        for ws in list(self.connections):
            await ws.close(code=1001)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.connections.add(ws)
        self.compress_modes.append(request.query.get("compress"))
        conn = Connection(ws, request.query.get("compress"))
        session: Session | None = None
        try:
            await conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    data = json.loads(msg.data)
                elif msg.type == WSMsgType.BINARY:
                    data = json.loads(msg.data.decode())
                else:
                    break
                session = await self._on_message(conn, session, data) or session
        finally:
            self.connections.discard(ws)
            if session is not None and session.conn is conn:
                session.conn = None
            self.fake.notify()
        return ws

    async def _on_message(self, conn: Connection, session: Session | None,
                          msg: dict[str, Any]) -> Session | None:
        op, d = msg.get("op"), msg.get("d")
        if op == OP_HEARTBEAT:
            await conn.send({"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            return await self._identify(conn, d or {})
        elif op == OP_RESUME:
            return await self._resume(conn, d or {})
        elif op == OP_REQUEST_MEMBERS and session is not None:
            await self._members_chunk(session, d or {})
        elif op == OP_PRESENCE:
            pass
        else:
            log.debug("fake gateway ignores op %s", op)
        return None

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> Session | None:
        if d.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identify_count += 1
        session = Session(id=secrets.token_hex(16), intents=int(d.get("intents", 0)))
        # Discord lets several sessions of one bot connect; the newest one gets the events here
        # (the older process is usually on its way out during a restart).
        self.current = session
        self.sessions[session.id] = session
        session.conn = conn
        fake = self.fake
        ready = {
            "v": 10, "user": {**fake.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(fake.guild_id), "unavailable": True}],
            "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": fake.gateway_url, "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "user_settings": {}, "presences": [],
            "guild_join_requests": [], "geo_ordered_rtc_regions": [], "_trace": ["fake-discord"],
        }
        if "shard" in d:
            ready["shard"] = d["shard"]
        await session.dispatch("READY", ready)
        await session.dispatch("GUILD_CREATE", fake.guild_json(members=bool(session.intents & INTENT_MEMBERS)))
        session.ready.set()
        fake.notify()
        return session

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(d.get("session_id")))
        if d.get("token") != self.fake.token or session is None or session is not self.current:
            await conn.send({"op": OP_INVALID_SESSION, "d": False})
            return None
        self.resume_count += 1
        session.conn = conn
        seq = int(d.get("seq") or 0)
        for payload in [p for p in session.backlog if p["s"] > seq]:
            await conn.send(payload)
        await session.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        self.fake.notify()
        return session

    async def _members_chunk(self, session: Session, d: dict[str, Any]) -> None:
        guild = self.fake.guild_json(members=True)
        chunk = {"guild_id": str(self.fake.guild_id), "members": guild["members"], "chunk_index": 0,
                 "chunk_count": 1, "not_found": []}
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT (as Discord does during deploys) to exercise RESUME."""
        s = self.current
        if s is not None and s.conn is not None:
            await s.conn.send({"op": OP_RECONNECT, "d": None})
