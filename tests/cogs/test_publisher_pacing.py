"""Per-channel pacing of the publisher's posts and edits (Discord: about 5 per 5 s per channel)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import app_settings
from app_settings import SettingsError
from cogs.utils.pacing import ChannelPacer, GlobalPacer

ROOT = Path(__file__).resolve().parents[2]


async def test_one_call_per_channel_per_interval() -> None:
    pacer = ChannelPacer(0.1)
    loop = asyncio.get_running_loop()
    started = loop.time()
    times: list[tuple[int, float]] = []

    async def call(key: int) -> None:
        await pacer.slot(key)
        times.append((key, loop.time() - started))

    await asyncio.gather(call(1), call(1), call(1), call(2))
    ones = sorted(t for k, t in times if k == 1)
    assert ones[1] - ones[0] >= 0.09 and ones[2] - ones[1] >= 0.09, times
    assert ones[0] < 0.05 and next(t for k, t in times if k == 2) < 0.05, "another channel does not wait"


async def test_settle_waits_without_taking_the_slot() -> None:
    pacer = ChannelPacer(0.1)
    loop = asyncio.get_running_loop()
    await pacer.slot(7)
    started = loop.time()
    await pacer.settle(7)
    assert loop.time() - started >= 0.09
    started = loop.time()
    await pacer.slot(7)
    assert loop.time() - started < 0.05, "settle left the slot to the caller"


async def test_deferred_calls_fold_per_message_and_wait_for_free_slots() -> None:
    pacer = ChannelPacer(0.05)
    done: list[str] = []

    def call(name: str):  # noqa: ANN202
        async def run() -> None:
            done.append(name)
        return run

    await pacer.slot(3)
    pacer.defer(3, "m1", call("m1 first"))
    pacer.defer(3, "m1", call("m1 newest"))
    pacer.defer(3, "m2", call("m2"))
    assert done == [], "the channel's slot is taken: nothing goes out at once"
    await pacer.flush()
    assert done == ["m1 newest", "m2"]


def test_post_interval_setting() -> None:
    assert app_settings.from_mapping({}).post_interval == 1.5
    assert app_settings.from_mapping({"POST_INTERVAL": "0.2"}).post_interval == 0.2
    for bad in ("soon", "-1"):
        with pytest.raises(SettingsError, match="POST_INTERVAL"):
            app_settings.from_mapping({"POST_INTERVAL": bad})
    assert "\nPOST_INTERVAL=" in (ROOT / ".env.example").read_text(encoding="utf-8")


async def test_global_pacer_allows_a_burst_then_holds_the_rate() -> None:
    """Discord's global limit: ``burst`` requests at once, then one per ``1 / rate`` seconds."""
    pacer = GlobalPacer(rate=100, burst=3)
    loop = asyncio.get_running_loop()
    started = loop.time()
    times = []
    for _ in range(13):
        await pacer.wait()
        times.append(loop.time() - started)
    assert times[2] < 0.03, "the burst goes at once"
    assert times[12] >= 0.09, "ten more at 100 per second take 0.1 s"
    # Never ahead of the bucket (a late wake-up may let the next one go sooner, never more).
    assert all(t >= (i - 2) * 0.01 - 0.002 for i, t in enumerate(times)), times


async def test_global_pacer_paces_every_request_of_the_http_client() -> None:
    calls: list[str] = []

    class Http:
        async def request(self, route: str, **kwargs: object) -> str:
            calls.append(route)
            return route.upper()

    http = Http()
    pacer = GlobalPacer(rate=50, burst=1)
    pacer.install(http)
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert [await http.request(r) for r in ("a", "b", "c")] == ["A", "B", "C"]
    assert calls == ["a", "b", "c"] and loop.time() - started >= 0.035


async def test_a_channel_slot_takes_the_request_slot_with_it() -> None:
    """The channel's spacing starts when the call goes: the request slot is taken inside the
    channel's slot, and the call that follows does not queue for it again."""
    class Http:
        async def request(self, route: str, **kwargs: object) -> str:
            return route

    http, requests = Http(), GlobalPacer(rate=10, burst=1)
    requests.install(http)
    pacer = ChannelPacer(0.05)
    pacer.requests = requests
    loop = asyncio.get_running_loop()
    await pacer.slot(5)  # the first request slot: at once
    started = loop.time()
    await http.request("post")  # already paid for
    assert loop.time() - started < 0.05
    await pacer.slot(5)  # the bucket's next slot is 0.1 s on: the channel's interval counts from it
    assert loop.time() - started >= 0.09
    assert pacer.wait_for(5) > 0.04
    await http.request("post")
    assert loop.time() - started < 0.14
