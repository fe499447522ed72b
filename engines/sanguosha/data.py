"""The deck, loaded from ``data/sanguosha/cards.json`` and validated once.

Card ids are ``c0`` … ``c107`` in file order; the state stores only ids, so the card table is
read-only data shared by every game. Validation fails loudly at import: a deck with a wrong count,
an unknown name or an impossible suit/rank must never reach a table.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "sanguosha" / "cards.json"

SUITS = ("S", "H", "C", "D")
RED = frozenset({"H", "D"})
TYPES = ("basic", "trick", "delayed", "equip")
SLOTS = ("weapon", "armor", "plus", "minus")

#: How many copies of each card the standard deck (with the 4 EX cards) has.
EXPECTED = {
    "sha": 30, "shan": 15, "tao": 8, "guohe": 6, "shunshou": 5, "juedou": 3, "jiedao": 2,
    "wuzhong": 4, "wuxie": 4, "nanman": 3, "wanjian": 1, "taoyuan": 1, "wugu": 2, "shandian": 2,
    "lebu": 3, "zhuge": 2, "qinggang": 1, "hanbing": 1, "cixiong": 1, "qinglong": 1, "zhangba": 1,
    "guanshi": 1, "fangtian": 1, "qilin": 1, "bagua": 2, "renwang": 1, "dilu": 1, "jueying": 1,
    "zhuahuang": 1, "chitu": 1, "dawan": 1, "zixing": 1,
}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    suit: str
    rank: int
    type: str
    slot: str = ""
    range: int = 0

    @property
    def red(self) -> bool:
        return self.suit in RED


class DeckError(ValueError):
    """The card data file is wrong."""


def parse(raw: dict) -> dict[str, Card]:
    """Validate the JSON and build the card table (kept separate from the file for the tests)."""
    kinds = raw.get("kinds")
    rows = raw.get("deck")
    if not isinstance(kinds, dict) or not isinstance(rows, list):
        raise DeckError("cards.json needs 'kinds' and 'deck'")
    for name, kind in kinds.items():
        if kind.get("type") not in TYPES:
            raise DeckError(f"{name}: bad type {kind.get('type')!r}")
        if (kind["type"] == "equip") != ("slot" in kind):
            raise DeckError(f"{name}: equipment and only equipment has a slot")
        if "slot" in kind and kind["slot"] not in SLOTS:
            raise DeckError(f"{name}: bad slot {kind['slot']!r}")
        if (kind.get("slot") == "weapon") != ("range" in kind) or int(kind.get("range", 1)) < 1:
            raise DeckError(f"{name}: a weapon and only a weapon has a range >= 1")
    cards: dict[str, Card] = {}
    seen: Counter[tuple[str, str, int]] = Counter()
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == 3):
            raise DeckError(f"row {i}: expected [name, suit, rank]")
        name, suit, rank = row
        if name not in kinds:
            raise DeckError(f"row {i}: unknown card {name!r}")
        if suit not in SUITS or not isinstance(rank, int) or not 1 <= rank <= 13:
            raise DeckError(f"row {i}: bad suit/rank {suit}{rank}")
        kind = kinds[name]
        seen[(name, suit, rank)] += 1
        cards[f"c{i}"] = Card(f"c{i}", name, suit, rank, kind["type"], kind.get("slot", ""),
                              int(kind.get("range", 0)))
    counts = Counter(c.name for c in cards.values())
    if dict(counts) != EXPECTED:
        wrong = {n: (counts.get(n, 0), EXPECTED.get(n, 0)) for n in set(counts) | set(EXPECTED)
                 if counts.get(n, 0) != EXPECTED.get(n, 0)}
        raise DeckError(f"card counts differ from the standard deck (have, want): {wrong}")
    if len(cards) != 108:
        raise DeckError(f"the deck has {len(cards)} cards, not 108")
    return cards


@cache
def deck() -> dict[str, Card]:
    with DATA.open(encoding="utf-8") as fh:
        return parse(json.load(fh))


def card(cid: str) -> Card:
    return deck()[cid]


@cache
def kind_of(name: str) -> str:
    """The type (basic, trick, delayed, equip) of a card name."""
    for c in deck().values():
        if c.name == name:
            return c.type
    raise KeyError(name)
