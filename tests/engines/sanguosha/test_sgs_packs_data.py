"""Hero packs and decks are validated on their own terms: a pack states its kingdoms, HP range
(halves allowed where it says so), lords and whether a skill may repeat; a skill is implemented
when the hero pack registered it; a deck states its counts, size and id prefix, and a mode can
choose it by name while ``card`` answers for any deck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.flow import Pack
from engines.sanguosha import data
from engines.sanguosha.data import DeckError
from engines.sanguosha.heroes import SKILLS, HeroError, implemented, parse

HALVES_PACK = {
    "pack": "test", "lords": [],
    "rules": {"kingdoms": {"wei": 1, "shu": 1}, "hp": [3, 4.5], "halves": True, "lords": 0, "skill_once": False},
    "heroes": [{"id": "h_a", "kingdom": "wei", "hp": 3.5, "gender": "m", "skills": ["test_draw"]},
               {"id": "h_b", "kingdom": "shu", "hp": 4, "gender": "f", "skills": ["test_draw"]}],
}


def _pack_with_skill() -> Pack:
    pack = Pack("test.heroes")

    @pack.on("draw_count", "test_draw")
    def _more(ctx, ev):  # type: ignore[no-untyped-def]
        ev["n"] += 1

    return pack


def test_a_pack_with_halves_and_shared_skills_is_valid_on_its_own_terms() -> None:
    table, lords = parse(json.loads(json.dumps(HALVES_PACK)), _pack_with_skill().names())
    assert table["h_a"].hp == 3.5 and lords == ()


@pytest.mark.parametrize("breakage", ["half", "unregistered", "count", "once"])
def test_a_pack_breaking_its_own_terms_is_refused(breakage: str) -> None:
    raw = json.loads(json.dumps(HALVES_PACK))
    known = _pack_with_skill().names()
    if breakage == "half":
        raw["rules"]["halves"] = False  # 3.5 HP is then wrong
    elif breakage == "unregistered":
        known = Pack("empty").names()
    elif breakage == "count":
        raw["rules"]["kingdoms"] = {"wei": 2}
    else:
        raw["rules"]["skill_once"] = True
    with pytest.raises(HeroError):
        parse(raw, known)


def test_implemented_skills_are_what_the_standard_hero_pack_registered() -> None:
    assert implemented("standard") >= SKILLS
    assert "jianxiong" in implemented() and "flying" not in implemented()


def _deck_file(tmp_path: Path, prefix: str) -> Path:
    raw = {"deck_name": "tiny", "id_prefix": prefix, "size": 3, "expect": {"sha": 2, "shan": 1},
           "kinds": {"sha": {"type": "basic"}, "shan": {"type": "basic"}},
           "deck": [["sha", "S", 7], ["sha", "H", 8], ["shan", "D", 2]]}
    path = tmp_path / f"{prefix}.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


@pytest.fixture
def clean_cache():  # type: ignore[no-untyped-def]
    data.deck.cache_clear()
    data._every_card.cache_clear()
    yield
    data.deck.cache_clear()
    data._every_card.cache_clear()


def test_a_second_deck_loads_beside_the_standard_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     clean_cache: None) -> None:
    monkeypatch.setitem(data.DECKS, "tiny", _deck_file(tmp_path, "t"))
    assert list(data.deck("tiny")) == ["t0", "t1", "t2"] and len(data.deck()) == 108
    assert data.card("t2").name == "shan" and data.card("c0").id == "c0"


def test_decks_whose_ids_clash_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           clean_cache: None) -> None:
    monkeypatch.setitem(data.DECKS, "tiny", _deck_file(tmp_path, "c"))
    with pytest.raises(DeckError):
        data.card("c0")


def test_a_deck_without_its_terms_is_refused() -> None:
    raw = json.loads(data.DATA.read_text(encoding="utf-8"))
    del raw["expect"]
    with pytest.raises(DeckError):
        data.parse(raw)


def test_the_ai_hero_orders_are_data_beside_the_heroes_and_validated() -> None:
    from engines.sanguosha import ai
    from engines.sanguosha.heroes import DATA, ai_order, heroes

    assert ai_order("pick") == ai.HERO_PREF and sorted(ai_order("renegade")) == sorted(heroes())
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    raw["ai"]["pick"] = raw["ai"]["pick"][1:]  # a hero left out
    with pytest.raises(HeroError):
        parse(raw)


def test_a_skills_question_text_is_registered_beside_the_skill() -> None:
    from engines.base import Msg
    from engines.flow import Ask
    from engines.sanguosha.views import PROMPTS, ask_prompt, prompt

    assert {"guicai", "ganglie", "fanjian_suit", "liuli"} <= set(PROMPTS)
    ask = Ask(0, "q1", "liuli", "one", "w1", ("pass",), True, {"user": 2})
    assert ask_prompt(ask).key == "sanguosha.req.liuli"
    with pytest.raises(ValueError):
        prompt("liuli")(lambda info: Msg("x"))


def test_the_ai_reads_its_hero_offer_from_its_own_view_not_the_button_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from engines.sanguosha import ENGINE, ai_skills

    for seed in range(6):
        state = ENGINE.new_state({"heroes": "standard"}, 5, seed)
        req = ENGINE.pending(state)[0]
        offer = ENGINE.view(state, req.seat)["you"]["offer"]
        assert len(offer) == 5 and all(o not in json.dumps(ENGINE.view(state, None)) for o in offer)
        chosen = ENGINE.ai_action(state, req.seat, random.Random(0), request=req)
        with monkeypatch.context() as m:
            m.setattr(ai_skills, "_hero_of", lambda label: "")  # labels say nothing now
            assert ENGINE.ai_action(state, req.seat, random.Random(0), request=req) == chosen
        assert offer[int(chosen[0])] == min(offer, key=ai_skills.HERO_PREF.index)
