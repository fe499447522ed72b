"""极武三国 rules 2 (issue 23): a fair start at 2, 3 and 4 players and both of the seed's ends
reached in real games; games stored under rules 1 keep them (engine edition 2).

The self-play figures and the seed ranges they were measured on are in ``docs/rules/jiwu.md``
("Fair start and both ends"); the slow test pins them loosely on the first reporting seeds."""

from __future__ import annotations

import pytest
from jiwu_testkit import play_out

from engines.base import upgrade_state
from engines.jiwu import ENGINE, ai
from engines.jiwu import rules as R


def test_rules_1_games_upgrade_to_edition_2_and_keep_their_rules() -> None:
    """A game stored before edition 2 (no ``ed``) is stamped rules 1: its deck of 74 stays its
    deal, its placement order stays turn order; nothing else in it changes."""
    old = ENGINE.replay_engine(1).new_state({}, 3, 11)
    assert "ed" not in old and len(old["market_deck"]) == 74 and old["turn"] == 0
    new = upgrade_state(ENGINE, old, None)
    assert new == {**old, "ed": 1} and "ed" not in old
    assert R.rules_edition(new) == 1 and R.dealt(new) == 74 and R.placement_order(new) == [0, 1, 2]
    assert ENGINE.edition == 2 and ENGINE.replay_engine(2) is ENGINE


@pytest.mark.parametrize("rules, seats, late_below", [(1, 2, 30), (1, 4, 30), (2, 2, 14), (2, 3, 20), (2, 4, 24)])
def test_the_ai_late_stage_is_forty_percent_of_the_deal(rules: int, seats: int, late_below: int) -> None:
    """The AI's last stretch starts with the central deck under 40 % of its deal: 30 of rules 1's
    74 (as before), 14 / 20 / 24 of rules 2's 34 / 48 / 60 at 2 / 3 / 4 players."""
    state = R.new_game(seats, 3, "round", rules)
    deck = list(state["market_deck"])
    state["market_deck"] = deck[:late_below]
    assert not ai._late(state)
    state["market_deck"] = deck[:late_below - 1]
    assert ai._late(state)


@pytest.mark.parametrize("seed, reason", [(7, "market"), (1, "soldiers")])
def test_both_ends_happen_in_ai_games(seed: int, reason: str) -> None:
    """Seeded 2-player AI games: one ends because the central deck ran out, one because a player
    deployed every soldier (with rules 1 the deck outlasted the soldiers in every game)."""
    state = play_out(2, seed, ["normal", "normal"])
    assert state["end_reason"] == reason
    assert (not state["market_deck"]) if reason == "market" else min(p["supply"] for p in state["players"]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seats, games", [(2, 200), (3, 150), (4, 100)])
def test_self_play_start_player_is_near_fair_and_both_ends_happen(seats: int, games: int) -> None:
    """The first games of the reporting seeds (900000 on): the start player within 10 points of a
    fair share, and at least 5 % of games ending by each end."""
    first = market = 0
    for seed in range(900000, 900000 + games):
        state = play_out(seats, seed, ["normal"] * seats)
        first += state["winners"] == [state["first"]]
        market += state["end_reason"] == "market"
    assert abs(first / games - 1 / seats) < 0.10
    assert 0.05 <= market / games <= 0.95
