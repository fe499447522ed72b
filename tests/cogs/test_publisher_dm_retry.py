"""Publisher: closed DMs are tried again later; expired lobbies stay out of the channel; the
"played" log line keeps hidden-information actions out of INFO logs."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from test_publisher import BOB, _Bot, _Channel, _match, _registered, _Secretive, _texts, _User

from cogs.publisher import DM_RETRY_SECONDS, DiscordPublisher
from cogs.utils.logfmt import HIDDEN_ACTION, action_for_log, log_played
from engines import registry
from engines.base import Event, Msg
from i18n import t
from service.lobby import LOBBY_EXPIRED
from service.models import Change, MatchInfo, SeatInfo

__all__ = ["_registered"]


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _secret_for_bob(version: int) -> Change:
    return Change("acted", 8, version, 0, [Event(Msg("discord.status.turn", {"name": f"FOR-BOB-{version}"}), to=(1,))])


def _bob_dms(bot: _Bot) -> str:
    return "\n".join(bot.users[BOB].dms)


@pytest.fixture
def setup() -> tuple[DiscordPublisher, _Bot, _Clock]:
    bot = _Bot(_Channel(), {11: _User(True), BOB: _User(False)})
    clock = _Clock()
    return DiscordPublisher(bot, clock=clock), bot, clock


async def test_closed_dms_are_tried_again_after_an_hour(setup: tuple[DiscordPublisher, _Bot, _Clock]) -> None:
    pub, bot, clock = setup
    note = t("zh-TW", "discord.publish.dm_closed", mention=f"<@{BOB}>")
    await pub.publish(_match(), Change("started", 8, 3))
    assert _texts(bot.channel).count(note) == 1 and pub.dms_closed(BOB)
    bot.users[BOB].open_dms = True  # Bob reads the notice and opens his DMs
    await pub.publish(_match(), _secret_for_bob(4))
    assert "FOR-BOB-4" not in _bob_dms(bot), "within the hour the closed state is remembered"
    clock.now += DM_RETRY_SECONDS
    await pub.publish(_match(), _secret_for_bob(5))
    assert "FOR-BOB-5" in _bob_dms(bot) and not pub.dms_closed(BOB)
    assert _texts(bot.channel).count(note) == 1
    bot.users[BOB].open_dms = False  # closed again: the thread is told again
    await pub.publish(_match(), _secret_for_bob(6))
    assert _texts(bot.channel).count(note) == 2


async def test_dm_reopened_forgets_at_once(setup: tuple[DiscordPublisher, _Bot, _Clock]) -> None:
    pub, bot, _ = setup
    await pub.publish(_match(), Change("started", 8, 3))
    bot.users[BOB].open_dms = True
    pub.dm_reopened(BOB)
    await pub.publish(_match(), _secret_for_bob(4))
    assert "FOR-BOB-4" in _bob_dms(bot)


async def test_expired_lobby_updates_its_message_and_posts_nothing(
        setup: tuple[DiscordPublisher, _Bot, _Clock]) -> None:
    pub, bot, _ = setup
    edits: list[dict[str, Any]] = []

    async def edit(**kwargs: Any) -> None:
        edits.append(kwargs)

    bot.channel.get_partial_message = lambda mid: SimpleNamespace(edit=edit)  # type: ignore[method-assign]
    match = MatchInfo(id=9, game=_Secretive.slug, options={}, status="abandoned", version=2, host_id=11,
                      locale="en", turn_seconds=60, seats=[SeatInfo(0, 11, "alice")], channel_id=2,
                      lobby_message_id=77)
    await pub.publish(match, Change("abandoned", 9, 2, note=Msg(LOBBY_EXPIRED, {"hours": 24})))
    assert bot.channel.sent == []
    assert len(edits) == 1 and edits[0]["view"] is None
    assert edits[0]["embed"].description == t("en", "discord.lobby.status_abandoned")


class _Open(_Secretive):
    slug = "cogs_open"
    hidden_information = False


@pytest.fixture
def open_game() -> Any:
    registry.register(_Open.slug, _Open())
    yield
    registry.GAMES.pop(_Open.slug, None)
    registry._cache.pop(_Open.slug, None)


def test_action_for_log() -> None:
    assert action_for_log(_Secretive(), {}, ["hq", "alaska"]) == HIDDEN_ACTION
    assert action_for_log(_Open(), {}, ["place", "F", "b4"]) == "place F b4"


@pytest.mark.usefixtures("open_game")
@pytest.mark.parametrize(("game", "info_action", "debug"), [
    (_Secretive.slug, HIDDEN_ACTION, True),
    (_Open.slug, "place F b4", False),
])
def test_log_played_keeps_secrets_at_debug(caplog: pytest.LogCaptureFixture, game: str, info_action: str,
                                           debug: bool) -> None:
    logger = logging.getLogger("test.played")
    match = MatchInfo(id=5, game=game, options={}, status="active", version=1, host_id=11, locale="en",
                      turn_seconds=60, seats=[])
    with caplog.at_level(logging.DEBUG, logger="test.played"):
        log_played(logger, match, ["place", "F", "b4"], user=11, request="r1")
    infos = [r for r in caplog.records if r.levelno == logging.INFO]
    debugs = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert [(r.getMessage(), r.action, r.match, r.user, r.request) for r in infos] == \
        [("played", info_action, 5, 11, "r1")]
    assert [r.action for r in debugs] == (["place F b4"] if debug else [])
