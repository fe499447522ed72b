"""Messages and threads: every create/edit goes through Discord's limits before it is stored.

Mixed into FakeDiscord; the REST layer and the interaction callbacks both end up here, so one
set of checks covers channel posts, DMs, interaction responses and followups alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fakediscord.errors import ApiError, FieldError
from fakediscord.gateway import INTENT_DM_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_GUILDS
from fakediscord.limits import FLAG_EPHEMERAL, FLAG_LOADING, check_message
from fakediscord.model import FakeAttachment, FakeChannel, FakeMessage, FakeUser, iso_now, snowflake

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True)
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    content_type: str
    data: bytes


class MessagesMixin:
    """Creating, editing and deleting messages and threads (state lives on FakeDiscord)."""

    def _check(self: FakeDiscord, route: str, payload: dict[str, Any], uploads: list[Upload], *,
               creating: bool) -> None:
        errors = check_message(payload, [(u.filename, u.data) for u in uploads], creating=creating)
        errors += self._check_attachment_refs(payload, uploads, None)
        if errors:
            self.reject(route, errors)

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

    def _new_attachments(self: FakeDiscord, channel_id: int, payload: dict[str, Any],
                         uploads: list[Upload]) -> list[FakeAttachment]:
        meta = {int(r["id"]): r for r in payload.get("attachments") or [] if str(r.get("id", "")).isdigit()}
        out = []
        for u in uploads:
            ref = meta.get(u.index, {})
            aid = snowflake()
            name = discord_filename(ref.get("filename") or u.filename)
            out.append(FakeAttachment(aid, name, u.data, _guess_type(name, u.data, u.content_type),
                                      f"{self.base_url}/attachments/{channel_id}/{aid}/{name}",
                                      ref.get("description")))
        return out

    async def create_message(self: FakeDiscord, route: str, channel: FakeChannel, author: FakeUser, payload: dict[str, Any],
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
        msg.allowed_mentions.append(payload.get("allowed_mentions"))
        self._check_embed_files(route, msg)
        self.messages[msg.id] = msg
        channel.message_count += 1
        if not msg.ephemeral:
            await self._dispatch_message("MESSAGE_CREATE", channel, msg.to_json())
        self.notify()
        return msg

    def _mentions(self: FakeDiscord, route: str, payload: dict[str, Any], content: str) -> list[FakeUser]:
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

    def _check_embed_files(self: FakeDiscord, route: str, msg: FakeMessage) -> None:
        """``attachment://name`` in an embed must name a file of the message (else no picture)."""
        names = {a.filename for a in msg.attachments}
        for i, embed in enumerate(msg.embeds):
            for key in ("image", "thumbnail"):
                url = str((embed.get(key) or {}).get("url") or "")
                if url.startswith("attachment://") and url[len("attachment://"):] not in names:
                    self.violate("embed_attachment_missing", route,
                                 f"embeds.{i}.{key} points at {url} but the message has {sorted(names)}")

    async def edit_message(self: FakeDiscord, route: str, msg: FakeMessage, payload: dict[str, Any],
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
        msg.allowed_mentions.append(payload.get("allowed_mentions"))
        self._check_embed_files(route, msg)
        msg.edited_timestamp = iso_now()
        msg.edits += 1
        if channel is not None and not msg.ephemeral:
            await self._dispatch_message("MESSAGE_UPDATE", channel, msg.to_json())
        self.notify()
        return msg

    async def delete_message(self: FakeDiscord, msg: FakeMessage) -> None:
        msg.deleted = True
        channel = self.channels.get(msg.channel_id)
        if channel is not None and not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if channel.guild_id:
                data["guild_id"] = str(channel.guild_id)
            await self._dispatch_message("MESSAGE_DELETE", channel, data)
        self.notify()

    async def _dispatch_message(self: FakeDiscord, event: str, channel: FakeChannel, data: dict[str, Any]) -> None:
        intent = INTENT_DM_MESSAGES if channel.type == 1 else INTENT_GUILD_MESSAGES
        await self.gateway.dispatch(event, data, intent=intent)

    # ----- threads ------------------------------------------------------------------------------
    async def create_thread(self: FakeDiscord, route: str, parent: FakeChannel, body: dict[str, Any], *,
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

    async def set_thread_state(self: FakeDiscord, thread: FakeChannel, **changes: Any) -> None:
        for key in ("archived", "locked", "name", "auto_archive_duration"):
            if key in changes and changes[key] is not None:
                setattr(thread, key, changes[key])
        if "archived" in changes:
            thread.archive_timestamp = iso_now()
        await self.gateway.dispatch("THREAD_UPDATE", thread.to_json(), intent=INTENT_GUILDS)
        self.notify()


def discord_filename(name: str) -> str:
    """Discord's upload renaming: spaces become ``_``, other characters outside ``[A-Za-z0-9._-]``
    are dropped (so ``attachment://棋盘.png`` no longer matches: exactly the production bug)."""
    cleaned = "".join(ch for ch in re.sub(r"\s", "_", name) if ch.isascii() and (ch.isalnum() or ch in "._-"))
    stem, dot, ext = cleaned.rpartition(".")
    if not dot:
        stem, ext = cleaned, ""
    stem = stem.strip("._") or "unknown"
    return f"{stem}.{ext}" if ext else stem


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
