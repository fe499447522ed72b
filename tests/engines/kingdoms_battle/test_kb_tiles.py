"""The tile set: the seed's 25 types and counts, the designed faces, and a loader that refuses
broken data."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engines.kingdoms_battle.data import DATA_DIR, SEED_COUNTS, TileDataError, parse, tiles


def _raw() -> dict[str, Any]:
    return json.loads((DATA_DIR / "tiles.json").read_text(encoding="utf-8"))


def test_seed_table_25_types_72_tiles_type_8_has_5_with_the_start() -> None:
    """地圖板塊(72個,其中1個為起始地圖板塊) … 類型 8 數量 5(含起始板塊)"""
    ts = tiles()
    assert len(ts.types) == 25
    assert {t: tt.count for t, tt in ts.types.items()} == SEED_COUNTS
    assert sum(tt.count for tt in ts.types.values()) == 72
    assert ts.start_type == 8 and ts.types[8].count == 5
    assert len(ts.bag()) == 71 and ts.bag().count(8) == 4


def test_every_tile_has_a_city_part_and_one_or_two_garrison_spaces() -> None:
    """每個地圖板塊皆有1~2個城池駐紮空間 (and every tile carries a city part)."""
    for tt in tiles().types.values():
        face = tt.faces[0]
        assert "C" in face.edges
        assert 1 <= len(face.spaces) <= 2
        assert all(0 <= s < len(face.cities) for s in face.spaces)


def test_the_set_uses_all_three_terrains_and_barricades_split_plains() -> None:
    edges = "".join(tt.faces[0].edges * tt.count for tt in tiles().types.values())
    assert {"C", "P", "B"} <= set(edges)
    split = [tt for tt in tiles().types.values() if len(tt.faces[0].plains) > 1 and "B" in tt.faces[0].edges]
    assert split, "some tile must have a barricade dividing its plain"
    walled = [tt for tt in tiles().types.values() if any(not c for _p, c in tt.faces[0].plains)]
    assert walled, "some tile must have a plain cut off from its city by a barricade"


def test_rotations_turn_edges_clockwise_and_drop_look_alikes() -> None:
    cap = tiles().types[11]  # CPPP
    assert [f.edges for f in cap.faces] == ["CPPP", "PCPP", "PPCP", "PPPC"]
    assert [f.rot for f in tiles().types[4].faces] == [0]  # CCCC looks the same every way
    assert [f.rot for f in tiles().types[10].faces] == [0, 1]  # a bridge has two looks


@pytest.mark.parametrize("breakage, words", [
    (lambda d: d["tiles"].pop(), "counts"),
    (lambda d: d["tiles"][0].update(count=4), "counts"),
    (lambda d: d["tiles"][0].update(edges="PPPP", cities=[]), "city part"),
    (lambda d: d["tiles"][0].update(spaces=[0, 0, 1]), "garrison"),
    (lambda d: d["tiles"][0].update(spaces=[]), "garrison"),
    (lambda d: d["tiles"][0].update(edges="CCPX"), "edges"),
    (lambda d: d["tiles"][1].update(cities=["N"]), "partition"),
    (lambda d: d["tiles"][10]["plains"][0].update(edges="ES"), "partition"),
    (lambda d: d["tiles"][10]["plains"][0].update(cities=[3]), "does not exist"),
    (lambda d: d["tiles"][12].update(spaces=[0]), "type 11 turned"),
    (lambda d: d.update(start_type=11), "start_type"),
])
def test_loader_refuses_broken_data(breakage: Any, words: str) -> None:
    data = copy.deepcopy(_raw())
    breakage(data)
    with pytest.raises(TileDataError, match=words):
        parse(data)


def test_shipped_file_parses() -> None:
    assert parse(_raw()).types.keys() == tiles().types.keys()
