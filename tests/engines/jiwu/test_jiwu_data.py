"""The 极武三国 content against the seed's counts, and the loader refusing bad edits."""

from __future__ import annotations

import copy
import json

import pytest

from engines.jiwu import data as D


def test_board_sections_close_for_two_and_three_players() -> None:
    b = D.board()
    assert len(b.open_regions(4)) == len(b.regions)
    three, two = set(b.open_regions(3)), set(b.open_regions(2))
    assert two < three < set(b.regions)
    assert {b.regions[r].section for r in two} == {"C"}
    assert {b.regions[r].section for r in three} == {"C", "E"}


def test_board_has_cities_neutrals_and_start_regions() -> None:
    b = D.board()
    cities = [r for r in b.regions.values() if r.city]
    assert len(cities) == 7
    assert sum(r.neutral for r in b.regions.values()) + sum(p.neutral for p in b.paths.values()) > 0
    starts = [r for r in b.regions.values() if r.start]
    assert len(starts) == 6 and all(not r.neutral for r in starts)


def test_card_counts_follow_the_seed() -> None:
    cards = D.cards()
    market = cards.of_kind("market")
    assert sum(c.copies for c in market) == 80
    for aspect in D.ASPECTS:
        assert sum(c.copies for c in market if c.aspect == aspect) == 20
    generals = [c for c in market if c.general]
    assert len(generals) == 10 and len(cards.of_kind("art")) == 10
    assert cards.pile("start").count("nongfu") == 7 and cards.pile("start").count("bubing") == 3
    assert len(cards.pile("supply")) == 15 + 15 + 20
    assert len(cards.pile("plan")) == 20
    _, duel = D.content()
    assert duel == {"atk": "brk", "brk": "par", "par": "atk"}


def _raw(name: str) -> dict:
    return json.loads((D.DATA_DIR / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("edit, problem", [
    (lambda d: d["cards"].pop(0), "central deck"),
    (lambda d: d["cards"][0]["effects"].append({"op": "fly"}), "unknown effect"),
    (lambda d: d["duel"]["moves"][0].update(beats="par"), "duel"),
    (lambda d: next(c for c in d["cards"] if c["id"] == "nongfu").update(copies=6), "start deck"),
])
def test_bad_card_files_are_refused(edit, problem: str) -> None:
    data = copy.deepcopy(_raw("cards.json"))
    edit(data)
    with pytest.raises(D.JiwuDataError, match=problem):
        D.parse_cards(data)


@pytest.mark.parametrize("edit, problem", [
    (lambda d: d["paths"].append({"id": "px", "a": "luoyang", "b": "nowhere", "slots": 1, "neutral": 0}), "path px"),
    (lambda d: d["closed"].update(W=[2]), "2 players"),
    (lambda d: [r.update(start=False) for r in d["regions"] if r["section"] == "C"], "start regions"),
    (lambda d: d.update(paths=[p for p in d["paths"] if "kuaiji" not in (p["a"], p["b"])]), "not connected"),
])
def test_bad_board_files_are_refused(edit, problem: str) -> None:
    data = copy.deepcopy(_raw("board.json"))
    edit(data)
    with pytest.raises(D.JiwuDataError, match=problem):
        D.parse_board(data)


def test_every_card_and_region_has_a_name_in_every_language() -> None:
    from i18n import LOCALES, catalog
    for loc in LOCALES:
        names = catalog(loc)
        for cid in D.cards().cards:
            assert f"jiwu_names.card.{cid}" in names, (loc, cid)
        for rid in D.board().regions:
            assert f"jiwu_names.region.{rid}" in names, (loc, rid)
