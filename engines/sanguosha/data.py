"""Decks, loaded from ``data/sanguosha/*.json`` and validated once, each on its own terms.

A deck file names itself (``deck_name``), its card-id prefix and what it must hold (``size``,
``expect``: copies per card name); card ids are ``<prefix>0`` … in file order. A kind may be
another card with a damage nature (``"as": "sha", "nature": "fire"``: the 国战 deck's 火杀 and
雷杀), so everything that counts, answers or converts a 杀 sees a 杀; its row name stays its face
(:attr:`Card.face`, what a button or a line shows). The state stores
only ids, so the card tables are read-only data shared by every game; prefixes differ between
decks, so :func:`card` answers for a card of any deck and a mode chooses its deck by name
(:func:`deck`). Validation fails loudly at import: a deck with a wrong count, an unknown name or
an impossible suit/rank must never reach a table.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent.parent / "data" / "sanguosha"
DATA = FOLDER / "cards.json"
#: Deck name → file. The standard deck (108 cards with the 4 EX cards) is identity mode's; the
#: hegemony (国战) deck is hegemony mode's (docs/rules/sanguosha-hegemony-deck.md).
DECKS = {"standard": DATA, "hegemony": FOLDER / "cards_hegemony.json",
         "hegemony_lords": FOLDER / "cards_hegemony_lords.json"}
STANDARD = "standard"
HEGEMONY = "hegemony"
#: The 国战 lords option's cards: an addition to the hegemony deck (:func:`with_addition`).
HEGEMONY_LORDS = "hegemony_lords"
NATURES = ("fire", "thunder")

SUITS = ("S", "H", "C", "D")
RED = frozenset({"H", "D"})
TYPES = ("basic", "trick", "delayed", "equip")
SLOTS = ("weapon", "armor", "plus", "minus")
#: A fifth slot, for the 国战 lords option's 定澜夜明珠 only: not one of every seat's :data:`SLOTS`
#: (identity and the 108-card 国战 never have it); a seat's ``equip`` gains the key when a
#: treasure is put there (``rules.to_equip``), and whatever walks ``equip`` walks its keys.
TREASURE = "treasure"

@dataclass(frozen=True)
class Card:
    id: str
    name: str
    suit: str
    rank: int
    type: str
    slot: str = ""
    range: int = 0
    #: The damage nature a 火杀 / 雷杀 deals ("" for every other card).
    nature: str = ""
    #: What the card is called on its face (火杀) when the rules see another name (杀).
    face: str = ""

    @property
    def shown(self) -> str:
        """The name a button or a line shows: the face, else the rules name."""
        return self.face or self.name

    @property
    def red(self) -> bool:
        return self.suit in RED


class DeckError(ValueError):
    """The card data file is wrong."""


def parse(raw: dict) -> dict[str, Card]:
    """Validate the JSON and build the card table (kept separate from the file for the tests)."""
    kinds = raw.get("kinds")
    rows = raw.get("deck")
    expect, size, prefix = raw.get("expect"), raw.get("size"), raw.get("id_prefix")
    if not isinstance(kinds, dict) or not isinstance(rows, list):
        raise DeckError("a deck file needs 'kinds' and 'deck'")
    if not isinstance(expect, dict) or not isinstance(size, int) or not isinstance(prefix, str) or not prefix:
        raise DeckError("a deck file states its terms: 'expect' (copies per name), 'size', 'id_prefix'")
    for name, kind in kinds.items():
        if kind.get("type") not in TYPES:
            raise DeckError(f"{name}: bad type {kind.get('type')!r}")
        if (kind["type"] == "equip") != ("slot" in kind):
            raise DeckError(f"{name}: equipment and only equipment has a slot")
        if "slot" in kind and kind["slot"] not in (*SLOTS, TREASURE):
            raise DeckError(f"{name}: bad slot {kind['slot']!r}")
        if (kind.get("slot") == "weapon") != ("range" in kind) or int(kind.get("range", 1)) < 1:
            raise DeckError(f"{name}: a weapon and only a weapon has a range >= 1")
        if ("as" in kind) != ("nature" in kind) or kind.get("nature", "fire") not in NATURES:
            raise DeckError(f"{name}: a card with a nature names the card it is ('as') and a nature {NATURES}")
        if "as" in kind and kinds.get(kind["as"], {}).get("type") != kind["type"]:
            raise DeckError(f"{name}: 'as' must name a kind of the same type in this deck")
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
        cid = f"{prefix}{i}"
        cards[cid] = Card(cid, kind.get("as", name), suit, rank, kind["type"], kind.get("slot", ""),
                          int(kind.get("range", 0)), kind.get("nature", ""), name if "as" in kind else "")
    counts = Counter(c.shown for c in cards.values())
    if dict(counts) != expect:
        wrong = {n: (counts.get(n, 0), expect.get(n, 0)) for n in set(counts) | set(expect)
                 if counts.get(n, 0) != expect.get(n, 0)}
        raise DeckError(f"card counts differ from what the deck states (have, want): {wrong}")
    if len(cards) != size:
        raise DeckError(f"the deck has {len(cards)} cards, not {size}")
    return cards


@cache
def deck(name: str = STANDARD) -> dict[str, Card]:
    return parse(_raw(name))


def _raw(name: str) -> dict:
    with DECKS[name].open(encoding="utf-8") as fh:
        return json.load(fh)  # type: ignore[no-any-return]


@cache
def with_addition(addition: str) -> tuple[str, ...]:
    """The card ids of the deck an addition joins (its ``adds_to``), with the addition's cards:
    each of them takes the place of the base card its ``replaces`` names (which must be the base
    deck's only card of that name, of the same suit and rank) or, with no such entry, is added.
    The base deck's own file and ids stay as they are, so a game without the addition is dealt
    exactly as before."""
    raw = _raw(addition)
    base_name, replaces = raw.get("adds_to"), raw.get("replaces", {})
    if base_name not in DECKS or base_name == addition or not isinstance(replaces, dict):
        raise DeckError(f"{addition}: an addition names the deck it joins ('adds_to') and its 'replaces'")
    base, extra = deck(base_name), deck(addition)
    gone: list[str] = []
    for new, old in replaces.items():
        news = [c for c in extra.values() if c.shown == new]
        olds = [c for c in base.values() if c.shown == old]
        if len(news) != 1 or len(olds) != 1 or (news[0].suit, news[0].rank) != (olds[0].suit, olds[0].rank):
            raise DeckError(f"{addition}: {new} must replace the one {old} of {base_name}, of the same suit and rank")
        gone.append(olds[0].id)
    return tuple(c for c in base if c not in gone) + tuple(extra)


@cache
def _every_card() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for name in DECKS:
        cards = deck(name)
        if set(cards) & set(table):
            raise DeckError(f"deck {name}: card ids clash with another deck's (use another id_prefix)")
        table.update(cards)
    return table


def card(cid: str) -> Card:
    """The card ``cid`` of whichever deck it belongs to."""
    return _every_card()[cid]


@cache
def kind_of(name: str) -> str:
    """The type (basic, trick, delayed, equip) of a card name."""
    for c in _every_card().values():
        if c.name == name:
            return c.type
    raise KeyError(name)
