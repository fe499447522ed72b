"""The 三国杀 AI: decides from its own seat's view only, and always answers legally.

Design (docs/rules/sanguosha.md, "AI"):

- **Who is who** comes from :class:`ai_mind.Mind` (behaviour → loyalty → role probabilities →
  enemy/friend scores for this seat's goal). It reads ``view(state, seat)`` only: the test
  ``test_sgs_ai.py`` scrambles the other seats' hidden roles and hands and expects the same move.
- **What is legal** comes from :func:`choices.step` (the same token tree as the buttons). The
  tree depends only on this seat's hand and public facts.
- **What to do** is one handler per ask kind in :data:`ASK_HINTS` and, in the play phase, one
  scorer per card or skill token in :data:`PLAY_HINTS`: each candidate move gets a score and the
  best positive one is played, else the phase ends. Skills plug in by adding entries; a token
  or ask kind without an entry still gets a legal, sensible default: an unknown play token is
  never used, an unknown ask takes its window default, else declines (``pass``), else takes the
  first option, and any path is completed step by step by :func:`finish`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.base import Step
from engines.flow import Ask, Flow
from engines.sanguosha import (  # noqa: F401 - cards_standard / cards_hegemony define the cards
    cards,
    cards_hegemony,
    cards_standard,
    choices,
    walks,
)
from engines.sanguosha.ai_mind import Mind
from engines.sanguosha.data import card, deck, kind_of
from engines.sanguosha.rules import in_range
from engines.sanguosha.views import build
from engines.tokens import ascii_int

State = dict[str, Any]
View = dict[str, Any]

#: How much a card is worth keeping in hand (discard keeps the best; 五谷丰登 takes the best) and
#: what equipment is worth (an upgrade replaces a lower one; 过河拆桥/顺手牵羊 take the highest):
#: each card's ``ai_value`` in its definition (``cards_standard.py``).
VALUE = {n: d.ai_value for n, d in cards.DEFS.items() if kind_of(n) != "equip"}
EQUIP = {n: d.ai_value for n, d in cards.DEFS.items() if kind_of(n) == "equip"}
#: Chance one unknown hand card is a 闪 / a 杀 (24 and 30 of the 108 cards).
P_SHAN, P_SHA = 24 / 108, 30 / 108
#: Share of the deck's 杀 that are black (仁王盾 stops them): for a 杀 whose colour is unknown.
BLACK_SHA = (sum(1 for c in deck() if card(c).name == "sha" and not card(c).red)
             / sum(1 for c in deck() if card(c).name == "sha"))


def value(name: str) -> int:
    return VALUE.get(name, EQUIP.get(name, 4))


@dataclass
class Seat:
    """Everything one decision may look at: the ask, the seat's own view and judgement."""

    state: State  # only for choices.step (legal tokens); never read directly
    seat: int
    ask: Ask
    view: View
    mind: Mind
    hand: dict[str, str]  # own hand: card id -> name
    rng: random.Random
    #: The steps worked out so far, kept for ``apply``'s check of the move (``walks``).
    memo: dict[tuple[str, ...], Step] = field(default_factory=dict)

    def tree(self, path: list[str]) -> Step:
        return walks.step(self.state, self.seat, path, self.memo)

    def options(self, path: list[str]) -> list[str]:
        return [o.value for o in self.tree(path).options]

    def complete(self, path: list[str]) -> bool:
        return self.tree(path).complete

    def targets(self, path: list[str]) -> list[int]:
        return [n for o in self.options(path) if (n := ascii_int(o)) is not None]

    def me(self) -> dict[str, Any]:
        return self.view["players"][self.seat]

    def count(self, name: str) -> int:
        return sum(1 for n in self.hand.values() if n == name)

    def responses(self) -> list[str]:
        """The cards (and other tokens) offered to answer the ask, ``pass`` left out."""
        return [o for o in self.options([]) if o != "pass"]


Hint = Callable[[Seat], list[str]]
#: Ask kind -> decision. Skills add entries for their own prompts.
ASK_HINTS: dict[str, Hint] = {}
PlayHint = Callable[[Seat, list[str], str], tuple[float, list[str]] | None]
#: Play-phase card name or skill token -> (score, path) of its best use, or None (do not use);
#: called with the path prefix that names the card (``[card]``, ``[conversion, card]``, ``[skill]``).
PLAY_HINTS: dict[str, PlayHint] = {}


def ask_hint(*kinds: str) -> Callable[[Hint], Hint]:
    def deco(fn: Hint) -> Hint:
        for k in kinds:
            ASK_HINTS[k] = fn
        return fn
    return deco


def play_hint(*names: str) -> Callable[[PlayHint], PlayHint]:
    def deco(fn: PlayHint) -> PlayHint:
        for k in names:
            PLAY_HINTS[k] = fn
        return fn
    return deco


# -- entry points -----------------------------------------------------------------------------

_RESPONSE_CARD = {"nullify": "wuxie", "peach": "tao", "need_shan": "shan"}


#: The levels other than normal (``levels.py``): level -> decide with the same arguments.
LEVELS: dict[str, Callable[..., list[str]]] = {}


def decide(state: State, seat: int, rng: random.Random, level: str = "normal",
           mind: Callable[[View], Any] = Mind, hints: dict[str, Hint] | None = None) -> list[str]:
    """The seat's move; ``mind`` judges friend and foe from the seat's view (a mode's own:
    identity roles by default, kingdoms in hegemony mode — ``hg_ai.HgMind``). The easy and hard
    levels (:data:`LEVELS`) change the mind and some hints and come back here with ``hints``."""
    if level in LEVELS:
        return LEVELS[level](state, seat, rng, mind)
    ask = Flow.ask_of(state, seat)
    if ask is None:
        raise ValueError(f"seat {seat} is not asked anything")
    steps = walks.begin(state, seat)  # kept for apply's check of the move
    wanted = _RESPONSE_CARD.get(ask.kind)
    opts = None
    if wanted:  # most windows: nothing to answer with, no need to think
        opts = [o.value for o in walks.step(state, seat, [], steps).options]
        if opts == ["pass"]:
            return ["pass"]
    view = build(state, seat, distances=False)  # (no hint reads them)
    hand = {c["id"]: c["name"] for c in view["you"]["hand"]}
    s = Seat(state, seat, ask, view, mind(view), hand, rng, steps)
    try:
        return finish(s, (hints or ASK_HINTS).get(ask.kind, fallback)(s))
    except Exception:
        if STRICT:
            raise
        return timeout(state, seat)  # a hint's bug must not stall a live seat: act as if away


#: Tests and benchmarks set this so a hint's error fails loudly instead of falling back.
STRICT = False


def finish(s: Seat, path: list[str]) -> list[str]:
    """Complete ``path`` (a skill may add steps the hint did not foresee): decline when that is
    offered, else take the first option. An impossible path falls back to the ask default."""
    path = list(path)
    for _ in range(20):
        try:
            st = s.tree(path)
        except Exception:  # noqa: BLE001 - a hint's path the tree refuses: be legal instead
            return fallback(s) if path else [s.options([])[0]]
        if st.complete:
            return path
        values = [o.value for o in st.options]
        path.append("pass" if "pass" in values else values[0])
    return fallback(s)


def fallback(s: Seat) -> list[str]:
    """An ask nobody taught the AI: the window default, else decline, else the first option."""
    if s.ask.default is not None:
        return list(s.ask.default)
    if s.ask.kind == "play":
        return ["end"]
    opts = s.options([])
    if "pass" in opts:
        return ["pass"]
    path = [opts[0]]
    while not s.complete(path):
        nxt = s.options(path)
        path.append("pass" if "pass" in nxt else nxt[0])
    return path


def timeout(state: State, seat: int) -> list[str]:
    """An absent seat: the window's default for responses, ``end`` for the play phase, the
    least valuable cards for a discard, the first offered card for a forced pick."""
    ask = Flow.ask_of(state, seat)
    if ask is None:
        raise ValueError(f"seat {seat} is not asked anything")
    if ask.default is not None:
        return list(ask.default)
    if ask.kind == "play":
        return ["end"]
    if ask.kind == "discard":
        hand = {c: card(c).name for c in state["players"][seat]["hand"]}
        return _discard_order(hand)[:ask.info["n"]]
    return [o.value for o in walks.step(state, seat, [], walks.begin(state, seat)).options][:1]


# -- responses --------------------------------------------------------------------------------

def _discard_order(hand: dict[str, str]) -> list[str]:
    """Cards from least to most worth keeping; a second or third copy is worth less (three 闪
    in hand rarely beat a 闪 and a 桃)."""
    seen: dict[str, int] = {}
    scored = []
    for cid in sorted(hand, key=lambda c: (-value(hand[c]), c)):
        name = hand[cid]
        scored.append((value(name) - 1.5 * seen.get(name, 0), cid))
        seen[name] = seen.get(name, 0) + 1
    return [cid for _, cid in sorted(scored)]


@ask_hint("discard")
def _discard(s: Seat) -> list[str]:
    if s.mind.push:
        # The last two, late: a hand of 桃 at full HP wins nothing; keep one spare 桃 per
        # missing HP (and one more), let the attack cards stay.
        me = s.me()
        keep = me["max"] - me["hp"] + 1
        peaches = sorted(c for c, n in s.hand.items() if n == "tao")[keep:]
        rest = [c for c in _discard_order(s.hand) if c not in peaches]
        return (peaches + rest)[:s.ask.info["n"]]
    return _discard_order(s.hand)[:s.ask.info["n"]]


def _cheapest(s: Seat, cids: list[str]) -> str:
    return min(cids, key=lambda c: (value(s.hand.get(c, "")), c))


def _converted(s: Seat) -> list[str] | None:
    """A card conversion a skill offers (a token that is not a hand card, then a hand card:
    龙胆, 倾国, 武圣, 急救 …), with the cheapest card it accepts; None when there is none."""
    for tok in s.responses():
        if tok in s.hand or tok == "zb":
            continue
        try:
            cards = [c for c in s.options([tok]) if c in s.hand]
            if cards and s.complete([tok, _cheapest(s, cards)]):
                return [tok, _cheapest(s, cards)]
        except Exception:  # noqa: BLE001 - a token of another shape: not a conversion
            continue
    return None


def _answer(s: Seat) -> list[str]:
    """The cheapest real card that answers, else a skill conversion, else a token that is an
    answer by itself (a lord skill asking its kingdom: 护驾, 激将), else pass. A request made
    for someone else (a lord skill asking this seat) is answered only for a friend."""
    helped = s.ask.info.get("for")
    if helped is not None and helped != s.seat and not s.mind.friend(helped):
        return ["pass"]
    cards = [o for o in s.responses() if o in s.hand]
    if cards:
        return [_cheapest(s, cards)]
    conv = _converted(s)
    if conv:
        return conv
    for tok in s.responses():
        if tok not in s.hand and tok != "zb" and _valid(s, [tok]):
            return [tok]
    return ["pass"]


@ask_hint("need_shan")
def _need_shan(s: Seat) -> list[str]:
    return _answer(s)


@ask_hint("need_sha")
def _need_sha(s: Seat) -> list[str]:
    info = s.ask.info
    user = info.get("user")
    if info.get("card") == "juedou" and user is not None and user != s.seat and s.mind.friend(user) \
            and not (s.mind.role == "renegade" and s.mind.hp(user) >= 2):
        # a friend's 决斗 (a mistake or a test): lose 1 HP, keep the 杀. The renegade's only
        # "friend" is the lord it keeps alive for later: it answers while the lord can take it
        # (it must outlive everyone, and a random lord's 决斗 cost it ~0.3 HP a game at 8 seats).
        return ["pass"]
    answer = _answer(s)
    if answer != ["pass"]:
        return answer
    if "zb" in s.responses() and s.mind.hp(s.seat) <= 2:
        rest = sorted(s.options(["zb"]), key=lambda c: value(s.hand.get(c, "")))
        if len(rest) >= 2:
            return ["zb", rest[0], rest[1]]
    return ["pass"]


@ask_hint("nullify")
def _nullify(s: Seat) -> list[str]:
    info = s.ask.info
    about = info["about"]
    name, t = about["name"], about["target"]
    happens = info["count"] % 2 == 0
    answer = _answer(s)
    if answer == ["pass"] or not cards.harmful(name):
        return ["pass"]
    mind = s.mind
    if happens and (t == s.seat or mind.friend(t)) and _hurts(s, name, t):
        return answer  # protect this seat or an ally
    if not happens and about.get("user") == s.seat and mind.enemy(t) and name in ("lebu", "juedou"):
        return answer  # an enemy's 无懈 stopped this seat's own 乐不思蜀 / 决斗: insist
    return ["pass"]


def _hurts(s: Seat, name: str, t: int) -> bool:
    """Is this harmful trick on ``t`` worth a 无懈可击? 乐不思蜀 and 闪电 always; 决斗 and the
    AoE when ``t`` has little HP or (for this seat) no card to answer; taking cards when ``t``
    has equipment or a delayed trick worth keeping."""
    p = s.mind.player(t)
    if name in ("lebu", "shandian"):
        return True
    if name in ("nanman", "wanjian", "juedou", "jiedao"):
        if t == s.seat:
            need = "shan" if name == "wanjian" else "sha"
            return p["hp"] <= 2 or s.count(need) == 0
        return p["hp"] <= 2 or t == s.mind.lord
    if name in ("guohe", "shunshou"):
        return any(p["equip"].values()) and p["hp"] <= 3 or t == s.mind.lord
    return False


@ask_hint("peach")
def _peach(s: Seat) -> list[str]:
    dying = s.ask.info["dying"]
    answer = _answer(s)
    if answer == ["pass"]:
        return answer
    mind = s.mind
    spare = s.count("tao") > 1 or mind.hp(s.seat) > 1
    if dying == s.seat:
        return answer
    if mind.role == "renegade" and dying == mind.lord and not mind.lord_alone:
        return answer  # the lord dying now would hand the game to the rebels
    if mind.friend(dying) and (dying == mind.lord or spare):
        return answer
    return ["pass"]


@ask_hint("pick")
def _pick(s: Seat) -> list[str]:
    opts = s.options([])
    target = s.ask.info["target"]
    tp = s.mind.player(target)
    if _clears_shandian(s, target):
        for j in tp["judge"]:
            if j["as"] == "shandian" and j["id"] in opts:
                return [j["id"]]
    if s.mind.friend(target) or target == s.seat:
        for j in tp["judge"]:  # take a friend's delayed trick first
            if j["id"] in opts:
                return [j["id"]]
        low = sorted((EQUIP.get(e["name"], 4), e["id"]) for e in tp["equip"].values() if e and e["id"] in opts)
        return [low[0][1]] if low else ["hand"] if "hand" in opts else [opts[0]]
    gear = sorted((-EQUIP.get(e["name"], 4), e["id"]) for e in tp["equip"].values() if e and e["id"] in opts)
    if gear and (not tp["hand"] or -gear[0][0] >= 5):
        return [gear[0][1]]
    if "hand" in opts:
        return ["hand"]
    if gear:
        return [gear[0][1]]
    return [opts[0]]


@ask_hint("wugu")
def _wugu(s: Seat) -> list[str]:
    pool = s.options([])
    names = {c["id"]: c["name"] for c in s.view["table"]}
    return [max(pool, key=lambda c: (value(names.get(c, "")), c))]


@ask_hint("jiedao", "qinglong")
def _sha_at(s: Seat) -> list[str]:
    target = s.ask.info.get("victim", s.ask.info.get("target"))
    cards = [o for o in s.responses() if o in s.hand]
    if not cards or s.mind.friend(target):
        return ["pass"]
    if s.mind.enemy(target) or (s.ask.kind == "jiedao" and s.mind.enemy_score(target) >= 0.3):
        return [_cheapest(s, cards)]
    return ["pass"]


@ask_hint("guanshi")
def _guanshi(s: Seat) -> list[str]:
    t = s.ask.info["target"]
    mine = [o for o in s.responses() if o in s.hand]
    if s.mind.enemy(t) and (len(mine) >= 4 or (s.mind.hp(t) <= 1 and len(mine) >= 2)):
        return sorted(mine, key=lambda c: (value(s.hand[c]), c))[:2]
    return ["pass"]


@ask_hint("hanbing")
def _hanbing(s: Seat) -> list[str]:
    t = s.ask.info["target"]
    p = s.mind.player(t)
    gear = sum(1 for e in p["equip"].values() if e)
    if not s.mind.enemy(t):
        return ["yes"]  # spare a friend or an unknown the damage
    return ["yes"] if p["hp"] > 2 and gear >= 2 else ["pass"]


@ask_hint("qilin")
def _qilin(s: Seat) -> list[str]:
    opts = s.responses()
    return [opts[0]] if opts and s.mind.enemy(s.ask.info["target"]) else ["pass"]


@ask_hint("cixiong")
def _cixiong(s: Seat) -> list[str]:
    return ["yes"]


@ask_hint("cixiong_choice")
def _cixiong_choice(s: Seat) -> list[str]:
    opts = [o for o in s.responses() if o in s.hand]
    if len(opts) >= 3 and not s.mind.friend(s.ask.info["user"]):
        return [_cheapest(s, opts)]
    return ["pass"]


# -- the play phase ---------------------------------------------------------------------------

@ask_hint("play")
def _play(s: Seat) -> list[str]:
    """Score every offered token's best use; play the best positive one, else end. A hand
    card is scored by its name's hint (once per name and colour); a conversion token (a skill
    then a hand card, e.g. 武圣, 奇袭, 国色) as the card it makes, with its cheapest spare card;
    a skill token by its own hint; anything else is never used."""
    best: tuple[float, list[str]] = (0.0, ["end"])
    for got in candidates(s):
        if got[0] > best[0]:
            best = got
    return best[1]


def candidates(s: Seat) -> list[tuple[float, list[str]]]:
    """Every offered play-phase token's best use as (score, path), in offer order (the levels
    choose among them differently: normal the first best positive one)."""
    out: list[tuple[float, list[str]]] = []
    seen: set[tuple[str, bool]] = set()
    for tok in s.options([]):
        if tok == "end":
            continue
        if tok in s.hand:
            name, pre, cost = s.hand[tok], [tok], 0.0
            if (name, card(tok).red) in seen:
                continue
            seen.add((name, card(tok).red))
        elif tok in PLAY_HINTS:
            name, pre, cost = tok, [tok], 0.0
        else:
            made = _conversion(s, tok)
            if made is None:
                continue  # unknown tokens (new skills) are never used
            name, pre, cost = made
        hint = PLAY_HINTS.get(name)
        got = hint(s, pre, name) if hint is not None else None
        if got is not None:
            out.append((got[0] - cost, got[1]))
    return out


def _conversion(s: Seat, tok: str) -> tuple[str, list[str], float] | None:
    """(card made, path prefix, cost) of a play-phase conversion token: the card it makes is
    named by the next step's prompt; the cheapest spare hand card (never a 桃, 闪 or 无懈) is
    used, its worth as the cost."""
    try:
        st = s.tree([tok])
    except Exception:  # noqa: BLE001 - not a conversion of the expected shape
        return None
    ref = st.prompt.params.get("card") if st.prompt is not None else None
    made = ref.get("key", "").rsplit(".", 1)[-1] if isinstance(ref, dict) else ""
    cards = [o.value for o in st.options if o.value in s.hand and value(s.hand[o.value]) < 6]
    if made not in PLAY_HINTS or not cards:
        return None
    cid = min(cards, key=lambda c: (value(s.hand[c]), c))
    return made, [tok, cid], value(s.hand[cid]) / 4


def hit_chance(s: Seat, t: int, cid: str | None = None, *, unknown_colour: bool = False) -> float:
    """How likely a 杀 (``cid``) on ``t`` does damage: its hand may hold a 闪, 八卦阵 gives a
    second chance, 仁王盾 stops black 杀 (青釭剑 ignores armour). ``unknown_colour``: a 杀 this
    seat cannot see yet (another seat's, played for it through 激将) is black as often as the
    deck's 杀 are."""
    p = s.mind.player(t)
    armor = p["equip"]["armor"]["name"] if p["equip"]["armor"] else ""
    if (s.me()["equip"]["weapon"] or {}).get("name") == "qinggang":
        armor = ""
    if armor == "renwang" and cid is not None and cid in s.hand and not card(cid).red:
        return 0.0
    if armor == "tengjia" and cid is not None and cid in s.hand and not card(cid).nature:
        return 0.0  # 藤甲: a plain 杀 has no effect
    hit = (1 - P_SHAN) ** p["hand"]
    if armor == "bagua":
        hit *= 0.5
    if armor == "renwang" and unknown_colour:
        hit *= 1 - BLACK_SHA
    return hit


def _worth_hitting(s: Seat, t: int, dmg: float = 1.0) -> float:
    """Value of damaging ``t``: enmity, more when it may die, most for the lord (rebels)."""
    mind = s.mind
    e = mind.enemy_score(t)
    if not mind.enemy(t):
        return 0.0
    hp = mind.hp(t)
    bonus = 1.5 if hp <= dmg else 0.5 if hp <= dmg + 1 else 0.0
    if t == mind.lord and mind.role == "rebel":
        bonus += 1.0
    return e * (1 + bonus)


def _redirect_risk(s: Seat, t: int) -> bool:
    """Could ``t``'s 流离 turn this 杀 onto a friend it would kill? (大乔 with a card to pay,
    a friend at 1 HP in her attack range: at 7–10 seats this was how the AI renegade killed
    its own lord in ~0.4 % of games.) Skills, cards held and ranges are public."""
    mind = s.mind
    p = mind.player(t)
    if "liuli" not in p.get("skills", ()) or not (p["hand"] or any(p["equip"].values())):
        return False
    return any(f not in (s.seat, t) and mind.friend(f) and mind.hp(f) <= 1 and in_range(s.state, t, f)
               for f in mind.alive)


#: Tests whether a card would do nothing to a target, ``(seat, target, card name)``: a skill that
#: cancels or voids a card adds its own beside it (国战 空城 with no hand, 享乐 with no basic card
#: left to pay), and the 杀 / 决斗 hints skip such a target.
FUTILE: list[Callable[[Seat, int, str], bool]] = []


def futile(s: Seat, t: int, name: str) -> bool:
    return any(test(s, t, name) for test in FUTILE)


def _aim_sha(s: Seat, pre: list[str], cid: str | None = None, *, unknown_colour: bool = False,
             extra: bool = True) -> tuple[float, list[str]] | None:
    """(worth × hit chance, path) of a 杀 made by ``pre`` at the target most worth hitting (none
    whose 流离 could turn it onto a dying friend), plus more enemies while the tree offers them
    (方天画戟) when ``extra``; None when nobody is worth it. Shared by 杀, 丈八蛇矛 and 激将."""
    scored = sorted(((_worth_hitting(s, t) * hit_chance(s, t, cid, unknown_colour=unknown_colour), t)
                     for t in s.targets(pre) if not _redirect_risk(s, t) and not futile(s, t, "sha")), reverse=True)
    if not scored or scored[0][0] <= 0:
        return None
    path = [*pre, str(scored[0][1])]
    for _ in range(4 if extra else 0):
        more = [t for t in s.targets(path) if s.mind.enemy(t)]
        if not more:
            break
        path.append(str(more[0]))
    return scored[0][0], path


def _clears_shandian(s: Seat, t: int) -> bool:
    """The renegade removes a 闪电 wherever it lies: it must outlive everybody and keep the lord
    alive, and a 闪电 moves on round the table until it strikes (3 damage) — it killed the AI
    renegade in ~6 % and its lord in ~4 % of 8-seat games against random players."""
    return s.mind.role == "renegade" and any(j["as"] == "shandian" for j in s.mind.player(t)["judge"])


def _valid(s: Seat, path: list[str]) -> bool:
    try:
        return s.complete(path)
    except Exception:  # noqa: BLE001 - the skill's walk changed: do not use it
        return False


# The hint tables are filled by the card and hero-skill modules (they import this one).
from engines.sanguosha import ai_cards, ai_cards_hegemony, ai_skills, levels  # noqa: E402, F401
from engines.sanguosha.ai_skills import HERO_PREF, RENEGADE_HERO_PREF  # noqa: E402, F401
