"""Identity reasoning of one AI seat, from its own view only (never the hidden roles).

What a seat may know: the lord, the roles of the dead, its own role, how many of each role the
table has (public table of roles by player count), HP/cards/equipment of everyone, and the public
record of acts (``view["acts"][x][y]``: + for hostile acts of x on y — a harmful card aimed at y,
2 per point of damage — and − for friendly ones — 桃 given, 无懈可击 protecting y).

The estimate is two steps, both cheap (a 10-seat table is a 10×10 matrix):

1. **Loyalty** ``L[x]`` in (−1, 1): hurting someone loyal to the lord (the lord counts double)
   makes x look like a rebel, hurting a rebel makes x look loyal, helping does the opposite.
   Seats of known role anchor the scale (lord +1, dead loyalist +1, dead rebel −1, my own seat
   by my role), and a few sweeps let the evidence travel (x hurt y who hurt the lord).
2. **Role probabilities** ``P[x]``: the exact posterior over every way of dealing the roles still
   hidden to the unknown seats (the counts are public), each seat's likelihood ``exp(±K·L[x])``
   for loyalist/rebel (the renegade may wear either mask, so it is neutral). If two seats look
   rebel and only one rebel is left, the rest of the mass goes to the renegade. A forward-backward
   pass over the seats with the remaining counts as state makes it a few hundred products even at
   10 seats.

From P, :meth:`Mind.enemy` and :meth:`Mind.friend` give per-seat scores in [0, 1] for this seat's
goal: lord and loyalists protect the lord and hunt rebels (the renegade second while rebels
live); rebels go for the lord and whoever looks loyal; the renegade keeps the balance — it hunts
rebels while they are many, the loyalists once the lord's side is stronger, protects the lord
while anyone else lives (the lord dying early is a rebel win) and only then turns on the lord.
When only a renegade that never showed itself is left against the lord's side, from round
:data:`HUNT_ROUND` on the lord and loyalists press the likeliest suspect(s) instead of waiting.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from engines.sanguosha.rules import ROLE_NAMES, ROLES

View = dict[str, Any]

HIDDEN = ("loyalist", "rebel", "renegade")
ANCHOR = {"lord": 1.0, "loyalist": 1.0, "rebel": -1.0, "renegade": 0.0}
K = 2.5  # how strongly a clear record sways the role guess
SWEEPS = 4
HUNT_ROUND = 20  # from this round on, a masked renegade alone with the lord's side is hunted
FRIEND_BAR = 0.6  # friend_score from which a seat counts as a friend (Mind.friend)
PUSH_ROUND = 15  # from this round on, the last two seats play to finish (see Mind.push)


class Mind:
    """Friend/foe judgement of one seat, built from ``view(state, seat)`` alone."""

    def __init__(self, view: View) -> None:
        self.view = view
        you = view["you"]
        self.me: int = you["seat"]
        self.role: str = you["role"]
        self.lord: int = view["lord"]
        ps = view["players"]
        self.n = n = len(ps)
        self.alive: list[int] = [p["seat"] for p in ps if p["alive"]]
        known: dict[int, str] = {p["seat"]: p["role"] for p in ps if p["role"] is not None}
        known[self.me] = self.role
        left = {r: ROLES[n].count(letter) for letter, r in ROLE_NAMES.items() if r in HIDDEN}
        for r in known.values():
            if r in left:
                left[r] -= 1
        self.left = left  # hidden roles not yet accounted for (alive, unknown to me)
        self.unknown = [s for s in self.alive if s not in known]
        self.loyalty = self._loyalty(view["acts"], known)
        self.p = self._roles(known)
        self.rebels_alive = sum(self.p[s]["rebel"] for s in self.alive)
        self.lord_alone = self.alive == sorted({self.me, self.lord}) and self.me != self.lord
        self._enemy = {s: self._enemy_score(s) for s in range(n)}
        self._friend = {s: self._friend_score(s) for s in range(n)}
        #: Two seats left late in the game: both AIs hoarding 桃 and 闪 behind 八卦阵 once played
        #: 1-v-1s of up to 270 rounds (a healing 华佗 renegade against the lord). From PUSH_ROUND
        #: on they duel whatever the other holds, discard spare 桃 before attack cards, and 华佗
        #: heals itself only from 1 HP (ai.py: _juedou, _discard, _qingnang).
        self.push = len(self.alive) == 2 and view["round"] >= PUSH_ROUND
        self.hunt: set[int] = set()
        if self.role in ("lord", "loyalist") and self.rebels_alive < 0.5 and view["round"] >= HUNT_ROUND:
            # Only a hidden renegade is left and it keeps its mask: rather than wait forever,
            # the lord's side presses the likeliest suspect(s).
            top = max((self._enemy[s] for s in self.unknown), default=0.0)
            self.hunt = {s for s in self.unknown if top > 0.2 and self._enemy[s] >= top - 0.01}

    # -- estimate ---------------------------------------------------------------------------

    def _loyalty(self, acts: list[list[int]], known: dict[int, str]) -> dict[int, float]:
        n = self.n
        anchor = {s: ANCHOR[r] for s, r in known.items()}
        if self.role == "renegade":
            anchor[self.me] = 0.0  # others' acts on me say nothing about their side
        loyal = {s: anchor.get(s, 0.0) for s in range(n)}
        for _ in range(SWEEPS):
            new = dict(loyal)
            for x in range(n):
                if x in anchor:
                    continue
                score = 0.0
                for y in range(n):
                    if y != x and acts[x][y]:
                        weight = 2.0 if y == self.lord else 1.0
                        score -= acts[x][y] * loyal[y] * weight
                new[x] = math.tanh(score / 6)
            loyal = new
        return loyal

    def _roles(self, known: dict[int, str]) -> dict[int, dict[str, float]]:
        p: dict[int, dict[str, float]] = {}
        for s, r in known.items():
            p[s] = {"lord": 0.0, "loyalist": 0.0, "rebel": 0.0, "renegade": 0.0, r: 1.0}
        unk = self.unknown
        if not unk:
            return p
        like = tuple((math.exp(K * self.loyalty[s]), math.exp(-K * self.loyalty[s]), 1.0) for s in unk)
        for s, marg in zip(unk, _marginals(like, tuple(self.left[r] for r in HIDDEN)), strict=True):
            p[s] = {"lord": 0.0, **dict(zip(HIDDEN, marg, strict=True))}
        return p

    # -- goals ------------------------------------------------------------------------------

    def _side_strength(self) -> tuple[float, float]:
        """(lord side, rebel side) expected strength: HP + cards of the living, by P."""
        ps = self.view["players"]
        lord = rebel = 0.0
        for s in self.alive:
            if s == self.me:
                continue
            power = ps[s]["hp"] + 0.5 * ps[s]["hand"]
            lord += power * (self.p[s]["lord"] + self.p[s]["loyalist"])
            rebel += power * self.p[s]["rebel"]
        return lord, rebel

    def _enemy_score(self, x: int) -> float:
        if x == self.me or x >= self.n:
            return 0.0
        p = self.p.get(x)
        if p is None:
            return 0.0
        if self.role in ("lord", "loyalist"):
            if x == self.lord:
                return 0.0
            return p["rebel"] + p["renegade"] * (0.5 if self.rebels_alive > 0.5 else 1.0)
        if self.role == "rebel":
            return 1.0 if x == self.lord else p["loyalist"] + 0.6 * p["renegade"]
        # renegade: balance the two sides, the lord last
        if x == self.lord:
            return 1.0 if self.lord_alone else 0.0
        if self.rebels_alive < 0.5:
            return p["loyalist"] + p["rebel"]
        lord_side, rebel_side = self._side_strength()
        tilt = 0.8 if lord_side > 1.3 * rebel_side else 0.1
        return p["rebel"] + tilt * p["loyalist"]

    def _friend_score(self, x: int) -> float:
        if x == self.me:
            return 1.0
        p = self.p.get(x)
        if p is None or x >= self.n:
            return 0.0
        if self.role in ("lord", "loyalist"):
            return 1.0 if x == self.lord else p["loyalist"]
        if self.role == "rebel":
            return 0.0 if x == self.lord else p["rebel"]
        # renegade: keeps the lord alive while anybody else lives; no other friend
        return 1.0 if x == self.lord and not self.lord_alone else 0.0

    def enemy_score(self, x: int) -> float:
        return self._enemy.get(x, 0.0)

    def friend_score(self, x: int) -> float:
        return self._friend.get(x, 0.0)

    def enemy(self, x: int) -> bool:
        """Worth hurting: a clear foe. The lord wants more certainty (killing a loyalist costs
        it every card)."""
        need = 0.65 if self.role == "lord" else 0.55
        return self.enemy_score(x) >= need or x in self.hunt

    def friend(self, x: int) -> bool:
        return self.friend_score(x) >= FRIEND_BAR

    def hp(self, x: int) -> int:
        return self.view["players"][x]["hp"]

    def player(self, x: int) -> dict[str, Any]:
        return self.view["players"][x]


Counts = tuple[int, ...]


@functools.lru_cache(maxsize=512)
def _marginals(like: tuple[tuple[float, ...], ...], left: Counts) -> tuple[tuple[float, ...], ...]:
    """Per seat, the probability of each role when exactly ``left[r]`` seats hold role ``r`` and
    a dealing's weight is the product of ``like[seat][role]`` (forward-backward over seats).
    Kept for the same record: a seat decides several times in a row on a record that has not
    changed (four decisions in five ask the same question in seeded games)."""
    n, k = len(like), len(left)
    fwd: list[dict[Counts, float]] = [{tuple(left): 1.0}]
    for i in range(n):
        nxt: dict[Counts, float] = {}
        for rem, w in fwd[i].items():
            for r in range(k):
                if rem[r]:
                    key = rem[:r] + (rem[r] - 1,) + rem[r + 1:]
                    nxt[key] = nxt.get(key, 0.0) + w * like[i][r]
        fwd.append(nxt)
    bwd: list[dict[Counts, float]] = [{} for _ in range(n + 1)]
    bwd[n] = {(0,) * k: 1.0}
    for i in range(n - 1, -1, -1):
        for rem in fwd[i]:
            total = 0.0
            for r in range(k):
                if rem[r]:
                    key = rem[:r] + (rem[r] - 1,) + rem[r + 1:]
                    total += like[i][r] * bwd[i + 1].get(key, 0.0)
            bwd[i][rem] = total
    out = []
    for i in range(n):
        marg = [0.0] * k
        for rem, w in fwd[i].items():
            for r in range(k):
                if rem[r]:
                    key = rem[:r] + (rem[r] - 1,) + rem[r + 1:]
                    marg[r] += w * like[i][r] * bwd[i + 1].get(key, 0.0)
        tot = sum(marg) or 1.0
        out.append(tuple(v / tot for v in marg))
    return tuple(out)
