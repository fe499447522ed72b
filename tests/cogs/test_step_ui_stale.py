"""A click on a dead ephemeral step message (its request answered or replaced, the match over):
the refusal replaces that message, buttons and all, instead of a new reply on every click."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.errors import answer_error
from cogs.utils.dynamic import STALE
from i18n import t
from service.errors import UserError

DEFERRED_UPDATE = discord.InteractionResponseType.deferred_message_update
THINKING = discord.InteractionResponseType.deferred_channel_message


@dataclass
class _Response:
    type: discord.InteractionResponseType | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    fail: bool = False

    def is_done(self) -> bool:
        return self.type is not None

    async def edit_message(self, **kwargs: Any) -> None:
        if self.fail:
            raise discord.NotFound(SimpleNamespace(status=404, reason="x"), {"code": 10062, "message": "Unknown"})
        self.type = discord.InteractionResponseType.message_update
        self.edits.append(kwargs)

    async def send_message(self, content: str, *, ephemeral: bool = False, **_: Any) -> None:
        assert ephemeral
        self.type = discord.InteractionResponseType.channel_message
        self.sent.append(content)


class _Click:
    """A component interaction on a message with the given flags, answered as ``answered``."""

    def __init__(self, *, ephemeral: bool, answered: discord.InteractionResponseType | None = None,
                 kind: discord.InteractionType = discord.InteractionType.component) -> None:
        self.type = kind
        self.locale = discord.Locale("en-US")
        self.extras: dict[str, Any] = {"match": 4}
        self.user = discord.Object(id=5)
        self.data = {"custom_id": "g:c:4:r1:place", "component_type": 2}
        self.command = None
        self.message = SimpleNamespace(flags=discord.MessageFlags(ephemeral=ephemeral))
        self.response = _Response(answered)
        self.followups: list[str] = []
        self.original_edits: list[dict[str, Any]] = []
        self.followup = SimpleNamespace(send=self._followup)
        self.fail_original = False

    async def _followup(self, content: str, *, ephemeral: bool = False, **_: Any) -> None:
        assert ephemeral
        self.followups.append(content)

    async def edit_original_response(self, **kwargs: Any) -> None:
        if self.fail_original:  # the user dismissed the message meanwhile
            raise discord.NotFound(SimpleNamespace(status=404, reason="x"), {"code": 10008, "message": "Unknown"})
        self.original_edits.append(kwargs)


def _replaced(text: str) -> dict[str, Any]:
    return {"content": text, "view": None, "embed": None, "attachments": []}


@pytest.mark.parametrize("key", [STALE, "core.err.not_active", "core.err.resigned"])
async def test_a_dead_step_clicked_unanswered_becomes_the_refusal(key: str) -> None:
    ix = _Click(ephemeral=True)
    await answer_error(ix, UserError(key))  # type: ignore[arg-type]
    assert ix.response.edits == [_replaced(t("en", key))], "the clicked message itself, via the click's answer"
    assert ix.response.sent == [] and ix.followups == []


async def test_after_a_deferred_update_the_clicked_message_is_edited_as_the_original() -> None:
    """Confirm and the step buttons defer first (type 6): their "original" is the clicked message."""
    ix = _Click(ephemeral=True, answered=DEFERRED_UPDATE)
    await answer_error(ix, UserError(STALE))  # type: ignore[arg-type]
    assert ix.original_edits == [_replaced(t("en", STALE))] and ix.followups == []


@pytest.mark.parametrize("case", ["public post", "thinking defer", "not final", "dismissed", "expired", "command"])
async def test_otherwise_the_refusal_is_a_reply_as_before(case: str) -> None:
    ix = _Click(ephemeral=case != "public post", answered=THINKING if case == "thinking defer" else None,
                kind=discord.InteractionType.application_command if case == "command"
                else discord.InteractionType.component)
    key = "core.err.not_your_turn" if case == "not final" else STALE
    if case == "dismissed":
        ix.response.type = DEFERRED_UPDATE
        ix.fail_original = True
    ix.response.fail = case == "expired"
    await answer_error(ix, UserError(key))  # type: ignore[arg-type]
    assert ix.original_edits == [] and ix.response.edits == []
    # A public status post is everyone's; a thinking defer made a new message (the step), which
    # the reply fills in; the other refusals may pass (it may be their turn again later).
    assert ix.response.sent + ix.followups == [t("en", key)]
