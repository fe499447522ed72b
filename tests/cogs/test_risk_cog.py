"""/risk helpers without a gateway: the card sets offered by /risk trade are exactly the sets the
engine accepts, the set select fits Discord, and autocomplete filtering by localized name."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs import risk as riskcog
from cogs.utils import layout
from engines import registry
from engines.base import Step
from engines.risk import cards as cardrules
from engines.risk import requests as risk_requests
from i18n import t, tm

ENGINE = registry.get("risk")


class EngineService:
    """The one service call the helpers use, answered by the engine on a fixed state."""

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        self.state, self.seat, self.calls = state, seat, 0

    async def step(self, match_id: int, user_id: int, req: str, path: list[str]) -> Step:
        self.calls += 1
        return ENGINE.step(self.state, self.seat, list(path))


def _reinforce_state(hand: list[str]) -> dict[str, Any]:
    state = ENGINE.new_state({}, 2, 5)
    for p in state["players"]:
        p["to_place"] = 0
    state["phase"], state["turn"], state["round"] = "reinforce", 0, 1
    state["reinforcements"] = 3
    state["players"][0]["cards"] = list(hand)
    risk_requests.refresh(state, None)
    return state


HANDS = [
    ["alaska", "northwest_territory", "greenland"],                     # one of each symbol
    ["alaska", "northwest_territory", "greenland", "alberta", "wild_1"],  # many sets, a wild card
    ["alaska", "wild_1", "wild_2", "ontario"],
]


@pytest.mark.parametrize("hand", HANDS)
async def test_card_sets_are_exactly_the_engines_sets(hand: list[str]) -> None:
    service = EngineService(_reinforce_state(hand), 0)
    found = await riskcog.card_sets(service, 1, 2, "r")
    expected = {frozenset(s) for s in cardrules.sets_in(hand)}
    assert expected, "the test hand must hold a set"
    assert {frozenset(s) for s in found} == expected
    assert len(found) == len(expected), "each set once"
    for cards in found:  # every offered set is a legal trade path (the engine raises otherwise)
        after = ENGINE.step(service.state, 0, ["trade", *cards])
        assert after.complete or after.prompt.key == "risk.prompt.trade_bonus"


async def test_no_sets_without_a_trade() -> None:
    service = EngineService(_reinforce_state(["alaska", "northwest_territory"]), 0)
    assert await riskcog.card_sets(service, 1, 2, "r") == []
    assert service.calls == 1, "only the first step is asked when trading is not offered"


@pytest.mark.parametrize("locale", ["en", "zh-TW", "zh-CN"])
async def test_trade_select_fits_and_names_cards(locale: str) -> None:
    hand = HANDS[1]
    service = EngineService(_reinforce_state(hand), 0)
    sets = await riskcog.card_sets(service, 77, 2, "r12")
    names = await riskcog.card_names(service, 77, 2, "r12", locale)
    lay = riskcog.trade_layout(77, "r12", sets, names, locale)
    (row,) = lay.rows
    (select,) = row
    m = re.fullmatch(riskcog.TRADE_TEMPLATE, select.custom_id)
    assert m is not None and m["match"] == "77" and m["req"] == "r12"
    assert 1 <= len(select.options) <= layout.MAX_SELECT_OPTIONS
    assert [o.value.split() for o in select.options] == sets
    sep = t(locale, "discord.risk.set_sep")
    for option, cards in zip(select.options, sets, strict=True):
        assert len(option.label) <= layout.SELECT_LABEL_MAX
        assert option.label == sep.join(names[c] for c in cards)
    assert t(locale, "risk.territory.alaska") in " ".join(names.values())


def test_filter_choices_matches_localized_names_and_ids() -> None:
    state = ENGINE.new_state({}, 2, 5)
    seat = ENGINE.pending(state)[0].seat
    options = ENGINE.step(state, seat, ["place"]).options
    everything = riskcog.filter_choices(options, "", "zh-TW")
    assert [v for _, v in everything] == [o.value for o in options][:25]
    assert all(name == tm("zh-TW", o.label)[:100] for (name, _), o in zip(everything, options, strict=False))
    first = options[0]
    name = t("zh-TW", f"risk.territory.{first.value}")
    by_name = riskcog.filter_choices(options, name[:2], "zh-TW")
    assert first.value in [v for _, v in by_name]
    assert all(name[:2] in n or name[:2] in v for n, v in by_name)
    assert riskcog.filter_choices(options, first.value.upper(), "en")[0][1] == first.value
    assert riskcog.filter_choices(options, "no such place", "en") == []


def test_attack_command_offers_every_attack_mode_of_the_engine() -> None:
    """/risk attack's ``mode`` choices are the engine's modes where all are allowed (4+ armies):
    once, blitz and fewer dice; the dice count then comes from the step message."""
    engine = registry.get("risk")
    state = engine.new_state({"variant": "classic"}, 2, 3)
    state["phase"], state["turn"] = "attack", 0
    for tid in state["owner"]:
        state["owner"][tid], state["armies"][tid] = 1, 1
    state["owner"]["quebec"], state["armies"]["quebec"] = 0, 8
    for p in state["players"]:
        p["to_place"] = 0
    state["reinforcements"] = 0
    risk_requests.refresh(state, None)
    modes = engine.step(state, 0, ["attack", "quebec", "ontario"]).options
    assert [c.value for c in riskcog.MODES] == [o.value for o in modes]
    dice = engine.step(state, 0, ["attack", "quebec", "ontario", "dice"])
    assert not dice.complete and [o.value for o in dice.options] == ["1", "2"]
