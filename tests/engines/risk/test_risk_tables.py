"""The map's index tables (``engines.risk.tables``) are the shipped content in numbers, and the
normal AI's index-based board helpers (``ai.Board``) give what the name-based definitions give
on real game states: the speed-up of issue 22 must not change a single answer."""

from __future__ import annotations

import random

import pytest
from risk_testkit import new

from engines.risk import ENGINE, ai, views
from engines.risk.data import content
from engines.risk.tables import tables, tuple_getter


def test_tables_are_the_content_by_index() -> None:
    c, tb = content(), tables()
    assert tb.names == c.territories
    assert [tb.index[t] for t in c.territories] == list(range(len(c.territories)))
    for t, ns in c.adjacent.items():
        assert tuple(tb.names[n] for n in tb.adjacent[tb.index[t]]) == ns  # map order kept
    assert tb.continents == tuple(c.continents)
    for k, cont in enumerate(tb.continents):
        assert tb.continent_index[cont] == k
        assert tuple(tb.names[i] for i in tb.members[k]) == c.continents[cont]
        assert tb.sizes[k] == len(c.continents[cont]) and tb.bonus[k] == c.bonus[cont]
    assert [tb.continents[k] for k in tb.continent_of] == [c.continent_of[t] for t in c.territories]
    table = {t: i * 10 for i, t in enumerate(c.territories)}
    assert tb.row(table) == tuple(table[t] for t in c.territories)
    row = tb.row(table)
    for k, get in enumerate(tb.member_rows):
        assert get(row) == tuple(row[i] for i in tb.members[k])
    assert tuple_getter(["x"])({"x": 1}) == (1,)  # one key still gives a tuple


def _states(variant: str, seats: int, seed: int, moves: int = 600) -> list[dict]:
    state = new(seats, variant, "quick", seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(moves):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[0]
        out.append(state)
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
    return out


def _threat(owner: dict, armies: dict, me: int, t: str) -> int:
    return sum(armies[n] - 1 for n in content().adjacent[t] if owner[n] not in (me, -1, None))


def _distance(owner: dict, me: int, borders: list[str]) -> dict[str, int]:
    dist = {t: 0 for t in borders}
    frontier = list(dist)
    while frontier:
        nxt = []
        for t in frontier:
            for n in content().adjacent[t]:
                if owner[n] == me and n not in dist:
                    dist[n] = dist[t] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _target(owner: dict, armies: dict, me: int, goal: tuple[str, ...]) -> str:
    c = content()
    best, best_score = None, 0.0
    for cont, terrs in c.continents.items():
        mine = sum(1 for t in terrs if owner[t] == me)
        if mine == len(terrs):
            continue
        enemy = sum(armies[t] for t in terrs if owner[t] != me)
        worth = c.bonus[cont] + 1.0 + (ai.MISSION_CONTINENT_WORTH if cont in goal else 0.0)
        score = worth * (mine + 1) / (len(terrs) * (enemy + 1))
        if best is None or score > best_score:
            best, best_score = cont, score
    return best if best is not None else next(iter(c.continents))


@pytest.mark.parametrize("variant,seats", [("classic", 5), ("mission", 4), ("hq", 3), ("neutral", 2)])
def test_board_helpers_equal_their_name_based_definitions(variant: str, seats: int) -> None:
    c = content()
    for i, state in enumerate(_states(variant, seats, seed=17)):
        if i % 4:
            continue
        owner, armies = state["owner"], state["armies"]
        for me in range(seats):
            built = views.build(state, me)
            for view in (views.SeatView(state, me), built):  # the lazy view and a plain one
                board = ai.Board(view)
                mine = [t for t in c.territories if owner[t] == me]
                borders = [t for t in mine if any(owner[n] != me for n in c.adjacent[t])]
                assert board.mine() == mine and board.borders() == borders
                assert board.distance_to_front() == _distance(owner, me, borders)
                assert list(board.distance_to_front()) == list(_distance(owner, me, borders))
                for t in c.territories:
                    assert board.owner(t) == owner[t] and board.armies(t) == armies[t]
                    assert board.threat(t) == _threat(owner, armies, me, t)
                    assert board.enemy_neighbours(t) == [n for n in c.adjacent[t] if owner[n] != me]
                for cont, terrs in c.continents.items():
                    assert board.missing(cont) == tuple(t for t in terrs if owner[t] != me)
                    owners = {owner[t] for t in terrs}
                    assert board.sole_owner(cont) == (owners.pop() if len(owners) == 1 else None)
                for seat in (*range(seats), -1):
                    assert board.land_count(seat) == sum(1 for t in c.territories if owner[t] == seat)
                goal = board.mission.continents if board.mission else ()
                assert board.target_continent() == _target(owner, armies, me, goal)


@pytest.mark.parametrize("variant,seats", [("classic", 5), ("mission", 4), ("hq", 3)])
def test_board_goal_facts_are_the_views(variant: str, seats: int) -> None:
    """The goal facts the Board reads once per decision are what the view says."""
    c = content()
    for i, state in enumerate(_states(variant, seats, seed=5)):
        if i % 7:
            continue
        for me in range(seats):
            view = views.build(state, me)
            board = ai.Board(views.SeatView(state, me))
            mission = view["you"]["mission"]
            expected = c.missions[mission["id"]] if mission else None
            assert board.mission == expected and board.variant == variant
            assert board.spread == bool(expected and expected.kind == "territories")
            assert board.keep_two == bool(expected and expected.kind == "territories" and expected.min_armies >= 2)
            assert board.my_hq == (view["you"]["hq"] if variant == "hq" else None)
            hqs = [p["hq"] for p in view["players"]
                   if p["seat"] != me and p["hq"] and state["owner"][p["hq"]] != me] if variant == "hq" else []
            assert board.enemy_hqs == hqs
            assert board.has_goal == (expected is not None or bool(hqs))
            if not board.has_goal:
                assert board.pull == {}


def test_board_rows_are_the_public_board_in_map_order() -> None:
    state = _states("classic", 4, seed=3, moves=40)[-1]
    owners, armies = views.SeatView(state, 1).board_rows()
    assert owners == tuple(state["owner"][t] for t in content().territories)
    assert armies == tuple(state["armies"][t] for t in content().territories)
