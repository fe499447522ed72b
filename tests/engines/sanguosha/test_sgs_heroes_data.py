"""The hero table: the shipped file is valid, and validation refuses broken data."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.sanguosha.heroes import DATA, SKILLS, HeroError, heroes, lords, parse
from i18n import catalog

LOCALES = ("en", "zh-TW", "zh-CN")


def _raw() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_the_25_standard_heroes_by_kingdom() -> None:
    table = heroes()
    assert len(table) == 25
    assert Counter(h.kingdom for h in table.values()) == {"wei": 7, "shu": 7, "wu": 8, "qun": 3}
    assert lords() == ("caocao", "liubei", "sunquan")
    assert table["liubei"].lord_skills == ("jijiang",) and table["caocao"].lord_skills == ("hujia",)
    assert table["sunquan"].lord_skills == ("jiuyuan",)
    assert (table["zhugeliang"].hp, table["zhenji"].gender, table["lvbu"].kingdom) == (3, "f", "qun")


def test_every_hero_and_skill_is_named_and_described_in_every_language() -> None:
    for loc in LOCALES:
        cat = catalog(loc)
        for hid, h in heroes().items():
            assert cat.get(f"sanguosha.hero.{hid}")
            assert cat.get(f"sanguosha.kingdom.{h.kingdom}")
        for sid in SKILLS:
            assert cat.get(f"sanguosha.skill.{sid}"), (loc, sid)
            assert cat.get(f"sanguosha.skill_desc.{sid}"), (loc, sid)


@pytest.mark.parametrize("breakage", ["kingdom", "skill", "hp", "lord", "twice"])
def test_broken_hero_data_is_refused(breakage: str) -> None:
    raw = _raw()
    rows = raw["heroes"]
    if breakage == "kingdom":
        rows[0]["kingdom"] = "shu"
    elif breakage == "skill":
        rows[1]["skills"] = ["guicai", "flying"]
    elif breakage == "hp":
        rows[2]["hp"] = 9
    elif breakage == "lord":
        raw["lords"] = ["caocao", "liubei", "guanyu"]
    else:
        rows.append(dict(rows[0]))
    with pytest.raises(HeroError):
        parse(raw)
