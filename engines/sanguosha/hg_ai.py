"""The AI of hegemony mode (国战): identity mode's card and skill play (``ai.py``) with a mind
that judges friend and foe by kingdom, and the mode's own decisions — which two heroes to keep,
when to reveal, when to spend a marker.

What a seat may know (its own view, never the state): its own two heroes, the shown heroes and
settled kingdoms of the others, the heroes it has peeked at, HP, cards and the public record of
acts. A seat with no shown hero is guessed from that record: one who hurt a known ally of mine
looks like an enemy, one who helped looks like a friend, and before any evidence the chance that
it shares my kingdom is what the table's count leaves for it.
"""

from __future__ import annotations

import math
import random
from itertools import permutations
from typing import Any

from engines.flow import Flow
from engines.sanguosha import ai
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, ask_hint, play_hint
from engines.sanguosha.hegemony import MODE, offer_of, pairable
from engines.sanguosha.heroes import ai_order, hero
from engines.sanguosha.hg_heroes import is_lord

State = dict[str, Any]
View = dict[str, Any]

FRIEND_BAR = 0.6
ENEMY_BAR = 0.55
PUSH_ROUND = 15


class HgMind:
    """Friend/foe of one seat by kingdom, from its view alone (the interface of ``ai_mind.Mind``)."""

    role = "hegemony"
    lord = -1
    lord_alone = False
    hunt: frozenset[int] = frozenset()

    def __init__(self, view: View) -> None:
        self.view = view
        you = view["you"]
        self.me: int = you["seat"]
        ps = view["players"]
        self.n = len(ps)
        self.alive = [p["seat"] for p in ps if p["alive"]]
        own = you.get("heroes") or []
        self.kingdom: str | None = hero(own[0]["id"]).kingdom if own else None
        mine = ps[self.me]["role"]
        self.ye = mine == "ye"
        known = {p["seat"]: p["role"] for p in ps if p["role"] is not None and p["seat"] != self.me}
        for peek in you.get("peeks", ()):
            known.setdefault(peek["seat"], hero(peek["hero"]).kingdom)
        self.known = known
        self.push = len(self.alive) == 2 and view["round"] >= PUSH_ROUND
        self.p: dict[int, dict[str, float]] = {}
        self._same = {s: self._same_kingdom(s, view["acts"]) for s in range(self.n)}

    def _same_kingdom(self, x: int, acts: list[list[int]]) -> float:
        """The chance that ``x`` is of my kingdom (and will stay on my side)."""
        if x == self.me:
            return 1.0
        if self.ye or self.kingdom is None:
            return 0.0
        if x in self.known:
            return 1.0 if self.known[x] == self.kingdom else 0.0
        if not self.view["players"][x]["alive"]:
            return 0.0
        mates = sum(1 for k in self.known.values() if k == self.kingdom) + 1
        room = max(0, self.n // 2 - mates)
        unknown = sum(1 for s in self.alive if s != self.me and s not in self.known)
        prior = min(0.85, room / max(1, unknown) * 0.6)
        friends = [s for s in range(self.n) if s == self.me or self.known.get(s) == self.kingdom]
        score = 0.0
        for y in friends:
            score -= acts[x][y]  # hostile acts (+) on my side lower it, friendly ones (−) raise it
            score += 0.5 * acts[y][x] if y != self.me else 0.0
        logit = math.log(max(prior, 0.02) / max(1 - prior, 0.02)) + score / 2
        return 1 / (1 + math.exp(-logit))

    def friend_score(self, x: int) -> float:
        return self._same.get(x, 0.0)

    def enemy_score(self, x: int) -> float:
        if x == self.me or x >= self.n:
            return 0.0
        return 1.0 - self._same.get(x, 0.0)

    def enemy(self, x: int) -> bool:
        return self.enemy_score(x) >= ENEMY_BAR

    def friend(self, x: int) -> bool:
        return self.friend_score(x) >= FRIEND_BAR

    def hp(self, x: int) -> int:
        return self.view["players"][x]["hp"]  # type: ignore[no-any-return]

    def player(self, x: int) -> dict[str, Any]:
        return self.view["players"][x]  # type: ignore[no-any-return]


def decide(state: State, seat: int, rng: random.Random, level: str = "normal") -> list[str]:
    ask = Flow.ask_of(state, seat)
    if ask is not None and ask.kind == "hg_heroes":
        level = "normal"  # even the easy AI keeps a pair that plays (a half-chosen pair is no move)
    return ai.decide(state, seat, rng, level, mind=HgMind)


# -- the hero pair ----------------------------------------------------------------------------

def pair_score(main: str, deputy: str) -> float:
    """How good a main/deputy pair is: each hero's place in the AI's pick order, a 珠联璧合 pair,
    the HP they make (a leftover half is a 阴阳鱼), the main's HP showing first."""
    order = {h: i for k in ("wei", "shu", "wu", "qun") for i, h in enumerate(ai_order("pick", f"hg_{k}"))}
    a, b = hero(main), hero(deputy)
    score = (30 - order.get(main, 15)) + (30 - order.get(deputy, 15)) * 0.8
    score += 12 if deputy in a.pairs or main in b.pairs else 0
    total = a.hp + b.hp
    score += 6 * int(total) + (2 if total % 1 else 0)
    return score


@ask_hint("hg_heroes")
def _heroes(s: Seat) -> list[str]:
    offer = offer_of(s.state, s.seat)
    ok = set(pairable(offer))
    best = max(((pair_score(a, b), i, j) for (i, a), (j, b) in permutations(enumerate(offer), 2)
                if a in ok and hero(a).kingdom == hero(b).kingdom), default=None)
    if best is None:
        return ai.fallback(s)
    return [str(best[1]), str(best[2])]


# -- revealing --------------------------------------------------------------------------------

def reveal_makes_ye(view: View, seat: int) -> bool:
    """Would this seat become a 野心家 by showing a hero now (its kingdom's settled seats, the dead
    counted, already fill half the table — or its lord has fallen; never under a standing lord)?"""
    own = view["you"].get("heroes") or []
    if not own or view["players"][seat]["role"] is not None:
        return False
    k = hero(own[0]["id"]).kingdom
    lords = [(p["alive"], hero(h).kingdom) for p in view["players"] for h in p.get("heroes") or () if h and is_lord(h)]
    if (False, k) in lords:
        return True  # its lord fell: the whole kingdom is 野心家
    if (True, k) in lords:
        return False  # a standing lord lifts the limit
    return sum(1 for p in view["players"] if p["role"] == k) >= len(view["players"]) // 2


@ask_hint("hg_reveal")
def _reveal(s: Seat) -> list[str]:
    """Show both heroes (the skills, the markers, allies who know whom to spare) unless that
    makes this seat a 野心家 with more than three seats alive; a lone hidden seat whose kingdom
    already stands alone shows itself to win."""
    opts = s.options([])
    if reveal_makes_ye(s.view, s.seat) and len(s.mind.alive) > 3:
        return ["pass"]
    for want in ("0+1", "0", "1"):
        if want in opts:
            return [want]
    return ["pass"]


@play_hint("hg_reveal")
def _play_reveal(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    if reveal_makes_ye(s.view, s.seat) and len(s.mind.alive) > 3:
        return None
    return 1.0, pre + [s.options(pre)[0]]


# -- the lords option ---------------------------------------------------------------------------

@ask_hint("hg_lord_swap")
def _lord_swap(s: Seat) -> list[str]:
    """Always take the lord: its max HP is never lower, its skills outweigh the ordinary hero's,
    a lord is never a 野心家 and lifts the half-the-table limit for its kingdom; the only cost,
    showing the hero now, is one the AI pays at the start phase anyway (``_reveal``)."""
    opts = [o for o in s.options([]) if o != "pass"]
    return [opts[0]] if opts else ["pass"]


# -- markers ----------------------------------------------------------------------------------

@play_hint("mark_zhulian")
def _zhulian(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Draw two — but keep it as a 桃 while low on HP."""
    return None if s.mind.hp(s.seat) <= 1 else (2.0, pre)


@play_hint("mark_yinyang")
def _yinyang(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Draw one when the hand is short (the +2 hand limit is worth more with a full hand)."""
    return (0.8, pre) if len(s.hand) <= 2 else None


@play_hint("mark_xianqu")
def _xianqu(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Refill to four and look at the hidden seat nearest to deciding about."""
    if len(s.hand) >= 3:
        return None
    path = list(pre)
    while not s.complete(path):
        path.append(s.options(path)[0])
    return 1.5 + (4 - len(s.hand)) * 0.5, path


def timeout(state: State, seat: int) -> list[str]:
    """An absent seat in the hero choice gets the AI's pair (the issue: a time-out picks for the
    player); elsewhere the identity time-out."""
    ask = Flow.ask_of(state, seat)
    if ask is not None and ask.kind == "hg_heroes":
        return decide(state, seat, random.Random(0))
    return ai.timeout(state, seat)


__all__ = ["MODE", "HgMind", "R", "decide", "timeout"]
