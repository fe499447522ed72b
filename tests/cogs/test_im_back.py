"""The "I'm back" button of a player marked away (托管).

While a seat is away the AI answers its requests at once, so its player never gets a turn button
of their own: the status post carries "I'm back" until nobody is away. Its click is a turn-button
click (``service.come_back``, then the player's own decision if one is pending) that names no
request, answered "you are back" when nothing is asked of them right now."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

from test_publisher import ALICE, BOB, _Bot, _Channel, _match, _registered, _User

from cogs import play
from cogs.publisher import DiscordPublisher
from cogs.utils import ids
from cogs.utils.embeds import Pending
from cogs.utils.layout import BACK_REQUEST, turn_buttons
from i18n import t
from service.models import Change

__all__ = ["_registered"]
DUE = 2_000_000_000.0


def _away(match: Any, seat: int) -> Any:
    seats = [dataclasses.replace(s, away=True) if s.seat == seat else s for s in match.seats]
    return dataclasses.replace(match, seats=seats)


def test_the_back_button_comes_after_the_turn_buttons_and_fits() -> None:
    layout = turn_buttons(8, [("r4", "alice")], "zh-CN", back=True)
    buttons = [b for row in layout.rows for b in row]
    assert [b.custom_id for b in buttons] == [ids.turn_id(8, "r4"), ids.turn_id(8, BACK_REQUEST)]
    assert buttons[1].label == t("zh-CN", "discord.button.im_back")
    assert ids.decode_token(buttons[1].custom_id.rsplit(":", 1)[1]) == BACK_REQUEST
    many = turn_buttons(8, [(f"r{i}", f"p{i}") for i in range(40)], "en", window=True, back=True)
    flat = [b.custom_id for row in many.rows for b in row]
    assert len(flat) == 25 and flat[-2:] == [ids.turn_id(8, ""), ids.turn_id(8, BACK_REQUEST)]


async def test_a_post_offers_im_back_while_a_player_is_away() -> None:
    bot = _Bot(_Channel(), {ALICE: _User(True), BOB: _User(True)})
    bot.service.pending = [Pending("r5", 0, DUE)]
    pub = DiscordPublisher(bot)
    await pub.publish(_away(_match(), 1), Change("acted", 8, 4, 2, [], None, ["r5"], [0]))
    status = bot.channel.sent[-1]
    assert [c.custom_id for c in status.view.children] == [ids.turn_id(8, "r5"), ids.turn_id(8, BACK_REQUEST)]

    bot2 = _Bot(_Channel(), {ALICE: _User(True), BOB: _User(True)})
    bot2.service.pending = [Pending("r5", 0, DUE)]
    await DiscordPublisher(bot2).publish(_match(), Change("acted", 8, 4, 2, [], None, ["r5"], [0]))
    assert [c.custom_id for c in bot2.channel.sent[-1].view.children] == [ids.turn_id(8, "r5")], "nobody away"


class _PlayService:
    """Bob is away and the AI has already answered for him: nothing is pending for him."""

    def __init__(self, pending: list[str]) -> None:
        self.back: list[tuple[int, int]] = []
        self.pending = pending

    async def come_back(self, match_id: int, user_id: int) -> None:
        self.back.append((match_id, user_id))

    async def pending_for_user(self, match_id: int, user_id: int) -> list[str]:
        return self.pending


def _interaction(service: _PlayService) -> Any:
    edits: list[dict[str, Any]] = []

    async def edit_original_response(**kwargs: Any) -> None:
        edits.append(kwargs)

    return SimpleNamespace(client=SimpleNamespace(service=service), user=SimpleNamespace(id=BOB), locale="zh-TW",
                           edit_original_response=edit_original_response, edits=edits)


async def test_im_back_ends_away_and_says_so_when_nothing_is_asked() -> None:
    service = _PlayService([])
    ix = _interaction(service)
    await play.open_turn(ix, 8, BACK_REQUEST)
    assert service.back == [(8, BOB)]
    assert ix.edits == [{"content": t("zh-TW", "discord.play.back_again")}]


async def test_im_back_opens_the_players_own_decision_when_one_is_pending(monkeypatch: Any) -> None:
    service = _PlayService(["r9"])
    ix = _interaction(service)
    opened: list[tuple[int, str, list[str], str | None]] = []

    async def step_message(interaction: Any, match_id: int, req: str, path: list[str], page: int = 0,
                           note: str | None = None, group: str | None = None) -> dict[str, Any]:
        opened.append((match_id, req, path, note))
        return {"content": "step"}

    monkeypatch.setattr(play, "step_message", step_message)
    await play.open_turn(ix, 8, BACK_REQUEST)
    assert service.back == [(8, BOB)]
    assert opened == [(8, "r9", [], None)], "no 'that button was for an earlier decision' note"
    assert ix.edits == [{"content": "step"}]
