"""The 25 standard heroes, loaded from ``data/sanguosha/heroes.json`` and validated once.

A hero is data only (kingdom, HP, gender, skill ids, lord skill ids); what a skill does lives in
``skills*.py`` on the trigger registry. Validation fails loudly at import time: a file naming an
unknown skill, a wrong kingdom count or a lord without a lord skill must never reach a table.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "sanguosha" / "heroes.json"

KINGDOMS = ("wei", "shu", "wu", "qun")
#: How many heroes each kingdom has in the standard edition.
EXPECTED_KINGDOMS = {"wei": 7, "shu": 7, "wu": 8, "qun": 3}
GENDERS = ("m", "f")
#: Every skill id the engine implements (the catalogs name each one in every language).
SKILLS = frozenset({
    "jianxiong", "hujia", "guicai", "fankui", "ganglie", "tuxi", "luoyi", "tiandu", "yiji",
    "luoshen", "qingguo", "rende", "jijiang", "wusheng", "paoxiao", "guanxing", "kongcheng",
    "longdan", "mashu", "tieqi", "jizhi", "qicai", "zhiheng", "jiuyuan", "qixi", "keji", "kurou",
    "yingzi", "fanjian", "guose", "liuli", "qianxun", "lianying", "xiaoji", "jieyin", "qingnang",
    "jijiu", "wushuang", "lijian", "biyue",
})
LORD_SKILLS = frozenset({"hujia", "jijiang", "jiuyuan"})


@dataclass(frozen=True)
class Hero:
    id: str
    kingdom: str
    hp: int
    gender: str
    skills: tuple[str, ...]
    lord_skills: tuple[str, ...] = ()


class HeroError(ValueError):
    """The hero data file is wrong."""


def parse(raw: dict) -> tuple[dict[str, Hero], tuple[str, ...]]:
    """Validate the JSON; returns (id → hero, the standard lords)."""
    rows, lords = raw.get("heroes"), raw.get("lords")
    if not isinstance(rows, list) or not isinstance(lords, list):
        raise HeroError("heroes.json needs 'heroes' and 'lords'")
    out: dict[str, Hero] = {}
    for i, row in enumerate(rows):
        try:
            hero = Hero(row["id"], row["kingdom"], row["hp"], row["gender"], tuple(row["skills"]),
                        tuple(row.get("lord_skills", ())))
        except (KeyError, TypeError) as exc:
            raise HeroError(f"hero {i}: {exc}") from exc
        if hero.id in out:
            raise HeroError(f"{hero.id}: listed twice")
        if hero.kingdom not in KINGDOMS or hero.gender not in GENDERS:
            raise HeroError(f"{hero.id}: bad kingdom or gender")
        if not isinstance(hero.hp, int) or not 3 <= hero.hp <= 4:
            raise HeroError(f"{hero.id}: standard heroes have 3 or 4 HP")
        if not hero.skills or any(s not in SKILLS or s in LORD_SKILLS for s in hero.skills):
            raise HeroError(f"{hero.id}: unknown skill in {hero.skills}")
        if any(s not in LORD_SKILLS for s in hero.lord_skills):
            raise HeroError(f"{hero.id}: {hero.lord_skills} are not lord skills")
        out[hero.id] = hero
    counts = Counter(h.kingdom for h in out.values())
    if dict(counts) != EXPECTED_KINGDOMS:
        raise HeroError(f"kingdom counts {dict(counts)} differ from {EXPECTED_KINGDOMS}")
    if len(lords) != 3 or any(lord not in out or not out[lord].lord_skills for lord in lords):
        raise HeroError("the three standard lords must be heroes with a lord skill")
    used = [s for h in out.values() for s in h.skills + h.lord_skills]
    if len(used) != len(set(used)) or set(used) != SKILLS:
        raise HeroError("every skill belongs to exactly one hero")
    return out, tuple(lords)


@cache
def _load() -> tuple[dict[str, Hero], tuple[str, ...]]:
    with DATA.open(encoding="utf-8") as fh:
        return parse(json.load(fh))


def heroes() -> dict[str, Hero]:
    return _load()[0]


def lords() -> tuple[str, ...]:
    return _load()[1]


def hero(hid: str) -> Hero:
    return heroes()[hid]
