"""The action log's events are stored packed (a deflate BLOB against a frozen dictionary), rows
written before as JSON text still read, and /match log and replay see the same events."""

from __future__ import annotations

import json
import random

from engines.risk import ENGINE
from store import compact


def risk_events(actions: int) -> list[list[dict]]:
    rng = random.Random(3)
    state = ENGINE.new_state({"setup": "quick"}, 4, 11)
    out = []
    while ENGINE.result(state) is None and len(out) < actions:
        req = ENGINE.pending(state)[0]
        state, events = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "normal"))
        out.append([e.to_json() for e in events])
    return out


def test_packed_events_round_trip_and_are_much_smaller() -> None:
    rows = risk_events(400)
    text = sum(len(json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode()) for r in rows)
    packed = [compact.pack(r) for r in rows]
    assert [compact.unpack(p) for p in packed] == rows
    assert sum(len(p) for p in packed) < text * 0.3


def test_old_text_rows_still_read_and_unknown_formats_are_refused() -> None:
    assert compact.unpack('[{"msg":{"key":"x","params":{}}}]') == [{"msg": {"key": "x", "params": {}}}]
    assert compact.unpack(compact.pack([])) == []
    try:
        compact.unpack(b"\x09abc")
    except ValueError:
        pass
    else:
        raise AssertionError("an unknown format must not be read as something else")
