"""The hard AI's judgement of a table (issue 23, fourth round): each camp's chance to win the
game, fitted to the outcomes of normal's own games rather than weighed by hand.

The search (``ai_search``) plays normal's policy in its worlds, so the question it asks of a
finished turn is "how often does normal's play win from here?". A multinomial logistic model
answers it from a few public quantities per camp at the start of a turn — the lord's HP (its
first two HP counting again: a lord at 1 or 2 HP is the rebels' game), hand, equipment and
乐不思蜀, and for the loyalists, rebels and renegade their living seats and the sums of their
HP, hand cards, equipment and 乐不思蜀 — one model per table size it was fitted at. Sizes
without a model return None and the search keeps its hand-weighed score.

Fitted on the tuning seeds (normal at every seat, every turn start of a game a sample, one in
three kept): 5 seats 110000–111499 (1 500 games), 8 seats 112000–112799 (800 games); the fit's
log loss on its held-out last fifth of the games was 0.60 (5 seats; the camps' base rates alone
0.75) and 0.68 (8 seats; 0.99). ``tools/fit_sgs_value.py`` re-fits a table size and prints its
entry. (The weights below were fitted with each camp's living seats counted twice, once as
seats and once as seats with at least 1 HP — the same number at any turn start — and the two
weights added here; a re-fit with the tool gives close, not identical, weights.)
docs/rules/sanguosha.md "AI levels" has the figures.
"""

from __future__ import annotations

import math
from typing import Any

State = dict[str, Any]

#: The outcomes the model tells apart: the lord's camp, the rebels, the renegade.
SIDES = ("Z", "F", "N")

Weights = tuple[float, tuple[float, ...]]
#: Table size -> per side (:data:`SIDES`) the bias and the weights of :func:`features`.
MODELS: dict[int, tuple[Weights, Weights, Weights]] = {
    5: (
        (+1.0138, (+0.2958, +0.2739, +0.0779, +0.1298, +0.0928, +0.0710, +0.1749, +0.0260, +0.0175, -0.0462,
                   -0.0929, -0.1453, -0.1162, -0.0680, -0.0221, -0.9029, -0.0271, -0.0325, -0.0632, +0.0779)),
        (+2.1885, (-0.2529, -0.6041, -0.0929, -0.0986, -0.0789, +0.0641, -0.1313, -0.0791, +0.0219, -0.1693,
                   +0.2207, +0.2516, +0.1515, +0.1525, -0.0986, -2.0881, -0.0937, -0.0963, -0.0846, +0.0382)),
        (-3.2023, (-0.0429, +0.3302, +0.0151, -0.0312, -0.0140, -0.1351, -0.0435, +0.0532, -0.0394, +0.2156,
                   -0.1279, -0.1063, -0.0354, -0.0845, +0.1207, +2.9911, +0.1208, +0.1288, +0.1478, -0.1161)),
    ),
    8: (
        (+0.6296, (+0.2229, +0.2569, +0.0422, +0.1128, +0.0079, +0.1258, +0.1856, +0.0808, +0.1103, -0.0993,
                   -0.2122, -0.0811, -0.0697, -0.0241, +0.0621, -0.8006, -0.0661, +0.0208, -0.0543, -0.0659)),
        (+1.5590, (-0.1793, -0.5098, -0.0918, -0.0410, -0.0664, -0.2446, -0.0562, -0.0658, -0.0497, +0.0551,
                   +0.2734, +0.1596, +0.0805, +0.0672, -0.0228, -1.1140, -0.1009, -0.0808, -0.0279, +0.1521)),
        (-2.1886, (-0.0436, +0.2529, +0.0495, -0.0718, +0.0585, +0.1188, -0.1294, -0.0150, -0.0607, +0.0442,
                   -0.0613, -0.0785, -0.0108, -0.0431, -0.0392, +1.9146, +0.1670, +0.0600, +0.0822, -0.0862)),
    ),
}


def _gear(p: dict[str, Any]) -> int:
    return sum(1 for e in p["equip"].values() if e)


def _lebu(p: dict[str, Any]) -> int:
    return sum(1 for j in p["judge"] if j[1] == "lebu")


def features(state: State) -> list[float]:
    """The lord's HP, its HP up to 2, hand, equipment and 乐不思蜀; then for the loyalists, the
    rebels and the renegade: living seats, and their HP, hand cards, equipment and 乐不思蜀."""
    ps = state["players"]
    lord = ps[state["lord"]]
    out: list[float] = [lord["hp"], min(lord["hp"], 2), len(lord["hand"]), _gear(lord), _lebu(lord)]
    for role in "CFN":
        live = [p for p in ps if p["role"] == role and p["alive"]]
        out += [len(live), sum(p["hp"] for p in live), sum(len(p["hand"]) for p in live),
                sum(_gear(p) for p in live), sum(_lebu(p) for p in live)]
    return out


def chances(state: State) -> dict[str, float] | None:
    """Each side's (:data:`SIDES`) chance to win from ``state``; None at a table size without a
    model."""
    model = MODELS.get(len(state["players"]))
    if model is None:
        return None
    x = features(state)
    scores = [b + sum(w * v for w, v in zip(ws, x, strict=True)) for b, ws in model]
    top = max(scores)
    exp = [math.exp(s - top) for s in scores]
    total = sum(exp)
    return {side: e / total for side, e in zip(SIDES, exp, strict=True)}
