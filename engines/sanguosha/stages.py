"""Named stages: a frame's ``st`` is a name (``"start"``, ``"asked"``, ``"dying"`` …), not a number.

Why: editions 1 and 2 stored integers, so a new step inside a frame (a timing point added to
``damage``, a question added to a weapon) renumbered the steps after it, and every game stored
paused there would have resumed at the wrong one. A name keeps its meaning when steps are added
around it. Every frame starts at ``"start"``; the names of each kind are the strings its handler
compares ``f["st"]`` with.

``LEGACY`` is the frozen table of what those integers meant (edition 2's code, kind by kind, and
for card effects card by card). :func:`name_stages` turns any integer stage into its name. The
engine's upgrade from edition 2 uses it, and so does ``apply``: a state built by hand with
integer stages (the identity tests' kit does so) plays as the stored game it describes. New
kinds never need an entry: only names are written from edition 3 on.
"""

from __future__ import annotations

from typing import Any

#: The order of a turn's phases (the turn frame's stage is the next phase to run).
_PHASES = ("prepare", "judge", "draw", "play", "discard", "finish")

_ASKED = {0: "start", 1: "asked"}
_JUDGED = {0: "start", 1: "judged"}

#: kind → {edition-2 integer: name}.
LEGACY: dict[str, dict[int, str]] = {
    "turn": {0: "start", **{i + 1: p for i, p in enumerate(_PHASES)}, 7: "end", 99: "end"},
    "phase": {0: "start", 1: "fired", 2: "resolve", 3: "play", 4: "discard", 9: "end"},
    "use": {0: "start", 1: "declared", 2: "effects", 3: "finish"},
    "effect": {0: "start", 1: "nullify", 2: "effect"},
    "need": {0: "start", 1: "armour", 2: "answer", 3: "played", 4: "lord"},
    "nullify": {0: "start", 1: "open"},
    "judge": {0: "start", 1: "retouch", 2: "done"},
    "delayed": {0: "start", 1: "nullify", 2: "judged", 3: "damage"},
    "damage": {0: "start", 1: "cause", 2: "inflicted", 3: "dying", 4: "done", 5: "chain"},
    "dying": {0: "start", 1: "fired", 2: "peach", 3: "death"},
    "death": {0: "start", 1: "fired", 2: "end"},
    "setup": {0: "start", 1: "lord", 2: "others"},
    "deferred": {0: "start", 1: "fired"},
    "lose_hp": {0: "start", 1: "dying"},
    "optional": {0: "start", 1: "asked", 2: "effect"},
    "cixiong": {0: "start", 1: "asked", 2: "choice"},
    "bagua": _JUDGED,
    "guanshi": _ASKED,
    "qinglong": {0: "start", 1: "asked", 2: "used"},
    "hanbing": {0: "start", 1: "asked", 2: "pick"},
    "qilin": _ASKED,
    "jijiang_use": {0: "start", 1: "asked", 2: "used"},
    "guanxing": _ASKED,
    "tieqi": _JUDGED,
    "fankui": _ASKED,
    "ganglie": {0: "start", 1: "judged", 2: "asked", 3: "damage"},
    "tuxi": _ASKED,
    "yiji": {0: "start", 1: "asked", 2: "give"},
    "luoshen": {0: "start", 1: "judged", 2: "asked"},
    "kurou": {0: "start", 1: "lost"},
    "fanjian": {0: "start", 1: "named", 2: "damage"},
    "liuli": _ASKED,
    "guicai": {0: "start"},
}

#: An effect frame's stages past ``"effect"`` (2) belong to its card.
EFFECT: dict[str, dict[int, str]] = {
    "sha": {3: "fired", 4: "need", 5: "dodge", 6: "damage", 7: "dodged"},
    "guohe": {3: "picked"},
    "shunshou": {3: "picked"},
    "juedou": {3: "turn", 4: "ask", 5: "damage"},
    "jiedao": {3: "answer", 4: "used"},
    "nanman": {3: "answer", 4: "damage"},
    "wanjian": {3: "answer", 4: "damage"},
    "wugu": {3: "picked"},
}


def legacy_name(frame: dict[str, Any]) -> str:
    """The name of ``frame``'s integer stage (KeyError: a stage edition 2 never stored)."""
    st = frame["st"]
    if frame["k"] == "effect" and st > 2:
        return EFFECT[frame["name"]][st]
    return LEGACY[frame["k"]][st]


def name_stages(state: dict[str, Any]) -> None:
    """Give every frame of ``state``'s stack a named stage, in place."""
    for frame in state["flow"]["stack"]:
        if type(frame.get("st")) is int:
            frame["st"] = legacy_name(frame)
