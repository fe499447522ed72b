"""The easy and hard AI levels of 三国杀: the normal AI (``ai.py``) with another mind and a few
other hints, so every card and skill hint is shared and normal stays exactly as it was.

- **easy**, a sensible but short-sighted player: it remembers only what was done to itself and
  to the lord (not who hurt whom elsewhere at the table), plays one of its good cards rather
  than the best one now and then, spends 无懈可击 only for itself, and gives a 桃 only to itself
  or to a lord it serves.
- **hard**: normal's play with a better hero choice (each role's own order at its table size,
  from the heroes' measured win rates in that role) and, in
  identity mode, its play-phase choice between normal's best few cards searched in
  determinized worlds (``ai_search``; the renegade with a score of its own), at 5 seats or fewer
  each card aimed at every seat it may hit that is not a friend too. It decides from its own
  view: a world deals everything hidden anew.

Both work in every mode: the mode's own mind (identity roles, 国战 kingdoms) is what they wrap.
"""

from __future__ import annotations

import random
from collections import ChainMap
from collections.abc import Callable
from typing import Any

from engines.sanguosha import ai, ai_search, ai_skills
from engines.sanguosha.ai_mind import Mind
from engines.sanguosha.heroes import ai_order
from engines.tokens import ascii_int

State = dict[str, Any]
View = dict[str, Any]
MindOf = Callable[[View], Any]

#: How often easy plays another of its good cards instead of the best one.
EASY_SLIP = 0.3
#: The same at small tables (≤ SMALL seats), where every card played matters more and easy's
#: other habits alone left normal short of 70 % (docs/rules/sanguosha.md "AI levels").
EASY_SLIP_SMALL = 0.7
SMALL = 5
#: At this HP or more, easy takes a hit (杀, 万箭齐发) rather than spend one of its last two 闪.
EASY_KEEPS_SHAN_FROM = 3
#: At small tables it keeps up to three 闪 and from 2 HP already.
EASY_KEEPS_SHAN_FROM_SMALL = 2


def _short(view: View) -> View:
    """The view as a short memory keeps it: only the acts done to this seat and (at bigger
    tables, where the lord's attackers are the clearest sign) to the lord."""
    me = view["you"]["seat"]
    lord = view.get("lord", -1) if len(view["players"]) > SMALL else -1
    acts = [[v if y in (me, lord) else 0 for y, v in enumerate(row)] for row in view["acts"]]
    return {**view, "acts": acts}


def _easy_play(s: ai.Seat) -> list[str]:
    """The best card most of the time, another good one now and then; never an active skill
    (a skill's play needs a plan it does not make)."""
    good = [c for c in ai.candidates(s) if c[0] > 0 and c[1][0] in s.hand]
    if not good:
        return ["end"]
    slip = EASY_SLIP_SMALL if len(s.view["players"]) <= SMALL else EASY_SLIP
    if len(good) > 1 and s.rng.random() < slip:
        return s.rng.choice(good)[1]
    return max(good, key=lambda c: c[0])[1]


def _easy_nullify(s: ai.Seat) -> list[str]:
    """Only for itself: a 无懈可击 for an ally is planning ahead."""
    about = s.ask.info["about"]
    if about["target"] != s.seat or s.ask.info["count"] % 2:
        return ["pass"]
    return ai.ASK_HINTS["nullify"](s)


def _easy_peach(s: ai.Seat) -> list[str]:
    dying = s.ask.info["dying"]
    if dying != s.seat and not (dying == s.mind.lord and s.mind.friend(dying)):
        return ["pass"]
    return ai.ASK_HINTS["peach"](s)


def _easy_hero(s: ai.Seat) -> list[str]:
    """Any hero of its offer: it does not know which ones it plays well."""
    return [s.rng.choice(s.options([]))]


def _easy_shan(s: ai.Seat) -> list[str]:
    """Takes a hit while healthy to keep its (last one or two) 闪 for later."""
    small = len(s.view["players"]) <= SMALL
    keeps, bar = (3, EASY_KEEPS_SHAN_FROM_SMALL) if small else (2, EASY_KEEPS_SHAN_FROM)
    if s.mind.hp(s.seat) >= bar and s.count("shan") <= keeps:
        return ["pass"]
    return ai.ASK_HINTS["need_shan"](s)


def _easy_discard(s: ai.Seat) -> list[str]:
    """Keeps what it can play next turn: 杀 and tricks before 闪."""
    order = sorted(s.hand, key=lambda c: (s.hand[c] not in ("shan", "wuxie"), ai.value(s.hand[c]), c))
    return order[:s.ask.info["n"]]


EASY_HINTS: dict[str, ai.Hint] = {"need_shan": _easy_shan, "discard": _easy_discard, "hero": _easy_hero,
                                   "play": _easy_play, "nullify": _easy_nullify, "peach": _easy_peach}


def easy(state: State, seat: int, rng: random.Random, mind: MindOf) -> list[str]:
    return ai.decide(state, seat, rng, "normal", mind=lambda v: mind(_short(v)),
                     hints=ChainMap(EASY_HINTS, ai.ASK_HINTS))  # type: ignore[arg-type]


# -- hard -------------------------------------------------------------------------------------

#: Tables of this size or more pick by the orders measured at 8 seats, smaller ones by those
#: measured at 5: a hero's worth to a role shifts with the table (a rebel of four, or of two).
BIG_TABLE = 7
#: Hard's hero order per role and table size, measured (heroes.json "ai": ``hard_<role>_<5|8>``).
HARD_HERO_PREF = {(role, size): ai_order(f"hard_{role}_{size}")
                  for role in ("lord", "loyalist", "rebel", "renegade") for size in (5, 8)}


def _hard_hero(s: ai.Seat) -> list[str]:
    """The hero that won most often in its role at a table of its size, every seat having
    picked at random (heroes.json "ai"): normal's order was written for its attackers and the
    renegade's measured for a lone renegade, while what wins for a lord, a loyalist or a rebel
    differs (docs/rules/sanguosha.md "AI levels")."""
    size = 8 if len(s.view["players"]) >= BIG_TABLE else 5
    return ai_skills.pick_hero(s, HARD_HERO_PREF[(s.mind.role, size)])


def _other_targets(s: ai.Seat, paths: list[list[str]]) -> list[list[str]]:
    """Each candidate card aimed at one seat (a 杀, 决斗, 过河拆桥 …: card then seat), aimed at
    every other seat it may reach that this seat does not count a friend. Normal's hint
    picks the target by its role guess alone; at a small table a shot at the seat that
    dies of it, or at the one that cannot answer, is worth more than the guess says, and
    the worlds (roles drawn from the same guess) weigh both."""
    out: list[list[str]] = []
    for path in paths:
        if len(path) != 2 or path[0] not in s.hand or ascii_int(path[1]) is None:
            continue
        for t in s.targets(path[:1]):
            if t == s.seat or s.mind.friend(t):
                continue
            other = ai.finish(s, [path[0], str(t)])
            if other not in paths and other not in out:
                out.append(other)
    return out


def _hard_play(s: ai.Seat) -> list[str]:
    """Normal's best few cards, each played out in determinized worlds (``ai_search``), at
    small tables each aimed at every seat it could hit too; 国战 (whose kingdoms the search's
    score does not know) keeps normal's choice."""
    normal = ai.ASK_HINTS["play"]
    if type(s.mind) is not Mind:
        return normal(s)
    paths: list[list[str]] = []
    for _, path in sorted((c for c in ai.candidates(s) if c[0] > 0), key=lambda c: -c[0]):
        done = ai.finish(s, path)
        if done not in paths:
            paths.append(done)
        if len(paths) == ai_search.TOP:
            break
    if len(s.view["players"]) <= SMALL:
        paths += _other_targets(s, paths)
    if len(paths) < 2:
        return normal(s)
    from engines.sanguosha import ENGINE

    return ai_search.best(ENGINE, s.state, s.seat, s.mind, paths, random.Random(s.rng.getrandbits(32)))


#: Hard's own hints: the hero choice (docs/rules/sanguosha.md "AI levels" lists what else was
#: tried and lost to normal on the tuning seeds).
HARD_HINTS: dict[str, ai.Hint] = {"hero": _hard_hero, "play": _hard_play}


def hard(state: State, seat: int, rng: random.Random, mind: MindOf) -> list[str]:
    return ai.decide(state, seat, rng, "normal", mind=mind, hints=ChainMap(HARD_HINTS, ai.ASK_HINTS))  # type: ignore[arg-type]


ai.LEVELS.update(easy=easy, hard=hard)
