"""Choosing heroes (seed 挑选武将): the lord first from 刘备/孙权/曹操 + 2, then everyone else at
once and in secret from 3 (2 at 10 seats); HP, lord +1 at 5+, lord skills for the lord only."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from engines.base import Step
from engines.sanguosha import ENGINE
from engines.sanguosha.heroes import hero, heroes, lords
from engines.sanguosha.setup import assign, offer_of


def _start(n: int, seed: int = 3) -> dict:
    return ENGINE.new_state({"heroes": "standard"}, n, seed)


def test_standard_and_beginner_are_both_offered() -> None:
    spec = ENGINE.option_specs()[0]
    assert spec.name == "heroes" and {v for v, _ in spec.choices} == {"standard", "beginner"}


@pytest.mark.parametrize("n", [2, 5, 9, 10])
def test_the_lord_chooses_first_then_the_others_secretly(n: int) -> None:
    state = _start(n)
    lord = state["lord"]
    reqs = ENGINE.pending(state)
    assert [(r.seat, r.kind, r.mode) for r in reqs] == [(lord, "hero", "one")]
    offer = offer_of(state, lord)
    assert offer[:3] == list(lords()) and len(offer) == 5 and len(set(offer)) == 5
    assert not any(p["hand"] for p in state["players"])  # cards are dealt after the choice
    state, _ = ENGINE.apply(state, lord, ["1"])
    assert state["players"][lord]["hero"] == offer[1]
    reqs = ENGINE.pending(state)
    assert {r.seat for r in reqs} == set(range(n)) - {lord}
    assert all(r.mode == "all" and r.default == ("0",) and r.window for r in reqs)
    offers = [offer_of(state, r.seat) for r in reqs]
    each = 2 if n == 10 else 3
    assert all(len(o) == each for o in offers)
    flat = [h for o in offers for h in o]
    assert len(flat) == len(set(flat)) and offer[1] not in flat
    # secret: a seat's view shows its own options only, the public view nobody's choice
    first = reqs[0].seat
    mine = ENGINE.step(state, first, [])
    assert len(mine.options) == each
    state, _ = ENGINE.apply(state, first, ["0"])
    public = ENGINE.view(state, None)
    if len(reqs) > 1:
        assert all(p["hero"] is None for p in public["players"] if p["seat"] != lord)
    for r in reqs[1:]:
        state, _ = ENGINE.apply(state, r.seat, ["1"] if r.seat % 2 else ["0"])
    assert all(p["hero"] for p in state["players"])
    assert all(len(p["hand"]) == 4 for i, p in enumerate(state["players"]) if i != lord)  # the lord drew on
    assert ENGINE.pending(state)[0].seat == lord and ENGINE.pending(state)[0].kind == "play"


def _hero_ids_in(data: Any) -> set[str]:
    """The hero ids named anywhere in ``data`` (a view, a step or events, as JSON)."""
    text = json.dumps(data, ensure_ascii=False)
    return {h for h in heroes() if re.search(rf"\b{h}\b", text)}


def _step_json(step: Step) -> dict[str, Any]:
    return {"prompt": step.prompt.to_json(),
            "options": [{"value": o.value, "label": o.label.to_json()} for o in step.options]}


@pytest.mark.parametrize("n", [5, 10])
def test_no_view_names_another_seats_offer_while_everyone_chooses(n: int) -> None:
    """During the simultaneous window (before anyone answers and after each answer) a seat's view
    names none of the heroes offered to the other seats, the public view none of any offer and
    no pick; the seat's own step shows exactly its own offer; an answer tells the others nothing."""
    state = _start(n, seed=11)
    lord = state["lord"]
    state, _ = ENGINE.apply(state, lord, ["2"])
    reqs = ENGINE.pending(state)
    offers = {r.seat: set(offer_of(state, r.seat)) for r in reqs}
    offered = set().union(*offers.values())
    assert len(offered) == (n - 1) * (2 if n == 10 else 3)
    for r in reqs:
        assert not _hero_ids_in(ENGINE.view(state, None)) & offered
        for seat in range(n):
            others = offered - offers.get(seat, set())
            assert not _hero_ids_in(ENGINE.view(state, seat)) & others, seat
            if seat in offers and any(q.seat == seat for q in ENGINE.pending(state)):
                assert _hero_ids_in(_step_json(ENGINE.step(state, seat, []))) & offered == offers[seat]
        state, events = ENGINE.apply(state, r.seat, ["1"])
        told_others = [e.to_json() for e in events if e.to is None or e.to != (r.seat,)]
        if ENGINE.pending(state)[0].kind == "hero":
            assert not _hero_ids_in(told_others) & offered
    assert all(state["players"][s]["hero"] in offers[s] for s in offers)  # the picks were applied


def test_hp_lord_bonus_and_lord_skills() -> None:
    state = _start(5)
    lord = state["lord"]
    other = (lord + 1) % 5
    assign(state, lord, "liubei")
    assign(state, other, "caocao")
    assert state["players"][lord]["max"] == 5 and "jijiang" in state["players"][lord]["skills"]
    assert state["players"][other]["max"] == 4 and "hujia" not in state["players"][other]["skills"]
    small = _start(4)
    assign(small, small["lord"], "zhugeliang")
    assert small["players"][small["lord"]]["hp"] == hero("zhugeliang").hp  # no bonus below 5


def test_the_ai_and_a_silent_player_choose_legally() -> None:
    state = _start(8)
    rng = random.Random(1)
    while ENGINE.pending(state) and ENGINE.pending(state)[0].kind == "hero":
        req = ENGINE.pending(state)[0]
        action = ENGINE.ai_action(state, req.seat, rng) if req.seat % 2 else ENGINE.timeout_action(state, req, rng)
        state, _ = ENGINE.apply(state, req.seat, action)
    assert all(p["hero"] for p in state["players"])
