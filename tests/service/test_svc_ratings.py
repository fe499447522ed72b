"""Results and ratings (issue 21): places from a result, the rating rule, the service writing them in
the finishing transaction, and ``tasks.py ratings --rebuild`` arriving at the stored ratings."""

from __future__ import annotations

import pytest
import svc_toy_engine
from svc_helpers import BOB, CAROL, HOST, Recorder, clock, db_path, play_own_turn, recorder, store, toy

from engines import registry
from engines.sanguosha.identity import IdentityMode
from service import ratings
from service.matches import MatchService
from store import repo
from store.db import Store
from tools import ratings as rebuild

__all__ = ["clock", "db_path", "recorder", "store", "toy"]

GUILD = 55


def _seats(n: int, *, ai: tuple[int, ...] = (), resigned: tuple[int, ...] = ()) -> list[ratings.SeatLike]:
    return [ratings.SeatLike(i, None if i in ai else 100 + i, "normal" if i in ai else None, i in resigned)
            for i in range(n)]


def test_free_for_all_places_by_winner_then_score() -> None:
    placed = ratings.places(None, {"winners": [2], "scores": {"0": 5, "1": 9, "2": 9, "3": 5}}, _seats(4))
    assert [(p.seat, p.place, p.won) for p in placed] == [(0, 2, False), (1, 1, False), (2, 0, True),
                                                          (3, 2, False)]


def test_without_scores_the_losers_share_second_place() -> None:
    placed = ratings.places(None, {"winners": [1], "scores": None}, _seats(3))
    assert [p.place for p in placed] == [1, 0, 1]


def test_a_resigned_seat_is_last_and_leaves_its_side() -> None:
    teams = [[0, 1], [2, 3]]
    placed = ratings.places(teams, {"winners": [2, 3]}, _seats(4, resigned=(3,)))
    by_seat = {p.seat: p for p in placed}
    assert (by_seat[2].place, by_seat[2].won) == (0, True)
    assert by_seat[0].place == by_seat[1].place == 1 and by_seat[0].team == by_seat[1].team
    assert by_seat[3].place == 2 and not by_seat[3].won and by_seat[3].team != by_seat[2].team


def test_sanguosha_camps_come_from_the_engine() -> None:
    roles = ["Z", "F", "C", "N", "F", "N"]
    state = {"players": [{"role": r} for r in roles]}
    camps = IdentityMode().camps(state)
    assert camps == [[0, 2], [1, 4], [3], [5]]
    engine = registry.get("sanguosha")
    assert engine.teams({"players": state["players"], "mode": "identity"}) == camps


def test_an_ai_is_a_fixed_player_and_beating_a_harder_one_gains_more() -> None:
    seats = [ratings.SeatLike(0, 7, None, False), ratings.SeatLike(1, None, "easy", False)]
    hard = [ratings.SeatLike(0, 7, None, False), ratings.SeatLike(1, None, "hard", False)]
    won = ratings.places(None, {"winners": [0]}, seats)
    assert ratings.is_rated(won, seats)
    easy_gain = ratings.rate(won, seats, {})[0][0]
    hard_gain = ratings.rate(won, hard, {})[0][0]
    assert set(ratings.rate(won, seats, {})) == {0}  # the AI's rating is not returned
    assert hard_gain > easy_gain > ratings.MU


def test_a_match_without_two_sides_or_without_a_person_is_not_rated() -> None:
    solo = _seats(1)
    assert not ratings.is_rated(ratings.places(None, {"winners": [0]}, solo), solo)
    bots = _seats(2, ai=(0, 1))
    assert not ratings.is_rated(ratings.places(None, {"winners": [0]}, bots), bots)


async def _play_out(service: MatchService, mid: int, users: tuple[int, ...]) -> None:
    for _ in range(200):
        if (await service.get(mid)).status != "active":
            return
        for user in users:
            if await service.pending_for_user(mid, user):
                await play_own_turn(service, mid, user)
                break
        else:
            await service.run_due()
    raise AssertionError("match did not end")


async def _match(service: MatchService, users: tuple[int, ...], *, ai: int = 0, resign: int | None = None,
                 target: str = "10") -> int:
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=users[0], host_name="U0", locale="en",
                                      guild_id=GUILD, channel_id=9, options={"target": target})
    for i, user in enumerate(users[1:], 1):
        await service.join(info.id, user, f"U{i}")
    for _ in range(ai):
        await service.add_ai(info.id, users[0])
    mid = (await service.start(info.id, users[0])).id
    if resign is not None:
        await service.resign(mid, resign)
    await _play_out(service, mid, tuple(u for u in users if u != resign))
    return mid


async def test_a_finished_match_moves_ratings_and_an_abandoned_one_does_not(
        store: Store, recorder: Recorder, toy: svc_toy_engine.ToyEngine) -> None:
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    mid = await _match(service, (HOST, BOB))
    info = await service.get(mid)
    assert info.result is not None
    (winner,) = info.result["winners"]
    board = await service.leaderboard(GUILD, svc_toy_engine.SLUG)
    assert [r.user_id for r in board] == [(HOST, BOB)[winner], (HOST, BOB)[1 - winner]]
    assert board[0].rating > board[1].rating
    history = await service.history(HOST)
    assert [h.match_id for h in history] == [mid]
    assert history[0].change is not None and (history[0].change > 0) == (winner == 0)

    lobby = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="U0", locale="en",
                                       guild_id=GUILD, channel_id=9, options={"target": "10"})
    await service.join(lobby.id, BOB, "Bob")
    started = await service.start(lobby.id, HOST)
    await service.abandon(started.id, HOST)
    assert [h.match_id for h in await service.history(HOST)] == [mid]
    after = await service.leaderboard(GUILD, svc_toy_engine.SLUG)
    assert [(r.user_id, r.rating, r.games) for r in after] == [(r.user_id, r.rating, r.games) for r in board]
    assert {r.user_id: r.name for r in after}[BOB] == "Bob"  # the newest seat name


async def test_stats_count_games_wins_and_form(store: Store, recorder: Recorder,
                                               toy: svc_toy_engine.ToyEngine) -> None:
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    ids = [await _match(service, (HOST, BOB)) for _ in range(3)]
    wins = 0
    for mid in ids:
        result = (await service.get(mid)).result
        assert result is not None
        wins += result["winners"] == [0]
    (stats,) = await service.user_stats(GUILD, HOST)
    assert (stats.game, stats.games, stats.wins, sum(stats.form)) == (svc_toy_engine.SLUG, 3, wins, wins)
    assert stats.rank in (1, 2) and stats.players == 2 and stats.rating is not None
    assert await service.user_stats(GUILD + 1, HOST) == []


async def test_rebuild_from_the_logs_equals_the_stored_ratings(
        store: Store, recorder: Recorder, toy: svc_toy_engine.ToyEngine) -> None:
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    await _match(service, (HOST, BOB))
    await _match(service, (HOST, BOB, CAROL), target="15")
    await _match(service, (BOB, CAROL), ai=1)
    await _match(service, (HOST, BOB, CAROL), resign=CAROL)
    await _match(service, (HOST,), ai=2)  # one person against the AI: rated against fixed players
    stored = await repo.all_ratings(store)
    assert {r.user_id for r in stored} == {HOST, BOB, CAROL}
    assert max(r.games for r in stored if r.user_id == HOST) == 4
    computed = await rebuild.compute(store)
    assert rebuild.differences(stored, computed) == []
    assert computed.sorted_ratings() == stored
    rows = await store.fetchall("SELECT * FROM seat_results ORDER BY match_id, seat")
    await rebuild.write(store, computed, 5.0)
    assert await repo.all_ratings(store) == stored
    assert await store.fetchall("SELECT * FROM seat_results ORDER BY match_id, seat") == rows


async def test_rebuild_check_reports_a_tampered_rating(store: Store, recorder: Recorder,
                                                       toy: svc_toy_engine.ToyEngine) -> None:
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    await _match(service, (HOST, BOB))
    async with store.transaction() as tx:
        await tx.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = ?", (HOST,))
    diff = rebuild.differences(await repo.all_ratings(store), await rebuild.compute(store))
    assert len(diff) == 1 and f"user {HOST}" in diff[0]


@pytest.mark.parametrize("game", ["risk", "pentactic", "kingdoms_battle", "jiwu", "sanguosha"])
def test_every_game_names_its_sides_or_none(game: str) -> None:
    engine = registry.get(game)
    assert callable(engine.teams)


async def test_a_rating_bug_never_keeps_a_match_from_finishing(
        store: Store, recorder: Recorder, toy: svc_toy_engine.ToyEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review of issue 21: the rating arithmetic runs in the finishing transaction; if it fails the
    match still ends (unrated, logged; ``tasks.py ratings --rebuild`` repairs it)."""
    from service import results

    def broken(*args: object, **kw: object) -> object:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(results, "settle", broken)
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    mid = await _match(service, (HOST, BOB))
    assert (await service.get(mid)).status == "finished"
    assert await service.leaderboard(GUILD, svc_toy_engine.SLUG) == []


async def test_a_rebuild_beside_a_running_bot_writes_nothing_when_a_match_finished_meanwhile(
        store: Store, recorder: Recorder, toy: svc_toy_engine.ToyEngine) -> None:
    """Review of issue 21: ``ratings --rebuild`` may run while the bot plays; a match that
    finishes between reading and writing keeps its result and rating change."""
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    await _match(service, (HOST, BOB))
    computed = await rebuild.compute(store)
    await _match(service, (HOST, BOB))  # the live bot finishes another one meanwhile
    live = await repo.all_ratings(store)
    with pytest.raises(rebuild.Raced):
        await rebuild.write(store, computed, 5.0)
    assert await repo.all_ratings(store) == live and max(r.games for r in live) == 2


async def test_the_leaderboard_names_people_as_this_server_knows_them(
        store: Store, recorder: Recorder, toy: svc_toy_engine.ToyEngine) -> None:
    """Review of issue 21: the name on a server's leaderboard is the one its own tables used —
    a nickname from a newer match on another server stays there."""
    service = MatchService(store, publisher=recorder, offload=False, rate_limits=False)
    await _match(service, (HOST, BOB))  # Bob sits as "U1" here
    other = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="U0", locale="en",
                                       guild_id=GUILD + 1, channel_id=10, options={"target": "10"})
    await service.join(other.id, BOB, "Secret elsewhere")
    board = await service.leaderboard(GUILD, svc_toy_engine.SLUG)
    assert {r.user_id: r.name for r in board}[BOB] == "U1"
