"""The REST half of the fake (API v10): routes, auth, JSON/multipart bodies, error replies.

Handlers stay thin: they parse the request and call FakeDiscord, which owns the rules. Any
route the fake does not know answers 404 and is recorded as a violation, so a bot using an
endpoint the fake lacks is noticed instead of silently "working".
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from fakediscord.commands import check_command, check_command_list
from fakediscord.errors import ApiError, unknown
from fakediscord.messages import Upload
from fakediscord.model import snowflake

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
PUBLIC_PREFIXES = ("/interactions/", "/webhooks/")


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """JSON body, or multipart ``payload_json`` + ``files[n]`` as discord.py sends them."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            name = part.name or ""
            data = await part.read(decode=False)  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(bytes(data).decode())
            elif name.startswith("files[") and name.endswith("]"):
                index = int(name[6:-1])
                ctype = part.headers.get("Content-Type", "")  # type: ignore[union-attr]
                uploads.append(Upload(index, part.filename or f"file{index}", ctype, bytes(data)))
        return payload, uploads
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else {}), []
    return {}, []


def json_reply(data: Any, status: int = 200) -> web.Response:
    """Exactly ``application/json`` (no charset): discord.py only parses that exact header."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def build_app(fake: FakeDiscord) -> web.Application:
    api = f"/api/v{10}"

    @web.middleware
    async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
        route = f"{request.method} {request.path}"
        fake.requests.append(route)
        path = request.path[len(api):] if request.path.startswith(api) else request.path
        if (request.path.startswith(api) and not path.startswith(PUBLIC_PREFIXES)
                and request.headers.get("Authorization") != f"Bot {fake.token}"):
            return json_reply({"code": 0, "message": "401: Unauthorized"}, status=401)
        if request.path.startswith(api) and not path.startswith(PUBLIC_PREFIXES):
            wait = fake.take_global_slot(route)
            if wait > 0:  # as Discord answers it (discord.py then holds every request of the process)
                return web.Response(
                    body=json.dumps({"message": "You are being rate limited.", "retry_after": round(wait, 3),
                                     "global": True}).encode(), status=429,
                    headers={"Content-Type": "application/json", "Via": "1.1 google",
                             "Retry-After": str(max(1, math.ceil(wait))), "X-RateLimit-Global": "true",
                             "X-RateLimit-Scope": "global"})
        try:
            return await handler(request)
        except ApiError as exc:
            from fakediscord.server import ErrorReply

            fake.errors.append(ErrorReply(route, exc.status, exc.code, exc.message))
            fake.notify()
            return json_reply(exc.body(), status=exc.status)
        except web.HTTPNotFound:
            fake.violate("unknown_route", route, "the fake (and maybe Discord) has no such endpoint")
            return json_reply({"code": 0, "message": "404: Not Found"}, status=404)
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, ValueError, TypeError) as exc:
            # A malformed body (or a bug in the fake): 400 rather than 500, which discord.py retries.
            fake.violate("bad_request", route, f"{type(exc).__name__}: {exc}")
            return json_reply({"code": 50109, "message": "The request body contains invalid JSON."}, status=400)
        except web.HTTPMethodNotAllowed:
            fake.violate("unknown_route", route, "method not allowed")
            return json_reply({"code": 0, "message": "405: Method Not Allowed"}, status=405)

    app = web.Application(middlewares=[errors], client_max_size=64 * 1024 * 1024)
    r = app.router

    def route_of(request: web.Request) -> str:
        return f"{request.method} {request.path}"

    def ok(data: Any, status: int = 200) -> web.Response:
        if status == 204:
            return web.Response(status=204)
        return json_reply(data, status=status)

    # ----- identity -----------------------------------------------------------------------------
    async def me(request: web.Request) -> web.Response:
        return ok({**fake.bot_user.to_json(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def gateway_bot(request: web.Request) -> web.Response:
        return ok({"url": fake.gateway_url, "shards": 1,
                   "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                           "max_concurrency": 1}})

    async def gateway(request: web.Request) -> web.Response:
        return ok({"url": fake.gateway_url})

    async def application(request: web.Request) -> web.Response:
        return ok({"id": str(fake.application_id), "name": "TabletopBot", "description": "", "icon": None,
                   "bot_public": True, "bot_require_code_grant": False, "owner": fake.owner.to_json(),
                   "team": None, "verify_key": "0" * 64, "flags": 0, "rpc_origins": [],
                   "summary": "", "bot": fake.bot_user.to_json(), "interactions_endpoint_url": None})

    async def get_user(request: web.Request) -> web.Response:
        return ok(fake.user(request.match_info["user_id"]).to_json())

    # ----- application commands -----------------------------------------------------------------
    def check_app(request: web.Request) -> None:
        if request.match_info["app_id"] != str(fake.application_id):
            raise unknown("application")

    def command_list(request: web.Request) -> list[dict[str, Any]]:
        gid = request.match_info.get("guild_id")
        if gid is None:
            return fake.global_commands
        if int(gid) != fake.guild_id:
            raise unknown("guild")
        return fake.guild_commands.setdefault(int(gid), [])

    def stored_command(cmd: dict[str, Any], gid: str | None, old: list[dict[str, Any]]) -> dict[str, Any]:
        same = [c for c in old if c["name"] == cmd["name"] and c.get("type", 1) == cmd.get("type", 1)]
        out = {**cmd, "id": same[0]["id"] if same else str(snowflake()),
               "application_id": str(fake.application_id), "version": str(snowflake()),
               "type": cmd.get("type", 1), "description": cmd.get("description", "")}
        if gid is not None:
            out["guild_id"] = gid
        return out

    async def put_commands(request: web.Request) -> web.Response:
        check_app(request)
        body, _ = await read_body(request)
        gid = request.match_info.get("guild_id")
        errors = check_command_list(body, is_global=gid is None)
        if errors:
            fake.reject(route_of(request), errors)
        target = command_list(request)
        new = [stored_command(c, gid, target) for c in body]
        target[:] = new
        fake.notify()
        return ok(new)

    async def get_commands(request: web.Request) -> web.Response:
        check_app(request)
        return ok(command_list(request))

    async def post_command(request: web.Request) -> web.Response:
        check_app(request)
        body, _ = await read_body(request)
        errors = check_command(body)
        if errors:
            fake.reject(route_of(request), errors)
        target = command_list(request)
        cmd = stored_command(body, request.match_info.get("guild_id"), target)
        target[:] = [c for c in target if c["id"] != cmd["id"]] + [cmd]
        fake.notify()
        return ok(cmd, 201)

    async def delete_command(request: web.Request) -> web.Response:
        check_app(request)
        target = command_list(request)
        before = len(target)
        target[:] = [c for c in target if c["id"] != request.match_info["command_id"]]
        if len(target) == before:
            raise unknown("command")
        return ok(None, 204)

    # ----- interactions and webhooks ------------------------------------------------------------
    async def callback(request: web.Request) -> web.Response:
        ix = fake.interaction(request.match_info["interaction_id"], request.match_info["token"])
        body, uploads = await read_body(request)
        result = await fake.interaction_callback(route_of(request), ix, body, uploads)
        if request.query.get("with_response") in ("1", "true", "True"):
            return ok(result)
        return ok(None, 204)

    def webhook_message(request: web.Request) -> tuple[Any, Any]:
        ix = fake.interaction_by_token(request.match_info["app_id"], request.match_info["token"])
        mid = request.match_info["message_id"]
        if mid == "@original":
            return ix, fake.original_of(ix)
        msg = fake.message(mid)
        if msg.interaction_id != ix.id:
            raise unknown("message")
        return ix, msg

    async def get_webhook_message(request: web.Request) -> web.Response:
        _, msg = webhook_message(request)
        return ok(msg.to_json())

    async def patch_webhook_message(request: web.Request) -> web.Response:
        _, msg = webhook_message(request)
        body, uploads = await read_body(request)
        msg = await fake.edit_message(route_of(request), msg, body, uploads)
        return ok(msg.to_json())

    async def delete_webhook_message(request: web.Request) -> web.Response:
        _, msg = webhook_message(request)
        await fake.delete_message(msg)
        return ok(None, 204)

    async def post_followup(request: web.Request) -> web.Response:
        ix = fake.interaction_by_token(request.match_info["app_id"], request.match_info["token"])
        body, uploads = await read_body(request)
        msg = await fake.followup(route_of(request), ix, body, uploads)
        if request.query.get("wait") in ("1", "true", "True"):
            return ok(msg.to_json())
        return ok(None, 204)

    # ----- channels and messages ---------------------------------------------------------------
    async def get_channel(request: web.Request) -> web.Response:
        return ok(fake.channel(request.match_info["channel_id"]).to_json())

    async def patch_channel(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        body, _ = await read_body(request)
        if ch.is_thread:
            if "name" in body and not 1 <= len(str(body["name"])) <= 100:
                from fakediscord.errors import FieldError

                fake.reject(route_of(request), [FieldError("name", "BASE_TYPE_BAD_LENGTH",
                                                           "Must be between 1 and 100 in length.")])
            await fake.set_thread_state(ch, **{k: body[k] for k in ("archived", "locked", "name",
                                                                     "auto_archive_duration") if k in body})
        elif "name" in body:
            ch.name = str(body["name"])
            fake.notify()
        return ok(ch.to_json())

    def rate_limited(ch_id: int, request: web.Request) -> web.Response | None:
        """Discord's per-channel message bucket (POST and PATCH alike): a 429 like the real API's
        (discord.py only honours a 429 that carries Discord's headers: Via, retry_after) or None."""
        wait = fake.take_rate_slot(ch_id, route_of(request))
        if wait <= 0:
            return None
        limit = fake.rate_limit[0] if fake.rate_limit else 0
        return web.Response(
            body=json.dumps({"message": "You are being rate limited.", "retry_after": round(wait, 3),
                             "global": False, "code": 20028}).encode(), status=429,
            headers={"Content-Type": "application/json", "Via": "1.1 google",
                     "Retry-After": str(max(1, math.ceil(wait))),
                     "X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": "0",
                     "X-RateLimit-Reset": f"{time.time() + wait:.3f}", "X-RateLimit-Reset-After": f"{wait:.3f}",
                     "X-RateLimit-Bucket": f"channel-messages-{ch_id}", "X-RateLimit-Scope": "user"})

    async def post_message(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        body, uploads = await read_body(request)
        if (limited := rate_limited(ch.id, request)) is not None:
            return limited
        msg = await fake.create_message(route_of(request), ch, fake.bot_user, body, uploads)
        return ok(msg.to_json())

    async def get_messages(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        limit = int(request.query.get("limit", 50))
        if not 1 <= limit <= 100:
            from fakediscord.errors import FieldError

            fake.reject(route_of(request), [FieldError("limit", "NUMBER_TYPE_MAX", "Must be between 1 and 100.")])
        msgs = fake.messages_in(ch)
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
            return ok([m.to_json() for m in msgs[:limit]][::-1])
        return ok([m.to_json() for m in msgs[::-1][:limit]])

    async def get_message(request: web.Request) -> web.Response:
        msg = fake.message(request.match_info["message_id"], request.match_info["channel_id"])
        if msg.ephemeral:
            raise unknown("message")
        return ok(msg.to_json())

    async def patch_message(request: web.Request) -> web.Response:
        msg = fake.message(request.match_info["message_id"], request.match_info["channel_id"])
        if msg.ephemeral:
            raise unknown("message")
        if msg.author is not fake.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await read_body(request)
        if (limited := rate_limited(msg.channel_id, request)) is not None:
            return limited
        msg = await fake.edit_message(route_of(request), msg, body, uploads)
        return ok(msg.to_json())

    async def delete_message(request: web.Request) -> web.Response:
        msg = fake.message(request.match_info["message_id"], request.match_info["channel_id"])
        if msg.ephemeral:
            raise unknown("message")
        await fake.delete_message(msg)
        return ok(None, 204)

    async def thread_from_message(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        msg = fake.message(request.match_info["message_id"], ch.id)
        if msg.ephemeral:
            raise unknown("message")
        body, _ = await read_body(request)
        thread = await fake.create_thread(route_of(request), ch, body, from_message=msg)
        return ok(thread.to_json(), 201)

    async def thread_plain(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        body, _ = await read_body(request)
        thread = await fake.create_thread(route_of(request), ch, body, from_message=None)
        return ok(thread.to_json(), 201)

    async def thread_member(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        if not ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        uid = request.match_info["user_id"]
        user = fake.bot_user if uid == "@me" else fake.user(uid)
        if request.method == "PUT":
            ch.members.add(user.id)
        else:
            ch.members.discard(user.id)
        fake.notify()
        return ok(None, 204)

    async def list_thread_members(request: web.Request) -> web.Response:
        ch = fake.channel(request.match_info["channel_id"])
        return ok([{"id": str(ch.id), "user_id": str(u), "join_timestamp": ch.archive_timestamp, "flags": 0}
                   for u in sorted(ch.members)])

    async def open_dm(request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = fake.user(body.get("recipient_id"))
        return ok(fake.dm_channel_for(user).to_json())

    # ----- guild --------------------------------------------------------------------------------
    def check_guild(request: web.Request) -> None:
        if request.match_info["guild_id"] != str(fake.guild_id):
            raise unknown("guild")

    async def get_guild(request: web.Request) -> web.Response:
        check_guild(request)
        data = fake.guild_json(members=False)
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key, None)
        return ok(data)

    async def get_guild_channels(request: web.Request) -> web.Response:
        check_guild(request)
        return ok([c.to_json() for c in fake.channels.values() if c.type == 0])

    async def get_member(request: web.Request) -> web.Response:
        check_guild(request)
        user = fake.user(request.match_info["user_id"])
        return ok(user.member_json(fake._joined))

    async def active_threads(request: web.Request) -> web.Response:
        check_guild(request)
        threads = [c for c in fake.channels.values() if c.is_thread and not c.archived]
        return ok({"threads": [t.to_json() for t in threads], "members": []})

    # ----- attachments (CDN) ---------------------------------------------------------------------
    async def attachment(request: web.Request) -> web.Response:
        aid = int(request.match_info["attachment_id"])
        for msg in fake.messages.values():
            for a in msg.attachments:
                if a.id == aid:
                    return web.Response(body=a.data, content_type=a.content_type.split(";")[0])
        raise web.HTTPNotFound()

    async def not_found(request: web.Request) -> web.Response:
        raise web.HTTPNotFound()

    app_cmds = api + "/applications/{app_id}"
    r.add_get(api + "/users/@me", me)
    r.add_get(api + "/users/{user_id}", get_user)
    r.add_post(api + "/users/@me/channels", open_dm)
    r.add_get(api + "/gateway/bot", gateway_bot)
    r.add_get(api + "/gateway", gateway)
    r.add_get(api + "/applications/@me", application)
    r.add_get(api + "/oauth2/applications/@me", application)
    for prefix in (app_cmds + "/commands", app_cmds + "/guilds/{guild_id}/commands"):
        r.add_put(prefix, put_commands)
        r.add_get(prefix, get_commands)
        r.add_post(prefix, post_command)
        r.add_delete(prefix + "/{command_id}", delete_command)
    r.add_post(api + "/interactions/{interaction_id}/{token}/callback", callback)
    hook = api + "/webhooks/{app_id}/{token}"
    r.add_post(hook, post_followup)
    r.add_get(hook + "/messages/{message_id}", get_webhook_message)
    r.add_patch(hook + "/messages/{message_id}", patch_webhook_message)
    r.add_delete(hook + "/messages/{message_id}", delete_webhook_message)
    ch = api + "/channels/{channel_id}"
    r.add_get(ch, get_channel)
    r.add_patch(ch, patch_channel)
    r.add_post(ch + "/messages", post_message)
    r.add_get(ch + "/messages", get_messages)
    r.add_get(ch + "/messages/{message_id}", get_message)
    r.add_patch(ch + "/messages/{message_id}", patch_message)
    r.add_delete(ch + "/messages/{message_id}", delete_message)
    r.add_post(ch + "/messages/{message_id}/threads", thread_from_message)
    r.add_post(ch + "/threads", thread_plain)
    r.add_put(ch + "/thread-members/{user_id}", thread_member)
    r.add_delete(ch + "/thread-members/{user_id}", thread_member)
    r.add_get(ch + "/thread-members", list_thread_members)
    g = api + "/guilds/{guild_id}"
    r.add_get(g, get_guild)
    r.add_get(g + "/channels", get_guild_channels)
    r.add_get(g + "/members/{user_id}", get_member)
    r.add_get(g + "/threads/active", active_threads)
    r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", attachment)
    r.add_get("/gateway", fake.gateway.handle)
    r.add_route("*", "/{tail:.*}", not_found)
    return app
