"""An AI seat's Risk turn is summarised in a few lines built from public events only."""

from __future__ import annotations

from engines import registry
from engines.base import Event, Msg, key_ref
from engines.risk import summary
from i18n import tm


def _ev(key: str, kind: str, to: tuple[int, ...] | None = None, **params: object) -> Event:
    return Event(Msg(key, dict(params)), to=to, kind=kind)


def test_a_long_turn_becomes_a_few_lines() -> None:
    p, q = key_ref("risk.color.red"), key_ref("risk.color.blue")
    events = [_ev("risk.ev.turn", "turn", player=p, round=3, armies=7),
              *[_ev("risk.ev.place", "place", player=p, count=1, territory=key_ref("risk.territory.alaska")) for _ in range(7)],
              *[_ev("risk.ev.battle", "battle", player=p, defender=q) for _ in range(20)],
              _ev("risk.ev.conquer", "conquer", player=p, territory=key_ref("risk.territory.alberta"), loser=q),
              _ev("risk.ev.move_in", "move", player=p, count=3, territory=key_ref("risk.territory.alberta")),
              _ev("risk.ev.continent_taken", "continent", player=p, continent=key_ref("risk.continent.north_america")),
              _ev("risk.ev.eliminated", "eliminated", player=q, by=p, cards=2),
              _ev("risk.ev.cards_taken", "card", to=(0,), count=2),
              _ev("risk.ev.trade", "trade", player=p, armies=4)]
    msgs = summary.summarize(events)
    keys = [m.key for m in msgs]
    assert keys == ["risk.ev.turn", "risk.sum.turn", "risk.sum.last_taken", "risk.ev.continent_taken",
                    "risk.ev.eliminated", "risk.ev.trade"]
    assert msgs[1].params == {"player": p, "placed": 7, "battles": 20, "taken": 1}
    assert all(m.key != "risk.ev.cards_taken" for m in msgs), "private events never reach the summary"
    for locale in ("en", "zh-TW", "zh-CN"):
        assert all("{" not in tm(locale, m, {}) for m in msgs)


def test_a_conquest_that_completes_a_continent_says_so() -> None:
    engine = registry.get("risk")
    from engines.risk import rules
    from engines.risk.data import content

    state = engine.new_state({}, 2, 5)
    cont, members = next(iter(content().continents.items()))
    seat = 0
    dst = members[0]
    for t in members[1:]:
        state["owner"][t] = seat
    src = next(t for t in state["owner"] if t not in members and state["owner"][t] == seat) \
        if any(state["owner"][t] == seat and t not in members for t in state["owner"]) else members[1]
    state["owner"][dst] = 1
    state["armies"][src] = 5
    events: list[Event] = []
    rules.conquer(state, src, dst, 1, events)
    taken = [e for e in events if e.kind == "continent"]
    assert taken and taken[0].to is None and taken[0].msg.params["continent"] == key_ref(f"risk.continent.{cont}")
