"""Deck data, roles by player count, the start of a game, distances and attack range."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from sgs_testkit import act, asked, table

from engines.base import EngineError
from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R
from engines.sanguosha.data import DATA, DeckError, deck, parse


def test_the_deck_is_the_108_card_standard_deck_with_the_reference_suits_and_ranks() -> None:
    cards = deck()
    assert len(cards) == 108
    by = Counter((c.name, c.suit, c.rank) for c in cards.values())
    assert by[("sha", "C", 8)] == 2 and by[("shan", "D", 2)] == 2 and by[("tao", "D", 12)] == 1
    assert sum(1 for c in cards.values() if c.name == "sha") == 30
    # the four EX cards
    for ex in [("hanbing", "S", 2), ("renwang", "C", 2), ("shandian", "H", 12), ("wuxie", "D", 12)]:
        assert by[ex] == 1, ex
    assert {c.range for c in cards.values() if c.slot == "weapon"} == {1, 2, 3, 4, 5}


def test_a_wrong_deck_is_rejected_on_load() -> None:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    bad = json.loads(json.dumps(raw))
    bad["deck"][0][2] = 14
    with pytest.raises(DeckError):
        parse(bad)
    short = json.loads(json.dumps(raw))
    short["deck"].pop()
    with pytest.raises(DeckError):
        parse(short)
    unknown = json.loads(json.dumps(raw))
    unknown["deck"][0][0] = "jiu"
    with pytest.raises(DeckError):
        parse(unknown)


@pytest.mark.parametrize("n", range(2, 11))
def test_roles_by_player_count_and_the_start(n: int) -> None:
    state = ENGINE.new_state({"heroes": "beginner"}, n, seed=n)
    roles = "".join(sorted(p["role"] for p in state["players"]))
    assert roles == "".join(sorted(R.ROLES[n]))
    lord = state["lord"]
    assert state["players"][lord]["role"] == "Z"
    assert state["players"][lord]["max"] == (5 if n >= 5 else 4)
    assert all(p["max"] == 4 for i, p in enumerate(state["players"]) if i != lord)
    # play starts with the lord, who drew 2 in the draw phase
    assert state["turn"] == lord and state["phase"] == "play"
    assert asked(state) == [(lord, "play")]
    assert [len(p["hand"]) for p in state["players"]] == [6 if i == lord else 4 for i in range(n)]
    public = ENGINE.view(state, None)
    assert [p["role"] for p in public["players"]] == ["lord" if i == lord else None for i in range(n)]


def test_seat_count_outside_2_to_10_is_refused() -> None:
    with pytest.raises(EngineError):
        ENGINE.new_state({}, 11, 1)
    with pytest.raises(EngineError):
        ENGINE.new_state({}, 1, 1)


def test_distance_counts_living_seats_both_ways_and_horses() -> None:
    state = table(6, "ZCFFFN")
    assert [R.distance(state, 0, s) for s in range(6)] == [0, 1, 2, 3, 2, 1]
    state["players"][1]["alive"] = False  # the dead are skipped
    assert R.distance(state, 0, 2) == 1
    state = table(6, "ZCFFFN", equip={3: ["dilu"], 0: ["chitu"]})
    assert R.distance(state, 0, 3) == 3 - 1 + 1
    assert R.distance(state, 0, 1) == 1  # never below 1
    assert R.distance(state, 3, 0) == 3


def test_sha_only_reaches_seats_within_the_weapon_range() -> None:
    state = table(6, "ZCFFFN", hands={0: ["sha"]})
    sha = state["players"][0]["hand"][0]
    targets = {o.value for o in ENGINE.step(state, 0, [sha]).options}
    assert targets == {"1", "5"}
    state = table(6, "ZCFFFN", hands={0: ["sha"]}, equip={0: ["qilin"]})
    sha = state["players"][0]["hand"][0]
    assert {o.value for o in ENGINE.step(state, 0, [sha]).options} == {"1", "2", "3", "4", "5"}
    with pytest.raises(EngineError):
        act(table(6, "ZCFFFN", hands={0: ["sha"]}), 0, sha, 3)
