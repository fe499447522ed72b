"""Set-up rules: starting armies, first player, classic claiming and placing, quick secret deploy."""

from __future__ import annotations

import pytest
from risk_testkit import C, act, new

from engines.base import EngineError
from engines.risk import ENGINE
from engines.risk.setup import roll_for_first


@pytest.mark.parametrize("seats,armies", [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)])
def test_starting_armies_by_player_count(seats: int, armies: int) -> None:
    """2位玩家 40個, 3位 35個, 4位 30個, 5位 25個, 6位 20個"""
    state = new(seats, setup="classic")
    assert [p["to_place"] for p in state["players"]] == [armies] * seats


def test_highest_die_goes_first_and_ties_reroll() -> None:
    """取出1顆骰子,玩家們輪流進行丟擲,由所擲點數最大的玩家擔任起始軍隊部署玩家 (ties re-roll)"""
    saw_reroll = False
    for seed in range(60):
        state = {"rng": seed}
        first = roll_for_first(state, 4)
        rounds = state["first_rolls"]
        last = {int(s): r for s, r in rounds[-1].items()}
        assert last[first] == max(last.values())
        assert list(last.values()).count(max(last.values())) == 1
        for earlier, later in zip(rounds, rounds[1:], strict=False):
            top = max(earlier.values())
            assert sorted(later) == sorted(s for s, r in earlier.items() if r == top)
            saw_reroll = True
    assert saw_reroll


def test_classic_claim_one_empty_territory_at_a_time_in_turn_order() -> None:
    """輪流將自家的1個步兵代表物擺置在地圖上的任一未被其他玩家步兵代表物佔領的領土地區內"""
    state = new(3, setup="classic", seed=5)
    assert state["phase"] == "setup_claim"
    first = state["turn"]
    state, _ = act(state, first, "claim", "alaska")
    assert state["owner"]["alaska"] == first and state["armies"]["alaska"] == 1
    assert state["turn"] == (first + 1) % 3
    with pytest.raises(EngineError):
        act(state, state["turn"], "claim", "alaska")  # already taken
    with pytest.raises(EngineError):
        act(state, first, "claim", "peru")  # not their turn


def test_classic_then_place_one_army_at_a_time_on_own_territories() -> None:
    """當42個領土地區皆已部署軍隊後,玩家們再輪流將自家的1個步兵代表物擺置在…已有自家軍隊部署的領土地區內"""
    state = new(2, setup="classic", seed=3)
    for t in C.territories:
        state, _ = act(state, state["turn"], "claim", t)
    assert state["phase"] == "setup_place"
    seat = state["turn"]
    mine = next(t for t in C.territories if state["owner"][t] == seat)
    theirs = next(t for t in C.territories if state["owner"][t] != seat)
    with pytest.raises(EngineError):
        act(state, seat, "place", theirs)
    before = state["armies"][mine]
    state, _ = act(state, seat, "place", mine)
    assert state["armies"][mine] == before + 1 and state["turn"] != seat
    while state["phase"] == "setup_place":
        s = state["turn"]
        state, _ = act(state, s, "place", next(t for t in C.territories if state["owner"][t] == s))
    assert state["phase"] == "reinforce" and state["turn"] == state["first"]
    assert sum(state["armies"].values()) == 80


def test_classic_placement_stays_one_army_per_action_and_each_is_one_click() -> None:
    """The published classic rules place one army at a time in turn, so no count is accepted
    (docs/rules/risk.md, "Set-up"); what saves clicks is that every claim and every one-army
    placement is the action's last token, marked ``commit`` so the step UI plays it at once."""
    state = new(2, setup="classic", seed=3)
    claim = ENGINE.step(state, state["turn"], ["claim"])
    assert len(claim.options) == 42 and all(o.commit for o in claim.options)
    for t in C.territories:
        state, _ = act(state, state["turn"], "claim", t)
    seat = state["turn"]
    mine = next(t for t in C.territories if state["owner"][t] == seat)
    pick = ENGINE.step(state, seat, ["place"])
    assert pick.options and all(o.commit for o in pick.options)
    assert ENGINE.step(state, seat, ["place", mine]).complete
    with pytest.raises(EngineError):
        act(state, seat, "place", mine, "3")


def test_quick_setup_deals_every_territory_and_deploys_in_secret() -> None:
    """setup=quick: random deal, then everyone places the rest at once, privately, revealed together."""
    state = new(3, setup="quick", seed=11)
    assert state["phase"] == "setup_place"
    assert all(state["owner"][t] in (0, 1, 2) for t in C.territories)
    assert sorted(sum(1 for o in state["owner"].values() if o == s) for s in range(3)) == [14, 14, 14]
    reqs = ENGINE.pending(state)
    assert sorted(r.seat for r in reqs) == [0, 1, 2] and {r.kind for r in reqs} == {"deploy"}
    mine = next(t for t in C.territories if state["owner"][t] == 1)
    public_before = ENGINE.view(state, 2)["territories"][mine]["armies"]
    state, events = act(state, 1, "place", mine, "21")
    assert ENGINE.view(state, 2)["territories"][mine]["armies"] == public_before  # not revealed yet
    assert ENGINE.view(state, None)["territories"][mine]["armies"] == public_before
    own = ENGINE.view(state, 1)  # the own view shows it, in the private part only
    assert own["territories"][mine]["armies"] == public_before
    assert own["you"]["pending_placement"] == {mine: 21}
    assert all(e.to == (1,) for e in events if "place_secret" in e.msg.key)
    # seats 0 and 2 kept their request ids: seat 1's move did not make their buttons stale
    still = {r.seat: r.id for r in ENGINE.pending(state)}
    assert still == {r.seat: r.id for r in reqs if r.seat != 1}
    for s in (0, 2):
        t = next(t for t in C.territories if state["owner"][t] == s)
        state, _ = act(state, s, "place", t, "21")
    assert state["phase"] == "reinforce"
    assert state["armies"][mine] == public_before + 21
    assert sum(state["armies"].values()) == 105


def test_quick_is_the_default_setup() -> None:
    assert ENGINE.normalize_options({}) == {"variant": "classic", "setup": "quick"}


def test_quick_deploy_cannot_exceed_what_is_left() -> None:
    state = new(2, setup="quick", seed=2)
    t = next(t for t in C.territories if state["owner"][t] == 0)
    with pytest.raises(EngineError):
        act(state, 0, "place", t, "20")  # 40 - 21 = 19 left
    state, _ = act(state, 0, "place", t, "19")
    with pytest.raises(EngineError):
        act(state, 0, "place", t, "1")
