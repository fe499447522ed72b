"""The upgrade fixtures: reading them, rebuilding a stored match from one, and each game's
invariants for checking it after every change as it plays on.

The invariant checks live with each engine's own tests; :func:`checker` picks the right one and
fixes what must stay constant from the state the fixture was loaded with (e.g. 极武三国's neutral
soldiers)."""

from __future__ import annotations

import base64
import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engines.base import State
from store.db import Store
from tools.make_upgrade_fixtures import TABLES

_ENGINES = Path(__file__).resolve().parent.parent / "engines"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
FILES = sorted(FIXTURES.glob("*/*.json.gz"))


def point_of(path: Path) -> str:
    """The named point a fixture was saved at (``<tag>_<game>-<label>-<n>p_<point>.json.gz``)."""
    return path.name.split("p_", 1)[1].removesuffix(".json.gz")


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"$b64"}:
        return base64.b64decode(value["$b64"])
    return value


def load_fixture(path: Path) -> dict[str, Any]:
    return json.loads(gzip.decompress(path.read_bytes()))


async def restore(fixture: dict[str, Any], target: Path) -> None:
    """The fixture's rows in a database at the schema version it was saved at (as it was on disk)."""
    store = await Store.open(target, target_version=fixture["schema_version"])
    try:
        async with store.transaction() as tx:
            assert set(fixture["tables"]) <= set(TABLES)
            for table in TABLES:  # parents first; a fixture's file keeps its tables in name order
                for row in fixture["tables"].get(table, []):
                    cols = list(row)
                    await tx.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                     tuple(_decode(row[c]) for c in cols))
    finally:
        await store.close()


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
        assert set(everyone.values()) == {1}, "a card in two places"

        def cards_kept(state: State) -> None:
            assert sgs_testkit.count_cards(state) == everyone
        return cards_kept
    raise KeyError(game)
