"""Game content (map, card deck, missions) loaded from ``data/risk`` and validated once.

Content lives in JSON so the map can be checked (and fixed) without touching rules code; a broken
file must fail loudly at import with a message naming the problem, never as a wrong game later.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "risk"
SYMBOLS = ("infantry", "cavalry", "artillery")
WILD = "wild"
MISSION_KINDS = ("destroy", "territories", "continents")


class RiskDataError(ValueError):
    """A content file is malformed; the message says which file and what is wrong."""


@dataclass(frozen=True)
class Card:
    id: str
    territory: str | None
    symbol: str


@dataclass(frozen=True)
class Mission:
    id: str
    kind: str
    color: str | None = None
    count: int = 0
    min_armies: int = 1
    continents: tuple[str, ...] = ()


@dataclass(frozen=True)
class Content:
    territories: tuple[str, ...]
    continent_of: dict[str, str]
    continents: dict[str, tuple[str, ...]]
    bonus: dict[str, int]
    adjacent: dict[str, tuple[str, ...]]  # in map order, so iteration never depends on hashing
    borders: tuple[tuple[str, str], ...]
    cards: dict[str, Card]
    card_ids: tuple[str, ...]
    colors: tuple[str, ...]
    missions: dict[str, Mission]
    mission_ids: tuple[str, ...]
    fallback_mission: str


def _fail(file: str, problem: str) -> RiskDataError:
    return RiskDataError(f"data/risk/{file}: {problem}")


def _read(name: str, base: Path) -> dict[str, Any]:
    path = base / name
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise _fail(name, f"cannot be read ({exc})") from exc
    if not isinstance(data, dict):
        raise _fail(name, "top level must be an object")
    return data


def _parse_map(data: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]], dict[str, int],
                                               tuple[tuple[str, str], ...]]:
    order: list[str] = []
    continents: dict[str, tuple[str, ...]] = {}
    bonus: dict[str, int] = {}
    for cont in data.get("continents", []):
        cid, terrs, b = cont.get("id"), cont.get("territories"), cont.get("bonus")
        if not isinstance(cid, str) or not isinstance(terrs, list) or not terrs or not isinstance(b, int):
            raise _fail("map.json", f"continent entry {cont!r} needs id, bonus (int), territories (list)")
        if cid in continents:
            raise _fail("map.json", f"continent {cid} listed twice")
        for t in terrs:
            if t in order:
                raise _fail("map.json", f"territory {t} appears in two continents")
            order.append(t)
        continents[cid] = tuple(terrs)
        bonus[cid] = b
    known = set(order)
    pairs: set[tuple[str, str]] = set()
    for pair in data.get("borders", []):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise _fail("map.json", f"border {pair!r} must be a pair")
        a, b = pair
        for t in (a, b):
            if t not in known:
                raise _fail("map.json", f"border {pair!r} names unknown territory {t!r}")
        if a == b:
            raise _fail("map.json", f"border {pair!r} links a territory to itself")
        key = (a, b) if a < b else (b, a)
        if key in pairs:
            raise _fail("map.json", f"border {pair!r} listed twice")
        pairs.add(key)
    return tuple(order), continents, bonus, tuple(sorted(pairs))


def _check_connected(territories: tuple[str, ...], adjacent: dict[str, tuple[str, ...]]) -> None:
    seen = {territories[0]}
    todo = [territories[0]]
    while todo:
        for n in adjacent[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    missing = set(territories) - seen
    if missing:
        raise _fail("map.json", f"territories unreachable from the rest: {sorted(missing)}")


def _parse_cards(data: dict[str, Any], territories: tuple[str, ...]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for raw in data.get("cards", []):
        card = Card(raw.get("id"), raw.get("territory"), raw.get("symbol"))
        if not isinstance(card.id, str) or card.id in cards:
            raise _fail("cards.json", f"card {raw!r} needs a unique string id")
        if card.symbol not in (*SYMBOLS, WILD):
            raise _fail("cards.json", f"card {card.id} has unknown symbol {card.symbol!r}")
        if (card.symbol == WILD) != (card.territory is None):
            raise _fail("cards.json", f"card {card.id}: wild cards and only wild cards have no territory")
        cards[card.id] = card
    shown = [c.territory for c in cards.values() if c.territory is not None]
    if sorted(shown) != sorted(territories):
        raise _fail("cards.json", "every territory needs exactly one card")
    return cards


def _parse_missions(data: dict[str, Any], colors: tuple[str, ...],
                    continents: dict[str, tuple[str, ...]]) -> dict[str, Mission]:
    missions: dict[str, Mission] = {}
    for raw in data.get("missions", []):
        m = Mission(id=raw.get("id"), kind=raw.get("kind"), color=raw.get("color"),
                    count=int(raw.get("count", 0)), min_armies=int(raw.get("min_armies", 1)),
                    continents=tuple(raw.get("continents", ())))
        if not isinstance(m.id, str) or m.id in missions:
            raise _fail("missions.json", f"mission {raw!r} needs a unique string id")
        if m.kind not in MISSION_KINDS:
            raise _fail("missions.json", f"mission {m.id} has unknown kind {m.kind!r}")
        if m.kind == "destroy" and m.color not in colors:
            raise _fail("missions.json", f"mission {m.id} names unknown colour {m.color!r}")
        if m.kind == "territories" and not 0 < m.count <= 42:
            raise _fail("missions.json", f"mission {m.id} needs a territory count in 1..42")
        if m.kind == "continents" and (not m.continents or any(c not in continents for c in m.continents)):
            raise _fail("missions.json", f"mission {m.id} names unknown continents {m.continents!r}")
        missions[m.id] = m
    return missions


def load(base: Path = DATA_DIR) -> Content:
    """Read and validate all three files (tests call this with a temporary folder)."""
    order, continents, bonus, borders = _parse_map(_read("map.json", base))
    if not order:
        raise _fail("map.json", "no territories")
    adj: dict[str, set[str]] = {t: set() for t in order}
    for a, b in borders:
        adj[a].add(b)
        adj[b].add(a)
    index = {t: i for i, t in enumerate(order)}
    adjacent = {t: tuple(sorted(ns, key=index.__getitem__)) for t, ns in adj.items()}
    for t, ns in adjacent.items():
        if not ns:
            raise _fail("map.json", f"territory {t} has no neighbours")
    _check_connected(order, adjacent)
    cards = _parse_cards(_read("cards.json", base), order)
    mdata = _read("missions.json", base)
    colors = tuple(mdata.get("colors", ()))
    if len(colors) < 6 or len(set(colors)) != len(colors):
        raise _fail("missions.json", "needs 6 distinct colours (one per seat)")
    missions = _parse_missions(mdata, colors, continents)
    fallback = mdata.get("fallback")
    if fallback not in missions or missions[fallback].kind != "territories":
        raise _fail("missions.json", "fallback must name a territories mission")
    return Content(
        territories=order,
        continent_of={t: c for c, ts in continents.items() for t in ts},
        continents=continents,
        bonus=bonus,
        adjacent=adjacent,
        borders=borders,
        cards=cards,
        card_ids=tuple(cards),
        colors=colors,
        missions=missions,
        mission_ids=tuple(missions),
        fallback_mission=fallback,
    )


@lru_cache(maxsize=1)
def content() -> Content:
    """The shipped content, loaded once per process."""
    return load()
