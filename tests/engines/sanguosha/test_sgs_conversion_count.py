"""Conversions take any number of cards: 丈八蛇矛 is an ordinary two-card conversion now, and a
three-card one (test only) is offered, walked, parsed and resolved by the same code."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sgs_testkit import act, asked, options, table

from engines.sanguosha.equipment import ZHANGBA
from engines.sanguosha.frames import CONVERT, parse_use, response_cards
from engines.sanguosha.skills import Conversion


@pytest.fixture
def triple() -> Iterator[Conversion]:
    conv = Conversion("tri", "test_tri", "sha", ok=lambda _s, _seat, _c: True, count=3,
                      gate=lambda _s, seat: seat == 0)
    CONVERT[conv.token] = conv
    yield conv
    del CONVERT[conv.token]


def test_zhangba_is_a_two_card_conversion() -> None:
    assert CONVERT["zb"] is ZHANGBA and ZHANGBA.count == 2 and ZHANGBA.as_name == "sha"
    assert parse_use({}, ["zb", "c1", "c2", "3"]) == ("sha", ["c1", "c2"], [3])
    assert response_cards(["zb", "c1", "c2"]) == ["c1", "c2"]


def test_a_three_card_conversion_is_offered_walked_and_resolved(triple: Conversion) -> None:
    state = table(4, "ZCFF", hands={0: ["tao", "shan", "wuzhong"], 1: ["shan"]})
    assert "tri" in options(state, 0)
    hand = list(state["players"][0]["hand"])
    assert sorted(options(state, 0, "tri")) == sorted(hand)
    assert options(state, 0, "tri", hand[0], hand[1]) == [hand[2]]
    assert "1" in options(state, 0, "tri", *hand)  # then the 杀's targets
    state, _ = act(state, 0, "tri", *hand, 1)
    assert asked(state) == [(1, "need_shan")]
    assert all(c in state["discard"] or c in state["proc"] for c in hand) and not state["players"][0]["hand"]


def test_too_few_cards_for_a_conversion_offer_nothing(triple: Conversion) -> None:
    state = table(4, "ZCFF", hands={0: ["tao", "shan"]})
    assert "tri" not in options(state, 0)
