"""The action log's events are stored packed (a deflate BLOB against a frozen dictionary), rows
written before as JSON text still read, and /match log and replay see the same events."""

from __future__ import annotations

import json
import random
import tracemalloc
import zlib

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


def test_packing_allocates_little_and_writes_the_same_bytes() -> None:
    """zlib's tables at memory level 8-9 (300-430 KB) were mapped fresh and faulted in on every
    pack (50-90 µs a row, an eighth of bench run_due's CPU); below ~256 KB they come from the
    heap (5 µs). A row is short, so the smaller hash table finds the same matches: the bytes
    are those of level 9, which every stored row was written with."""
    rows = risk_events(300)
    tracemalloc.start()
    try:
        compact.pack(rows[0])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024
    for row in rows:
        text = json.dumps(row, separators=(",", ":"), ensure_ascii=False).encode()
        old = zlib.compressobj(6, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, compact.ZDICT_V1)
        assert compact.pack(row) == bytes([compact.FORMAT_V1]) + old.compress(text) + old.flush()
