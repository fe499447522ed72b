"""Response windows in public posts: "waiting for responses", never who may respond (that can
reveal a hand) — no names in the status embed, no public pings, one "Respond" button."""

from __future__ import annotations

from test_publisher import ALICE, BOB, _Bot, _Channel, _match, _registered, _texts, _User

from cogs.publisher import DiscordPublisher
from cogs.utils import ids
from cogs.utils.embeds import Pending, whose_turn_lines
from cogs.utils.layout import turn_buttons
from i18n import t
from service.models import Change

__all__ = ["_registered"]
DUE = 2_000_000_000.0


def test_whose_turn_shows_a_window_as_waiting_for_responses() -> None:
    match = _match()
    pending = [Pending("r5", 0, DUE, "w1"), Pending("r6", 1, DUE, "w1")]
    assert whose_turn_lines(match, pending, "en") == [t("en", "publish.waiting_window_due", due=f"<t:{int(DUE)}:R>")]
    mixed = whose_turn_lines(match, [Pending("r4", 2, None), *pending], "en")
    assert len(mixed) == 2 and "AI" in mixed[1] and not any("alice" in x or "bob" in x for x in mixed)


def test_window_requests_get_one_respond_button_naming_nobody() -> None:
    layout = turn_buttons(8, [], "en", window=True)
    (button,) = [b for row in layout.rows for b in row]
    assert button.custom_id == ids.turn_id(8, "") and button.label == t("en", "publish.respond")
    both = [b for row in turn_buttons(8, [("r4", "alice")], "en", window=True).rows for b in row]
    assert [b.custom_id for b in both] == [ids.turn_id(8, "r4"), ids.turn_id(8, "")]


async def test_a_window_post_names_and_pings_nobody() -> None:
    bot = _Bot(_Channel(), {ALICE: _User(True), BOB: _User(True)})
    bot.service.pending = [Pending("r5", 0, DUE, "w1"), Pending("r6", 1, DUE, "w1")]
    pub = DiscordPublisher(bot)
    await pub.publish(_match(), Change("acted", 8, 4, 2, [], None, ["r5", "r6"], [0, 1], ["w1", "w1"]))
    public = _texts(bot.channel)
    assert t("zh-TW", "publish.waiting_window_due", due=f"<t:{int(DUE)}:R>") in public
    assert "alice" not in public and "bob" not in public
    assert f"<@{ALICE}>" not in public and f"<@{BOB}>" not in public
    status = bot.channel.sent[-1]
    assert [c.custom_id for c in status.view.children] == [ids.turn_id(8, "")]


async def test_without_windows_the_seat_is_still_named_and_pinged() -> None:
    bot = _Bot(_Channel(), {ALICE: _User(True), BOB: _User(True)})
    bot.service.pending = [Pending("r5", 0, DUE)]
    await DiscordPublisher(bot).publish(_match(), Change("acted", 8, 4, 2, [], None, ["r5"], [0]))
    public = _texts(bot.channel)
    assert "alice" in public and f"<@{ALICE}>" in public
