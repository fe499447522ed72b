"""The private panel (cogs/utils/panel.py) and how response windows read in the thread."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from test_publisher import ALICE, BOB, _Bot, _Channel, _match, _registered, _User

from cogs.postplan import Post as _Post
from cogs.postplan import continues as _continues
from cogs.publisher import DiscordPublisher
from cogs.utils.embeds import Pending
from cogs.utils.panel import PanelBook, one_click, panel_state, real_choice, wants_panel
from engines import registry
from engines.base import Msg, Option, Request, Step
from service.errors import UserError
from service.models import Change, SeatInfo

__all__ = ["_registered"]
PASS = ("pass",)


# ----- which seats a window prompts, and in how many clicks ----------------------------------------

class _Steps:
    """A service whose ``step`` walks a fixed tree: path tuple -> Step."""

    def __init__(self, tree: dict[tuple[str, ...], Step]) -> None:
        self.tree = tree
        self.calls = 0

    async def step(self, match_id: int, user_id: int, req: str, path: list[str]) -> Step:
        self.calls += 1
        if tuple(path) not in self.tree:
            raise UserError("core.err.stale")
        return self.tree[tuple(path)]


def _opt(value: str) -> Option:
    return Option(value, Msg("discord.button.confirm"))


async def test_a_window_seat_with_only_pass_is_not_prompted() -> None:
    only_pass = _Steps({(): Step(Msg("x"), [_opt("pass")])})
    with_shan = _Steps({(): Step(Msg("x"), [_opt("c5"), _opt("pass")])})
    req = Request("r1", 2, "need_shan", Msg("x"), window="w1", default=PASS, short=True)
    assert not await real_choice(only_pass, 1, ALICE, req)
    assert await real_choice(with_shan, 1, ALICE, req)
    turn = Request("r2", 2, "play", Msg("x"))  # not a window: always prompted, no step asked
    assert await real_choice(only_pass, 1, ALICE, turn) and only_pass.calls == 1


async def test_window_answers_play_in_one_click_but_multi_token_ones_do_not() -> None:
    done = Step(Msg("x"), [], complete=True)
    tree = {(): Step(Msg("x"), [_opt("c5"), _opt("zb"), _opt("pass")]), ("c5",): done, ("pass",): done,
            ("zb",): Step(Msg("x"), [_opt("c1"), _opt("c2")])}
    step = await one_click(_Steps(tree), 1, ALICE, "r1", [], tree[()])
    assert {o.value: o.commit for o in step.options} == {"c5": True, "zb": False, "pass": True}


# ----- what makes a panel edit ----------------------------------------------------------------------

class _PanelService:
    def __init__(self, view: dict[str, Any], requests: list[Request]) -> None:
        self.the_view = view
        self.requests = requests

    async def view(self, match_id: int, seat: int | None) -> dict[str, Any]:
        return copy.deepcopy(self.the_view)

    async def requests_for_user(self, match_id: int, user_id: int) -> list[Request]:
        return list(self.requests)

    async def step(self, match_id: int, user_id: int, req: str, path: list[str]) -> Step:
        return Step(Msg("x"), [_opt("pass")])  # nothing but pass

    async def pending_requests(self, match_id: int) -> list[Pending]:
        return [Pending(r.id, r.seat, 2_000_000_000.0) for r in self.requests]


def _sgs_view() -> dict[str, Any]:
    engine = registry.get("sanguosha")
    state = engine.new_state(engine.normalize_options({}), 5, 11)
    return engine.view(state, 1)


async def test_the_fingerprint_follows_the_hand_and_prompt_not_the_hp() -> None:
    match = replace(_match(), game="sanguosha")
    seat = SeatInfo(1, BOB, "bob")
    view = _sgs_view()
    service = _PanelService(view, [])
    base = (await panel_state(service, match, seat, [])).fingerprint
    hurt = copy.deepcopy(view)
    hurt["players"][1]["hp"] -= 1  # public, on the table image: not worth a DM edit per hit
    service.the_view = hurt
    assert (await panel_state(service, match, seat, [])).fingerprint == base
    drawn = copy.deepcopy(view)
    drawn["you"]["hand"].append({"id": "c0", "name": "sha", "suit": "S", "rank": 7})
    service.the_view = drawn
    assert (await panel_state(service, match, seat, [])).fingerprint != base
    service.the_view = view
    assert (await panel_state(service, match, seat, ["You draw 杀."])).fingerprint != base
    # A window it can only pass: no prompt, the same fingerprint (no DM call); a turn: a prompt.
    service.requests = [Request("r7", 1, "nullify", Msg("x"), window="w3", mode="any", default=PASS, short=True)]
    state = await panel_state(service, match, seat, [])
    assert state.request is None and state.fingerprint == base
    service.requests = [Request("r8", 1, "play", Msg("x"))]
    state = await panel_state(service, match, seat, [])
    assert state.request is not None and state.request.id == "r8" and state.fingerprint != base


async def test_the_engine_says_what_the_panel_shows() -> None:
    """A new field the engine counts in its panel fingerprint (a hidden hero, a marker) refreshes
    the panel with no change to the cog; a field it leaves out does not."""
    engine = registry.get("sanguosha")
    match = replace(_match(), game="sanguosha")
    seat = SeatInfo(1, BOB, "bob")
    view = _sgs_view()
    view["you"]["marker"] = 0
    service = _PanelService(view, [])
    base = (await panel_state(service, match, seat, [])).fingerprint
    marked = copy.deepcopy(view)
    marked["you"]["marker"] = 1
    service.the_view = marked
    assert (await panel_state(service, match, seat, [])).fingerprint == base  # not drawn today
    original = type(engine).panel_fingerprint
    try:
        type(engine).panel_fingerprint = lambda self, v, s: [original(self, v, s), v["you"].get("marker")]
        service.the_view = view
        base = (await panel_state(service, match, seat, [])).fingerprint
        service.the_view = marked
        assert (await panel_state(service, match, seat, [])).fingerprint != base
    finally:
        type(engine).panel_fingerprint = original


def test_panel_book_keeps_the_newest_notes_and_counts_holds() -> None:
    book = PanelBook()
    book.add_notes(1, 0, [f"line {i}" for i in range(8)])
    assert book.notes_of(1, 0) == [f"line {i}" for i in range(3, 8)]
    book.hold(1, 0)
    book.hold(1, 0)
    book.release(1, 0)
    assert (1, 0) in book.held
    book.release(1, 0)
    assert (1, 0) not in book.held
    book.shown[(1, 0)] = "x"
    book.forget(1)
    assert book.notes_of(1, 0) == [] and not book.shown


def test_only_games_that_ask_for_it_get_panels() -> None:
    assert wants_panel("sanguosha")
    assert not wants_panel("risk") and not wants_panel("pentactic") and not wants_panel("no-such-game")


# ----- response windows in the turn's status post ---------------------------------------------------

def _post(requests: dict[str, int], *, owners: set[int], windowed: bool) -> _Post:
    return _Post(5, "acted", {5: ["x"]}, requests, owners=owners, windowed=windowed)


def test_a_window_opened_in_a_turn_continues_its_post() -> None:
    post = _post({"r1": 0}, owners={0}, windowed=False)
    # seat 0 plays 杀 on seat 1: seat 1's 闪 window is no news for the thread
    assert _continues(post, Change("acted", 8, 6, 0, [], None, ["r2"], [1], ["w1"]), set())
    post = _post({"r2": 1}, owners={0}, windowed=True)
    # the window closes by its default and the turn comes back to seat 0: same post
    assert _continues(post, Change("window", 8, 7, None, [], None, ["r3"], [0], [""]), set())
    # ... but the next player's turn is a new post (and a ping)
    assert not _continues(post, Change("window", 8, 7, None, [], None, ["r4"], [1], [""]), set())


def test_without_windows_posts_behave_as_before() -> None:
    post = _post({"r1": 0, "r2": 1}, owners={0, 1}, windowed=False)
    # Risk's simultaneous set-up answered, then seat 0 asked anew: a new post as it always was
    assert not _continues(post, Change("acted", 8, 6, 1, [], None, ["r3"], [0]), set())


async def test_panel_games_do_not_dm_a_window_seat_the_panel_prompts_it() -> None:
    bot = _Bot(_Channel(), {ALICE: _User(True), BOB: _User(True)})
    bot.service.notify = {ALICE: "dm", BOB: "dm"}
    pub = DiscordPublisher(bot)
    window = [Pending("r5", 0, None, "w1"), Pending("r6", 1, None, "w1")]
    _, dms = await pub._turn_targets(replace(_match(), game="sanguosha"), window)
    assert dms == []
    _, dms = await pub._turn_targets(_match(), [Pending("r7", 0, None, "w2")])
    assert dms == [ALICE]  # other games: the DM preference still holds
    _, dms = await pub._turn_targets(replace(_match(), game="sanguosha"), [Pending("r8", 1, None)])
    assert dms == [BOB]  # a turn of a panel game: as chosen



# ----- the thread tells a long turn short -------------------------------------------------------------

def _nanman_lines(seats: int) -> list[Msg]:
    """The public messages of a 南蛮入侵 at a table of ``seats`` where nobody has a 杀."""
    engine = registry.get("sanguosha")
    from engines.sanguosha.data import card

    state = engine.new_state(engine.normalize_options({"heroes": "beginner"}), seats, 5)
    lord = state["lord"]
    for zone in ("deck", "discard"):
        state[zone] = [c for c in state[zone] if c != "c77"]
    for p in state["players"]:
        p["hand"] = [c for c in p["hand"] if c != "c77" and card(c).name not in ("sha", "wuxie")]
    state["players"][lord]["hand"].append("c77")
    req = next(r for r in engine.pending(state) if r.seat == lord)
    state, events = engine.apply(state, lord, ["c77"], request=req)
    msgs = [e.msg for e in events if e.to is None]
    while not any(r.kind == "play" for r in engine.pending(state)):
        r = engine.pending(state)[0]
        state, events = engine.apply(state, r.seat, list(r.default or ()), request=r)
        msgs += [e.msg for e in events if e.to is None]
    return msgs


def test_an_eight_seat_nanman_reads_as_two_lines_in_the_turn_post() -> None:
    msgs = _nanman_lines(8)
    assert len(msgs) == 15  # "uses", then "plays no 杀" + "takes 1 damage" seven times
    match = replace(_match(), game="sanguosha",
                    seats=[SeatInfo(i, 100 + i, f"p{i}") for i in range(8)])
    post = _Post(9, "acted", {9: ["raw"] * len(msgs)}, {}, msgs={9: msgs})
    content = DiscordPublisher(_Bot(_Channel(), {}))._content(match, post) or ""
    lines = content.splitlines()
    assert len(lines) == 2, lines
    lord = next(s for s in range(8) if f"p{s}" in lines[0])
    assert all(f"p{s}" in lines[1] for s in range(8) if s != lord), lines
    # A game without ``compact`` keeps its lines as they are.
    plain = DiscordPublisher(_Bot(_Channel(), {}))._content(_match(), post) or ""
    assert plain.splitlines() == ["raw"] * 15


async def test_settle_does_not_hold_back_a_turn_of_windows() -> None:
    import asyncio

    pub = DiscordPublisher(_Bot(_Channel(), {}), post_interval=0.3)
    pub._channel_of[8] = 500
    await pub.pacer.slot(500)
    loop = asyncio.get_running_loop()
    pub._live[8] = _post({"r1": 0}, owners={0}, windowed=True)
    started = loop.time()
    await pub.settle(8)
    assert loop.time() - started < 0.1, "the next window is not held back by the channel's pace"
    pub._live[8] = _post({"r1": 0}, owners={0}, windowed=False)
    started = loop.time()
    await pub.settle(8)
    assert loop.time() - started >= 0.15, "other turns still fold what comes meanwhile"


async def test_after_a_restart_the_panel_is_edited_not_sent_again() -> None:
    from types import SimpleNamespace

    bot = _Bot(_Channel(), {BOB: _User(True)})
    edited: list[tuple[int, int, dict[str, Any]]] = []

    def partial(channel_id: int) -> Any:
        def message(message_id: int) -> Any:
            async def edit(**kwargs: Any) -> None:
                edited.append((channel_id, message_id, kwargs))
            return SimpleNamespace(edit=edit)
        return SimpleNamespace(get_partial_message=message)

    bot.get_partial_messageable = partial  # type: ignore[attr-defined]
    bot.service.meta[(8, "panel:1")] = "5:77"  # stored by the process before the restart
    pub = DiscordPublisher(bot)
    match = replace(_match(), game="sanguosha")
    assert await pub._panel_deliver(match, SeatInfo(1, BOB, "bob"), {"content": "hand"}, None)
    assert edited == [(5, 77, {"content": "hand"})] and bot.users[BOB].dms == []
