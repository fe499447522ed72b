"""Card sets and their escalating values.

A set is three alike, one of each, or any two plus a wild. Values follow the seed's table
(4, 6, 8, 10, 12, 15, then 20 .. 55 by fives) and keep growing by 5 after the 14th set, as the
published rules do.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from engines.risk.data import SYMBOLS, WILD, content

_TABLE = (4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 55)
FORCED_TRADE_AT_TURN_START = 5
ELIMINATION_TRADE_AT = 6
ELIMINATION_TRADE_DOWN_TO = 4


def trade_value(trade_count: int) -> int:
    """Armies for the next set when ``trade_count`` sets were already traded in this game."""
    if trade_count < len(_TABLE):
        return _TABLE[trade_count]
    return _TABLE[-1] + 5 * (trade_count - len(_TABLE) + 1)


def symbol(card_id: str) -> str:
    return content().cards[card_id].symbol


def is_set(card_ids: list[str] | tuple[str, ...]) -> bool:
    if len(card_ids) != 3 or len(set(card_ids)) != 3:
        return False
    syms = [symbol(c) for c in card_ids]
    wilds = syms.count(WILD)
    plain = [s for s in syms if s != WILD]
    if wilds >= 1:
        return True  # any two plus a wild (two wilds make any card a set too)
    return len(set(plain)) == 1 or set(plain) == set(SYMBOLS)


def sets_in(hand: list[str]) -> list[tuple[str, str, str]]:
    """Every valid set in ``hand`` (as sorted-by-hand-order triples)."""
    return list(_sets_of(tuple(hand)))


@lru_cache(maxsize=4096)
def _sets_of(hand: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """``sets_in`` for one hand, kept: the AI and the trade check ask it for the same hand at
    every reinforcement, and a hand of five is ten triples to test."""
    return tuple(combo for combo in combinations(hand, 3) if is_set(combo))


def has_set(hand: list[str]) -> bool:
    return bool(_sets_of(tuple(hand)))
