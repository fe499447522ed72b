"""Random legal games to the end: no error, every card always in exactly one place, public views
free of hidden cards and roles, and the public view independent of the hidden hands."""

from __future__ import annotations

import json
import random

import pytest
from sgs_testkit import count_cards

from engines.sanguosha import ENGINE
from engines.sanguosha.data import deck
from engines.sanguosha.engine import random_action

ALL = set(deck())


def _hidden_ids(state: dict) -> set[str]:
    out = set(state["deck"])
    for p in state["players"]:
        out |= set(p["hand"])
    return out


def _ids_in(obj: object) -> set[str]:
    text = json.dumps(obj)
    return {cid for cid in ALL if f'"{cid}"' in text}


def _check_public(state: dict) -> None:
    public = ENGINE.view(state, None)
    assert "you" not in public
    assert not _ids_in(public) & _hidden_ids(state), "a hidden card id in the public view"
    for i, p in enumerate(public["players"]):
        if i != state["lord"] and state["players"][i]["alive"] and state["winners"] is None:
            assert p["role"] is None, "a living non-lord role in the public view"
    for seat in range(state["n"]):
        own = ENGINE.view(state, seat)
        assert {k: v for k, v in own.items() if k != "you"} == public


def play_game(n: int, seed: int, ai_share: float, check_every: int = 25, cap: int = 20000,
              heroes: str = "beginner") -> dict:
    state = ENGINE.new_state({"heroes": heroes}, n, seed)
    rng = random.Random(seed)
    ai_seats = {s for s in range(n) if rng.random() < ai_share}
    steps = 0
    while ENGINE.result(state) is None:
        pending = ENGINE.pending(state)
        assert pending, "no request but no result"
        req = rng.choice(pending)
        if req.seat in ai_seats:
            action = ENGINE.ai_action(state, req.seat, rng)
        elif rng.random() < 0.15 and req.default is not None:
            action = ENGINE.timeout_action(state, req, rng)
        else:
            action = random_action(ENGINE, state, req.seat, rng)
        state, events = ENGINE.apply(state, req.seat, action)
        for e in events:
            assert e.to is None or all(0 <= s < n for s in e.to)
        counts = count_cards(state)
        assert set(counts) == ALL and set(counts.values()) == {1}, "a card is lost or doubled"
        steps += 1
        if steps % check_every == 0:
            _check_public(state)
        assert steps < cap, "game does not end"
    _check_public(state)
    assert ENGINE.pending(state) == []
    return state


def _configs(count: int, sizes: list[int]) -> list[tuple[int, int, float]]:
    return [(sizes[g % len(sizes)], 500 + g, (0.0, 0.5, 1.0)[g % 3]) for g in range(count)]


@pytest.mark.parametrize("chunk", range(6))
def test_random_and_ai_games_run_to_the_end_without_error(chunk: int) -> None:
    configs = _configs(18, list(range(2, 11))) + _configs(162, [2, 3, 4, 5])
    for n, seed, share in configs[chunk::6]:
        state = play_game(n, seed, share)
        assert ENGINE.result(state).winners


@pytest.mark.parametrize("chunk", range(6))
def test_random_games_with_the_standard_heroes_run_to_the_end(chunk: int) -> None:
    """Random heroes (the real hero choice), every skill reachable by random and AI play."""
    for n, seed, share in _configs(36, list(range(2, 11)))[chunk::6]:
        state = play_game(n, seed + 700, share, heroes="standard")
        assert ENGINE.result(state).winners
        assert all(p["hero"] for p in state["players"])


@pytest.mark.slow
def test_thousands_of_random_games() -> None:
    for n, seed, share in _configs(3000, list(range(2, 11))):
        play_game(n, seed + 10_000, share, check_every=200, heroes=("beginner", "standard")[seed % 2])


def test_the_public_view_does_not_depend_on_the_hidden_hands() -> None:
    rng = random.Random(3)
    state = ENGINE.new_state({}, 6, 42)
    for _ in range(150):
        req = rng.choice(ENGINE.pending(state))
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
    scrambled = json.loads(json.dumps(state))
    pool = _hidden_ids(scrambled)
    pool_list = sorted(pool)
    rng.shuffle(pool_list)
    for p in scrambled["players"]:
        k = len(p["hand"])
        p["hand"], pool_list = pool_list[:k], pool_list[k:]
    scrambled["deck"] = pool_list
    # different roles for the hidden seats too
    hidden = [i for i, p in enumerate(scrambled["players"]) if not p["revealed"]]
    roles = [scrambled["players"][i]["role"] for i in hidden]
    rng.shuffle(roles)
    for i, r in zip(hidden, roles, strict=True):
        scrambled["players"][i]["role"] = r
    assert ENGINE.view(scrambled, None) == ENGINE.view(state, None)


def test_can_answer_is_true_exactly_when_the_ask_offers_more_than_pass() -> None:
    """``can_answer`` (which lets the service pass for a seat at once, and skips 无懈 windows)
    agrees with the token walk for every ask met in random games, 丈八蛇矛 included."""
    seen = {False: 0, True: 0}
    for n, seed in ((8, 71), (5, 72), (4, 73), (6, 74)):
        state = ENGINE.new_state({}, n, seed)
        rng = random.Random(seed)
        for _ in range(4000):
            if ENGINE.result(state) is not None:
                break
            pending = ENGINE.pending(state)
            for req in pending:
                offers = {o.value for o in ENGINE.step(state, req.seat, []).options}
                assert ENGINE.can_answer(state, req) == bool(offers - {"pass"}), (req.kind, offers)
                seen[ENGINE.can_answer(state, req)] += 1
            req = rng.choice(pending)
            state, _ = ENGINE.apply(state, req.seat, random_action(ENGINE, state, req.seat, rng))
    assert seen[False] > 50 and seen[True] > 50, seen
