"""Adding a hero touches one data row, one skill module and the catalogs: the test pack
(``test_pack/``: heroes.json with one row, skills_pack.py with one skill) is registered, validated
on its own terms, installed in a mode beside the standard heroes, and its skill plays."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sgs_testkit import act, asked, table

import i18n
from engines.flow import Ctx
from engines.sanguosha import ENGINE, heroes, modes
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
    i18n.add_catalogs(PACK_DIR / "i18n")  # the front-end's part: the pack's own catalog lines
    mode = WithTestHeroes()
    modes.install(mode)
    yield mode
    modes.uninstall(mode.name)
    i18n.remove_catalogs(PACK_DIR / "i18n")
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
    state["flow"]["stack"] = [{"k": "game", "cur": 1}, {"k": "turn", "seat": 1, "st": "play"},
                              {"k": "phase", "seat": 1, "name": "draw", "st": "start"}]
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    assert asked(state) == [(1, "skill")]
    before = len(p["hand"])
    state, _ = act(state, 1, "yes")
    assert len(state["players"][1]["hand"]) == before + 3


def test_identity_mode_does_not_know_the_test_skill(test_pack: WithTestHeroes) -> None:
    names = {h.name for h in R.FLOWS["identity"].triggers.handlers("draw_count")}
    assert "test_bonus" not in names


@pytest.mark.parametrize(("locale", "name", "skill"), [("en", "Test Hero", "Test Bonus"),
                                                        ("zh-TW", "測試武將", "測試"), ("zh-CN", "测试武将", "测试")])
def test_the_test_heros_catalog_lines_come_with_its_pack(test_pack: WithTestHeroes, locale: str, name: str,
                                                         skill: str) -> None:
    """The pack's own catalog folder names its hero and skill in the seat's own summary, in each
    language; the product's catalogs are not edited."""
    state = table(4, "ZCFF", turn=1)
    p = state["players"][1]
    p["hero"], p["kingdom"], p["gender"], p["skills"] = "test_hero", "qun", "m", ["test_bonus"]
    text = "\n".join(i18n.tm(locale, line) for line in ENGINE.views.private_summary(ENGINE.view(state, 1)))
    assert name in text and skill in text
    assert "sanguosha.skill_desc.test_bonus" not in text  # the description is there, not its key


def test_without_the_pack_its_lines_are_gone_and_a_pack_cannot_reword_the_product(tmp_path: Path) -> None:
    assert not i18n.has("sanguosha.hero.test_hero")
    for loc in i18n.LOCALES:
        (tmp_path / loc).mkdir()
        (tmp_path / loc / "sanguosha.toml").write_text('[hero]\ncaocao = "Not Cao Cao"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="caocao"):
        i18n.add_catalogs(tmp_path)  # refused whole: nothing of it stays
    assert i18n.t("en", "sanguosha.hero.caocao") == "Cao Cao"
