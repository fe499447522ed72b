"""What the 三国杀 AI's skill hints share: the hero choice, the yes/no skill question
(:data:`SKILL_CHOICE`), judgement outcomes (:data:`JUDGE_GOOD`) and helpers. Each skill's own
hint is registered beside the skill, in its hero pack's module (``skills_wei.py`` …, a test
pack's module likewise), so a new hero touches its data row, its module and the catalogs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Option
from engines.sanguosha.ai import (
    Hint,
    Seat,
    ask_hint,
    fallback,
)
from engines.sanguosha.data import card
from engines.sanguosha.frames import shandian_hits
from engines.sanguosha.heroes import ai_order
from engines.tokens import ascii_int

# -- hero skills (part 2's tokens; each path is checked against the tree, else not used) -------

#: Heroes this AI plays best first, and the lone renegade's own measured order: data beside the
#: heroes (``heroes.json`` "ai"; :func:`heroes.ai_order`).
HERO_PREF = ai_order("pick")
RENEGADE_HERO_PREF = ai_order("renegade")


def _hero_of(label: Any) -> str:
    ref = getattr(label, "params", {}).get("hero") if label is not None else None
    key = ref.get("key", "") if isinstance(ref, dict) else ""
    return key.rsplit(".", 1)[-1]


@ask_hint("hero")
def _hero(s: Seat) -> list[str]:
    """The offered hero this AI plays best (:data:`HERO_PREF`, the renegade's own
    :data:`RENEGADE_HERO_PREF`); unknown heroes last."""
    return pick_hero(s, RENEGADE_HERO_PREF if s.mind.role == "renegade" else HERO_PREF)


def pick_hero(s: Seat, pref: list[str]) -> list[str]:
    """The offered hero first in ``pref`` (unknown heroes last)."""
    opts = s.tree([]).options
    offer = s.view["you"].get("offer", [])  # option i is offer[i]; the label only without it
    rank = {h: i for i, h in enumerate(pref)}

    def hero_of(o: Option) -> str:
        i = ascii_int(o.value)
        return offer[i] if offer and i is not None and 0 <= i < len(offer) else _hero_of(o.label)

    best = min(opts, key=lambda o: (rank.get(hero_of(o), len(rank)), o.value))
    return [best.value]


#: Optional yes/no skills (ask kind ``skill``, ``info["skill"]``) that need judgement; any other
#: takes the window's default (yes for skills that can only help).
SKILL_CHOICE: dict[str, Hint] = {}


@ask_hint("skill")
def _skill(s: Seat) -> list[str]:
    return SKILL_CHOICE.get(str(s.ask.info.get("skill")), fallback)(s)


def _best_friend(s: Seat, cands: list[int]) -> int | None:
    """The surest friend among ``cands`` (the one with fewer cards on a tie), or None."""
    friends = [t for t in cands if t != s.seat and s.mind.friend(t)]
    if not friends:
        return None
    return max(friends, key=lambda t: (s.mind.friend_score(t), -s.mind.player(t)["hand"], -t))


#: A judgement's reason -> is this card a success for the judged seat? (乐不思蜀 escapes on ♥,
#: 闪电 misses outside ♠2-9, 八卦阵 succeeds on red; skills judging add theirs beside them.)
JUDGE_GOOD: dict[str, Callable[[str], bool]] = {
    "lebu": lambda c: card(c).suit == "H",
    "shandian": lambda c: not shandian_hits(c),
    "bagua": lambda c: card(c).red,
}


def _damage_source(s: Seat) -> int | None:
    """Who is damaging this seat now (the public stack's innermost damage to it), or None."""
    for f in reversed(s.view["stack"]):
        if f["k"] == "damage" and f["dst"] == s.seat:
            return f["src"]
    return None


def _not_on_friend(s: Seat) -> list[str]:
    """反馈 / 刚烈 strike back at the damage source: not when it is a friend (a 南蛮入侵 or a
    redirected 杀 hit us by accident); otherwise the window default (yes)."""
    src = _damage_source(s)
    if src is not None and src != s.seat and s.mind.friend(src):
        return ["pass"]
    return fallback(s)


