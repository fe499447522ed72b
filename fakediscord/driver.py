"""Simulated users: slash commands, button clicks, selects, autocomplete and modals.

The driver builds INTERACTION_CREATE payloads the way Discord does (options typed from the
registered command, resolved users/channels, the clicked message, the user's locale), sends them
over the gateway and then tracks the bot's answers: the first callback must come within
``response_deadline`` seconds, and only once.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from fakediscord.errors import ApiError, FieldError
from fakediscord.limits import FLAG_EPHEMERAL, FLAG_LOADING, check_autocomplete, check_modal
from fakediscord.model import (
    EVERYONE_PERMISSIONS,
    FakeChannel,
    FakeMessage,
    FakeUser,
    snowflake,
)

if TYPE_CHECKING:
    from fakediscord.messages import Upload
    from fakediscord.server import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
CALLBACK_TYPES = {1, 4, 5, 6, 7, 8, 9}


class FakeUsageError(AssertionError):
    """The test asked for something a real user could not do (click a missing button...)."""


@dataclass
class FakeInteraction:
    """One interaction and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: dict[str, Any]
    message: FakeMessage | None = None
    dispatched_at: float = 0.0
    responded_at: float | None = None
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    expired: bool = False  # answered too late (already reported as late_response)
    responded: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    async def wait_response(self, timeout: float = 5.0) -> FakeInteraction:
        try:
            await asyncio.wait_for(self.responded.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot never answered interaction {self.type} {self.data}") from None
        return self

    def replies(self) -> list[FakeMessage]:
        """The original response (if a message) and the followups, in order."""
        return ([self.original] if self.original is not None else []) + self.followups


class DriverMixin:
    """Mixed into FakeDiscord; everything here acts as a user would through the Discord client."""

    interactions: dict[int, FakeInteraction]

    def _init_driver(self) -> None:
        self.interactions = {}

    # ----- building and sending ---------------------------------------------------------------
    def _interaction_payload(self: FakeDiscord, ix: FakeInteraction) -> dict[str, Any]:
        ch = ix.channel
        payload: dict[str, Any] = {
            "id": str(ix.id), "application_id": str(self.application_id), "type": ix.type,
            "data": ix.data, "token": ix.token, "version": 1, "locale": ix.user.locale,
            "app_permissions": str(self.permissions_in(ch, self.bot_user)), "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel": ch.to_json(), "channel_id": str(ch.id),
        }
        if ch.guild_id:
            payload.update({
                "guild_id": str(self.guild_id), "guild_locale": "en-US", "context": 0,
                "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
                "member": {**ix.user.member_json(self._joined), "permissions": str(self.permissions_in(ch, ix.user))},
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            })
        else:
            payload.update({"user": ix.user.to_json(), "context": 1,
                            "authorizing_integration_owners": {"0": str(self.guild_id)}})
        if ix.message is not None:
            payload["message"] = ix.message.to_json()
        return payload

    async def _send_interaction(self: FakeDiscord, itype: int, user: FakeUser, channel: FakeChannel,
                                data: dict[str, Any], message: FakeMessage | None = None, *,
                                wait: bool = True, timeout: float = 5.0) -> FakeInteraction:
        if user.id not in self.users:
            raise FakeUsageError(f"unknown user {user}")
        await self.wait_ready()
        ix = FakeInteraction(snowflake(), "tok_" + secrets.token_urlsafe(24), itype, user, channel, data, message)
        self.interactions[ix.id] = ix
        ix.dispatched_at = asyncio.get_running_loop().time()
        await self.gateway.dispatch("INTERACTION_CREATE", self._interaction_payload(ix), intent=0)
        if wait:
            await ix.wait_response(timeout)
        return ix

    # ----- slash commands ---------------------------------------------------------------------
    def find_command(self: FakeDiscord, path: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The registered command for ``["match", "status"]`` and its leaf option specs."""
        for cmd in self.commands():
            if cmd.get("type", 1) == 1 and cmd["name"] == path[0]:
                node: dict[str, Any] = cmd
                for part in path[1:]:
                    subs = [o for o in node.get("options") or [] if o["type"] in (1, 2) and o["name"] == part]
                    if not subs:
                        raise FakeUsageError(f"/{' '.join(path)}: no sub-command {part!r}")
                    node = subs[0]
                if any(o["type"] in (1, 2) for o in node.get("options") or []):
                    raise FakeUsageError(f"/{' '.join(path)} needs a sub-command")
                return cmd, list(node.get("options") or [])
        raise FakeUsageError(f"/{path[0]} is not registered (commands: {[c['name'] for c in self.commands()]})")

    def _option_value(self: FakeDiscord, spec: dict[str, Any], value: Any,
                      resolved: dict[str, dict[str, Any]]) -> Any:
        kind = spec["type"]
        if kind == 6:
            user = value if isinstance(value, FakeUser) else self.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.to_json()
            member = user.member_json(self._joined)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = {**member, "permissions": str(EVERYONE_PERMISSIONS)}
            return str(user.id)
        if kind == 7:
            ch = value if isinstance(value, FakeChannel) else self.channel(value)
            data = ch.to_json()
            resolved.setdefault("channels", {})[str(ch.id)] = {**data, "permissions": str(EVERYONE_PERMISSIONS)}
            return str(ch.id)
        if kind == 4:
            out: Any = int(value)
        elif kind == 10:
            out = float(value)
        elif kind == 5:
            out = bool(value)
        else:
            out = str(value)
        choices = spec.get("choices")
        if choices and out not in [c["value"] for c in choices]:
            raise FakeUsageError(f"option {spec['name']}={out!r} is not one of the offered choices")
        return out

    def _build_options(self: FakeDiscord, path: list[str], values: dict[str, Any], focused: str | None
                       ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        cmd, specs = self.find_command(path)
        by_name = {s["name"]: s for s in specs}
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        for name, value in values.items():
            if name not in by_name:
                raise FakeUsageError(f"/{' '.join(path)} has no option {name!r} (has {sorted(by_name)})")
            spec = by_name[name]
            if name == focused:
                leaf.append({"name": name, "type": spec["type"], "value": str(value), "focused": True})
            else:
                leaf.append({"name": name, "type": spec["type"],
                             "value": self._option_value(spec, value, resolved)})
        if focused is None:
            missing = [s["name"] for s in specs if s.get("required") and s["name"] not in values]
            if missing:
                raise FakeUsageError(f"/{' '.join(path)} is missing required options {missing}")
        options = leaf
        # Wrap the leaf options in their sub-command / group, innermost first.
        node = cmd
        chain = []
        for part in path[1:]:
            node = next(o for o in node.get("options") or [] if o["name"] == part)
            chain.append(node)
        for sub in reversed(chain):
            options = [{"name": sub["name"], "type": sub["type"], "options": options}]
        data: dict[str, Any] = {"id": str(cmd["id"]), "name": cmd["name"], "type": 1, "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = str(cmd["guild_id"])
        return data, resolved

    async def slash(self: FakeDiscord, user: FakeUser, channel: FakeChannel, command: str, *,
                    wait: bool = True, timeout: float = 5.0, **options: Any) -> FakeInteraction:
        """Run ``/command`` (``"match status"`` for a sub-command) with typed options."""
        cmd, _ = self.find_command(command.split())
        if channel.type == 1 and (cmd.get("dm_permission") is False
                                  or (cmd.get("contexts") is not None and 1 not in cmd["contexts"])):
            raise FakeUsageError(f"/{cmd['name']} is not offered in DMs")
        data, resolved = self._build_options(command.split(), options, None)
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(APPLICATION_COMMAND, user, channel, data, wait=wait, timeout=timeout)

    async def autocomplete(self: FakeDiscord, user: FakeUser, channel: FakeChannel, command: str,
                           focused: str, *, timeout: float = 5.0, **options: Any) -> list[dict[str, Any]]:
        """Type into option ``focused`` (its current text in ``options[focused]``); returns the choices."""
        options.setdefault(focused, "")
        data, resolved = self._build_options(command.split(), options, focused)
        if resolved:
            data["resolved"] = resolved
        ix = await self._send_interaction(AUTOCOMPLETE, user, channel, data, timeout=timeout)
        if ix.response_type != 8:
            raise AssertionError(f"autocomplete answered with callback type {ix.response_type}")
        return ix.choices or []

    # ----- components --------------------------------------------------------------------------
    def _latest(self: FakeDiscord, message: FakeMessage | int, user: FakeUser) -> FakeMessage:
        msg = self.messages.get(message.id if isinstance(message, FakeMessage) else int(message))
        if msg is None or msg.deleted:
            raise FakeUsageError("that message is gone")
        if msg.ephemeral and msg.ephemeral_for != user.id:
            raise FakeUsageError(f"{user} cannot see somebody else's ephemeral message")
        return msg

    async def click(self: FakeDiscord, user: FakeUser, message: FakeMessage | int, custom_id: str, *,
                    wait: bool = True, timeout: float = 5.0) -> FakeInteraction:
        """Press the button ``custom_id`` on the message as it is now."""
        msg = self._latest(message, user)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") != 2:
            raise FakeUsageError(f"no button {custom_id!r} on message {msg.id} (has {msg.custom_ids()})")
        if comp.get("disabled"):
            raise FakeUsageError(f"button {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(MESSAGE_COMPONENT, user, self.channels[msg.channel_id], data, msg,
                                            wait=wait, timeout=timeout)

    async def select(self: FakeDiscord, user: FakeUser, message: FakeMessage | int, custom_id: str,
                     values: list[str], *, wait: bool = True, timeout: float = 5.0) -> FakeInteraction:
        """Choose ``values`` in the select menu ``custom_id``."""
        msg = self._latest(message, user)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in (3, 5, 6, 7, 8):
            raise FakeUsageError(f"no select {custom_id!r} on message {msg.id} (has {msg.custom_ids()})")
        if comp.get("disabled"):
            raise FakeUsageError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeUsageError(f"select {custom_id!r} takes {lo}..{hi} values, got {values}")
        if comp["type"] == 3:
            offered = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in offered]
            if bad:
                raise FakeUsageError(f"select {custom_id!r} does not offer {bad} (offers {offered})")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"], "values": list(values)}
        return await self._send_interaction(MESSAGE_COMPONENT, user, self.channels[msg.channel_id], data, msg,
                                            wait=wait, timeout=timeout)

    async def forge(self: FakeDiscord, user: FakeUser, message: FakeMessage | int, custom_id: str, *,
                    values: list[str] | None = None, offered: list[str] | None = None, on_message: bool = True,
                    wait: bool = True, timeout: float = 5.0) -> FakeInteraction:
        """A component interaction with any ``custom_id``: what a modified client, a replayed
        request or a post left by another version of the bot can send. ``values`` makes it a
        select (type 3). With ``on_message`` the clicked message as sent to the bot has just that
        component (a select offering ``offered``, default ``values``), as if the post carried it;
        without, the message is sent as it is, without that component."""
        msg = self._latest(message, user)
        kind = 2 if values is None else 3
        shown = msg
        if on_message:
            comp: dict[str, Any] = {"type": kind, "custom_id": custom_id}
            if kind == 2:
                comp.update(style=1, label="forged")
            else:
                comp["options"] = [{"label": v[:100] or "-", "value": v} for v in (offered or values or [])]
            shown = replace(msg, components=[{"type": 1, "components": [comp]}])
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        return await self._send_interaction(MESSAGE_COMPONENT, user, self.channels[msg.channel_id], data, shown,
                                            wait=wait, timeout=timeout)

    async def submit_modal(self: FakeDiscord, user: FakeUser, opened_by: FakeInteraction, values: dict[str, str],
                           *, timeout: float = 5.0) -> FakeInteraction:
        """Fill in and submit the modal the bot showed in answer to ``opened_by``."""
        if opened_by.modal is None:
            raise FakeUsageError("that interaction did not open a modal")
        rows = []
        for row in opened_by.modal.get("components") or []:
            children = row.get("components") or ([row["component"]] if row.get("component") else [])
            comps = [{"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                     for c in children]
            rows.append({"type": 1, "components": comps})
        data = {"custom_id": opened_by.modal["custom_id"], "components": rows}
        return await self._send_interaction(MODAL_SUBMIT, user, opened_by.channel, data, opened_by.message,
                                            timeout=timeout)

    def unanswered(self: FakeDiscord) -> list[FakeInteraction]:
        """Interactions the bot never answered within the deadline ("This interaction failed")."""
        now = asyncio.get_running_loop().time()
        return [ix for ix in self.interactions.values() if ix.response_type is None and not ix.expired
                and now - ix.dispatched_at > self.response_deadline]

    # ----- the bot's answers (called by the REST layer) -----------------------------------------
    def interaction(self: FakeDiscord, interaction_id: int | str, token: str) -> FakeInteraction:
        ix = self.interactions.get(int(interaction_id))
        if ix is None or ix.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        return ix

    def interaction_by_token(self: FakeDiscord, app_id: str, token: str) -> FakeInteraction:
        if str(app_id) != str(self.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        for ix in self.interactions.values():
            if ix.token == token:
                if asyncio.get_running_loop().time() - ix.dispatched_at > self.token_lifetime:
                    raise ApiError(401, 50027, "Invalid Webhook Token")
                return ix
        raise ApiError(404, 10015, "Unknown Webhook")

    async def interaction_callback(self: FakeDiscord, route: str, ix: FakeInteraction, body: dict[str, Any],
                                   uploads: list[Upload]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        elapsed = loop.time() - ix.dispatched_at
        if ix.response_type is not None:
            self.violate("double_ack", route, f"interaction {ix.id} was already answered")
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if elapsed > self.response_deadline:
            ix.expired = True
            self.violate("late_response", route,
                         f"first response after {elapsed:.2f}s (limit {self.response_deadline}s)")
            raise ApiError(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in CALLBACK_TYPES or kind == 1:
            self.reject(route, [FieldError("type", "BASE_TYPE_CHOICES", f"Invalid callback type {kind}")])
        if kind in (6, 7) and ix.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT):
            self.reject(route, [FieldError("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                                           "Update responses are only valid for components")])
        if kind == 8 and ix.type != AUTOCOMPLETE:
            self.reject(route, [FieldError("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                                           "Autocomplete results only answer autocomplete")])
        if ix.type == AUTOCOMPLETE and kind != 8:
            self.reject(route, [FieldError("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                                           "Autocomplete must be answered with choices")])
        if kind == 9 and ix.type == MODAL_SUBMIT:
            self.reject(route, [FieldError("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                                           "A modal cannot answer a modal")])
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:
            ix.original = await self.create_message(route, ix.channel, self.bot_user, data, uploads,
                                                    ephemeral_for=ix.user.id, webhook=True, interaction=ix)
            resource["message"] = ix.original.to_json()
        elif kind == 5:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            ix.original = await self._loading_message(ix, flags)
            resource["message"] = ix.original.to_json()
        elif kind == 6:
            ix.original = self._clicked(ix) if ix.message is not None else None
        elif kind == 7:
            ix.original = await self.edit_message(route, self._clicked(ix), data, uploads)
            resource["message"] = ix.original.to_json()
        elif kind == 8:
            errors = check_autocomplete(data)
            if errors:
                self.reject(route, errors)
            ix.choices = list(data.get("choices") or [])
        elif kind == 9:
            errors = check_modal(data)
            if errors:
                self.reject(route, errors)
            ix.modal = data
        ix.response_type = kind
        ix.responded_at = loop.time()
        self.response_times.append(elapsed)
        ix.responded.set()
        self.notify()
        original = ix.original
        return {
            "interaction": {"id": str(ix.id), "type": ix.type, "response_message_id":
                            str(original.id) if original is not None else None,
                            "response_message_loading": kind == 5,
                            "response_message_ephemeral": bool(original is not None and original.ephemeral)},
            "resource": resource,
        }

    def _clicked(self: FakeDiscord, ix: FakeInteraction) -> FakeMessage:
        """The message a component interaction came from, as stored: an update response edits
        that message (the copy ``forge`` shows the bot carries a component it never had)."""
        assert ix.message is not None
        return self.messages.get(ix.message.id, ix.message)

    async def _loading_message(self: FakeDiscord, ix: FakeInteraction, flags: int) -> FakeMessage:
        msg = FakeMessage(id=snowflake(), channel_id=ix.channel.id, author=self.bot_user,
                          guild_id=ix.channel.guild_id, flags=flags,
                          ephemeral_for=ix.user.id if flags & FLAG_EPHEMERAL else None,
                          webhook_id=self.application_id, interaction_user=ix.user, interaction_id=ix.id)
        self.messages[msg.id] = msg
        return msg

    def original_of(self: FakeDiscord, ix: FakeInteraction) -> FakeMessage:
        if ix.original is None or ix.original.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return ix.original

    async def followup(self: FakeDiscord, route: str, ix: FakeInteraction, body: dict[str, Any],
                       uploads: list[Upload]) -> FakeMessage:
        if ix.response_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if ix.original is not None and ix.original.flags & FLAG_LOADING and ix.response_type == 5:
            # Discord turns the first followup after a thinking defer into the original response.
            msg = await self.edit_message(route, ix.original, body, uploads)
            msg.flags &= ~FLAG_LOADING
            ix.followups.append(msg)
            return msg
        msg = await self.create_message(route, ix.channel, self.bot_user, body, uploads,
                                        ephemeral_for=ix.user.id, webhook=True, interaction=ix)
        ix.followups.append(msg)
        return msg
