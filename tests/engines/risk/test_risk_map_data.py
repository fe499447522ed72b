"""The map, deck and missions are checked against the reference facts, and broken files fail loudly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engines.risk.data import DATA_DIR, RiskDataError, content, load
from i18n import t as translate

C = content()

EXPECTED_IDS = ["alaska", "northwest_territory", "greenland", "alberta", "ontario", "quebec", "western_united_states", "eastern_united_states", "central_america", "venezuela", "peru", "brazil", "argentina", "iceland", "great_britain", "scandinavia", "northern_europe", "western_europe", "southern_europe", "ukraine", "north_africa", "egypt", "east_africa", "congo", "south_africa", "madagascar", "middle_east", "afghanistan", "ural", "siberia", "yakutsk", "kamchatka", "irkutsk", "mongolia", "japan", "china", "india", "siam", "indonesia", "new_guinea", "western_australia", "eastern_australia"]


def test_42_territories_with_the_fixed_ids_in_6_continents() -> None:
    assert sorted(C.territories) == sorted(EXPECTED_IDS)
    assert sorted(C.continents) == sorted(
        ["north_america", "south_america", "europe", "africa", "asia", "australia"])
    sizes = {c: len(ts) for c, ts in C.continents.items()}
    assert sizes == {"north_america": 9, "south_america": 4, "europe": 7, "africa": 6, "asia": 12, "australia": 4}


def test_continent_bonuses_na5_sa2_eu5_af3_as7_au2() -> None:
    assert C.bonus == {"north_america": 5, "south_america": 2, "europe": 5, "africa": 3, "asia": 7,
                       "australia": 2}


def test_83_symmetric_borders_and_166_neighbour_entries() -> None:
    assert len(C.borders) == 83
    assert sum(len(ns) for ns in C.adjacent.values()) == 166
    for t, ns in C.adjacent.items():
        for n in ns:
            assert t in C.adjacent[n], (t, n)


@pytest.mark.parametrize("a,b", [("ukraine", "middle_east"), ("ural", "china"), ("alaska", "kamchatka"),
                                 ("brazil", "north_africa"), ("greenland", "iceland"),
                                 ("siam", "indonesia"), ("southern_europe", "egypt"),
                                 ("east_africa", "middle_east"), ("greenland", "quebec")])
def test_links_that_published_maps_forgot(a: str, b: str) -> None:
    assert b in C.adjacent[a] and a in C.adjacent[b]


@pytest.mark.parametrize("a,b", [("alaska", "greenland"), ("japan", "china"), ("peru", "north_africa"),
                                 ("iceland", "northern_europe"), ("egypt", "congo")])
def test_no_extra_links(a: str, b: str) -> None:
    assert b not in C.adjacent[a]


def test_border_territories_per_continent() -> None:
    counts = {c: sum(1 for t in ts if any(C.continent_of[n] != c for n in C.adjacent[t]))
              for c, ts in C.continents.items()}
    assert counts == {"north_america": 3, "south_america": 2, "europe": 4, "africa": 3, "asia": 5,
                      "australia": 1}


def test_44_cards_14_of_each_symbol_and_2_wilds() -> None:
    symbols = [c.symbol for c in C.cards.values()]
    assert len(C.cards) == 44
    assert {s: symbols.count(s) for s in set(symbols)} == {"infantry": 14, "cavalry": 14, "artillery": 14,
                                                           "wild": 2}
    assert sorted(c.territory for c in C.cards.values() if c.territory) == sorted(C.territories)


def test_twelve_missions_per_the_seed() -> None:
    assert len(C.missions) == 12
    destroy = sorted(m.color for m in C.missions.values() if m.kind == "destroy")
    assert destroy == sorted(["red", "yellow", "blue", "green", "purple", "black"])
    assert C.missions["territories_18_two"].count == 18 and C.missions["territories_18_two"].min_armies == 2
    assert C.missions["asia_south_america"].continents == ("asia", "south_america")
    # The seed gives territory counts for the continent pairs: check them against the map.
    sizes = {"asia_south_america": 16, "asia_africa": 18, "north_america_africa": 15, "north_america_australia": 13}
    for mid, n in sizes.items():
        assert sum(len(C.continents[c]) for c in C.missions[mid].continents) == n


def _copy(tmp_path: Path) -> Path:
    for name in ("map.json", "cards.json", "missions.json"):
        shutil.copy(DATA_DIR / name, tmp_path / name)
    return tmp_path


def test_a_one_way_or_unknown_border_is_rejected(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    data = json.loads((base / "map.json").read_text())
    data["borders"].append(["alaska", "atlantis"])
    (base / "map.json").write_text(json.dumps(data))
    with pytest.raises(RiskDataError, match="atlantis"):
        load(base)


def test_a_duplicate_border_is_rejected(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    data = json.loads((base / "map.json").read_text())
    data["borders"].append(list(reversed(data["borders"][0])))
    (base / "map.json").write_text(json.dumps(data))
    with pytest.raises(RiskDataError, match="twice"):
        load(base)


def test_a_missing_card_is_rejected(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    data = json.loads((base / "cards.json").read_text())
    data["cards"] = data["cards"][1:]
    (base / "cards.json").write_text(json.dumps(data))
    with pytest.raises(RiskDataError, match="cards.json"):
        load(base)


def test_a_mission_with_an_unknown_continent_is_rejected(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    data = json.loads((base / "missions.json").read_text())
    data["missions"][-1] = {"id": "x", "kind": "continents", "continents": ["atlantis"]}
    (base / "missions.json").write_text(json.dumps(data))
    with pytest.raises(RiskDataError, match="missions.json"):
        load(base)


def test_broken_json_names_the_file(tmp_path: Path) -> None:
    base = _copy(tmp_path)
    (base / "map.json").write_text("{not json")
    with pytest.raises(RiskDataError, match="map.json"):
        load(base)


# The seed's territory list (領土卡), copied here so the test needs nothing outside the project.
SEED_NAMES = """
alaska 阿拉斯加|alberta 艾伯塔|central_america 中美洲|eastern_united_states 美東|greenland 格陵蘭
northwest_territory 西北地區|ontario 安大略|quebec 魁北克|western_united_states 美西|argentina 阿根廷
brazil 巴西|peru 祕魯|venezuela 委內瑞拉|great_britain 大不列顛|iceland 冰島|northern_europe 北歐
scandinavia 斯堪的那維亞|southern_europe 南歐|ukraine 烏克蘭|western_europe 西歐|congo 剛果
east_africa 東非|egypt 埃及|madagascar 馬達加斯加|north_africa 北非|south_africa 南非|afghanistan 阿富汗
china 中國|india 印度|irkutsk 伊爾庫次克|japan 日本|kamchatka 堪察加半島|middle_east 中東|mongolia 蒙古
siam 暹羅|siberia 西伯利亞|ural 烏拉|yakutsk 雅庫次克|eastern_australia 東澳|indonesia 印尼
new_guinea 新幾內亞|western_australia 西澳
"""


def test_zh_tw_territory_names_are_the_seeds() -> None:
    """The 42 territory names players read in zh-TW are exactly the seed's; zh-CN and en name
    every territory too, each name distinct within its language."""
    pairs = dict(item.split(" ") for item in SEED_NAMES.replace("\n", "|").split("|") if item)
    assert sorted(pairs) == sorted(content().territories)
    for tid, name in pairs.items():
        assert translate("zh-TW", f"risk.territory.{tid}") == name
    for locale in ("zh-CN", "en"):
        names = {translate(locale, f"risk.territory.{tid}") for tid in pairs}
        assert len(names) == 42 and not any(n.startswith("risk.") for n in names)
