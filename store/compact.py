"""Compact storage of the action log's events: raw deflate against a fixed preset dictionary.

Why: the events are most of what a match stores (a 5-AI Risk game logs ~1 300 actions whose
events are ~400 KB of JSON, mostly the same keys and names again and again) and are read only
by ``/match log`` and exports. A row's own text is too short for plain deflate to find much to
share (46 percent left), but against a dictionary of the usual event shapes ~15-20 percent is left.

A compact value is a BLOB: one format byte (``1``: this dictionary) and the deflate stream.
Older rows (JSON text) still read. The dictionary is frozen: rows written with it must stay
readable, so a better one is a new format byte, never an edit of this one.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

FORMAT_V1 = 1
#: Frozen (see above). Built from the Risk event shapes, territory and colour keys (2026-11).
ZDICT_V1 = (
    b'{"key":"risk.territory.alaska"},{"key":"risk.territory.northwest_territory"},{"key":"risk.'
    b'territory.greenland"},{"key":"risk.territory.alberta"},{"key":"risk.territory.ontario"},{"'
    b'key":"risk.territory.quebec"},{"key":"risk.territory.western_united_states"},{"key":"risk.'
    b'territory.eastern_united_states"},{"key":"risk.territory.central_america"},{"key":"risk.te'
    b'rritory.venezuela"},{"key":"risk.territory.peru"},{"key":"risk.territory.brazil"},{"key":"'
    b'risk.territory.argentina"},{"key":"risk.territory.iceland"},{"key":"risk.territory.great_b'
    b'ritain"},{"key":"risk.territory.scandinavia"},{"key":"risk.territory.northern_europe"},{"k'
    b'ey":"risk.territory.western_europe"},{"key":"risk.territory.southern_europe"},{"key":"risk'
    b'.territory.ukraine"},{"key":"risk.territory.north_africa"},{"key":"risk.territory.egypt"},'
    b'{"key":"risk.territory.east_africa"},{"key":"risk.territory.congo"},{"key":"risk.territory'
    b'.south_africa"},{"key":"risk.territory.madagascar"},{"key":"risk.territory.middle_east"},{'
    b'"key":"risk.territory.afghanistan"},{"key":"risk.territory.ural"},{"key":"risk.territory.s'
    b'iberia"},{"key":"risk.territory.yakutsk"},{"key":"risk.territory.kamchatka"},{"key":"risk.'
    b'territory.irkutsk"},{"key":"risk.territory.mongolia"},{"key":"risk.territory.japan"},{"key'
    b'":"risk.territory.china"},{"key":"risk.territory.india"},{"key":"risk.territory.siam"},{"k'
    b'ey":"risk.territory.indonesia"},{"key":"risk.territory.new_guinea"},{"key":"risk.territory'
    b'.western_australia"},{"key":"risk.territory.eastern_australia"}{"seat":0,"key":"risk.color'
    b'.red"},{"seat":1,"key":"risk.color.blue"},{"seat":2,"key":"risk.color.green"},{"seat":3,"k'
    b'ey":"risk.color.yellow"},{"seat":4,"key":"risk.color.purple"},{"seat":5,"key":"risk.color.'
    b'black"},{"seat":6,"key":"risk.color.orange"},{"seat":7,"key":"risk.color.white"},{"seat":8'
    b',"key":"risk.color.grey"}{"msg":{"key":"risk.ev.place","params":{"player":{"seat":0,"key":'
    b'"risk.color.red"},"count":1,"territory":{"key":"risk.territory.{"msg":{"key":"risk.ev.fort'
    b'ify","params":{"player":{"seat":1,"key":"risk.color.blue"},"count":2,"from":{"key":"risk.t'
    b'erritory.{"msg":{"key":"risk.ev.turn","params":{"player":{"seat":2,"key":"risk.color.green'
    b'"},"armies":3},"v":2},"to":null,"kind":"turn"}{"msg":{"key":"risk.ev.draw_private","params'
    b'":{"card":{"key":"risk.card.infantry"},"territory":{"key":"risk.territory.{"msg":{"key":"r'
    b'isk.ev.draw","params":{"player":{"seat":3,"key":"risk.color.yellow"}},"v":2},"to":null,"ki'
    b'nd":"draw"}{"msg":{"key":"risk.ev.move_in","params":{"player":{"seat":3,"key":"risk.color.'
    b'yellow"},"count":3,"territory":{"key":"risk.territory."}},"v":2},"to":null,"kind":"move"}{'
    b'"msg":{"key":"risk.ev.conquer","params":{"player":{"seat":4,"key":"risk.color.purple"},"te'
    b'rritory":{"key":"risk.territory."}},"v":2},"to":null,"kind":"conquer"},[{"msg":{"key":"ris'
    b'k.ev.battle","params":{"player":{"seat":4,"key":"risk.color.purple"},"from":{"key":"risk.t'
    b'erritory."},"to":{"key":"risk.territory."},"defender":{"seat":3,"key":"risk.color.green"},'
    b'"rolls":3,"att_loss":0,"def_loss":1},"v":2},"to":null,"kind":"battle"},'
)


#: zlib's memory level for packing. A row is a few hundred bytes, so a bigger hash table finds
#: nothing more (the events of whole Risk and 三国杀 games pack to the same bytes at 7 as at 9),
#: but at 8 and 9 the tables (300 and 430 KB) are big enough to be mapped fresh from the system
#: and faulted in on every call: a pack took 50-90 µs, at 7 (235 KB) it takes 5 µs. At 9 it was
#: an eighth of bench run_due's CPU. Any level writes the same format (raw deflate).
MEM_LEVEL = 7


def pack(value: Any) -> bytes:
    """``value`` as compact JSON, deflated against the dictionary."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    c = zlib.compressobj(6, zlib.DEFLATED, -15, MEM_LEVEL, zlib.Z_DEFAULT_STRATEGY, ZDICT_V1)
    return bytes([FORMAT_V1]) + c.compress(text) + c.flush()


def unpack(stored: str | bytes) -> Any:
    """A stored value: JSON text (rows written before compaction) or a packed BLOB."""
    if isinstance(stored, str):
        return json.loads(stored)
    if not stored or stored[0] != FORMAT_V1:
        raise ValueError(f"unknown packed format {stored[:1]!r}")
    d = zlib.decompressobj(-15, ZDICT_V1)
    return json.loads(d.decompress(stored[1:]) + d.flush())
