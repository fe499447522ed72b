"""Error answers, shutdown order, match picking and the translator, without a gateway."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

import bot as botmod
from app_settings import Settings
from cogs.errors import answer_error, guarded
from cogs.utils.matchq import order_for_channel, pick_match
from cogs.utils.translator import CatalogTranslator, ls
from i18n import t
from service.errors import UserError
from service.models import MatchInfo, SeatInfo


@dataclass
class _Response:
    done: bool = False
    sent: list[tuple[str, bool]] = field(default_factory=list)

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, ephemeral: bool = False, **_: Any) -> None:
        self.done = True
        self.sent.append((content, ephemeral))


@dataclass
class _Followup:
    sent: list[tuple[str, bool]] = field(default_factory=list)

    async def send(self, content: str, *, ephemeral: bool = False, **_: Any) -> None:
        self.sent.append((content, ephemeral))


class _Interaction:
    def __init__(self, locale: str, *, deferred: bool = False, client: Any = None) -> None:
        self.locale = discord.Locale(locale)
        self.extras: dict[str, Any] = {}
        self.user = discord.Object(id=5)
        self.data = {"custom_id": "g:t:1:r"}
        self.command = None
        self.response = _Response(done=deferred)
        self.followup = _Followup()
        self.client = client


async def test_user_error_is_answered_ephemerally_in_the_users_language() -> None:
    ix = _Interaction("zh-TW")
    command = discord.Object(id=1)
    command.name = "move"  # type: ignore[attr-defined]
    await answer_error(ix, app_commands.CommandInvokeError(command, UserError("core.err.not_your_turn")))  # type: ignore[arg-type]
    assert ix.response.sent == [(t("zh-TW", "core.err.not_your_turn"), True)]


async def test_unexpected_error_is_logged_with_match_and_apologised(caplog: pytest.LogCaptureFixture) -> None:
    ix = _Interaction("en-US", deferred=True)
    ix.extras["match"] = 77
    with caplog.at_level(logging.ERROR, logger="cogs.errors"):
        await answer_error(ix, RuntimeError("secret internals"))
    assert ix.followup.sent == [(t("en", "core.err.unexpected", match=77), True)]
    assert "secret internals" not in ix.followup.sent[0][0]
    record = next(r for r in caplog.records if r.name == "cogs.errors")
    assert record.match == 77 and record.exc_info is not None


async def test_guarded_refuses_during_shutdown_and_counts_in_flight() -> None:
    client = botmod.create_bot(Settings(token="x"))
    ran: list[int] = []

    async def work() -> None:
        assert client.inflight.count == 1
        ran.append(1)

    ix = _Interaction("en-US", client=client)
    await guarded(ix, 3, work())  # type: ignore[arg-type]
    assert ran == [1] and client.inflight.count == 0 and ix.response.sent == []
    client.closing_down = True
    ix2 = _Interaction("zh-CN", client=client)
    await guarded(ix2, 3, work())  # type: ignore[arg-type]
    assert ran == [1]
    assert ix2.response.sent == [(t("zh-CN", "discord.err.shutting_down"), True)]
    await client.http.close()


async def test_close_waits_for_the_action_in_flight_then_stops_scheduler_and_store() -> None:
    order: list[str] = []

    class Scheduler:
        async def stop(self) -> None:
            order.append("scheduler")

    class Store:
        async def close(self) -> None:
            order.append("store")

    client = botmod.create_bot(Settings(token="x"))
    client.scheduler, client.store = Scheduler(), Store()
    release = asyncio.Event()

    async def in_flight() -> None:
        async with client.inflight:
            await release.wait()
            order.append("action")

    task = asyncio.create_task(in_flight())
    await asyncio.sleep(0)
    closing = asyncio.create_task(client.close())
    await asyncio.sleep(0.05)
    assert client.closing_down and order == []  # still waiting for the action
    release.set()
    await asyncio.wait_for(closing, 5)
    await task
    assert order == ["action", "scheduler", "store"]


def _m(mid: int, *, channel: int = 1, thread: int | None = None, users: tuple[int, ...] = (),
       status: str = "active", updated: float = 0.0) -> MatchInfo:
    return MatchInfo(id=mid, game="toy", options={}, status=status, version=1, host_id=0, locale="en",  # type: ignore[arg-type]
                     turn_seconds=60, seats=[SeatInfo(i, u, f"p{i}") for i, u in enumerate(users)],
                     channel_id=channel, thread_id=thread, updated_at=updated)


def test_pick_match_prefers_this_thread_then_channel_then_only_match() -> None:
    a = _m(1, thread=100, users=(5,))
    b = _m(2, thread=200, users=(5,))
    c = _m(3, channel=9, users=(6,))
    assert pick_match([a, b, c], 5, 200) is b
    assert pick_match([a, b, c], 6, 9) is c          # the one match of this channel
    assert pick_match([a, b], 5, 1) is None          # two matches in the channel, both mine
    assert pick_match([a], 5, 555) is a              # elsewhere: my only match
    assert pick_match([a, b], 5, 555) is None        # ambiguous
    assert [m.id for m in order_for_channel([_m(1, updated=5), _m(2, channel=7, updated=1), _m(3, updated=9)], 7)] \
        == [2, 3, 1]


async def test_translator_serves_both_chinese_catalogs_only() -> None:
    tr = CatalogTranslator()
    s = ls("discord.cmd.play.name")
    assert s.message == "play"
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await tr.translate(s, discord.Locale.taiwan_chinese, ctx) == t("zh-TW", "discord.cmd.play.name")
    assert await tr.translate(s, discord.Locale.chinese, ctx) == t("zh-CN", "discord.cmd.play.name")
    assert await tr.translate(s, discord.Locale.japanese, ctx) is None
    assert await tr.translate(app_commands.locale_str("x"), discord.Locale.chinese, ctx) is None


async def test_user_language_is_stored_once_per_change() -> None:
    from cogs.utils.userprefs import locale_for_user, remember_locale

    class Service:
        def __init__(self) -> None:
            self.stored: dict[int, str | None] = {}
            self.writes = 0

        async def set_user_locale(self, user_id: int, locale: str | None) -> None:
            self.writes += 1
            self.stored[user_id] = locale

        async def get_user_locale(self, user_id: int) -> str | None:
            return self.stored.get(user_id)

    client = SimpleNamespace(service=Service(), user_locales={})
    for locale in ("zh-TW", "zh-TW", "en-GB", "en-US"):
        await remember_locale(client, _Interaction(locale))  # type: ignore[arg-type]
    assert client.service.writes == 2 and client.service.stored == {5: "en"}
    assert await locale_for_user(client.service, 5, "zh-CN") == "en"
    assert await locale_for_user(client.service, 6, "zh-CN") == "zh-CN"


def test_match_language_prefers_a_chinese_host_else_the_server_default() -> None:
    from cogs.lobby import match_locale

    assert match_locale(_Interaction("zh-TW"), "en") == "zh-TW"  # type: ignore[arg-type]
    assert match_locale(_Interaction("zh-CN"), "zh-TW") == "zh-CN"  # type: ignore[arg-type]
    assert match_locale(_Interaction("en-US"), "zh-TW") == "zh-TW"  # type: ignore[arg-type]
    assert match_locale(_Interaction("ja"), "en") == "en"  # type: ignore[arg-type]


async def test_close_lets_a_scheduler_run_finish_and_skips_new_ones() -> None:
    release = asyncio.Event()
    calls: list[str] = []

    class Service:
        async def run_due(self) -> int:
            calls.append("start")
            await release.wait()
            calls.append("end")
            return 1

    client = botmod.create_bot(Settings(token="x"))
    client.service = Service()
    work = botmod._ClockWork(client)
    running = asyncio.create_task(work.run_due())
    await asyncio.sleep(0)
    closing = asyncio.create_task(client.close())
    await asyncio.sleep(0.05)
    assert not closing.done() and calls == ["start"]
    release.set()
    await asyncio.wait_for(closing, 5)
    assert await running == 1 and calls == ["start", "end"]
    assert await work.run_due() == 0 and calls == ["start", "end"]
