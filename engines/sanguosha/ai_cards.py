"""The 三国杀 AI's play-phase hints for the standard cards (:data:`ai.PLAY_HINTS`): each scores
playing one card now, from the seat's own view (see ``ai.py``)."""

from __future__ import annotations

from engines.sanguosha.ai import (
    EQUIP,
    P_SHA,
    P_SHAN,
    Seat,
    _aim_sha,
    _clears_shandian,
    _worth_hitting,
    futile,
    play_hint,
    value,
)
from engines.sanguosha.data import card


@play_hint("sha")
def _sha(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """杀 at the enemy most worth hitting that it likely hits (``pre[-1]`` is the physical
    card: its colour matters against 仁王盾); more enemies when 方天画戟 allows."""
    got = _aim_sha(s, pre, pre[-1])
    if got is None or _keeps_last_sha(s, pre, int(got[1][len(pre)])):
        return None
    return 3 + 4 * got[0], got[1]


def _keeps_last_sha(s: Seat, pre: list[str], t: int) -> bool:
    """The renegade keeps its only 杀 for the 南蛮入侵 and 决斗 it must answer (it has to outlive
    every other seat) unless the shot may kill ``t`` (a rebel's death pays 3 cards), the hand is
    over the limit (the card would be discarded anyway) or only the lord is left. At 10 seats
    against random players: 46.9 → 51.3 % on seeds 100000–100999 (docs/rules/sanguosha.md)."""
    mind = s.mind
    return (mind.role == "renegade" and not mind.lord_alone and s.hand.get(pre[-1]) == "sha"
            and s.count("sha") == 1 and len(s.hand) <= mind.hp(s.seat) and mind.hp(t) > 1)


@play_hint("zb")
def _zhangba(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """丈八蛇矛: two spare cards as a 杀, only without a real one and with cards to spare."""
    if s.count("sha") or len(s.hand) <= s.mind.hp(s.seat):
        return None
    spare = sorted(s.options(pre), key=lambda c: (value(s.hand.get(c, "")), c))[:2]
    if len(spare) < 2 or max(value(s.hand.get(c, "")) for c in spare) >= 7:
        return None
    got = _aim_sha(s, [*pre, *spare], extra=False)
    return None if got is None else (2 + 3 * got[0], got[1])


@play_hint("tao")
def _tao(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    me = s.me()
    if me["hp"] >= me["max"]:
        return None
    mind = s.mind
    if mind.role == "renegade" and not mind.lord_alone and mind.hp(mind.lord) <= 2:
        # The lord at 2 HP or less may be dying before this seat's next turn, and its death
        # while others live is a rebel win: keep the 桃 for it unless this seat is at 1 HP.
        return (9.0, pre) if me["hp"] <= 1 else None
    if me["hp"] <= 2 or len(s.hand) > me["hp"]:
        return 9.0, pre
    return None


@play_hint("wuzhong")
def _wuzhong(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    return 10.0, pre


@play_hint(*EQUIP)
def _equip(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    c = card(pre[-1])
    old = s.me()["equip"].get(c.slot)  # a treasure slot is there only once filled
    mine = EQUIP.get(c.name, 4)
    if c.name == "zhuge":
        mine += 2 * (s.count("sha") - 1)
    if old is not None and EQUIP.get(old["name"], 4) >= mine:
        return None
    return 11.0, pre


#: Skills that cancel a card aimed at their (shown) owner: skill → card names (国战 谦逊), filled
#: by the skill modules, so the hints below do not spend a card on such a target.
CANCELLED_BY: dict[str, tuple[str, ...]] = {}


def _wasted(s: Seat, t: int, name: str) -> bool:
    return any(name in CANCELLED_BY.get(sk, ()) for sk in s.mind.player(t).get("skills", ()))


@play_hint("lebu")
def _lebu(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    scored = [(s.mind.enemy_score(t) * (1 + 0.2 * s.mind.player(t)["hand"]), t)
              for t in s.targets(pre) if s.mind.enemy(t) and not _wasted(s, t, name)]
    if not scored:
        return None
    sc, t = max(scored)
    return 6 + sc, [*pre, str(t)]


@play_hint("guohe", "shunshou")
def _take(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Take from an enemy (best with equipment to lose) or clear a friend's delayed trick; the
    renegade clears 闪电 from anyone first (it travels round the table to itself and the lord)."""
    best: tuple[float, int] | None = None
    for t in s.targets(pre):
        p = s.mind.player(t)
        if _wasted(s, t, name):
            continue
        if _clears_shandian(s, t):
            sc = 8.0
        elif s.mind.friend(t) and p["judge"]:
            sc = 3.0 + sum(2 if j["as"] == "lebu" else 1 for j in p["judge"])
        elif s.mind.enemy(t):
            gear = max((EQUIP.get(e["name"], 4) for e in p["equip"].values() if e), default=0)
            sc = s.mind.enemy_score(t) * (1 + gear / 4 + (0.5 if p["hand"] else 0))
        else:
            continue
        if best is None or sc > best[0]:
            best = (sc, t)
    if best is None:
        return None
    return 5 + best[0], [*pre, str(best[1])]


@play_hint("juedou")
def _juedou(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    shas = s.count("sha")
    best: tuple[float, int] | None = None
    for t in s.targets(pre):
        if not s.mind.enemy(t) or futile(s, t, "juedou"):
            continue
        theirs = s.mind.player(t)["hand"] * P_SHA
        if shas + 0.5 < theirs and s.mind.hp(t) > 1 and not s.mind.push:
            continue
        sc = _worth_hitting(s, t) * (1.0 if shas >= theirs else 0.5)
        if best is None or sc > best[0]:
            best = (sc, t)
    if best is None or (s.mind.hp(s.seat) <= 1 and shas == 0 and not s.mind.push):
        return None
    return 4 + best[0], [*pre, str(best[1])]


@play_hint("jiedao")
def _jiedao(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    for holder in s.targets(pre):
        if s.mind.friend(holder):
            continue
        victims = [v for v in s.targets([*pre, str(holder)]) if s.mind.enemy(v) and v != holder]
        if victims:
            v = max(victims, key=lambda x: _worth_hitting(s, x))
            return 4.0, [*pre, str(holder), str(v)]
    return None


def _aoe_net(s: Seat, need: str) -> float:
    """Expected gain of a 南蛮入侵/万箭齐发: hits on enemies minus hits on friends (the lord's
    side counts a hit on a low lord as a disaster)."""
    mind = s.mind
    net = 0.0
    for t in mind.alive:
        if t == s.seat:
            continue
        p = mind.player(t)
        miss = 1 - (1 - (P_SHA if need == "sha" else P_SHAN)) ** p["hand"]
        hit = 1 - miss
        net += hit * (mind.enemy_score(t) if mind.enemy(t) else 0.0)
        f = mind.friend_score(t)
        if mind.friend(t):
            net -= hit * f * (4 if p["hp"] <= 1 else 1.5 if t == mind.lord else 1)
    return net


@play_hint("nanman", "wanjian")
def _aoe(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    net = _aoe_net(s, "sha" if name == "nanman" else "shan")
    return (4 + net, pre) if net > 0.3 else None


@play_hint("taoyuan")
def _taoyuan(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    mind = s.mind
    gain = 0.0
    for t in mind.alive:
        p = mind.player(t)
        if p["hp"] < p["max"]:
            gain += mind.friend_score(t) - mind.enemy_score(t)
    return (4 + gain, pre) if gain > 0.5 else None


@play_hint("wugu")
def _wugu_play(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    mind = s.mind
    side = sum(mind.friend_score(t) - mind.enemy_score(t) for t in mind.alive if t != s.seat)
    return (2.0, pre) if side >= -0.5 else None


@play_hint("shandian")
def _shandian(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """闪电 hits whoever it stops on: worth it when the table is mostly enemies and this seat
    can take a hit (never for the lord, whose death ends the game, nor for the renegade: it
    must outlive everybody, and the lord dying early is a rebel win)."""
    mind = s.mind
    others = [t for t in mind.alive if t != s.seat]
    if mind.role in ("lord", "renegade") or mind.hp(s.seat) < 4 or not others:
        return None  # the renegade must outlive everyone and keep the lord alive: 闪电 threatens both
    foes = sum(mind.enemy_score(t) for t in others) - sum(mind.friend_score(t) for t in others)
    return (1.0, pre) if foes / len(others) > 0.3 else None
