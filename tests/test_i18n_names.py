"""Names are data, never keys: only explicit references (``key_ref`` / ``seat_ref``) are
translated; a string parameter is shown as it is, whatever it starts with."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.base import Msg, key_ref, seat_ref
from i18n import catalog, t, tm

HOSTILE = ["@everyone", "@core.x", "@core.note.resigned", "@risk.territory.alaska", "{seat}", "{0}", "@"]


@pytest.mark.parametrize("name", HOSTILE)
def test_string_params_are_never_looked_up(name: str) -> None:
    assert t("en", "core.note.resigned", name=name) == f"{name} resigned."


@pytest.mark.parametrize("name", HOSTILE)
def test_seat_names_are_never_looked_up(name: str) -> None:
    msg = Msg("core.note.resigned", {"name": seat_ref(0, "risk.color.red")})
    assert tm("en", msg, [name]) == f"{name} ({t('en', 'risk.color.red')}) resigned."
    # The JSON round trip (outbox, action log) keeps the name a name.
    assert tm("en", Msg.from_json(msg.to_json()), [name]) == f"{name} ({t('en', 'risk.color.red')}) resigned."
    plain = Msg("core.note.resigned", {"name": name})
    assert tm("en", Msg.from_json(plain.to_json())) == f"{name} resigned."


def test_key_refs_are_translated_with_their_own_params() -> None:
    alaska = t("zh-TW", "risk.territory.alaska")
    assert t("zh-TW", "core.note.resigned", name=key_ref("risk.territory.alaska")).startswith(alaska)
    nested = key_ref("core.note.resigned", name=seat_ref(1, "risk.color.blue"))
    assert t("en", "core.note.resigned", name=nested, seat_names=["A", "B"]) == \
        f"B ({t('en', 'risk.color.blue')}) resigned. resigned."


def test_rows_stored_before_key_refs_still_read() -> None:
    """Action-log rows written before version 2 marked keys with '@'; they still translate."""
    legacy = {"key": "core.note.resigned", "params": {"name": "@risk.territory.alaska"}}
    assert tm("en", Msg.from_json(legacy)) == f"{t('en', 'risk.territory.alaska')} resigned."


@pytest.mark.parametrize("slug", registry.available())
def test_engines_use_references_not_markers(slug: str) -> None:
    """No engine message parameter is an '@' string any more, and every reference is a real key."""
    engine = registry.get(slug)
    en = catalog("en")
    rng = random.Random(3)
    options = engine.normalize_options({})
    state = engine.new_state(options, engine.seat_range(options)[1], 7)
    msgs: list[Msg] = []
    for _ in range(60):
        msgs += engine.describe(engine.view(state, None))
        reqs = engine.pending(state)
        if not reqs:
            break
        seat = reqs[0].seat
        state, events = engine.apply(state, seat, engine.ai_action(state, seat, rng, "easy"))
        msgs += [e.msg for e in events]

    def check(value: object) -> None:
        assert not (isinstance(value, str) and value.startswith("@")), value
        if isinstance(value, dict) and "key" in value and "seat" not in value:
            assert value["key"] in en, value
            for v in value.get("params", {}).values():
                check(v)

    assert msgs
    for m in msgs:
        for v in m.params.values():
            check(v)
