"""三国杀 standing answers worked out from the seat's own view (issue 19; review): the default
"闪 against a 杀" plays a 闪 only when the hand can stop the 杀 — against 吕布's 无双 (two 闪 needed)
a lone 闪 would be spent and the 杀 hit anyway, so the player is asked instead."""

from __future__ import annotations

from sgs_testkit import act, hand_of, table

from engines.sanguosha import ENGINE, standing

DEFAULTS = {s.name: s.default for s in standing.specs({"players": [], "you": {}})}


def _answer(state: dict, seat: int) -> list[str] | None:
    (req,) = ENGINE.pending(state)
    assert req.seat == seat and req.kind == "need_shan"
    return standing.answer(ENGINE.view(state, seat), req, DEFAULTS)


def test_a_plain_sha_is_dodged_by_the_standing_shan() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]})
    state = act(state, 0, hand_of(state, 0, "sha"), 1)[0]
    assert _answer(state, 1) == [hand_of(state, 1, "shan")]


def test_against_wushuang_one_shan_is_not_spent_two_are() -> None:
    lone = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan"]}, heroes={0: "lvbu"})
    lone = act(lone, 0, hand_of(lone, 0, "sha"), 1)[0]
    assert _answer(lone, 1) is None  # asked: the player may keep the 闪
    two = table(4, "ZNFF", hands={0: ["sha"], 1: ["shan", "shan"]}, heroes={0: "lvbu"})
    two = act(two, 0, hand_of(two, 0, "sha"), 1)[0]
    first = _answer(two, 1)
    assert first is not None and first[0] in two["players"][1]["hand"]
    two = act(two, 1, *first)[0]
    assert _answer(two, 1) == [hand_of(two, 1, "shan")]  # the second, last one needed
