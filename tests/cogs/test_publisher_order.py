"""The order of the publisher's calls. When a game ends the previous status post's "Take your
turn" goes before the result post (it stayed live a pacing slot, ~1.5 s, after it), while during
a game the news still goes first and the old buttons in the next free slot."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from test_publisher_batch import ALICE, _acted, _Bot, _line, _match, _registered

from cogs.publisher import DiscordPublisher
from cogs.utils.embeds import Pending
from cogs.utils.pacing import ChannelPacer
from service.models import Change

__all__ = ["_registered"]
INTERVAL = 0.2


def _record(bot: _Bot) -> list[tuple[str, int, float]]:
    """(``send``/``edit``, message id, loop time) of every call on the thread, in order."""
    calls: list[tuple[str, int, float]] = []
    channel = bot.channel
    send, partial = channel.send, channel.get_partial_message
    loop = asyncio.get_running_loop()

    async def recorded_send(*args: Any, **kwargs: Any) -> Any:
        msg = await send(*args, **kwargs)
        calls.append(("send", msg.id, loop.time()))
        return msg

    def recorded_partial(mid: int) -> Any:
        message = partial(mid)
        edit = message.edit

        async def recorded_edit(**kwargs: Any) -> None:
            calls.append(("edit", mid, loop.time()))
            await edit(**kwargs)
        message.edit = recorded_edit
        return message

    channel.send, channel.get_partial_message = recorded_send, recorded_partial  # type: ignore[method-assign]
    return calls


@pytest.fixture
async def started() -> tuple[DiscordPublisher, _Bot, list[tuple[str, int, float]]]:
    """Bob's move asked Alice: post 1 with her "Take your turn"; the channel's slot is taken."""
    bot = _Bot()
    pub = DiscordPublisher(bot, post_interval=INTERVAL)
    bot.service.version, bot.service.pending = 4, [Pending("r4", 0, 2_000_000_000.0)]
    await pub.publish_batch(_match(4), [_acted(4, 1, "bob ends", {"r4": 0})])
    assert bot.channel.sent[0].custom_ids() == ["g:t:8:r4"]
    return pub, bot, _record(bot)


async def test_the_last_turn_button_goes_before_the_result_post(started: Any) -> None:
    pub, bot, calls = started
    bot.service.version, bot.service.pending = 5, []
    ended = replace(_match(5), status="finished", result={"winners": [0]})
    await pub.publish_batch(ended, [Change("acted", 8, 5, 0, [_line("alice wins")], None, [], []),
                                    Change("finished", 8, 5, None, [], None, [])])
    assert [(kind, mid) for kind, mid, _ in calls] == [("edit", 1), ("send", 2)], \
        "the old post lost its button before the result was posted"
    assert calls[1][2] - calls[0][2] < INTERVAL / 2, "in the result post's slot: the result does not wait"
    assert bot.channel.sent[0].view is None
    await pub.pacer.flush()
    assert [(kind, mid) for kind, mid, _ in calls] == [("edit", 1), ("send", 2)], "and nothing after it"


async def test_an_abandoned_match_retires_the_button_first_too(started: Any) -> None:
    pub, bot, calls = started
    bot.service.pending = []
    abandoned = replace(_match(5), status="abandoned")
    await pub.publish_batch(abandoned, [Change("abandoned", 8, 5, None, [_line("the host ended it")])])
    assert [(kind, mid) for kind, mid, _ in calls] == [("edit", 1), ("send", 2)]


async def test_during_a_game_the_news_goes_first(started: Any) -> None:
    pub, bot, calls = started
    bot.service.version, bot.service.pending = 5, [Pending("r5", 1, 2_000_000_000.0)]
    await pub.publish_batch(_match(5), [_acted(5, 0, "alice ends", {"r5": 1})])
    assert [(kind, mid) for kind, mid, _ in calls] == [("send", 2)]
    await pub.pacer.flush()
    assert [(kind, mid) for kind, mid, _ in calls] == [("send", 2), ("edit", 1)]
    assert calls[1][2] - calls[0][2] >= INTERVAL * 0.9, "the old buttons in the channel's next free slot"
    assert f"<@{ALICE}>" not in (bot.channel.sent[1].content or "")


async def test_an_edit_made_now_drops_the_queued_edit_of_the_same_post() -> None:
    """A turn of response windows queues the live post's edits; when the turn moves on the post
    is edited at once with everything, and the queued, older edit would only repeat an older state."""
    pacer = ChannelPacer(0.05)
    done: list[str] = []

    async def older() -> None:
        done.append("older")

    async def other() -> None:
        done.append("other")

    await pacer.slot(3)
    pacer.defer(3, (70, "lines"), older)
    pacer.defer(3, 71, other)
    pacer.discard(3, (70, "lines"))
    pacer.discard(4, "nothing queued there")
    await pacer.flush()
    assert done == ["other"]
