"""三国杀's digest for a player back in an async game (issue 19): damage taken, cards used on
them (not by them), deaths; nothing when nothing touched them."""

from __future__ import annotations

from engines import registry
from engines.base import Msg, seat_ref


def _m(key: str, **params: object) -> Msg:
    return Msg(f"sanguosha.ev.{key}", dict(params))


def test_the_digest_sums_what_touched_the_seat() -> None:
    engine = registry.get("sanguosha")
    msgs = [_m("use_on", who=seat_ref(0), card="x", sr="", target=seat_ref(2)),
            _m("damage", who=seat_ref(2), src=seat_ref(0), n=1, hp=3),
            _m("use_on", who=seat_ref(2), card="x", sr="", target=seat_ref(0)),  # by the seat: not counted
            _m("damage", who=seat_ref(2), src=seat_ref(3), n=2, hp=1),
            _m("damage", who=seat_ref(1), src=seat_ref(3), n=1, hp=0),
            _m("death", who=seat_ref(1), role="x", src=seat_ref(3))]
    got = engine.digest(msgs, 2)
    assert [x.key for x in got] == ["sanguosha.digest.head", "sanguosha.digest.you", "sanguosha.digest.death"]
    assert got[1].params == {"damage": 3, "cards": 1} and got[2].params["who"] == seat_ref(1)
    assert engine.digest(msgs[4:5], 2) == []
