"""Discord's limits under load. Slow soak (``-m slow``): Pentactic on every board and two-player
mode, hosts in each language, each game played to the end through the real bot. By default: Risk
against two AI seats under Discord's channel rate limit (about 10 s)."""

from __future__ import annotations

import itertools

import pytest
from e2e_support import RealBots, Table, play_to_end, real_bot_missing

from fakediscord import FakeDiscord


@pytest.mark.slow
@pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))
async def test_pentactic_every_board_and_language(fake: FakeDiscord, real_bots: RealBots) -> None:
    from engines import registry

    await real_bots.start()
    table = Table(fake)
    specs = {s.name: s for s in registry.get("pentactic").option_specs()}
    boards = [value for value, _ in specs["board"].choices]
    modes = [value for value, _ in specs["mode"].choices
             if registry.get("pentactic").seat_range({"mode": value, "board": boards[0]})[0] <= 2]
    locales = itertools.cycle(["zh-TW", "zh-CN", "en-US"])
    played = 0
    for mode, board in itertools.product(modes, boards):
        host = fake.add_user(f"h{played}", locale=next(locales))
        guest = fake.add_user(f"g{played}", locale=next(locales))
        match_id, lobby = await table.open_lobby(host, "pentactic")
        await table.lobby_option(host, lobby, match_id, "mode", mode)
        await table.lobby_option(host, lobby, match_id, "board", board)
        await table.lobby_click(guest, lobby, match_id, "join")
        await table.lobby_click(host, lobby, match_id, "start")

        async def active(mid: int = match_id):
            info = await real_bots.service.get(mid)
            return info if info.status == "active" and info.thread_id else None

        info = await table.until(active, 10, "start")
        assert info.options == {**info.options, "mode": mode, "board": board}
        moves = await play_to_end(fake, real_bots, table, match_id, info.thread_id, [host, guest])
        assert (await real_bots.service.get(match_id)).status == "finished" and moves > 0
        played += 1
        fake.assert_clean()
    assert played == len(modes) * len(boards)


@pytest.mark.skipif(bool(real_bot_missing("risk")), reason=str(real_bot_missing("risk")))
async def test_risk_vs_ai_under_discords_channel_rate_limit(fake: FakeDiscord, real_bots: RealBots) -> None:
    """With Discord's ~5 posts / 5 s per channel, a publisher posting once per action made the
    human's Confirm wait behind the AI's queued posts (20 s measured). With one post per turn
    (the AI's run delivered as a batch, the live post edited) Confirm answers within 3 s, and
    the AI seats' turns between two of Alice's turns cost at most a couple of posts (measured:
    one, asking her again; her own turn and the AI replies share her turn's post)."""
    from e2e_support import control_labels

    from cogs.utils import ids

    fake.rate_limit = (5, 5.0)
    await real_bots.start()
    table = Table(fake, patience=60)
    alice = fake.add_user("alice")
    match_id, lobby = await table.open_lobby(alice, "risk")
    ais = 2
    for _ in range(ais):
        await table.add_ai(alice, lobby, match_id)
    await table.lobby_click(alice, lobby, match_id, "start")
    service = real_bots.service

    async def active():
        info = await service.get(match_id)
        return info if info.status == "active" and info.thread_id else None

    async def ai_moves() -> int:
        return sum(e.source == "ai" for e in await service.log(match_id, limit=100_000))

    info = await table.until(active, 30, "start")
    worst_posts, most_ai_moves, ai_runs = 0, 0, 0
    for _ in range(60):
        if ai_runs >= 3:  # the set-up's secret placement, then full rounds of both AI seats
            break
        reqs = await table.until(lambda: service.pending_for_user(match_id, alice.id), 60, "alice's turn")
        turn_id = ids.turn_id(match_id, reqs[0])
        post = await fake.wait_for(lambda tid=turn_id: next(
            (m for m in reversed(fake.messages_in(info.thread_id)) if tid in m.custom_ids()), None), 60, turn_id)
        posts_before, moves_before = len(fake.messages_in(info.thread_id)), await ai_moves()
        step = await table.open_turn(alice, post, turn_id)
        await table.walk(alice, step, control_labels(), biggest_number=True)
        if (await service.get(match_id)).status != "active":
            break
        await table.until(lambda: service.pending_for_user(match_id, alice.id), 60, "alice's next turn")
        posts = len(fake.messages_in(info.thread_id)) - posts_before
        moves = await ai_moves() - moves_before
        if moves:
            texts = [m.text()[:300] for m in fake.messages_in(info.thread_id)[posts_before:]]
            assert posts <= 2, f"{posts} posts for {moves} AI moves: {texts}"
            worst_posts = max(worst_posts, posts)
            most_ai_moves = max(most_ai_moves, moves)
            ai_runs += 1
        else:
            assert posts == 0, "Alice's own turn went on: her post is edited, not repeated"
    fake.assert_clean()
    fake.assert_not_rate_limited()  # the publisher paces itself: Discord never has to say 429
    worst = max(table.confirm_waits)
    print(f"rate-limited risk vs AI: {fake.calls_in(info.thread_id)} posts+edits in the busiest minute, "
          f"worst Confirm wait {worst:.1f}s, "
          f"at most {worst_posts} thread posts for up to {most_ai_moves} AI moves between Alice's actions "
          f"({ai_runs} AI runs)")
    assert ai_runs >= 3, "the AI seats did not get their turns"
    # The Confirm answer comes after the AI's reply is published, which may wait one pacing
    # interval (POST_INTERVAL, 1.5 s) when the player clicks faster than that.
    assert worst <= 4.5, f"Confirm waited {worst:.1f}s behind rate-limited posts"
