"""国战 decisions as panel buttons: the hero choice (main, then deputy of its kingdom), the
start-phase reveal (one click: it is a window) and the play phase's reveal and marker uses are
plain step options, each a labelled button that fits a phone (short labels, at most 5 to a row)."""

from __future__ import annotations

import pytest

from cogs.utils.layout import MAX_BUTTONS_PER_ROW, MAX_ROWS, step_layout
from engines.flow import Flow
from engines.sanguosha import ENGINE
from engines.sanguosha.heroes import hero
from i18n import LOCALES, tm
from tests.engines.sanguosha import hg_testkit as K

#: A label longer than this wraps or is cut on a phone's button.
PHONE_LABEL = 34


def _labels(step: object, locale: str, path: list[str]) -> list[str]:
    layout = step_layout(step, 1, "r1", path, 0, locale)  # type: ignore[arg-type]
    assert len(layout.rows) <= MAX_ROWS and all(len(row) <= MAX_BUTTONS_PER_ROW for row in layout.rows)
    return [b.label for row in layout.rows for b in row if hasattr(b, "label")]


def _readable(labels: list[str]) -> None:
    for label in labels:
        assert "sanguosha." not in label and "{" not in label, label
        assert 0 < len(label) <= PHONE_LABEL, label


@pytest.mark.parametrize("locale", LOCALES)
def test_play_phase_reveal_and_marker_uses_are_labelled_buttons(locale: str) -> None:
    # 张飞 (咆哮, a locked skill) hidden: he may be revealed in the play phase.
    state = K.table([("hg_guanyu", "hg_zhangfei"), ("hg_caocao", "hg_xuchu"), ("hg_ganning", "hg_lvmeng")],
                    shown={0: (True, False)}, turn=0)
    for mark in ("yinyang", "xianqu", "zhulian"):
        state["players"][0]["marks"][mark] = 1
    step = ENGINE.step(state, 0, [])
    values = {o.value for o in step.options}
    assert {"hg_reveal", "mark_yinyang", "mark_xianqu", "mark_zhulian", "end"} <= values
    labels = _labels(step, locale, [])
    _readable(labels)
    # 先驱: whose hidden hero, then which of them; each a button.
    seats = ENGINE.step(state, 0, ["mark_xianqu"])
    assert {o.value for o in seats.options} == {"1", "2"}
    which = ENGINE.step(state, 0, ["mark_xianqu", "1"])
    _readable(_labels(which, locale, ["mark_xianqu", "1"]))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_start_phase_reveal_and_the_hero_choice_name_the_heroes(locale: str) -> None:
    state = ENGINE.new_state({"mode": "hegemony"}, 3, 4)
    main = ENGINE.step(state, 0, [])
    _readable(_labels(main, locale, []))
    deputy = ENGINE.step(state, 0, [main.options[0].value])
    _readable(_labels(deputy, locale, [main.options[0].value]))
    state = K.table([("hg_guanyu", "hg_zhangfei"), ("hg_caocao", "hg_xuchu"), ("hg_ganning", "hg_lvmeng")],
                    turn=0, phase="turn")
    assert (0, "hg_reveal") in K.asked(state)
    _readable(_labels(ENGINE.step(state, 0, []), locale, []))


def test_the_hero_choice_is_main_then_a_deputy_of_its_kingdom() -> None:
    state = ENGINE.new_state({"mode": "hegemony"}, 3, 4)
    offer = ENGINE.view(state, 0)["you"]["offer"]
    main = ENGINE.step(state, 0, [])
    for option in main.options:
        kingdom = hero(offer[int(option.value)]).kingdom
        deputies = ENGINE.step(state, 0, [option.value]).options
        assert deputies and all(hero(offer[int(o.value)]).kingdom == kingdom for o in deputies)
        assert option.value not in {o.value for o in deputies}
    assert Flow.ask_of(state, 0).kind == "hg_heroes"
    # The labels say kingdom and HP halves beside the name (the picture adds the skills).
    label = tm("en", main.options[0].label)
    assert "half-HP" in label
