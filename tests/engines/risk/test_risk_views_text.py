"""Views hide what they must, have the shape the renderer expects, and every message translates."""

from __future__ import annotations

import random

from risk_testkit import C, act, new, position

from engines.base import Msg
from engines.risk import ENGINE
from engines.risk.engine import random_action
from i18n import LOCALES, catalog, tm

PHASES = {"setup_claim", "setup_place", "setup_hq", "reinforce", "attack", "occupy", "fortify", "over"}


def test_view_shape_for_the_map_renderer() -> None:
    state = new(3, "hq", seed=5)
    v = ENGINE.view(state, 1)
    assert v["game"] == "risk" and v["variant"] == "hq" and v["phase"] in PHASES
    assert set(v["territories"]) == set(C.territories)
    assert all(set(x) == {"owner", "armies"} for x in v["territories"].values())
    p = v["players"][0]
    for key in ("seat", "color", "cards", "territories", "armies", "alive", "hq", "hqs_captured"):
        assert key in p
    assert [p["color"] for p in v["players"]] == ["red", "yellow", "blue"]
    for key in ("turn", "round", "last_battle", "turn_summary", "trade_count", "next_trade_value",
                "reinforcements_left", "winners"):
        assert key in v
    assert set(v["you"]) >= {"seat", "cards", "mission", "hq"}
    assert "you" not in ENGINE.view(state, None)


def test_cards_are_visible_only_to_their_holder() -> None:
    state = position(3, {"japan": 1, "siam": 2})
    for c in ("peru", "wild_1"):
        state["deck"].remove(c)
    state["players"][1]["cards"] = ["peru", "wild_1"]
    own = ENGINE.view(state, 1)
    assert own["you"]["cards"] == [{"id": "peru", "territory": "peru", "symbol": "infantry"},
                                   {"id": "wild_1", "territory": None, "symbol": "wild"}]
    assert ENGINE.view(state, 0)["you"]["cards"] == []
    assert ENGINE.view(state, 0)["players"][1]["cards"] == 2
    assert "peru" not in str(ENGINE.view(state, None)["players"])


def test_private_card_draw_event_goes_only_to_the_drawer() -> None:
    state = position(2, {"ontario": 1, "japan": 1}, {"quebec": 2, "kamchatka": 3}, dice=[6, 1])
    state, _ = act(state, 0, "attack", "quebec", "ontario", "once")
    state, events = act(state, 0, "end")
    drawn = state["players"][0]["cards"][0]
    private = [e for e in events if e.msg.key == "risk.ev.draw_private"]
    assert private and all(e.to == (0,) for e in private)
    assert all(drawn not in str(e.msg.params) for e in events if e.to is None)


def test_describe_and_private_summary() -> None:
    state = new(4, "mission", seed=2)
    lines = ENGINE.describe(ENGINE.view(state, None))
    assert lines and all(isinstance(m, Msg) for m in lines)
    mine = ENGINE.private_summary(ENGINE.view(state, 2))
    assert any(m.key == "risk.private.mission" for m in mine)
    assert any(m.key == "risk.private.no_cards" for m in mine)
    assert ENGINE.private_summary(ENGINE.view(state, None)) == []
    text = tm("zh-TW", next(m for m in mine if m.key == "risk.private.mission"))
    assert text.startswith("任務：") and "risk." not in text


def _translates(msg: Msg) -> None:
    for loc in LOCALES:
        assert msg.key in catalog(loc), msg.key
        out = tm(loc, msg)
        assert "{" not in out and "risk." not in out, (loc, msg, out)


def test_every_message_of_random_games_translates_in_all_locales() -> None:
    """Events, prompts, options, requests and descriptions from whole games all have catalog text."""
    rng = random.Random(3)
    for variant, seats, setup in (("classic", 3, "classic"), ("hq", 2, "quick"), ("mission", 4, "quick"),
                                  ("neutral", 2, "classic")):
        state = new(seats, variant, setup, seed=7)
        for _ in range(3000):
            if ENGINE.result(state):
                break
            req = ENGINE.pending(state)[0]
            _translates(req.prompt)
            step = ENGINE.step(state, req.seat, [])
            _translates(step.prompt)
            for o in step.options:
                _translates(o.label)
            if rng.random() < 0.5:
                action = random_action(ENGINE, state, req.seat, rng)
            else:
                action = ENGINE.ai_action(state, req.seat, rng)
            state, events = ENGINE.apply(state, req.seat, action)
            for e in events:
                _translates(e.msg)
        for seat in (None, 0):
            for m in ENGINE.describe(ENGINE.view(state, seat)) + ENGINE.private_summary(ENGINE.view(state, seat)):
                _translates(m)
    for spec in ENGINE.option_specs():
        _translates(spec.label)
        for _, label in spec.choices:
            _translates(label)
    for t in C.territories:
        _translates(Msg(f"risk.territory.{t}"))
    for c in C.continents:
        _translates(Msg(f"risk.continent.{c}"))
    _translates(Msg("risk.rules.summary"))


def test_describe_names_the_phase_without_a_round_during_setup() -> None:
    quick = ENGINE.describe(ENGINE.view(new(3, setup="quick", seed=1), None))
    assert quick[0].key == "risk.desc.simultaneous"
    classic = ENGINE.describe(ENGINE.view(new(3, setup="classic", seed=1), None))
    assert classic[0].key == "risk.desc.setup" and classic[0].params["phase"] == {"key": "risk.phase.setup_claim"}
    play = ENGINE.describe(ENGINE.view(position(2, {"japan": 1}), None))
    assert play[0].key == "risk.desc.phase" and play[0].params["round"] == 1
