"""Hero packs, loaded from ``data/sanguosha/*.json`` and validated once, each on its own terms.

A hero is data only (kingdom, HP, gender, skill ids, lord skill ids); what a skill does lives in
a skill module on its hero pack (``packs.STANDARD_HEROES``: ``skills_*.py``). A pack file states
its own rules (``rules``: heroes per kingdom, the HP range and whether halves are allowed —
hegemony heroes have 阴阳鱼 halves —, how many lords, whether every skill belongs to exactly one
hero), and a skill counts as implemented when the hero pack registered something under its name
(:meth:`engines.flow.Pack.names`), so there is no hand-kept list of skill ids. Validation fails
loudly: a file naming an unknown skill, a wrong kingdom count or a lord without a lord skill must
never reach a table.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "sanguosha" / "heroes.json"
#: Hero pack name → its data file; :data:`ENGINE_PACKS`: the engine pack (``engines.flow.Pack``)
#: whose registrations implement its skills. A new pack is one file, one skill module and its
#: catalog lines, made known with :func:`register_pack`.
PACK_FILES: dict[str, Path] = {"standard": DATA}
ENGINE_PACKS: dict[str, Any] = {}


def register_pack(name: str, path: Path, engine_pack: Any) -> None:
    """Make a hero pack known: its data file and the engine pack(s) implementing its skills."""
    PACK_FILES[name] = path
    ENGINE_PACKS[name] = engine_pack
    _clear()


def unregister_pack(name: str) -> None:
    PACK_FILES.pop(name, None)
    ENGINE_PACKS.pop(name, None)
    _clear()

def _clear() -> None:
    for cached in (_raw, _load, _every_hero, ai_order):
        cached.cache_clear()


KINGDOMS = ("wei", "shu", "wu", "qun")
GENDERS = ("m", "f")


def implemented(pack: str = "standard") -> frozenset[str]:
    """The skill ids the engine implements for a hero pack: what that pack registered."""
    from engines.sanguosha import packs

    engine_pack = packs.STANDARD_HEROES if pack == "standard" else ENGINE_PACKS[pack]
    if isinstance(engine_pack, tuple):  # a pack whose skills come from several engine packs
        return frozenset(k for one in engine_pack for k in one.names())
    return frozenset(engine_pack.names())


def __getattr__(name: str) -> Any:
    """``SKILLS`` (the standard heroes' skill ids) and ``LORD_SKILLS``, derived from the data."""
    if name == "SKILLS":
        return frozenset(k for h in heroes().values() for k in h.skills + h.lord_skills)
    if name == "LORD_SKILLS":
        return frozenset(k for h in heroes().values() for k in h.lord_skills)
    raise AttributeError(name)


@dataclass(frozen=True)
class Hero:
    id: str
    kingdom: str
    hp: float
    gender: str
    skills: tuple[str, ...]
    lord_skills: tuple[str, ...] = ()
    #: 珠联璧合 partners (hegemony): hero ids of the same pack.
    pairs: tuple[str, ...] = ()


class HeroError(ValueError):
    """The hero data file is wrong."""


def parse(raw: dict, known: frozenset[str] | None = None) -> tuple[dict[str, Hero], tuple[str, ...]]:
    """Validate a pack's JSON on the terms it states; returns (id → hero, the lords). ``known``:
    the implemented skill ids (default: what the pack's engine pack registered)."""
    rows, lords, rules = raw.get("heroes"), raw.get("lords"), raw.get("rules")
    if not isinstance(rows, list) or not isinstance(lords, list) or not isinstance(rules, dict):
        raise HeroError("a hero pack needs 'heroes', 'lords' and its 'rules'")
    known = implemented(raw.get("pack", "standard")) if known is None else known
    low, high = rules["hp"]
    step = 0.5 if rules.get("halves") else 1
    out: dict[str, Hero] = {}
    for i, row in enumerate(rows):
        try:
            hero = Hero(row["id"], row["kingdom"], row["hp"], row["gender"], tuple(row["skills"]),
                        tuple(row.get("lord_skills", ())), tuple(row.get("pairs", ())))
        except (KeyError, TypeError) as exc:
            raise HeroError(f"hero {i}: {exc}") from exc
        if hero.id in out:
            raise HeroError(f"{hero.id}: listed twice")
        if hero.kingdom not in KINGDOMS or hero.gender not in GENDERS:
            raise HeroError(f"{hero.id}: bad kingdom or gender")
        if not isinstance(hero.hp, int | float) or not low <= hero.hp <= high or (hero.hp / step) % 1:
            raise HeroError(f"{hero.id}: this pack's heroes have {low}–{high} HP in steps of {step}")
        if not hero.skills or any(k not in known for k in hero.skills + hero.lord_skills):
            raise HeroError(f"{hero.id}: a skill the engine does not implement in {hero.skills}")
        if set(hero.skills) & set(hero.lord_skills):
            raise HeroError(f"{hero.id}: a skill is both a skill and a lord skill")
        out[hero.id] = hero
    if any(p not in out or p == h.id for h in out.values() for p in h.pairs):
        raise HeroError("a 珠联璧合 partner must be another hero of the same pack")
    counts = Counter(h.kingdom for h in out.values())
    if dict(counts) != rules["kingdoms"]:
        raise HeroError(f"kingdom counts {dict(counts)} differ from the pack's {rules['kingdoms']}")
    if len(lords) != rules["lords"] or any(lord not in out or not out[lord].lord_skills for lord in lords):
        raise HeroError(f"the pack's {rules['lords']} lords must be heroes with a lord skill")
    lord_skills = {k for h in out.values() for k in h.lord_skills}
    if any(k in lord_skills for h in out.values() for k in h.skills):
        raise HeroError("a lord skill is also an ordinary skill")
    used = [k for h in out.values() for k in h.skills + h.lord_skills]
    if rules.get("skill_once") and len(used) != len(set(used)):
        raise HeroError("every skill belongs to exactly one hero")
    for name, order in (raw.get("ai") or {}).items():
        if not name.startswith("_") and (sorted(order) != sorted(out) or len(set(order)) != len(order)):
            raise HeroError(f"ai.{name}: an order of every hero of the pack, each once")
    return out, tuple(lords)


@cache
def _every_hero() -> dict[str, Hero]:
    table: dict[str, Hero] = {}
    for name in PACK_FILES:
        found = _load(name)[0]
        if set(found) & set(table):
            raise HeroError(f"pack {name}: hero ids clash with another pack's")
        table.update(found)
    return table


@cache
def _raw(pack: str) -> dict[str, Any]:
    """A pack's file, read once (its heroes and its AI orders come from it)."""
    with PACK_FILES[pack].open(encoding="utf-8") as fh:
        return json.load(fh)  # type: ignore[no-any-return]


@cache
def _load(pack: str = "standard") -> tuple[dict[str, Hero], tuple[str, ...]]:
    return parse(_raw(pack))


def heroes(pack: str = "standard") -> dict[str, Hero]:
    """The heroes of one pack (identity mode deals the standard pack's)."""
    return _load(pack)[0]


@cache
def ai_order(kind: str, pack: str = "standard") -> tuple[str, ...]:
    """The AI's hero order ``kind`` (``pick``, ``renegade``) from the pack's data, best first
    (read at import, before the skills are registered; checked with the pack by :func:`parse`)."""
    return tuple(_raw(pack)["ai"][kind])


def lords(pack: str = "standard") -> tuple[str, ...]:
    return _load(pack)[1]


def hero(hid: str) -> Hero:
    """The hero ``hid`` of whichever known pack it belongs to."""
    return _every_hero()[hid]
