"""The 三国杀 AI's hints for the 国战 deck's own cards (``cards_hegemony.py``): play-phase scorers
(:data:`ai.PLAY_HINTS`, beside the standard cards' in ``ai_cards.py``) and the answers to the
asks these cards make (:data:`ai.ASK_HINTS`). Each reads only the seat's own view."""

from __future__ import annotations

from engines.sanguosha.ai import (
    ASK_HINTS,
    EQUIP,
    Seat,
    _aim_sha,
    _worth_hitting,
    ask_hint,
    play_hint,
    value,
)
from engines.sanguosha.data import card

#: What may pass fire or thunder damage along a 铁索连环 chain from this hand.
_NATURE_CARDS = ("huogong",)


def _has_nature(s: Seat) -> bool:
    return any(card(c).nature or n in _NATURE_CARDS for c, n in s.hand.items())


def _sha_cards(s: Seat) -> list[str]:
    return [c for c, n in s.hand.items() if n == "sha"]


@play_hint("jiu")
def _jiu(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Drink just before a 杀 that is likely to land (scored above that 杀, so it comes first);
    keep it while low on HP (酒 saves oneself when dying)."""
    if s.mind.hp(s.seat) <= 1:
        return None
    best = None
    for cid in _sha_cards(s):
        if cid not in s.options([]):
            continue  # no 杀 left this turn
        got = _aim_sha(s, [cid], cid, extra=False)
        if got is not None and (best is None or got[0] > best):
            best = got[0]
    if best is None or best < 0.4:
        return None
    return 3.5 + 4 * best, pre


@play_hint("tiesuo")
def _tiesuo(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Chain two enemies not chained yet when this hand can set them burning; free a chained
    friend (or oneself); else the card is recast (``recast``)."""
    mind = s.mind
    targets = s.targets(pre)
    me = mind.player(s.seat)
    if me.get("chained") and s.seat in targets:
        return 3.0, [*pre, str(s.seat)]
    freed = [t for t in targets if mind.friend(t) and mind.player(t).get("chained")]
    if freed:
        return 2.5, [*pre, str(freed[0])]
    if not _has_nature(s):
        return None
    foes = sorted((t for t in targets if mind.enemy(t) and not mind.player(t).get("chained")),
                  key=lambda t: -mind.enemy_score(t))[:2]
    if len(foes) < 2:
        return None
    return 2.0 + sum(mind.enemy_score(t) for t in foes), [*pre, *map(str, foes)]


@play_hint("recast")
def _recast(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """重铸 a card with no better use this turn (a fresh card is worth more than a dead one)."""
    cids = [c for c in s.options(["recast"])]
    if not cids:
        return None
    cid = min(cids, key=lambda c: (value(s.hand.get(c, "")), c))
    return 0.5, ["recast", cid]


@play_hint("huogong")
def _huogong(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Worth it with several suits in hand (the shown card's suit must be matched) at an enemy."""
    suits = {card(c).suit for c in s.hand if c != pre[-1]}
    if len(suits) < 3:
        return None
    scored = [(_worth_hitting(s, t) * len(suits) / 4, t) for t in s.targets(pre) if t != s.seat]
    scored = [x for x in scored if x[0] > 0]
    if not scored:
        return None
    sc, t = max(scored)
    return 2.0 + 3 * sc, [*pre, str(t)]


@play_hint("bingliang")
def _bingliang(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    scored = [(s.mind.enemy_score(t), t) for t in s.targets(pre) if s.mind.enemy(t)]
    if not scored:
        return None
    sc, t = max(scored)
    return 5 + sc, [*pre, str(t)]


@play_hint("zhiji")
def _zhiji(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Look at a hidden hero of a seat whose kingdom is unknown (knowing who is who is worth more
    than a card); otherwise the card is recast."""
    unknown = [t for t in s.targets(pre) if not s.mind.player(t).get("kingdom")
               and None in (s.mind.player(t).get("heroes") or ())]
    if not unknown:
        return None
    return 1.0, [*pre, str(unknown[0])]


@play_hint("yiyi")
def _yiyi(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Draw two, discard two, for this seat and its kingdom: always a gain in card quality."""
    return 2.5, pre


@play_hint("yuanjiao")
def _yuanjiao(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Three cards for one given away: to the target this seat least minds helping."""
    targets = s.targets(pre)
    if not targets:
        return None
    t = min(targets, key=lambda x: (s.mind.enemy_score(x), x))
    return 8.0, [*pre, str(t)]


# -- answers ---------------------------------------------------------------------------------------

@ask_hint("huogong_show")
def _huogong_show(s: Seat) -> list[str]:
    """Show the least valuable card (the user's hand is not seen, so no suit is safer)."""
    opts = [c for c in s.options([]) if c in s.hand]
    return [min(opts, key=lambda c: (value(s.hand[c]), c))]


@ask_hint("huogong")
def _huogong_pay(s: Seat) -> list[str]:
    target = s.ask.info["target"]
    opts = [c for c in s.options([]) if c in s.hand]
    if not opts or not s.mind.enemy(target) or target == s.seat:
        return ["pass"]
    cid = min(opts, key=lambda c: (value(s.hand[c]), c))
    return [cid] if value(s.hand[cid]) < 7 else ["pass"]


@ask_hint("zhiji")
def _zhiji_choice(s: Seat) -> list[str]:
    opts = s.options([])
    heroes = [o for o in opts if o.startswith("hero")]
    return [heroes[0] if heroes else opts[0]]


@ask_hint("yiyi")
def _yiyi_discard(s: Seat) -> list[str]:
    """The least valuable cards, hand first (equipment in use is worth its EQUIP value)."""
    n = s.ask.info["n"]
    mine = s.me()["equip"]
    worn = {e["id"]: EQUIP.get(e["name"], 4) + 2 for e in mine.values() if e}
    pool = s.options([])
    pool.sort(key=lambda c: (worn.get(c, value(s.hand.get(c, ""))), c))
    return pool[:n]


@ask_hint("sanjian")
def _sanjian(s: Seat) -> list[str]:
    spare = [c for c in s.options([]) if c in s.hand and value(s.hand[c]) < 6]
    if not spare:
        return ["pass"]
    cid = min(spare, key=lambda c: (value(s.hand[c]), c))
    foes = [int(t) for t in s.options([cid]) if s.mind.enemy(int(t))]
    if not foes:
        return ["pass"]
    return [cid, str(max(foes, key=lambda t: (_worth_hitting(s, t), -t)))]


@ask_hint("zhuque")
def _zhuque(s: Seat) -> list[str]:
    """Fire never does less than a plain 杀 (and burns 藤甲, passes along chains)."""
    return ["yes"]


_plain_nullify = ASK_HINTS["nullify"]


@ask_hint("nullify")
def _nullify(s: Seat) -> list[str]:
    """As for a 无懈可击 (``ai._nullify``); a 无懈可击·国 then covers the target's whole kingdom when
    that is this seat's own kingdom (its allies in 国战), else the target alone."""
    path = _plain_nullify(s)
    if not path or s.hand.get(path[0]) != "wuxie_guo":
        return path
    target = s.ask.info["about"]["target"]
    mine = s.me().get("kingdom")
    ours = mine is not None and s.mind.player(target).get("kingdom") == mine
    return [path[0], "kingdom" if ours and "kingdom" in s.options(path[:1]) else "one"]


# -- the lords option's cards (equipment_hg_lords.py) -----------------------------------------------

@ask_hint("feilong")
def _feilong_hint(s: Seat) -> list[str]:
    """A card off anyone but a friend."""
    return ["pass"] if s.mind.friend(s.ask.info["target"]) else ["yes"]


ask_hint("feilong_discard")(_yiyi_discard)  # 飞龙夺凤: the least valuable card, as for 以逸待劳


@ask_hint("feilong_dying")
def _feilong_dying_hint(s: Seat) -> list[str]:
    """A hand card off a dying seat that is not a friend (one less 桃 or 酒 to save it)."""
    return ["pass"] if s.mind.friend(s.ask.info["target"]) else ["yes"]
