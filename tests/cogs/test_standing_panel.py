"""The standing answers message of the DM panel (issue 19): every setting in one select whose
choice moves it to its next value, the two presets, ids our templates claim, 3 languages."""

from __future__ import annotations

import re

from cogs.standing import BUTTON_TEMPLATE, SELECT_TEMPLATE, has_standing, next_value, standing_message
from engines import registry
from service.standing import StandingAnswers, settings_of


def _answers() -> StandingAnswers:
    engine = registry.get("sanguosha")
    view = engine.view(engine.new_state({"heroes": "standard"}, 5, 3), 0)
    specs = engine.standing_specs(view)
    return StandingAnswers(specs, settings_of(specs, None), True)


def test_games_with_standing_answers() -> None:
    assert has_standing("sanguosha") and has_standing("jiwu")
    assert not has_standing("risk") and not has_standing("no-such-game")


def test_cycling_a_setting() -> None:
    answers = _answers()
    assert answers.values["shan"] == "yes" and next_value(answers, "shan") == "ask"
    assert answers.values["wuxie"] == "ask" and next_value(answers, "wuxie") == "mine"


async def test_the_message_in_every_language() -> None:
    answers = _answers()
    for locale in ("en", "zh-TW", "zh-CN"):
        msg = standing_message(42, answers, locale)
        assert len(msg["content"]) <= 2000 and msg["content"].count("•") == len(answers.specs)
        ids = [c.custom_id for c in msg["view"].children]
        assert re.fullmatch(SELECT_TEMPLATE, ids[0])
        assert [bool(re.fullmatch(BUTTON_TEMPLATE, i)) for i in ids[1:]] == [True, True]
        assert [o.value for o in msg["view"].children[0].options] == [s.name for s in answers.specs]
