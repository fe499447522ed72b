"""Adding a hero touches one data row, one skill module and the catalogs: the test pack
(``test_pack/``: heroes.json with one row, skills_pack.py with one skill) is registered, validated
on its own terms, installed in a mode beside the standard heroes, and its skill plays."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sgs_testkit import act, asked, table

from engines.flow import Ctx
from engines.sanguosha import heroes, modes
from engines.sanguosha import rules as R
from engines.sanguosha.identity import IdentityMode

PACK_DIR = Path(__file__).resolve().parent / "test_pack"
sys.path.insert(0, str(PACK_DIR))
import skills_pack  # noqa: E402 - the test pack's one module


class WithTestHeroes(IdentityMode):
    name = "test_with_test_heroes"
    packs = (*IdentityMode.packs, skills_pack.TEST_HEROES)


@pytest.fixture
def test_pack() -> Iterator[WithTestHeroes]:
    heroes.register_pack("test", PACK_DIR / "heroes.json", skills_pack.TEST_HEROES)
    mode = WithTestHeroes()
    modes.install(mode)
    yield mode
    modes.uninstall(mode.name)
    heroes.unregister_pack("test")


def test_the_test_hero_is_data_validated_on_its_packs_terms(test_pack: WithTestHeroes) -> None:
    h = heroes.hero("test_hero")
    assert (h.kingdom, h.hp, h.skills) == ("qun", 4, ("test_bonus",))
    assert heroes.implemented("test") == {"test_bonus"}
    assert "test_hero" not in heroes.heroes()  # identity mode still deals the standard pack


def test_the_test_heros_skill_plays_in_a_mode_that_installs_its_pack(test_pack: WithTestHeroes) -> None:
    state = table(4, "ZCFF", turn=1)
    state["mode"] = test_pack.name
    p = state["players"][1]
    p["hero"], p["kingdom"], p["gender"], p["skills"] = "test_hero", "qun", "m", ["test_bonus"]
    state["turn"], state["phase"] = 1, "draw"
    state["flow"]["stack"] = [{"k": "game", "cur": 1}, {"k": "turn", "seat": 1, "st": 4},
                              {"k": "phase", "seat": 1, "name": "draw", "st": 0}]
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    assert asked(state) == [(1, "skill")]
    before = len(p["hand"])
    state, _ = act(state, 1, "yes")
    assert len(state["players"][1]["hand"]) == before + 3


def test_identity_mode_does_not_know_the_test_skill(test_pack: WithTestHeroes) -> None:
    names = {h.name for h in R.FLOWS["identity"].triggers.handlers("draw_count")}
    assert "test_bonus" not in names
