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
from engines.sanguosha import cards, cards_standard, choices  # noqa: F401 - cards_standard defines the cards
from engines.sanguosha.ai_mind import FRIEND_BAR, Mind
from engines.sanguosha.data import card, deck, kind_of
from engines.sanguosha.frames import shandian_hits
from engines.sanguosha.heroes import ai_order
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
    memo: dict[tuple[str, ...], Step] = field(default_factory=dict)

    def tree(self, path: list[str]) -> Step:
        key = tuple(path)
        if key not in self.memo:
            self.memo[key] = choices.step(self.state, self.seat, path)
        return self.memo[key]

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


def decide(state: State, seat: int, rng: random.Random, level: str = "normal") -> list[str]:
    ask = Flow.ask_of(state, seat)
    if ask is None:
        raise ValueError(f"seat {seat} is not asked anything")
    if level == "easy" and ask.kind != "discard" and rng.random() < 0.3:
        return timeout(state, seat)
    wanted = _RESPONSE_CARD.get(ask.kind)
    opts = None
    if wanted:  # most windows: nothing to answer with, no need to think
        opts = [o.value for o in choices.step(state, seat, []).options]
        if opts == ["pass"]:
            return ["pass"]
    view = build(state, seat)
    hand = {c["id"]: c["name"] for c in view["you"]["hand"]}
    s = Seat(state, seat, ask, view, Mind(view), hand, rng)
    try:
        return finish(s, ASK_HINTS.get(ask.kind, fallback)(s))
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
            st = choices.step(s.state, s.seat, path)
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
    return [o.value for o in choices.step(state, seat, []).options][:1]


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
        if got is not None and got[0] - cost > best[0]:
            best = (got[0] - cost, got[1])
    return best[1]


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


def _aim_sha(s: Seat, pre: list[str], cid: str | None = None, *, unknown_colour: bool = False,
             extra: bool = True) -> tuple[float, list[str]] | None:
    """(worth × hit chance, path) of a 杀 made by ``pre`` at the target most worth hitting (none
    whose 流离 could turn it onto a dying friend), plus more enemies while the tree offers them
    (方天画戟) when ``extra``; None when nobody is worth it. Shared by 杀, 丈八蛇矛 and 激将."""
    scored = sorted(((_worth_hitting(s, t) * hit_chance(s, t, cid, unknown_colour=unknown_colour), t)
                     for t in s.targets(pre) if not _redirect_risk(s, t)), reverse=True)
    if not scored or scored[0][0] <= 0:
        return None
    path = [*pre, str(scored[0][1])]
    for _ in range(4 if extra else 0):
        more = [t for t in s.targets(path) if s.mind.enemy(t)]
        if not more:
            break
        path.append(str(more[0]))
    return scored[0][0], path


@play_hint("sha")
def _sha(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """杀 at the enemy most worth hitting that it likely hits (``pre[-1]`` is the physical
    card: its colour matters against 仁王盾); more enemies when 方天画戟 allows."""
    got = _aim_sha(s, pre, pre[-1])
    return None if got is None else (3 + 4 * got[0], got[1])


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
    old = s.me()["equip"][c.slot]
    mine = EQUIP.get(c.name, 4)
    if c.name == "zhuge":
        mine += 2 * (s.count("sha") - 1)
    if old is not None and EQUIP.get(old["name"], 4) >= mine:
        return None
    return 11.0, pre


@play_hint("lebu")
def _lebu(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    scored = [(s.mind.enemy_score(t) * (1 + 0.2 * s.mind.player(t)["hand"]), t)
              for t in s.targets(pre) if s.mind.enemy(t)]
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


def _clears_shandian(s: Seat, t: int) -> bool:
    """The renegade removes a 闪电 wherever it lies: it must outlive everybody and keep the lord
    alive, and a 闪电 moves on round the table until it strikes (3 damage) — it killed the AI
    renegade in ~6 % and its lord in ~4 % of 8-seat games against random players."""
    return s.mind.role == "renegade" and any(j["as"] == "shandian" for j in s.mind.player(t)["judge"])


@play_hint("juedou")
def _juedou(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    shas = s.count("sha")
    best: tuple[float, int] | None = None
    for t in s.targets(pre):
        if not s.mind.enemy(t):
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
    pref = RENEGADE_HERO_PREF if s.mind.role == "renegade" else HERO_PREF
    rank = {h: i for i, h in enumerate(pref)}
    best = min(opts, key=lambda o: (rank.get(_hero_of(o.label), len(rank)), o.value))
    return [best.value]


def _valid(s: Seat, path: list[str]) -> bool:
    try:
        return s.complete(path)
    except Exception:  # noqa: BLE001 - the skill's walk changed: do not use it
        return False


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
