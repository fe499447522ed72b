"""The 三国杀 AI's hints for the standard heroes' skills and hero choice (:data:`ai.PLAY_HINTS`,
:data:`ai.ASK_HINTS`, ``SKILL_CHOICE``), beside each other (see ``ai.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Option
from engines.sanguosha.ai import (
    P_SHA,
    Hint,
    Seat,
    _aim_sha,
    _cheapest,
    _discard_order,
    _valid,
    _worth_hitting,
    ask_hint,
    fallback,
    play_hint,
    value,
)
from engines.sanguosha.ai_mind import FRIEND_BAR
from engines.sanguosha.data import card, deck
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
    opts = s.tree([]).options
    offer = s.view["you"].get("offer", [])  # option i is offer[i]; the label only without it
    pref = RENEGADE_HERO_PREF if s.mind.role == "renegade" else HERO_PREF
    rank = {h: i for i, h in enumerate(pref)}

    def hero_of(o: Option) -> str:
        i = ascii_int(o.value)
        return offer[i] if offer and i is not None and 0 <= i < len(offer) else _hero_of(o.label)

    best = min(opts, key=lambda o: (rank.get(hero_of(o), len(rank)), o.value))
    return [best.value]


@play_hint("kurou")
def _kurou(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """苦肉: 1 HP for 2 cards, while HP is comfortable (or a 桃 pays it back)."""
    hp = s.mind.hp(s.seat)
    if hp >= 3 or (hp == 2 and s.count("tao")):
        return (1.5, pre) if _valid(s, pre) else None
    return None


@play_hint("zhiheng")
def _zhiheng(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """制衡: swap the cards least worth keeping (worth ≤ 4, spare copies included)."""
    order = _discard_order(s.hand)
    weak = [c for c in order if value(s.hand[c]) <= 4 or s.count(s.hand[c]) > 2][:3]
    path = [*pre, *weak]
    return (1.0, path) if weak and _valid(s, path) else None


@play_hint("jieyin")
def _jieyin(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """结姻: two weak hand cards to heal itself and a wounded friend."""
    me = s.me()
    two = _discard_order(s.hand)[:2]
    if me["hp"] >= me["max"] or len(two) < 2 or max(value(s.hand[c]) for c in two) >= 7:
        return None
    try:
        friends = [t for t in s.targets([*pre, *two]) if s.mind.friend(t)]
    except Exception:  # noqa: BLE001
        return None
    path = [*pre, *two, str(friends[0])] if friends else []
    return (7.0, path) if friends and _valid(s, path) else None


#: Optional yes/no skills (ask kind ``skill``, ``info["skill"]``) that need judgement; any other
#: takes the window's default (yes for skills that can only help).
SKILL_CHOICE: dict[str, Hint] = {}


@ask_hint("skill")
def _skill(s: Seat) -> list[str]:
    return SKILL_CHOICE.get(str(s.ask.info.get("skill")), fallback)(s)


def _luoyi(s: Seat) -> list[str]:
    """裸衣: one card fewer for +1 damage this turn — with two 杀 or a 决斗 and an enemy."""
    enemies = any(s.mind.enemy(t) for t in s.mind.alive)
    strong = s.count("sha") >= 2 or s.count("juedou") >= 1
    return ["yes"] if enemies and strong else ["pass"]


SKILL_CHOICE["luoyi"] = _luoyi

#: 克己: cards the AI keeps over its hand limit (its HP) before it discards instead.
KEJI_SPARE = 3


def _keji(s: Seat) -> list[str]:
    """克己 keeps every card; an AI that always kept them hoarded the whole deck (75 cards) and
    starved the table of draws, so nobody could attack again (a stalled AI-only game)."""
    return ["yes"] if len(s.hand) <= s.mind.hp(s.seat) + KEJI_SPARE else ["pass"]


SKILL_CHOICE["keji"] = _keji


@ask_hint("ganglie")
def _ganglie(s: Seat) -> list[str]:
    """刚烈 aimed at this seat: pay two weak cards rather than 1 HP when low or card-rich."""
    opts = [o for o in s.responses() if o in s.hand]
    two = sorted(opts, key=lambda c: (value(s.hand[c]), c))[:2]
    if len(two) == 2 and (s.mind.hp(s.seat) <= 2 or max(value(s.hand[c]) for c in two) <= 4):
        return two
    return ["pass"]


@ask_hint("tuxi")
def _tuxi(s: Seat) -> list[str]:
    """突袭: a hand card from each of two non-friends instead of drawing 2 (enemies first)."""
    cand = sorted((t for t in s.targets([]) if not s.mind.friend(t)),
                  key=lambda t: (-s.mind.enemy_score(t), -s.mind.player(t)["hand"], t))
    return [str(t) for t in cand[:2]] if len(cand) >= 2 else ["pass"]


@ask_hint("liuli")
def _liuli(s: Seat) -> list[str]:
    """流离: pass the 杀 on to an enemy in range for the cheapest card that allows it."""
    for cid in sorted((o for o in s.responses() if o in s.hand), key=lambda c: (value(s.hand[c]), c)):
        if value(s.hand[cid]) >= 7 and s.count("shan"):
            break  # a 桃 or 闪 spent here is better kept to dodge
        foes = [t for t in s.targets([cid]) if s.mind.enemy(t)]
        if foes:
            return [cid, str(max(foes, key=lambda t: (_worth_hitting(s, t), -t)))]
    return ["pass"]


def _best_friend(s: Seat, cands: list[int]) -> int | None:
    """The surest friend among ``cands`` (the one with fewer cards on a tie), or None."""
    friends = [t for t in cands if t != s.seat and s.mind.friend(t)]
    if not friends:
        return None
    return max(friends, key=lambda t: (s.mind.friend_score(t), -s.mind.player(t)["hand"], -t))


@play_hint("rende")
def _rende(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """仁德: hand the cards it would discard anyway (and two when wounded: 仁德 heals) to a friend."""
    me = s.me()
    excess = len(s.hand) - me["hp"]
    want = max(excess, 2 if me["hp"] < me["max"] and len(s.hand) >= 3 else 0)
    give = [c for c in _discard_order(s.hand) if value(s.hand[c]) < 9][:want]
    try:
        friend = _best_friend(s, s.targets(pre))
    except Exception:  # noqa: BLE001
        return None
    path = [*pre, str(friend), *give] if friend is not None and give else []
    return (2.5, path) if path and _valid(s, path) else None


#: How likely a seat must look to answer the lord's 激将 before the lord counts on it (the same
#: bar as :meth:`Mind.friend`).
HELPER_BAR = FRIEND_BAR


def _helps_lord(s: Seat, t: int) -> float:
    """How likely ``t`` answers a lord skill's request (护驾, 激将) for this seat, the lord: a
    loyalist does, and so does a renegade while others live (it keeps the lord alive — see
    :func:`_answer`); a rebel never does. From the role estimate only (public behaviour)."""
    p = s.mind.p.get(t)
    if p is None:
        return 0.0
    return p["loyalist"] + (p["renegade"] if len(s.mind.alive) > 2 else 0.0)


def _lord_asked_in_vain(s: Seat, skill: str) -> bool:
    """Did this turn's public log already show this seat's ``skill`` answered by nobody? Asking
    the same helpers again in the same turn would only loop (the log is reset every turn)."""
    for line in s.view["log"]:
        params = line.get("params", {})
        if (line.get("key") == "sanguosha.ev.lord_nobody"
                and (params.get("who") or {}).get("seat") == s.seat
                and (params.get("skill") or {}).get("key") == f"sanguosha.skill.{skill}"):
            return True
    return False


@play_hint("jijiang")
def _jijiang(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """激将 in the play phase: a 蜀 helper's 杀 at the enemy most worth hitting, when the lord has
    no real 杀 to play (it spends the same one-杀 quota — the engine offers 激将 only while the
    quota is open — so a 杀 of its own, whose colour and owner are sure, comes first) and some
    蜀 seat looks likely to answer (:data:`HELPER_BAR`). Scored like a 杀 but lower, times the
    chance that a believed helper holds a 杀; not asked again in a turn where nobody answered."""
    mind = s.mind
    if mind.role != "lord" or _lord_asked_in_vain(s, "jijiang"):
        return None
    if any(s.hand.get(tok) == "sha" for tok in s.options([])):
        return None
    miss = 1.0
    for p in s.view["players"]:
        t = p["seat"]
        if t == s.seat or not p["alive"] or p.get("kingdom") != "shu":
            continue
        helps = _helps_lord(s, t)
        if helps >= HELPER_BAR:
            miss *= 1 - helps * (1 - (1 - P_SHA) ** p["hand"])
    answered = 1 - miss
    if answered <= 0:
        return None
    try:
        got = _aim_sha(s, pre, unknown_colour=True)
    except Exception:  # noqa: BLE001 - the skill's walk changed: do not use it
        return None
    if got is None:
        return None
    return (2 + 4 * got[0] * answered, got[1]) if _valid(s, got[1]) else None


@play_hint("qingnang")
def _qingnang(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """青囊: a weak card to heal itself, or else the most wounded friend; a friend about to die
    first (at 1 HP, or 2 while this seat has 3 or more) — for a renegade, the lord it keeps."""
    cheap = [c for c in _discard_order(s.hand) if value(s.hand[c]) < 7][:1]
    if not cheap:
        return None
    try:
        wounded = s.targets([*pre, cheap[0]])
    except Exception:  # noqa: BLE001
        return None
    me = s.me()
    friends = [t for t in wounded if t != s.seat and s.mind.friend(t)]
    low = min(friends, key=lambda t: (s.mind.hp(t), t)) if friends else None
    if low is not None and (s.seat not in wounded or s.mind.hp(low) <= 1
                            or (s.mind.hp(low) <= 2 and me["hp"] >= 3)):
        target = low
    elif s.seat in wounded and (me["hp"] <= 1 or not s.mind.push):
        target = s.seat  # in a late 1-v-1 (Mind.push) only from 1 HP: the card attacks instead
    else:
        return None
    path = [*pre, cheap[0], str(target)]
    urgent = s.mind.hp(target) <= 2 or (target == s.seat and me["hp"] < me["max"] - 1)
    return (8.0 if urgent else 5.0, path) if _valid(s, path) else None


@play_hint("fanjian")
def _fanjian(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """反间: at the enemy most worth hurting (it guesses a suit; a wrong guess costs it 1 HP)."""
    try:
        foes = [t for t in s.targets(pre) if s.mind.enemy(t)]
    except Exception:  # noqa: BLE001
        return None
    if not foes or not s.hand:
        return None
    t = max(foes, key=lambda x: (_worth_hitting(s, x), -x))
    path = [*pre, str(t)]
    return (2.0 + _worth_hitting(s, t), path) if _valid(s, path) else None


@play_hint("lijian")
def _lijian(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """离间: a weak card to make two enemies duel each other."""
    cheap = [c for c in _discard_order(s.hand) if value(s.hand[c]) < 6][:1]
    if not cheap:
        return None
    try:
        for a in sorted(s.targets([*pre, cheap[0]]), key=lambda x: -s.mind.enemy_score(x)):
            if not s.mind.enemy(a):
                continue
            bs = [b for b in s.targets([*pre, cheap[0], str(a)]) if s.mind.enemy(b)]
            if bs:
                b = max(bs, key=lambda x: (_worth_hitting(s, x), -x))
                path = [*pre, cheap[0], str(a), str(b)]
                return (4.0, path) if _valid(s, path) else None
    except Exception:  # noqa: BLE001
        return None
    return None


@ask_hint("yiji")
def _yiji(s: Seat) -> list[str]:
    """遗计: keep the cards while the hand is short, else hand them all to the surest friend."""
    cards = s.ask.info.get("cards", [])
    friend = _best_friend(s, [ascii_int(o) for o in s.options([]) if ascii_int(o) is not None])
    size = len(s.hand) + sum(1 for c in cards if c not in s.hand)  # the drawn cards may be aside
    if friend is None or not cards or size <= s.mind.hp(s.seat):
        return ["keep"] if "keep" in s.options([]) else fallback(s)
    return [str(friend)] * len(cards)


#: A judgement's reason -> is this card a success for the judged seat? (乐不思蜀 escapes on ♥,
#: 闪电 misses outside ♠2-9, 八卦阵 and 铁骑 succeed on red, 刚烈 unless ♥.)
JUDGE_GOOD: dict[str, Callable[[str], bool]] = {
    "lebu": lambda c: card(c).suit == "H",
    "shandian": lambda c: not shandian_hits(c),
    "bagua": lambda c: card(c).red,
    "ganglie": lambda c: card(c).suit != "H",
    "tieqi": lambda c: card(c).red,
}


@ask_hint("guicai")
def _guicai(s: Seat) -> list[str]:
    """鬼才: swap the judgement card for the cheapest hand card that turns it the right way — a
    friend's (or its own) judgement to success, an enemy's to failure. 洛神 is left alone (one
    card of ours to stop one card of theirs); an unknown seat's judgement too."""
    info = s.ask.info
    good = JUDGE_GOOD.get(info["why"])
    judged = info["seat"]
    if good is None:
        return ["pass"]
    if s.mind.friend(judged):
        want = True
    elif s.mind.enemy(judged):
        want = False
    else:
        return ["pass"]
    if good(info["card"]) == want:
        return ["pass"]
    fits = [c for c in s.responses() if c in s.hand and good(c) == want]
    if not fits:
        return ["pass"]
    pick = _cheapest(s, fits)
    return [pick] if _valid(s, [pick]) else ["pass"]


#: Cards 观星 keeps on top for the draw phase (the normal draw).
GUANXING_DRAW = 2


@ask_hint("guanxing")
def _guanxing(s: Seat) -> list[str]:
    """观星 before its judgement phase: for each delayed trick, in judging order (the last
    placed first), a card that makes it fail on top (else the cheapest, which is lost anyway);
    then the best cards for the draw; the rest to the bottom, away from the next players."""
    pool = list(s.ask.info["cards"])
    top: list[str] = []
    for j in reversed(s.me()["judge"]):
        good = JUDGE_GOOD.get(j["as"])
        if good is None or not pool:
            continue
        fits = [c for c in pool if good(c)] or pool
        pick = min(fits, key=lambda c: (value(card(c).name), c))
        top.append(pick)
        pool.remove(pick)
    pool.sort(key=lambda c: (-value(card(c).name), c))
    top += pool[:GUANXING_DRAW]
    path = top + (["bottom"] if pool[GUANXING_DRAW:] or not top else [])
    return path if _valid(s, path) else ["pass"]


@ask_hint("fanjian_suit")
def _fanjian_suit(s: Seat) -> list[str]:
    """反间's suit: the one with the most cards this seat has not seen (own hand, the table,
    equipment and judgement areas, the visible discards): the likeliest in 周瑜's hand."""
    v = s.view
    seen = set(s.hand) | {c["id"] for c in v["table"]} | {c["id"] for c in v["discard_top"]}
    for p in v["players"]:
        seen |= {e["id"] for e in p["equip"].values() if e}
        seen |= {j["id"] for j in p["judge"]}
    unseen: dict[str, int] = {}
    for cid in deck():
        if cid not in seen:
            unseen[card(cid).suit] = unseen.get(card(cid).suit, 0) + 1
    return [max(s.options([]), key=lambda su: (unseen.get(su, 0), su == "S"))]


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


SKILL_CHOICE["fankui"] = _not_on_friend
SKILL_CHOICE["ganglie"] = _not_on_friend
