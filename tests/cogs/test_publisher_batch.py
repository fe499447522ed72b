"""One status post per turn: the publisher edits the live post while the same seats are asked,
posts anew when somebody else is asked, and takes an AI's run of moves as one batch."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.publisher import CONTENT_MAX, SUMMARY_LINES, DiscordPublisher
from cogs.utils.embeds import Pending
from engines import registry
from engines.base import Engine, Event, Msg
from i18n import t
from service.models import Change, MatchInfo, SeatInfo

ALICE, BOB = 11, 22
CHANNEL = 500


class _Plain(Engine):
    """Only ``describe`` matters here; the fake service builds the views."""

    slug = "cogs_batch"

    def new_state(self, options, seats, seed):  # pragma: no cover - not used
        raise NotImplementedError

    pending = step = apply = result = ai_action = view = new_state

    def describe(self, view: dict[str, Any]) -> list[Msg]:
        return [Msg("discord.status.turn", {"name": f"board at {view['version']}"})]


@pytest.fixture(autouse=True)
def _registered() -> Any:
    registry.register(_Plain.slug, _Plain())
    yield
    registry.GAMES.pop(_Plain.slug, None)
    registry._cache.pop(_Plain.slug, None)


class _Service:
    def __init__(self) -> None:
        self.notify: dict[int, str] = {ALICE: "mention", BOB: "mention"}
        self.pending: list[Pending] = []
        self.meta: dict[tuple[int, str], str | None] = {}
        self.version = 0

    async def get_meta(self, match_id: int, key: str) -> str | None:
        return self.meta.get((match_id, key))

    async def set_meta(self, match_id: int, key: str, value: str | None) -> None:
        self.meta[(match_id, key)] = value

    async def view(self, match_id: int, seat: int | None) -> dict[str, Any]:
        return {"game": _Plain.slug, "version": self.version}

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
    edits: list[dict[str, Any]] = field(default_factory=list)
    author: Any = field(default_factory=lambda: SimpleNamespace(id=999))

    @property
    def channel(self) -> Any:
        return SimpleNamespace(id=CHANNEL)

    def custom_ids(self) -> list[str]:
        return [c.custom_id for c in self.view.children] if self.view is not None else []


class _Channel:
    """Records sends and applies edits to the sent messages, like Discord would."""

    id = CHANNEL
    archived = False
    locked = False

    def __init__(self) -> None:
        self.sent: list[_Sent] = []
        self.fail_edit: Exception | None = None

    async def send(self, content: str | None = None, *, embed: discord.Embed | None = None, view: Any = None,
                   **_: Any) -> _Sent:
        msg = _Sent(len(self.sent) + 1, content, [embed] if embed else [], view)
        self.sent.append(msg)
        return msg

    async def history(self, limit: int = 10):  # noqa: ANN201 - async generator
        for msg in reversed(self.sent[-limit:]):
            yield msg

    def get_partial_message(self, mid: int) -> Any:
        async def edit(**kwargs: Any) -> None:
            if self.fail_edit is not None:
                raise self.fail_edit
            msg = self.sent[mid - 1]
            msg.edits.append(kwargs)
            if "content" in kwargs:
                msg.content = kwargs["content"]
            if "embed" in kwargs:
                msg.embeds = [kwargs["embed"]]
            if "view" in kwargs:
                msg.view = kwargs["view"]
        return SimpleNamespace(edit=edit)

    def edit_count(self) -> int:
        return sum(len(m.edits) for m in self.sent)


class _User:
    def __init__(self) -> None:
        self.dms: list[str] = []

    async def send(self, text: str) -> None:
        self.dms.append(text)


class _Bot:
    def __init__(self) -> None:
        self.service = _Service()
        self.channel = _Channel()
        self.users = {ALICE: _User(), BOB: _User()}
        self.user = SimpleNamespace(id=999)

    def get_channel(self, cid: int) -> _Channel:
        return self.channel

    def get_user(self, uid: int) -> _User:
        return self.users[uid]

    def get_partial_messageable(self, cid: int) -> _Channel:
        return self.channel


def _match(version: int) -> MatchInfo:
    return MatchInfo(id=8, game=_Plain.slug, options={}, status="active", version=version, host_id=ALICE,
                     locale="en", turn_seconds=3600,
                     seats=[SeatInfo(0, ALICE, "alice"), SeatInfo(1, BOB, "bob"), SeatInfo(2, None, "AI", "normal"),
                            SeatInfo(3, None, "AI 2", "normal")],
                     guild_id=1, channel_id=2, thread_id=CHANNEL)


def _line(text: str, to: tuple[int, ...] | None = None) -> Event:
    return Event(Msg("discord.status.turn", {"name": text}), to=to)


def _acted(version: int, seat: int, text: str, asked: dict[str, int]) -> Change:
    return Change("acted", 8, version, seat, [_line(text)], None, list(asked), list(asked.values()))


async def _publish(pub: DiscordPublisher, bot: _Bot, changes: list[Change]) -> None:
    """Deliver like the service: the match and the humans' requests as they are after the last change."""
    last = changes[-1]
    bot.service.version = last.version
    humans = {0, 1}
    bot.service.pending = [Pending(r, s, 2_000_000_000.0) for r, s in zip(last.request_ids, last.request_seats,
                                                                        strict=True) if s in humans]
    await pub.publish_batch(_match(last.version), changes)
    await pub.pacer.flush()  # the old post's buttons go in the channel's next free slot


@pytest.fixture
def setup() -> tuple[DiscordPublisher, _Bot]:
    bot = _Bot()
    return DiscordPublisher(bot), bot


async def test_a_multi_action_turn_edits_one_post(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(4, 1, "bob ends", {"r1": 0})])
    assert len(ch.sent) == 1 and f"<@{ALICE}>" in (ch.sent[0].content or "")
    await _publish(pub, bot, [_acted(5, 0, "alice places", {"r2": 0})])
    await _publish(pub, bot, [_acted(6, 0, "alice attacks", {"r3": 0})])
    assert len(ch.sent) == 1, "the same seat kept acting: no new post"
    post = ch.sent[0]
    assert ["bob ends" in (post.content or ""), "alice places" in (post.content or ""),
            "alice attacks" in (post.content or "")] == [True, True, True]
    assert post.custom_ids() == ["g:t:8:r3"], "the edit carries the button of the fresh request"
    assert "board at 6" in str(post.embeds[0].to_dict()) and post.embeds[0].footer.text == "#8 · v6"
    # The turn passes to Bob: a new post pinging him; the old post loses its button.
    await _publish(pub, bot, [_acted(7, 0, "alice fortifies", {"r4": 1})])
    assert len(ch.sent) == 2
    assert f"<@{BOB}>" in (ch.sent[1].content or "") and "alice fortifies" in (ch.sent[1].content or "")
    assert ch.sent[1].custom_ids() == ["g:t:8:r4"] and post.view is None
    assert bot.service.meta[(8, "status_post")] == f"{CHANNEL}:2"


async def test_one_action_turns_post_every_move_as_before(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    ch = bot.channel
    for version in range(3, 9):
        mover, other = (0, 1) if version % 2 else (1, 0)
        await _publish(pub, bot, [_acted(version, mover, f"move {version}", {f"r{version}": other})])
    assert len(ch.sent) == 6
    assert all(m.edits == [{"view": None}] for m in ch.sent[:-1]), "older posts only lose their buttons"
    assert [m.content.splitlines()[0] for m in ch.sent] == [f"move {v}" for v in range(3, 9)]
    assert ch.sent[-1].custom_ids() == ["g:t:8:r8"]


async def test_a_turn_and_the_ai_replies_share_one_post(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(4, 0, "alice ends", {"r1": 1})])  # Bob's turn
    await _publish(pub, bot, [_acted(5, 1, "bob places", {"r2": 1})])
    edits_before = ch.edit_count()
    ai_turn = [_acted(v, 2, f"AI move {v}", {f"r{v}": 2}) for v in range(8, 40)]
    await _publish(pub, bot, [
        _acted(6, 1, "bob attacks", {"r6": 1}),
        _acted(7, 1, "bob ends", {"r7": 2}),  # to the AI: nobody to tell, Bob's post goes on
        *ai_turn,
        _acted(40, 2, "AI ends", {"r40": 0}),  # back to Alice: a new post pinging her
    ])
    assert len(ch.sent) == 2
    bob_post, alice_post = ch.sent
    assert ch.edit_count() - edits_before == 1, "Bob's post: the rest of the round and no button, in one edit"
    assert bob_post.view is None and "AI move 39" in (bob_post.content or "")
    assert "AI move 8\n" not in (bob_post.content or "")
    lines = 4 + len(ai_turn)  # alice ends, bob places, bob attacks, bob ends, the AI's moves
    assert (bob_post.content or "").startswith(t("en", "publish.earlier", count=lines - SUMMARY_LINES))
    assert alice_post.custom_ids() == ["g:t:8:r40"] and f"<@{ALICE}>" in (alice_post.content or "")
    assert "AI ends" in (alice_post.content or "") and "board at 40" in str(alice_post.embeds[0].to_dict())


async def test_a_post_that_pings_nobody_joins_the_next_one(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(4, 0, "alice ends", {"r1": 1})])  # Bob's turn
    timeout = Change("timeout", 8, 5, 1, [_line("bob passes")], Msg("discord.status.turn", {"name": "timed out"}),
                     ["r5"], [2])
    await _publish(pub, bot, [timeout, _acted(6, 2, "AI moves", {"r6": 2}), _acted(7, 2, "AI ends", {"r7": 0})])
    assert len(ch.sent) == 2, "the time-out asked only the AI: its lines go with the post asking Alice"
    final = ch.sent[1]
    assert all(x in (final.content or "") for x in ("bob passes", "timed out", "AI moves", "AI ends"))
    assert f"<@{ALICE}>" in (final.content or "")
    assert final.custom_ids() == ["g:t:8:r7"] and "board at 7" in str(final.embeds[0].to_dict())
    assert ch.sent[0].view is None, "Bob's old post lost its button"


async def test_earlier_turns_of_a_batch_get_light_posts(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(4, 0, "alice ends", {"r1": 2})])  # the AI's turn
    timeout = Change("timeout", 8, 6, 1, [_line("bob passes")], Msg("discord.status.turn", {"name": "timed out"}),
                     ["r6"], [0])
    await _publish(pub, bot, [_acted(5, 2, "AI ends", {"r5": 1}), timeout])
    assert len(ch.sent) == 3
    light, final = ch.sent[1], ch.sent[2]
    # The post that asked Bob: its lines and who was asked then; the current board and the
    # buttons belong to the newest post only.
    assert light.view is None and light.embeds[0].image.url is None and light.embeds[0].footer.text == "#8 · v5"
    assert "AI ends" in (light.content or "") and f"<@{BOB}>" in (light.content or "")
    assert "bob" in str(light.embeds[0].to_dict())
    assert final.custom_ids() == ["g:t:8:r6"] and "board at 6" in str(final.embeds[0].to_dict())
    assert "timed out" in (final.content or "") and f"<@{ALICE}>" in (final.content or "")


async def test_a_move_and_the_ais_answer_edit_the_players_post(setup: tuple[DiscordPublisher, _Bot]) -> None:
    """Pentactic against the AI: the player's move and the AI's answer arrive as one batch; the
    same player is asked again, so the post is edited (no new post, no ping) until its lines are
    full; then the game goes on in a new post, still without a ping."""
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(3, 2, "AI opens", {"r3": 0})])
    assert len(ch.sent) == 1 and f"<@{ALICE}>" in (ch.sent[0].content or "")
    version = 4
    while len(ch.sent) == 1:
        await _publish(pub, bot, [_acted(version, 0, f"alice {version}", {f"r{version}": 2}),
                                  _acted(version + 1, 2, f"AI {version + 1}", {f"r{version + 1}": 0})])
        version += 2
        assert version < 100
    first, second = ch.sent
    assert first.view is None and f"AI {version - 3}" in (first.content or "")
    assert not (first.content or "").startswith("…"), "nothing of the game is hidden"
    assert f"<@{ALICE}>" not in (second.content or ""), "she was just playing: no ping"
    assert second.custom_ids() == [f"g:t:8:r{version - 1}"]
    assert (version - 4) // 2 >= SUMMARY_LINES // 2 - 1, "about a post per ten moves"


async def test_long_lines_fit_discords_limit(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    await _publish(pub, bot, [_acted(4, 1, "start", {"r1": 0})])
    huge = Change("acted", 8, 5, 0, [_line(f"{i:03d} " + "x" * 300) for i in range(30)], None, ["r2"], [0])
    await _publish(pub, bot, [huge])
    content = bot.channel.sent[0].content or ""
    assert len(content) <= CONTENT_MAX
    assert "029 " in content and "000 " not in content
    assert content.startswith("…") and f"<@{ALICE}>" in content, "the mention line survives the cut"


async def test_redelivery_adds_nothing(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    batch = [_acted(4, 1, "bob ends", {"r1": 0}), _acted(5, 0, "alice places", {"r2": 0})]
    await _publish(pub, bot, batch)
    snapshot = [(m.content, len(m.edits)) for m in bot.channel.sent]
    await _publish(pub, bot, batch)
    assert [(m.content, len(m.edits)) for m in bot.channel.sent] == snapshot
    # After a restart the footer tells which versions were shown.
    await _publish(DiscordPublisher(bot), bot, batch)
    assert [(m.content, len(m.edits)) for m in bot.channel.sent] == snapshot
    assert (bot.channel.sent[0].content or "").count("alice places") == 1


async def test_a_failed_edit_is_retried_without_repeating_lines(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    await _publish(pub, bot, [_acted(4, 1, "bob ends", {"r1": 0})])
    bot.channel.fail_edit = discord.HTTPException(SimpleNamespace(status=503, reason="x"), {"code": 0, "message": ""})
    change = _acted(5, 0, "alice places", {"r2": 0})
    with pytest.raises(discord.HTTPException):
        await _publish(pub, bot, [change])
    bot.channel.fail_edit = None
    await _publish(pub, bot, [change])
    assert len(bot.channel.sent) == 1 and (bot.channel.sent[0].content or "").count("alice places") == 1


async def test_a_deleted_live_post_is_posted_again(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    await _publish(pub, bot, [_acted(4, 1, "bob ends", {"r1": 0})])
    bot.channel.fail_edit = discord.NotFound(SimpleNamespace(status=404, reason="x"),
                                             {"code": 10008, "message": "Unknown Message"})
    await _publish(pub, bot, [_acted(5, 0, "alice places", {"r2": 0})])
    assert len(bot.channel.sent) == 2
    assert "bob ends" in (bot.channel.sent[1].content or "") and "alice places" in (bot.channel.sent[1].content or "")
    assert bot.channel.sent[1].custom_ids() == ["g:t:8:r2"]


async def test_private_events_of_a_batch_make_one_dm_per_seat(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    changes = [Change("acted", 8, v, 2, [_line(f"secret {v}", to=(1,)), _line(f"public {v}")], None,
                      [f"r{v}"], [2]) for v in range(4, 8)]
    await _publish(pub, bot, changes)
    assert len(bot.users[BOB].dms) == 1
    assert all(f"secret {v}" in bot.users[BOB].dms[0] for v in range(4, 8))
    assert bot.users[ALICE].dms == []
    assert not any("secret" in (m.content or "") for m in bot.channel.sent)


async def test_turns_passing_between_ai_seats_share_one_post(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    ch = bot.channel
    await _publish(pub, bot, [_acted(4, 0, "alice ends", {"r4": 2})])  # the first AI's turn: a new post
    assert len(ch.sent) == 1
    await _publish(pub, bot, [
        _acted(5, 2, "AI attacks", {"r5": 2}),
        _acted(6, 2, "AI ends", {"r6": 3}),  # to the second AI: nobody to tell, same post
        _acted(7, 3, "AI 2 attacks", {"r7": 3}),
        _acted(8, 3, "AI 2 ends", {"r8": 0}),  # back to Alice, who was just playing: same post
    ])
    assert len(ch.sent) == 1
    first = ch.sent[0].content or ""
    assert all(x in first for x in ("alice ends", "AI attacks", "AI ends", "AI 2 attacks", "AI 2 ends"))
    assert ch.sent[0].custom_ids() == ["g:t:8:r8"]
    # A human handing the turn to another human gets a new post pinging them.
    await _publish(pub, bot, [_acted(9, 0, "alice ends again", {"r9": 1})])
    assert len(ch.sent) == 2 and f"<@{BOB}>" in (ch.sent[1].content or "")
    # Bob's turn, then the AI: back to Alice, who was not the one just playing: a new post, pinged.
    await _publish(pub, bot, [_acted(10, 1, "bob ends", {"r10": 2}), _acted(11, 2, "AI ends", {"r11": 0})])
    assert len(ch.sent) == 3 and f"<@{ALICE}>" in (ch.sent[2].content or "")


async def test_the_last_move_and_the_end_make_one_post_with_the_board(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    await _publish(pub, bot, [_acted(4, 1, "bob ends", {"r1": 0})])
    bot.service.version, bot.service.pending = 5, []
    ended = _match(5)
    ended = MatchInfo(**{**ended.__dict__, "status": "finished", "result": {"winners": [0]}})
    await pub.publish_batch(ended, [Change("acted", 8, 5, 0, [_line("alice wins")], None, [], []),
                                    Change("finished", 8, 5, None, [], None, [])])
    await pub.pacer.flush()
    ch = bot.channel
    assert len(ch.sent) == 2 and ch.sent[0].view is None
    final = ch.sent[1]
    assert "alice wins" in (final.content or "") and "board at 5" in str(final.embeds[0].to_dict())
    assert t("en", "discord.status.winners", names="alice") in str(final.embeds[0].to_dict())
    assert 8 not in pub._live


async def test_after_a_reminder_the_turn_goes_on_in_a_new_post(setup: tuple[DiscordPublisher, _Bot]) -> None:
    pub, bot = setup
    await _publish(pub, bot, [_acted(4, 1, "bob ends", {"r1": 0})])
    await pub.publish_batch(_match(4), [Change("reminder", 8, 4, 0, request_ids=["r1"])])
    await pub.pacer.flush()
    assert len(bot.channel.sent) == 2 and f"<@{ALICE}>" in (bot.channel.sent[1].content or "")
    await _publish(pub, bot, [_acted(5, 0, "alice places", {"r2": 0})])
    assert len(bot.channel.sent) == 3, "the status post is back at the bottom of the thread"
    assert bot.channel.sent[2].custom_ids() == ["g:t:8:r2"] and bot.channel.sent[0].view is None
