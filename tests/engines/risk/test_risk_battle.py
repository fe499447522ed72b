"""Dice rules: the seed's table and example, and the odds of one roll."""

from __future__ import annotations

from collections import Counter

import pytest
from risk_testkit import act, position

from engines.risk import resolve_battle
from engines.risk.ai import win_chance
from engines.risk.battle import attack_dice, defend_dice, roll


def test_seed_example_six_two_one_against_three_two_each_loses_one() -> None:
    """攻擊方有3顆骰子,擲骰點數分別為6點、2點、1點。防守有2顆骰子,擲骰點數分別為3點、2點。
    雙方對決後,攻擊方首先戰勝(因6點>3點),之後則由防守方獲勝(因2點=2點),雙方各移除…1個自家軍隊"""
    assert resolve_battle([6, 2, 1], [3, 2]) == (1, 1)


def test_seed_example_in_a_real_game_with_fixed_dice() -> None:
    """Same example through the engine: attacker from 4 armies rolls 3 dice, defender with 2 rolls 2."""
    state = position(2, {"ontario": 1}, {"quebec": 4, "ontario": 2}, dice=[6, 2, 1, 3, 2])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    assert state["armies"]["quebec"] == 3 and state["armies"]["ontario"] == 1
    lb = state["last_battle"]
    assert lb["att_dice"] == [6, 2, 1] and lb["def_dice"] == [3, 2]
    assert (lb["att_loss"], lb["def_loss"], lb["conquered"]) == (1, 1, False)


def test_ties_go_to_the_defender() -> None:
    """若出現相同點數局面,則由防守方獲勝"""
    assert resolve_battle([4], [4]) == (1, 0)
    assert resolve_battle([5, 5], [5, 5]) == (2, 0)


def test_highest_against_highest_then_second() -> None:
    """以點數最大的骰子相互比較大小…若雙方尚有第2顆骰子,則再比較雙方次大點數的骰子"""
    assert resolve_battle([1, 6, 3], [5, 2]) == (0, 2)
    assert resolve_battle([2, 1], [6]) == (1, 0)
    assert resolve_battle([6], [5, 6]) == (1, 0)


@pytest.mark.parametrize("armies,att,dfn", [(1, 0, 1), (2, 1, 2), (3, 2, 2), (4, 3, 2), (10, 3, 2)])
def test_dice_per_army_count_seed_table(armies: int, att: int, dfn: int) -> None:
    """領土區內有1個軍隊:不能發動攻擊/1顆; 2個:1顆/2顆; 3個:2顆/2顆; 4個以上:3顆/2顆"""
    assert attack_dice(armies) == att
    assert defend_dice(armies) == dfn


# exact odds from the reference: outcome -> probability, keyed by (att_loss, def_loss)
ODDS = {
    (3, 2): {(0, 2): 2890 / 7776, (1, 1): 2611 / 7776, (2, 0): 2275 / 7776},
    (2, 2): {(0, 2): 295 / 1296, (1, 1): 420 / 1296, (2, 0): 581 / 1296},
    (3, 1): {(0, 1): 855 / 1296, (1, 0): 441 / 1296},
    (2, 1): {(0, 1): 125 / 216, (1, 0): 91 / 216},
    (1, 2): {(0, 1): 55 / 216, (1, 0): 161 / 216},
    (1, 1): {(0, 1): 15 / 36, (1, 0): 21 / 36},
}


@pytest.mark.parametrize("dice", sorted(ODDS))
def test_single_roll_frequencies_match_the_exact_odds(dice: tuple[int, int]) -> None:
    """Statistical: 20 000 rolls per matchup from the game's own dice stream (``battle.roll`` on the
    in-state RNG, as a match draws them) land within 1.5 points of the exact table."""
    ad, dd = dice
    state = {"rng": 1_000_003 * ad + dd, "dice_queue": []}
    n = 20000
    seen = Counter(resolve_battle(roll(state, ad), roll(state, dd)) for _ in range(n))
    assert set(seen) <= set(ODDS[dice])
    for outcome, p in ODDS[dice].items():
        assert abs(seen[outcome] / n - p) < 0.015, (dice, outcome, seen[outcome] / n, p)


def test_engine_dice_are_fair_over_many_rolls() -> None:
    """The in-state RNG feeds real battles: 1v1 attacker wins about 15/36 of the time."""
    wins = 0
    n = 3000
    for seed in range(n):
        state = position(2, {"ontario": 1}, {"quebec": 2, "ontario": 1})
        state["rng"] = seed * 7919
        state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
        wins += state["last_battle"]["conquered"]
    assert abs(wins / n - 15 / 36) < 0.03


def test_real_three_against_two_battles_follow_the_exact_odds() -> None:
    """A full-strength attack through the engine rolls 3 against 2 and loses two armies, one each
    or none as often as the exact table says (2 000 battles, within 3 points)."""
    n = 2000
    seen: Counter[tuple[int, int]] = Counter()
    for seed in range(n):
        state = position(2, {"ontario": 1}, {"quebec": 5, "ontario": 3})
        state["rng"] = seed * 104729 + 17
        state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
        lb = state["last_battle"]
        assert len(lb["att_dice"]) == 3 and len(lb["def_dice"]) == 2
        seen[(lb["att_loss"], lb["def_loss"])] += 1
    for outcome, p in ODDS[(3, 2)].items():
        assert abs(seen[outcome] / n - p) < 0.03, (outcome, seen[outcome] / n, p)


def test_ai_odds_table_agrees_with_the_exact_single_rolls() -> None:
    assert win_chance(1, 1) == pytest.approx(15 / 36)
    # 2 spare armies v 1: win at once (2v1), or lose one and then win 1v1
    assert win_chance(2, 1) == pytest.approx(125 / 216 + 91 / 216 * 15 / 36)
    assert 0.0 < win_chance(5, 5) < 1.0
    assert win_chance(10, 2) > win_chance(3, 2) > win_chance(1, 2)


def test_rng_dice_throws_what_randint_throws() -> None:
    # Blitzes draw dice through Rng.dice (the generator inlined); it must give the very numbers
    # and the counter that one randint(1, sides) per die gives, or replays would diverge.
    from engines.rng import Rng

    for seed in (0, 1, 2**63 + 12345, 2**64 - 1):
        a, b = {"rng": seed}, {"rng": seed}
        ra, rb = Rng(a), Rng(b)
        for count, sides in ((1, 6), (3, 6), (2, 6), (40, 6), (9, 5), (5, 2)):
            assert rb.dice(count, sides) == [ra.randint(1, sides) for _ in range(count)]
            assert a == b


def test_the_roll_table_is_every_roll_resolved() -> None:
    """``roll_outcomes`` (a blitz's per-roll lookup) holds ``resolve_battle`` of every roll of 0-3
    attacker and 0-2 defender dice, keyed by the dice as drawn, attacker's first."""
    from itertools import product

    from engines.risk.battle import roll_outcomes

    table = roll_outcomes()
    expected = {(ad, *dice): resolve_battle(list(dice[:ad]), list(dice[ad:]))
                for ad in range(4) for dd in range(3) for dice in product(range(1, 7), repeat=ad + dd)}
    assert table == expected and len(table) == 11137
    assert table[(3, 6, 2, 1, 3, 2)] == (1, 1)  # the seed's example, unsorted keys work too
    assert table[(3, 1, 2, 6, 2, 3)] == (1, 1)


def test_a_blitz_with_fixed_dice_resolves_each_roll_and_keeps_the_last_sorted() -> None:
    """Through the engine: three rolls from fixed dice, each resolved, the last one recorded
    with its dice sorted high to low."""
    state = position(2, {"ontario": 1}, {"quebec": 6, "ontario": 3},
                     dice=[1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 2, 5, 3, 4])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "blitz", "1")
    # 6 v 3: [1 1 1] v [6 6] attacker -2; 4 v 3: [6 6 1] v [1 1] defender -2; 4 v 1: [2 5 3] v [4]
    # defender -1, taken with 3 dice: 3 move in, 1 stays.
    assert state["last_battle"] == {"from": "quebec", "to": "ontario", "att_dice": [5, 3, 2], "def_dice": [4],
                                    "att_loss": 0, "def_loss": 1, "conquered": True}
    assert (state["armies"]["quebec"], state["armies"]["ontario"], state["owner"]["ontario"]) == (1, 3, 0)
    assert state["turn_summary"][-1]["rolls"] == 3
    assert (state["turn_summary"][-1]["att_loss"], state["turn_summary"][-1]["def_loss"]) == (2, 3)
