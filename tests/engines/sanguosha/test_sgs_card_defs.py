"""One definition per card (``cards.CardDef``): every card of the deck has exactly one, and its
flags agree with the deck's data; the engine's card rules read it (not lists of names)."""

from __future__ import annotations

from sgs_testkit import options, table

from engines.sanguosha import cards
from engines.sanguosha.choices import needs_target, usable_as
from engines.sanguosha.data import DECKS, deck, kind_of


def test_every_card_of_the_deck_has_one_definition_agreeing_with_its_data() -> None:
    names = {c.name for d in DECKS for c in deck(d).values()}  # of every deck (国战's too)
    assert names == set(cards.DEFS)
    for name, d in cards.DEFS.items():
        kind = kind_of(name)
        assert not d.nullifiable or kind == "trick", name
        assert not (d.harmful and d.friendly), name
        if kind == "equip":
            assert d.default_targets is not None and d.targets is None, name
        assert needs_target(name) == (d.targets is not None)


def test_the_rules_read_the_definitions() -> None:
    state = table(4, "ZCFF", hands={0: ["tao", "shan", "wuxie"]})
    tao = state["players"][0]["hand"][0]
    assert not usable_as(state, 0, "tao", [tao])  # at full HP
    assert not set(state["players"][0]["hand"][1:]) & set(options(state, 0))  # 闪, 无懈 only answer
    state["players"][0]["hp"] -= 1
    assert usable_as(state, 0, "tao", [tao])
    assert cards.harmful("sha") and cards.of("tao").friendly and cards.nullifiable("wugu")
    assert not cards.nullifiable("lebu")  # a delayed trick is cancelled at its judgement
