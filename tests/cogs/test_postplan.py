"""The post planner as a table: the publisher's memory and a batch of changes in, the calls out.
No Discord, no service: plain data (``cogs.postplan``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from cogs.postplan import (
    EditLive,
    Facts,
    Memory,
    Plan,
    Post,
    Send,
    content,
    plan_posts,
)
from cogs.utils.embeds import Pending
from engines.base import Event, Msg
from i18n import t
from service.lobby import LOBBY_EXPIRED
from service.models import Change, MatchInfo, SeatInfo

ALICE, BOB = 11, 22
CHANNEL = 500
ASKED = ("mention", "dm", "both", "none")
NOTIFY = {ALICE: "mention", BOB: "mention"}
#: (channel, message) of the live post in the memory rows below
LIVE_AT = (CHANNEL, 70)


def _match(status: str = "active", version: int = 9) -> MatchInfo:
    return MatchInfo(id=8, game="pentactic", options={}, status=status, version=version, host_id=ALICE,
                     locale="en", turn_seconds=3600,
                     seats=[SeatInfo(0, ALICE, "alice"), SeatInfo(1, BOB, "bob"), SeatInfo(2, None, "AI", "normal")],
                     guild_id=1, channel_id=2, thread_id=CHANNEL)


def _line(text: str) -> Event:
    return Event(Msg("discord.status.turn", {"name": text}))


def acted(version: int, seat: int, text: str, asked: dict[str, int], windows: list[str] | None = None) -> Change:
    return Change("acted", 8, version, seat, [_line(text)], None, list(asked), list(asked.values()),
                  windows or [""] * len(asked))


def live(version: int, requests: dict[str, int], *, windowed: bool = False, lines: str = "earlier") -> Post:
    """The live post as the publisher remembers it (posted, in ``CHANNEL``)."""
    return Post(version, "acted", {version: [lines]}, requests, message=LIVE_AT, owners=set(requests.values()),
                asked=[Pending(r, s) for r, s in requests.items()], windowed=windowed)


@dataclass(frozen=True)
class Row:
    name: str
    changes: list[Change]
    expect: list[str]  # the plan's steps, see ``_shape``
    memory: Memory = Memory(shown=3)
    status: str = "active"
    facts: Facts = field(default_factory=lambda: Facts(NOTIFY))
    pings: list[str] = field(default_factory=list)  # mentions of the newest post


def _shape(plan: Plan) -> list[str]:
    out = []
    for step in plan.steps:
        if isinstance(step, EditLive):
            out.append(f"edit v{step.post.version}" + (" queued" if step.queued else "") + (" final" if step.final else ""))
        else:
            out.append(f"send v{step.post.version}" + (" final" if step.final else "") +
                       (f" retire {step.retire}" if step.retire else ""))
    return out


ROWS = [
    Row("somebody else is asked: a new post; the old one's buttons go after it",
        [acted(4, 1, "bob ends", {"r4": 0})], ["send v4 final retire after"], pings=[f"<@{ALICE}>"]),
    Row("the same seat acts again: the live post is edited, nobody pinged again",
        [acted(4, 0, "alice places", {"r4": 0})], ["edit v4 final"],
        memory=Memory(3, live(3, {"r3": 0}))),
    Row("the turn passes on: the live post's last lines (no buttons), then a new post",
        [acted(4, 0, "alice places", {"r4": 0}), acted(5, 0, "alice ends", {"r5": 1})],
        ["edit v4", "send v5 final"], memory=Memory(3, live(3, {"r3": 0})), pings=[f"<@{BOB}>"]),
    Row("a live post in another channel is not continued",
        [acted(4, 0, "alice places", {"r4": 0})], ["send v4 final retire after"],
        memory=Memory(3, replace(live(3, {"r3": 0}), message=(CHANNEL + 1, 70)))),
    Row("a window closing, the turn back to its owner: the post's edit is queued, nobody waits",
        [Change("window", 8, 4, None, [_line("no dodge")], None, ["r4"], [0], [""])], ["edit v4 queued final"],
        memory=Memory(3, replace(live(3, {"r3": 1}, windowed=True), owners={0}))),
    Row("two turns in one batch: a light post, then the newest with the buttons",
        [acted(4, 1, "bob ends", {"r4": 0}), acted(5, 0, "alice ends", {"r5": 1})],
        ["send v4 retire after", "send v5 final"], pings=[f"<@{BOB}>"]),
    Row("a post that pings nobody joins the next one (a time-out and the AI's answer)",
        [Change("timeout", 8, 4, 1, [_line("bob passes")], None, ["r4"], [2]), acted(5, 2, "AI moves", {"r5": 0})],
        ["send v5 final retire after"], pings=[f"<@{ALICE}>"]),
    Row("the game is over: the previous post's buttons go first, in the result post's slot",
        [acted(9, 1, "bob wins", {}), Change("finished", 8, 9)], ["send v9 final retire before"],
        status="finished"),
    Row("... also when the live post was the previous status post",
        [acted(9, 1, "bob wins", {}), Change("finished", 8, 9)], ["send v9 final retire before"],
        memory=Memory(8, live(8, {"r8": 1})), status="finished"),
    Row("... and when a match is abandoned",
        [Change("abandoned", 8, 9, note=Msg("discord.status.turn", {"name": "host left"}))],
        ["send v9 final retire before"], status="abandoned"),
    Row("the end after a turn that went on: the live post's edit drops its buttons, first",
        [acted(8, 1, "bob moves", {"r8": 1}), acted(9, 1, "bob wins", {}), Change("finished", 8, 9)],
        ["edit v8", "send v9 final"], memory=Memory(7, live(7, {"r7": 1})), status="finished"),
    Row("the end shown already: its line joins the post of the final move",
        [Change("finished", 8, 9)], ["edit v9 final"], memory=Memory(9, live(9, {})), status="finished"),
    Row("versions shown already add nothing", [acted(3, 1, "bob ends", {"r3": 0})], []),
    Row("a lobby closed for inactivity is not told in the channel",
        [Change("abandoned", 8, 4, note=Msg(LOBBY_EXPIRED))], [], status="abandoned"),
    Row("the start names nobody: who is asked comes from the service",
        [Change("started", 8, 9)], ["send v9 final retire after"],
        facts=Facts(NOTIFY, (Pending("r9", 1),)), pings=[f"<@{BOB}>"]),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_plan(row: Row) -> None:
    plan = plan_posts(_match(row.status), row.changes, row.memory, row.facts, channel_id=CHANNEL)
    assert plan.complete
    assert _shape(plan) == row.expect
    sends = [s for s in plan.steps if isinstance(s, Send)]
    mention = sends[-1].post.mention if sends else ""
    assert mention == (t("en", "discord.publish.your_turn", mentions=" ".join(row.pings)) if row.pings else "")


def test_the_memory_is_not_changed() -> None:
    before = live(3, {"r3": 0})
    memory = Memory(3, before, frozenset({"r3"}))
    plan = plan_posts(_match(), [acted(4, 0, "alice places", {"r4": 0})], memory, Facts(NOTIFY), channel_id=CHANNEL)
    (step,) = plan.steps
    assert isinstance(step, EditLive) and step.post is not before
    assert "alice places" in (content(_match(), step.post) or "")
    assert before.lines == {3: ["earlier"]} and before.version == 3 and before.requests == {"r3": 0}
    assert memory.notified == {"r3"} and plan.notified == {"r4"}


def test_the_end_joins_the_final_moves_post_without_changing_it_in_memory() -> None:
    before = live(9, {})
    plan = plan_posts(_match("finished"), [Change("finished", 8, 9)], Memory(9, before), Facts(), channel_id=CHANNEL)
    (step,) = plan.steps
    assert step.post.lines[9] == ["earlier", t("en", "discord.publish.finished")]
    assert before.lines == {9: ["earlier"]}


@pytest.mark.parametrize("mode", ASKED)
def test_a_plan_asks_for_the_notify_preferences_it_needs(mode: str) -> None:
    changes = [acted(4, 1, "bob ends", {"r4": 0})]
    plan = plan_posts(_match(), changes, Memory(3), Facts(), channel_id=CHANNEL)
    assert not plan.complete and plan.missing_users == {ALICE}, "only the player asked, not the actor"
    plan = plan_posts(_match(), changes, Memory(3), Facts({ALICE: mode}), channel_id=CHANNEL)
    (step,) = plan.steps
    assert plan.complete and isinstance(step, Send)
    assert (f"<@{ALICE}>" in step.post.mention) == (mode in ("mention", "both"))
    assert step.post.dm_users == ([ALICE] if mode in ("dm", "both") else [])


def test_a_plan_asks_who_is_to_play_only_when_a_change_does_not_say() -> None:
    plan = plan_posts(_match(), [Change("started", 8, 9)], Memory(), Facts(NOTIFY), channel_id=CHANNEL)
    assert plan.needs_pending and not plan.complete
    said = plan_posts(_match(), [acted(9, 1, "bob ends", {"r9": 0})], Memory(), Facts(NOTIFY), channel_id=CHANNEL)
    assert not said.needs_pending and said.complete


def test_requests_announced_before_ping_nobody() -> None:
    changes = [acted(4, 1, "bob ends", {"r4": 0})]
    plan = plan_posts(_match(), changes, Memory(3, None, frozenset({"r4"})), Facts(NOTIFY), channel_id=CHANNEL)
    (step,) = plan.steps
    assert isinstance(step, Send) and step.post.mention == ""
