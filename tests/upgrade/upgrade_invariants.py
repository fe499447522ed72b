"""Each game's invariants, for checking a stored match after every change as it plays on.

The checks live with each engine's own tests; this picks the right one and fixes what must stay
constant from the state the fixture was loaded with (e.g. 极武三国's neutral soldiers)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from engines.base import State

_ENGINES = Path(__file__).resolve().parent.parent / "engines"


def _kit(game: str) -> None:
    folder = str(_ENGINES / game)
    if folder not in sys.path:
        sys.path.insert(0, folder)


def checker(game: str, first: State) -> Callable[[State], None]:
    """A function that raises AssertionError when ``state`` breaks one of the game's invariants."""
    _kit(game)
    if game == "risk":
        import risk_testkit
        return risk_testkit.check_invariants
    if game == "kingdoms_battle":
        import kb_testkit
        return kb_testkit.conservation
    if game == "pentactic":
        import test_pentactic_props
        return test_pentactic_props.check_invariants
    if game == "jiwu":
        import test_jiwu_properties as jp
        neutrals = sum(1 for o in first["slots"].values() if o and o[0] == -1) + \
            sum(q["kills"].get("-1", 0) for q in first["players"])
        return lambda state: jp.check_conservation(state, neutrals)
    if game == "sanguosha":
        import sgs_testkit
        everyone = sgs_testkit.count_cards(first)

        def cards_kept(state: State) -> None:
            assert sgs_testkit.count_cards(state) == everyone
        return cards_kept
    raise KeyError(game)
