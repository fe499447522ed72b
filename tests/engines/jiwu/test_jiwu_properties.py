"""Random legal 极武三国 games to the end: every card and every soldier is always somewhere exactly
once, and no public view names a hidden card."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from jiwu_testkit import ai_move, new

from engines.base import State
from engines.jiwu import ENGINE
from engines.jiwu import rules as R


def card_places(state: State) -> Counter[str]:
    places: Counter[str] = Counter()
    for zone in (state["market_deck"], state["market"], state["plan_deck"], state["plan_discard"],
                 list(state["arts"].values()), *state["piles"].values()):
        places.update(zone)
    for p in state["players"]:
        for zone in ("deck", "hand", "discard", "played", "promoted", "trashed", "plans"):
            places.update(p[zone])
        places.update(list(p["generals"]))
    return places


def check_conservation(state: State, neutrals: int) -> None:
    places = card_places(state)
    assert set(places) == set(state["cards"]) and max(places.values()) == 1
    for seat, p in enumerate(state["players"]):
        on_board = sum(1 for o in state["slots"].values() if o and o[0] == seat and not o[1])
        on_cards = sum(g["hp"] for g in p["generals"].values())
        killed = sum(q["kills"].get(str(seat), 0) for q in state["players"])
        assert p["supply"] + on_board + on_cards + killed == R.SOLDIERS
        assert p["spies"] + sum(o.count(seat) for o in state["spies"].values()) == R.SPIES
    grey = sum(1 for o in state["slots"].values() if o and o[0] == -1)
    assert grey + sum(q["kills"].get("-1", 0) for q in state["players"]) == neutrals


def hidden(state: State, seat: int | None) -> set[str]:
    """Card instances ``seat`` may not see (None: the public)."""
    out = set(state["market_deck"]) | set(state["plan_deck"])
    for s, p in enumerate(state["players"]):
        out |= set(p["deck"])
        if s != seat:
            out |= set(p["hand"]) | set(p["discard"]) | set(p["plans"])
    return out


def check_views(state: State) -> None:
    for seat in [None, *range(state["seats"])]:
        text = json.dumps(ENGINE.view(state, seat))
        found = [i for i in hidden(state, seat) if f'"{i}"' in text]
        assert not found, (seat, found[:5])


@pytest.mark.parametrize("seats, seed", [(2, 1), (3, 2), (4, 3)])
def test_random_games_conserve_cards_and_soldiers_and_hide_cards(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new(seats, seed)
    neutrals = sum(1 for o in state["slots"].values() if o and o[0] == -1)
    steps = 0
    while not ENGINE.result(state):
        check_conservation(state, neutrals)
        if steps % 7 == 0:
            check_views(state)
        req = rng.choice(ENGINE.pending(state))
        level = "random" if req.seat % 2 else "normal"
        state, _ = ENGINE.apply(state, req.seat, ai_move(state, req.seat, rng, level))
        steps += 1
    check_conservation(state, neutrals)
    check_views(state)
    assert state["end_reason"] in ("soldiers", "market")


def test_apply_leaves_the_input_state_untouched() -> None:
    rng = random.Random(5)
    state = new(3, 5)
    for _ in range(200):
        if ENGINE.result(state):
            break
        req = ENGINE.pending(state)[0]
        before = json.dumps(state, sort_keys=True)
        new_state, _ = ENGINE.apply(state, req.seat, ai_move(state, req.seat, rng, "random"))
        assert json.dumps(state, sort_keys=True) == before
        state = new_state


def test_private_summary_names_own_cards_only() -> None:
    from i18n import t

    state = new(2, 4)
    lines = ENGINE.private_summary(ENGINE.view(state, 0))
    assert len(lines) == 1 + len(state["players"][0]["hand"])
    text = " ".join(t("en", ln.key, **ln.params) for ln in lines)
    assert "Your hand (5 cards)" in text and "Diligent Farmer" in text
    assert ENGINE.private_summary(ENGINE.view(state, None)) == []
