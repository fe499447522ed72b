"""极武三国 content: the board and the cards, loaded from ``data/jiwu/`` and validated once.

The seed gives the rules and the component counts but neither the board nor the card texts; those
are this project's design (written by ``tools/make_jiwu_data.py``, explained in
``docs/rules/jiwu.md``). Everything the seed does fix is checked here (80 market cards over four
types, 10 generals each with a 武技 card, 7 + 3 start cards, 15 / 15 / 20 supply piles, 20 计策,
the 决斗 cycle), and so is everything the rules code relies on (paths join open regions, every
effect op is known), so a bad edit fails at import with the file and the problem instead of as a
strange game later.

Slots: a region's slots are ``<region>.<i>``, a path's slots ``<path>.<i>`` counted from its
``a`` end, so the two ends of a path (the "nearest path slot" of the 交战 rule) are ``.0`` and
``.<n-1>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "jiwu"
ASPECTS = ("wu", "zhi", "tong", "qi")
SECTIONS = ("C", "W", "E")
KINDS = ("market", "art", "start", "supply", "plan")
#: The seed's counts.
MARKET_SIZE = 80
GENERALS = 10
START_DECK = {"nongfu": 7, "bubing": 3}
SUPPLY_PILES = {"jiangnan": 15, "tieqi": 15, "canbing": 20}
PLAN_CARDS = 20
DUEL_CARDS = 6
DUEL_CYCLE = {"atk": "brk", "brk": "par", "par": "atk"}  # move -> the move it beats
#: op -> the fields it needs (besides "op"); "then"/"of" hold nested effect lists.
OPS: dict[str, tuple[str, ...]] = {
    "power": ("n",), "gold": ("n",), "draw": ("n",), "deploy": ("n",), "kill": (), "spy": (),
    "supplant": (), "promote": ("from",), "trash": ("from",), "outcast": (), "plan": (),
    "link": ("aspect", "then"), "choose": ("of",), "recall": ("then",), "gain": ("pile",),
    "gain_market": ("max",),
}
SKILL_ON = ("atk", "par", "brk", "adv")


class JiwuDataError(ValueError):
    """A content file is malformed; the message names the file and the problem."""


@dataclass(frozen=True)
class Region:
    id: str
    section: str
    slots: int
    vp: int
    neutral: int
    start: bool
    city: int  # 城池卡 功勋 per turn, 0 when the region has no 城池卡


@dataclass(frozen=True)
class Path_:
    id: str
    a: str
    b: str
    slots: int
    neutral: int


@dataclass(frozen=True)
class Board:
    regions: dict[str, Region]
    paths: dict[str, Path_]
    closed: dict[str, tuple[int, ...]]

    def open_regions(self, seats: int) -> list[str]:
        """The regions in play for ``seats`` players (the dashed areas close for 2 and 3)."""
        return [r.id for r in self.regions.values() if seats not in self.closed[r.section]]

    def open_paths(self, seats: int) -> list[str]:
        regions = set(self.open_regions(seats))
        return [p.id for p in self.paths.values() if p.a in regions and p.b in regions]


@dataclass(frozen=True)
class General:
    force: int
    skill: dict[str, Any]
    art: str


@dataclass(frozen=True)
class Card:
    id: str
    kind: str
    aspect: str
    cost: int
    copies: int
    effects: tuple[dict[str, Any], ...]
    general: General | None = None


@dataclass(frozen=True)
class Cards:
    cards: dict[str, Card]

    def of_kind(self, kind: str) -> list[Card]:
        return [c for c in self.cards.values() if c.kind == kind]

    def pile(self, kind: str) -> list[str]:
        """Every copy of every card of ``kind``, by id in file order (the game shuffles)."""
        return [c.id for c in self.of_kind(kind) for _ in range(c.copies)]


def _fail(file: str, problem: str) -> JiwuDataError:
    return JiwuDataError(f"data/jiwu/{file}: {problem}")


def _int(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def parse_board(data: Any) -> Board:
    f = "board.json"
    if not isinstance(data, dict) or not isinstance(data.get("regions"), list) or not isinstance(data.get("paths"), list):
        raise _fail(f, "top level must hold 'regions' and 'paths' lists")
    closed_raw = data.get("closed")
    if not isinstance(closed_raw, dict) or set(closed_raw) != set(SECTIONS):
        raise _fail(f, f"'closed' must name the sections {SECTIONS}")
    closed = {s: tuple(v) for s, v in closed_raw.items()}
    if closed["C"] or set(closed["W"]) | set(closed["E"]) != {2, 3} or not (
            (2 in closed["W"] and 2 in closed["E"]) and ((3 in closed["W"]) != (3 in closed["E"]))):
        raise _fail(f, "2 players close both dashed sides, 3 players one side, 4 none; the centre never")
    regions: dict[str, Region] = {}
    for raw in data["regions"]:
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise _fail(f, "a region is not an object with an id")
        rid = raw["id"]
        if rid in regions:
            raise _fail(f, f"region {rid} appears twice")
        if raw.get("section") not in SECTIONS:
            raise _fail(f, f"region {rid}: section must be one of {SECTIONS}")
        if not _int(raw.get("slots"), 1, 6) or not _int(raw.get("vp"), 1, 5) or not _int(raw.get("city"), 0, 3):
            raise _fail(f, f"region {rid}: 1–6 slots, 1–5 功勋, 城池卡 0–3 per turn")
        if not _int(raw.get("neutral"), 0, raw["slots"] - 1) or not isinstance(raw.get("start"), bool):
            raise _fail(f, f"region {rid}: neutral X slots must leave a slot free; start is true/false")
        if raw["start"] and (raw["neutral"] or raw["city"]):
            raise _fail(f, f"region {rid}: a black start region has no X slot and no 城池卡")
        regions[rid] = Region(rid, raw["section"], raw["slots"], raw["vp"], raw["neutral"], raw["start"], raw["city"])
    paths: dict[str, Path_] = {}
    pairs: set[frozenset[str]] = set()
    for raw in data["paths"]:
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise _fail(f, "a path is not an object with an id")
        pid, a, b = raw["id"], raw.get("a"), raw.get("b")
        if pid in paths or a not in regions or b not in regions or a == b:
            raise _fail(f, f"path {pid}: unique id joining two different known regions")
        if frozenset((a, b)) in pairs:
            raise _fail(f, f"path {pid}: {a} and {b} are already joined")
        if not _int(raw.get("slots"), 0, 3) or not _int(raw.get("neutral"), 0, raw["slots"]):
            raise _fail(f, f"path {pid}: 0–3 slots, X slots no more than slots")
        pairs.add(frozenset((a, b)))
        paths[pid] = Path_(pid, a, b, raw["slots"], raw["neutral"])
    board = Board(regions, paths, closed)
    for seats in (2, 3, 4):
        _check_connected(board, seats)
        starts = [r for r in board.open_regions(seats) if regions[r].start]
        if len(starts) < seats:
            raise _fail(f, f"{seats} players need {seats} black start regions, the open board has {len(starts)}")
    if sum(1 for r in regions.values() if r.city) < 1:
        raise _fail(f, "no region carries a 城池卡")
    return board


def _check_connected(board: Board, seats: int) -> None:
    open_ = board.open_regions(seats)
    links: dict[str, set[str]] = {r: set() for r in open_}
    for pid in board.open_paths(seats):
        p = board.paths[pid]
        links[p.a].add(p.b)
        links[p.b].add(p.a)
    seen = {open_[0]}
    todo = [open_[0]]
    while todo:
        for n in links[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    if len(seen) != len(open_):
        raise _fail("board.json", f"the {seats}-player board is not connected: {sorted(set(open_) - seen)}")


def _check_effects(f: str, cid: str, effects: Any, piles: set[str]) -> tuple[dict[str, Any], ...]:
    if not isinstance(effects, list):
        raise _fail(f, f"card {cid}: effects must be a list")
    for e in effects:
        if not isinstance(e, dict) or e.get("op") not in OPS:
            raise _fail(f, f"card {cid}: unknown effect {e!r}")
        op = e["op"]
        missing = [k for k in OPS[op] if k not in e]
        if missing:
            raise _fail(f, f"card {cid}: {op} lacks {missing}")
        if "n" in OPS[op] and not _int(e["n"], 1, 5):
            raise _fail(f, f"card {cid}: {op} amount must be 1–5")
        if op == "link":
            if e["aspect"] not in ASPECTS:
                raise _fail(f, f"card {cid}: link to unknown type {e['aspect']}")
            _check_effects(f, cid, e["then"], piles)
        elif op == "recall":
            _check_effects(f, cid, e["then"], piles)
        elif op == "choose":
            if not isinstance(e["of"], list) or len(e["of"]) < 2:
                raise _fail(f, f"card {cid}: choose needs two or more options")
            for option in e["of"]:
                _check_effects(f, cid, option, piles)
        elif op == "promote" and e["from"] not in ("played", "discard"):
            raise _fail(f, f"card {cid}: promote from played or discard")
        elif op == "trash" and e["from"] not in ("own", "market"):
            raise _fail(f, f"card {cid}: trash from own or market")
        elif op == "gain" and e["pile"] not in piles:
            raise _fail(f, f"card {cid}: gain from unknown pile {e['pile']}")
        elif op == "gain_market" and not _int(e["max"], 1, 8):
            raise _fail(f, f"card {cid}: gain_market max must be 1–8")
    return tuple(effects)


def parse_cards(data: Any) -> tuple[Cards, dict[str, str]]:
    """Returns the cards and the duel table (move -> the move it beats)."""
    f = "cards.json"
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise _fail(f, "top level must hold a 'cards' list")
    cards: dict[str, Card] = {}
    piles = set(SUPPLY_PILES) - {"canbing"}
    for raw in data["cards"]:
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise _fail(f, "a card is not an object with an id")
        cid = raw["id"]
        if cid in cards:
            raise _fail(f, f"card {cid} appears twice")
        kind, aspect = raw.get("kind"), raw.get("aspect")
        if kind not in KINDS:
            raise _fail(f, f"card {cid}: kind must be one of {KINDS}")
        if kind in ("market", "art") and aspect not in ASPECTS:
            raise _fail(f, f"card {cid}: a market or 武技 card has one of the four types")
        if not _int(raw.get("cost"), 0, 8) or not _int(raw.get("copies"), 1, 20):
            raise _fail(f, f"card {cid}: cost 0–8, copies 1–20")
        if kind == "market" and raw["cost"] < 1:
            raise _fail(f, f"card {cid}: market cards cost 1–8")
        effects = _check_effects(f, cid, raw.get("effects"), piles)
        general = None
        if raw.get("general") is not None:
            g = raw["general"]
            skill = g.get("skill") if isinstance(g, dict) else None
            if kind != "market" or raw["copies"] != 1 or not _int(g.get("force"), 2, 8) or not isinstance(skill, dict):
                raise _fail(f, f"card {cid}: a general is a single market card with 武力值 2–8 and a duel skill")
            if skill.get("on") not in SKILL_ON or not _int(skill.get("dice"), 0, 2) or not _int(skill.get("block"), 0, 2):
                raise _fail(f, f"card {cid}: duel skill needs on {SKILL_ON}, dice 0–2, block 0–2")
            general = General(g["force"], dict(skill), str(g.get("art")))
        cards[cid] = Card(cid, kind, aspect or "", raw["cost"], raw["copies"], effects, general)
    result = Cards(cards)
    market = result.of_kind("market")
    if sum(c.copies for c in market) != MARKET_SIZE:
        raise _fail(f, f"the central deck has {sum(c.copies for c in market)} cards, the seed says {MARKET_SIZE}")
    for a in ASPECTS:
        n = sum(c.copies for c in market if c.aspect == a)
        if n != MARKET_SIZE // len(ASPECTS):
            raise _fail(f, f"type {a} has {n} market cards; the design spreads them 20 each")
    generals = [c for c in market if c.general]
    if len(generals) != GENERALS:
        raise _fail(f, f"{len(generals)} generals, the seed says {GENERALS}")
    arts = {c.id for c in result.of_kind("art")}
    if sorted(g.general.art for g in generals if g.general) != sorted(arts) or len(arts) != GENERALS:
        raise _fail(f, "every general names its own 武技 card, one each")
    for cid, n in START_DECK.items():
        if cid not in cards or cards[cid].kind != "start" or cards[cid].copies != n:
            raise _fail(f, f"start deck: {n} × {cid}")
    if sum(c.copies for c in result.of_kind("start")) != sum(START_DECK.values()):
        raise _fail(f, "the start deck is exactly 7 勤恳农夫 + 3 骁勇步兵")
    for cid, n in SUPPLY_PILES.items():
        if cid not in cards or cards[cid].kind != "supply" or cards[cid].copies != n:
            raise _fail(f, f"supply pile: {n} × {cid}")
    if sum(c.copies for c in result.of_kind("plan")) != PLAN_CARDS:
        raise _fail(f, f"the 计策 deck holds {PLAN_CARDS} cards")
    duel = data.get("duel")
    if not isinstance(duel, dict) or duel.get("cards") != DUEL_CARDS or not isinstance(duel.get("moves"), list):
        raise _fail(f, f"duel: {DUEL_CARDS} cards and the moves")
    table = {m.get("id"): m.get("beats") for m in duel["moves"] if isinstance(m, dict)}
    if table != DUEL_CYCLE:
        raise _fail(f, "duel: 猛攻 beats 破招, 破招 beats 招架, 招架 beats 猛攻")
    return result, table


def _read(name: str, base: Path) -> Any:
    try:
        return json.loads((base / name).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise _fail(name, f"cannot be read ({exc})") from exc


@lru_cache(maxsize=1)
def board() -> Board:
    """The shipped board (loaded and validated once per process)."""
    return parse_board(_read("board.json", DATA_DIR))


@lru_cache(maxsize=1)
def content() -> tuple[Cards, dict[str, str]]:
    """The shipped cards and duel table (loaded and validated once per process)."""
    return parse_cards(_read("cards.json", DATA_DIR))


def cards() -> Cards:
    return content()[0]


def card(cid: str) -> Card:
    return content()[0].cards[cid]
