"""Start from the lobby as it runs in production: logging at the bot's default level, and a host
who double-clicks.

The other e2e tests run with the root logger at WARNING, so an INFO call that raises (a reserved
LogRecord key in ``extra=``) never ran there; here ``setup_logging`` is the bot's own, at the
default ``LOG_LEVEL``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from e2e_support import RealBots, Table, real_bot_missing

import app_settings
from cogs.utils.logfmt import setup_logging
from fakediscord import FakeDiscord, FakeInteraction, FakeMessage
from i18n import t

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))


@pytest.fixture
def production_logging() -> Iterator[str]:
    """The bot's logging set-up at the default LOG_LEVEL; pytest's handlers come back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    discord_level = logging.getLogger("discord").level
    default = app_settings.Settings(token="x").log_level
    setup_logging(default)
    logging.getLogger("discord").setLevel(logging.WARNING)  # gateway chatter, not what is tested
    yield default
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)


def lobby_buttons(fake: FakeDiscord, lobby: FakeMessage) -> list[str]:
    return [c for c in fake.messages[lobby.id].custom_ids() if c.startswith(("g:l:", "g:lo:", "g:lt:"))]


def texts(ix: FakeInteraction) -> list[str]:
    return [m.text() for m in ix.replies()]


async def test_start_at_the_default_log_level_updates_the_lobby(fake: FakeDiscord, real_bots: RealBots,
                                                                 table: Table, production_logging: str) -> None:
    assert production_logging == "INFO" and logging.getLogger("cogs.lobby").isEnabledFor(logging.INFO)
    await real_bots.start()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    match_id, lobby = await table.open_lobby(alice, "pentactic")
    await table.lobby_click(bob, lobby, match_id, "join")
    assert lobby_buttons(fake, lobby)

    ix = await table.lobby_click(alice, lobby, match_id, "start")
    await fake.wait_for(lambda: not lobby_buttons(fake, lobby) or ix.followups, 10, "the lobby to update")
    apology = t("en", "core.err.unexpected", match=match_id)
    assert apology not in texts(ix) and not ix.followups, texts(ix)
    assert lobby_buttons(fake, lobby) == []  # no Join / Add AI / Start left on a running match
    assert (await real_bots.service.get(match_id)).status == "active"
    assert len(fake.threads()) == 1
    fake.assert_clean()


async def test_a_double_clicked_start_makes_one_thread(fake: FakeDiscord, real_bots: RealBots,
                                                        table: Table, production_logging: str) -> None:
    await real_bots.start()
    alice, bob = fake.add_user("alice", locale="zh-TW"), fake.add_user("bob")
    match_id, lobby = await table.open_lobby(alice, "pentactic")
    await table.lobby_click(bob, lobby, match_id, "join")
    custom_id = f"g:l:{match_id}:start"
    requests_before = len(fake.requests)

    first = await fake.click(alice, lobby, custom_id, wait=False)
    second = await fake.click(alice, lobby, custom_id, wait=False)
    await asyncio.gather(first.wait_response(10), second.wait_response(10))
    await fake.wait_for(lambda: not lobby_buttons(fake, lobby), 10, "the lobby to update")

    already = t("zh-TW", "core.err.already_started")
    refused = [ix for ix in (first, second) if already in texts(ix)]
    assert len(refused) == 1, [texts(first), texts(second)]
    # Refused at once, as the interaction's own answer: no defer, no thread request, no followup.
    assert refused[0].response_type == 4 and refused[0].ephemeral and not refused[0].followups
    assert not [e for e in fake.errors if e.code == 160004], fake.errors
    assert len([r for r in fake.requests[requests_before:] if r.endswith("/threads")]) == 1
    assert len(fake.threads()) == 1
    apology = t("zh-TW", "core.err.unexpected", match=match_id)
    assert not any(apology in text for ix in (first, second) for text in texts(ix))
    assert (await real_bots.service.get(match_id)).status == "active"
    fake.assert_clean()
