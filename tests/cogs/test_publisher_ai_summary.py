"""An AI seat's run of moves is posted as the engine's summary (``summarize``), not as one line
per move cut to the newest few ("… 27 earlier lines not shown", issue 7)."""

from __future__ import annotations

from typing import Any

import pytest
from test_publisher_batch import _acted, _Bot, _Plain, _publish, _registered, setup  # noqa: F401

from cogs.publisher import DiscordPublisher
from engines.base import Event, Msg
from i18n import t


def _summarize(self: Any, events: list[Event]) -> list[Msg]:
    return [Msg("discord.status.turn", {"name": f"AI took {len(events)} steps"})]


async def test_an_ai_run_is_summarised_instead_of_cut(setup: tuple[DiscordPublisher, _Bot],  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_Plain, "summarize", _summarize, raising=False)
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(4, 0, "alice ends", {"r1": 1})])  # Bob's turn
    ai_turn = [_acted(v, 2, f"AI move {v}", {f"r{v}": 2}) for v in range(8, 40)]
    await _publish(pub, bot, [
        _acted(5, 1, "bob ends", {"r5": 2}),  # to the AI
        *ai_turn,
        _acted(40, 2, "AI ends", {"r40": 0}),  # back to Alice
    ])
    text = "\n".join(m.content or "" for m in ch.sent)
    assert "AI took 33 steps" in text, text
    assert not any(f"AI move {v}" in text for v in range(8, 40)), "no per-move lines for the AI's run"
    cut = t("en", "publish.earlier", count=2).split("2", 1)[1]  # " earlier lines not shown"
    assert cut not in text, "nothing is cut when the run is summarised"
    assert "bob ends" in text
