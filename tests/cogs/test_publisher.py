"""The publisher against an in-memory service and channel: what goes public, what goes by DM."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.publisher import DiscordPublisher
from cogs.utils.embeds import Pending
from engines import registry
from engines.base import Engine, Event, Msg
from i18n import t
from service.models import Change, MatchInfo, SeatInfo

SECRET = "the-secret-mission-text"
ALICE, BOB = 11, 22


class _Secretive(Engine):
    """Views: the public one has a count; a seat's own view adds its secret."""

    slug = "cogs_secret"
    hidden_information = True

    def new_state(self, options, seats, seed):  # pragma: no cover - not used
        raise NotImplementedError

    pending = step = apply = result = ai_action = new_state

    def view(self, state, seat):  # pragma: no cover - the fake service builds views
        raise NotImplementedError

    def describe(self, view: dict[str, Any]) -> list[Msg]:
        return [Msg("discord.status.turn", {"name": f"count {view['count']}"})]

    def private_summary(self, view: dict[str, Any]) -> list[Msg]:
        return [Msg("discord.status.turn", {"name": view["secret"]})] if "secret" in view else []


@pytest.fixture(autouse=True)
def _registered() -> Any:
    """Installed only for these tests, so /play's game list elsewhere never shows it."""
    registry.register(_Secretive.slug, _Secretive())
    yield
    registry.GAMES.pop(_Secretive.slug, None)
    registry._cache.pop(_Secretive.slug, None)


class _Service:
    def __init__(self) -> None:
        self.notify: dict[int, str] = {ALICE: "mention", BOB: "dm"}
        self.pending: list[Pending] = [Pending("r2", 1, 2_000_000_000.0)]
        self.meta: dict[tuple[int, str], str] = {}

    async def get_meta(self, match_id: int, key: str) -> str | None:
        return self.meta.get((match_id, key))

    async def set_meta(self, match_id: int, key: str, value: str | None) -> None:
        self.meta[(match_id, key)] = value  # type: ignore[assignment]

    async def view(self, match_id: int, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"game": _Secretive.slug, "count": 3}
        if seat is not None:
            v["secret"] = f"{SECRET}-{seat}"
        return v

    async def get_notify(self, user_id: int) -> str:
        return self.notify[user_id]

    async def pending_requests(self, match_id: int) -> list[Pending]:
        return self.pending


@dataclass
class _Sent:
    id: int
    content: str | None
    embeds: list[discord.Embed]
    view: Any
    author: Any = field(default_factory=lambda: SimpleNamespace(id=999))

    @property
    def channel(self) -> Any:
        return SimpleNamespace(id=500)


class _Channel:
    def __init__(self, archived: bool = False) -> None:
        self.archived = archived
        self.locked = False
        self.sent: list[_Sent] = []
        self.edits: list[dict[str, Any]] = []

    async def edit(self, **kwargs: Any) -> _Channel:
        self.edits.append(kwargs)
        self.archived = kwargs.get("archived", self.archived)
        return self

    async def send(self, content: str | None = None, *, embed: discord.Embed | None = None, view: Any = None,
                   **_: Any) -> _Sent:
        assert not self.archived, "posted into an archived thread"
        msg = _Sent(len(self.sent) + 1, content, [embed] if embed else [], view)
        self.sent.append(msg)
        return msg

    async def history(self, limit: int = 10):  # noqa: ANN201 - async generator
        for msg in reversed(self.sent[-limit:]):
            yield msg

    def get_partial_message(self, mid: int) -> Any:
        async def edit(**_: Any) -> None:
            return None
        return SimpleNamespace(edit=edit)


class _User:
    def __init__(self, open_dms: bool) -> None:
        self.open_dms = open_dms
        self.dms: list[str] = []

    async def send(self, text: str) -> None:
        if not self.open_dms:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                    {"code": 50007, "message": "Cannot send messages to this user"})
        self.dms.append(text)


class _Bot:
    def __init__(self, channel: _Channel, users: dict[int, _User]) -> None:
        self.service = _Service()
        self.channel = channel
        self.users = users
        self.user = SimpleNamespace(id=999)

    def get_channel(self, cid: int) -> _Channel:
        return self.channel

    def get_user(self, uid: int) -> _User:
        return self.users[uid]

    def get_partial_messageable(self, cid: int) -> _Channel:
        return self.channel


def _match() -> MatchInfo:
    return MatchInfo(id=8, game=_Secretive.slug, options={}, status="active", version=3, host_id=ALICE,
                     locale="zh-TW", turn_seconds=3600,
                     seats=[SeatInfo(0, ALICE, "alice"), SeatInfo(1, BOB, "bob"), SeatInfo(2, None, "AI", "normal")],
                     guild_id=1, channel_id=2, thread_id=500)


def _texts(channel: _Channel) -> str:
    parts = []
    for m in channel.sent:
        parts.append(m.content or "")
        for e in m.embeds:
            parts.append(str(e.to_dict()))
    return "\n".join(parts)


@pytest.fixture
def setup() -> tuple[DiscordPublisher, _Bot]:
    bot = _Bot(_Channel(archived=True), {ALICE: _User(True), BOB: _User(False)})
    return DiscordPublisher(bot), bot


async def test_start_posts_public_view_only_and_checks_dms(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    await pub.publish(_match(), Change("started", 8, 3))
    channel = bot.channel
    assert channel.edits == [{"archived": False}], "an archived thread is reopened before posting"
    public = _texts(channel)
    assert SECRET not in public
    assert "count 3" in public
    # Alice (DMs open) got her own secret only; Bob (DMs closed) is named once in the thread.
    alice_dm = "\n".join(bot.users[ALICE].dms)
    assert f"{SECRET}-0" in alice_dm and f"{SECRET}-1" not in alice_dm
    note = t("zh-TW", "discord.publish.dm_closed", mention=f"<@{BOB}>")
    assert public.count(note) == 1
    # The status post carries a take-your-turn button for the pending request and its deadline.
    status = next(m for m in channel.sent if m.embeds)
    assert status.view is not None
    assert [c.custom_id for c in status.view.children] == ["g:t:8:r2"]
    assert "<t:2000000000:R>" in str(status.embeds[0].to_dict())


async def test_publishing_is_idempotent(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    change = Change("acted", 8, 4, 0, [Event(Msg("discord.publish.finished"))])
    await pub.publish(_match(), change)
    first = len(bot.channel.sent)
    await pub.publish(_match(), change)
    assert len(bot.channel.sent) == first
    # A fresh publisher (after a restart) recognises its own post by the footer marker.
    await DiscordPublisher(bot).publish(_match(), change)
    assert len(bot.channel.sent) == first


async def test_private_events_go_only_to_their_seat(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    bot.users[BOB].open_dms = True
    private = Event(Msg("discord.status.turn", {"name": "PRIVATE-FOR-BOB"}), to=(1,))
    public = Event(Msg("discord.status.turn", {"name": "EVERYONE"}))
    await pub.publish(_match(), Change("acted", 8, 5, 1, [private, public]))
    assert "PRIVATE-FOR-BOB" not in _texts(bot.channel)
    assert "EVERYONE" in _texts(bot.channel)
    assert any("PRIVATE-FOR-BOB" in d for d in bot.users[BOB].dms)
    assert not any("PRIVATE-FOR-BOB" in d for d in bot.users[ALICE].dms)


async def test_turn_notices_follow_preferences_and_are_not_repeated(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    bot.users[BOB].open_dms = True
    bot.service.notify = {ALICE: "mention", BOB: "both"}
    await pub.publish(_match(), Change("acted", 8, 6, 0))
    assert f"<@{BOB}>" in (bot.channel.sent[-1].content or "")
    assert sum("https://discord.com/channels/1/500" in d for d in bot.users[BOB].dms) == 1
    # Alice acts again while Bob's request is unchanged: no new ping for Bob.
    await pub.publish(_match(), Change("acted", 8, 7, 0))
    assert f"<@{BOB}>" not in (bot.channel.sent[-1].content or "")
    assert sum("https://discord.com/channels/1/500" in d for d in bot.users[BOB].dms) == 1
    # A reminder always reaches him.
    await pub.publish(_match(), Change("reminder", 8, 7, 1, request_ids=["r2"]))
    assert f"<@{BOB}>" in (bot.channel.sent[-1].content or "")
    bot.service.notify[BOB] = "none"
    before = len(bot.channel.sent), len(bot.users[BOB].dms)
    await pub.publish(_match(), Change("reminder", 8, 8, 1, request_ids=["r2"]))
    assert (len(bot.channel.sent), len(bot.users[BOB].dms)) == before


async def test_lobby_closed_before_start_posts_nothing_in_the_channel(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    from service.errors import UserError

    async def no_view(match_id: int, seat: int | None) -> dict[str, Any]:
        raise UserError("core.err.not_started")

    bot.service.view = no_view  # type: ignore[method-assign]
    bot.service.pending = []
    edits: list[dict[str, Any]] = []

    async def edit(**kwargs: Any) -> None:
        edits.append(kwargs)

    bot.channel.get_partial_message = lambda mid: SimpleNamespace(edit=edit)  # type: ignore[method-assign]
    match = MatchInfo(id=9, game=_Secretive.slug, options={}, status="abandoned", version=2, host_id=ALICE,
                      locale="en", turn_seconds=60, seats=[SeatInfo(0, ALICE, "alice")], channel_id=2,
                      lobby_message_id=77)
    await pub.publish(match, Change("abandoned", 9, 2))
    assert bot.channel.sent == []
    assert len(edits) == 1 and edits[0]["view"] is None
    assert edits[0]["embed"].description == t("en", "discord.lobby.status_abandoned")


@pytest.mark.parametrize(("status", "retried"), [(400, False), (403, False), (503, True)])
async def test_only_transient_post_failures_are_retried(setup: tuple[DiscordPublisher, _Bot], status: int,
                                                        retried: bool) -> None:
    pub, bot = setup

    async def failing_send(*args: Any, **kwargs: Any) -> None:
        raise discord.HTTPException(SimpleNamespace(status=status, reason="x"), {"code": 0, "message": "no"})

    bot.channel.send = failing_send  # type: ignore[method-assign]
    change = Change("acted", 8, 10, 0)
    if retried:
        with pytest.raises(discord.HTTPException):
            await pub.publish(_match(), change)
    else:
        await pub.publish(_match(), change)
