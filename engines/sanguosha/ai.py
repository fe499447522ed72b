"""A beginner-mode AI that plays legally and sensibly from what its seat may know.

It reads only ``view(state, seat)`` (the public table, its own hand and role) to judge friend and
foe, and asks :func:`choices.step` for its legal moves (which depend only on its own hand and
public facts). Friend or foe: the lord is known; everyone else is judged from the public record
of hostile and friendly acts (``view["acts"]``): hurting the lord or its helpers looks like a
rebel, hurting the lord's attackers looks loyal. The full identity-guessing AI is part 2.
"""

from __future__ import annotations

import random
from typing import Any

from engines.flow import Flow
from engines.sanguosha import choices
from engines.sanguosha.frames import HARMFUL
from engines.sanguosha.rules import ROLES
from engines.sanguosha.views import build
from engines.tokens import ascii_int

State = dict[str, Any]
View = dict[str, Any]

VALUE = {"tao": 9, "shan": 7, "wuxie": 6, "wuzhong": 6, "sha": 5, "shunshou": 5, "lebu": 5,
         "juedou": 4, "guohe": 4, "nanman": 4, "wanjian": 4, "jiedao": 3, "wugu": 3, "taoyuan": 3,
         "shandian": 1}


def value(name: str) -> int:
    return VALUE.get(name, 4)


class Mind:
    """Friend/foe judgement of one seat, from its view."""

    def __init__(self, view: View) -> None:
        self.view = view
        you = view["you"]
        self.me: int = you["seat"]
        self.role: str = you["role"]
        self.lord: int = view["lord"]
        ps = view["players"]
        acts = view["acts"]
        n = len(ps)
        alive = [p["seat"] for p in ps if p["alive"]]
        # Loyalty score: + for helping the lord or hurting its attackers, − for hurting the lord.
        attackers = {x for x in range(n) if acts[x][self.lord] > 0}
        self.pro = {}
        for x in range(n):
            score = -2 * acts[x][self.lord] + sum(acts[x][y] for y in attackers if y != x)
            score -= sum(acts[x][y] for y in range(n) if y != self.lord and acts[y][self.lord] < 0)
            self.pro[x] = score
        for p in ps:
            if p["role"] in ("loyalist", "lord"):
                self.pro[p["seat"]] = 99
            elif p["role"] in ("rebel", "renegade"):
                self.pro[p["seat"]] = -99
        self.alive = alive
        # The role distribution is public: once every rebel is dead, the renegade hides among
        # the living unknowns, and the renegade drops its loyal mask.
        dead_rebels = sum(1 for p in ps if not p["alive"] and p["role"] == "rebel")
        self.rebels_left = ROLES[n].count("F") - dead_rebels
        self.renegade_left = any(p["alive"] and p["role"] is None for p in ps) and not any(
            p["role"] == "renegade" for p in ps if not p["alive"])
        unknown = [s for s in alive if ps[s]["role"] is None and s != self.me]
        low = min((self.pro[s] for s in unknown), default=0)
        self.suspects = {s for s in unknown if self.pro[s] == low} if self.rebels_left == 0 else set()
        self.endgame = self.role == "renegade" and self.rebels_left == 0
        self.lord_alone = self.endgame and not [s for s in alive if s not in (self.me, self.lord)]

    def enemy(self, x: int) -> bool:
        if x == self.me:
            return False
        if self.role in ("lord", "loyalist"):
            return x != self.lord and (self.pro[x] < 0 or x in self.suspects)
        if self.role == "rebel":
            return x == self.lord or self.pro[x] > 0
        if self.endgame:
            return x != self.lord or self.lord_alone
        return x != self.lord and self.pro[x] < 0

    def friend(self, x: int) -> bool:
        if x == self.me:
            return True
        if self.role in ("lord", "loyalist"):
            return x == self.lord or self.pro[x] > 0
        if self.role == "rebel":
            return x != self.lord and self.pro[x] < 0
        return x == self.lord and not self.lord_alone

    def hp(self, x: int) -> int:
        return self.view["players"][x]["hp"]


def _options(state: State, seat: int, path: list[str]) -> list[str]:
    return [o.value for o in choices.step(state, seat, path).options]


def _complete(state: State, seat: int, path: list[str]) -> bool:
    return choices.step(state, seat, path).complete


#: 克己: cards the AI keeps over its hand limit (its HP) before it discards instead.
KEJI_SPARE = 3


def decide(state: State, seat: int, rng: random.Random, level: str = "normal") -> list[str]:
    ask = Flow.ask_of(state, seat)
    if ask is None:
        raise ValueError(f"seat {seat} is not asked anything")
    if level == "easy" and ask.kind != "discard" and rng.random() < 0.3:
        return timeout(state, seat)
    wanted = _RESPONSE_CARD.get(ask.kind)
    if wanted and not _holds(state, seat, wanted):
        return ["pass"]  # nothing to answer with: no need to think (most windows)
    if ask.kind == "skill" and ask.info.get("skill") == "keji":
        # 克己 keeps every card; an AI that always kept them hoarded the whole deck (75 cards) and
        # starved the table of draws, so nobody could attack again (a stalled AI-only game).
        me = state["players"][seat]
        return ["yes"] if len(me["hand"]) <= me["hp"] + KEJI_SPARE else ["pass"]
    view = build(state, seat)
    mind = Mind(view)
    hand = {c["id"]: c["name"] for c in view["you"]["hand"]}
    k, info = ask.kind, ask.info
    if k == "play":
        return _play(state, seat, mind, hand, rng)
    if k == "discard":
        return _discard(hand, info["n"])
    if k in ("need_shan", "need_sha"):
        opts = [o for o in _options(state, seat, []) if o != "pass"]
        if k == "need_sha" and info.get("card") == "juedou" and mind.friend(info.get("user", -1)) \
                and info.get("user") != seat:
            return ["pass"]
        return _play_one(state, seat, opts, hand)
    if k == "nullify":
        about = info["about"]
        happens = info["count"] % 2 == 0
        t = about["target"]
        harmful = about["name"] in HARMFUL
        want = (happens and harmful and mind.friend(t)) or (not happens and harmful and mind.enemy(t)) \
            or (happens and about["name"] == "wuzhong" and mind.enemy(t))
        opts = [o for o in _options(state, seat, []) if o != "pass"]
        return [opts[0]] if want and opts else ["pass"]
    if k == "peach":
        dying = info["dying"]
        opts = [o for o in _options(state, seat, []) if o != "pass" and _complete(state, seat, [o])]
        if opts and (dying == seat or (mind.friend(dying) and (mind.hp(seat) > 1 or len(opts) > 1))):
            return [opts[0]]
        return ["pass"]
    if k == "pick":
        return _pick(state, seat, mind, info)
    if k == "wugu":
        pool = _options(state, seat, [])
        names = {c["id"]: c["name"] for c in view["table"]}
        return [max(pool, key=lambda c: value(names.get(c, "")))]
    if k in ("jiedao", "qinglong"):
        target = info.get("victim", info.get("target"))
        opts = [o for o in _options(state, seat, []) if o not in ("pass", "zb") and _complete(state, seat, [o])]
        if opts and (mind.enemy(target) or (k == "jiedao" and not mind.friend(target))):
            return [opts[0]]
        return ["pass"]
    if k == "guanshi":
        mine = [o for o in _options(state, seat, []) if o != "pass"]
        if mind.enemy(info["target"]) and len(mine) >= 4:
            low = sorted(mine, key=lambda c: value(hand.get(c, "equip")))[:2]
            return low
        return ["pass"]
    if k == "hanbing":
        return ["yes"] if mind.hp(info["target"]) > 2 and not mind.enemy(info["target"]) else ["pass"]
    if k == "qilin":
        opts = [o for o in _options(state, seat, []) if o != "pass"]
        return [opts[0]] if opts and mind.enemy(info["target"]) else ["pass"]
    if k == "cixiong":
        return ["yes"]
    if k == "cixiong_choice":
        opts = [o for o in _options(state, seat, []) if o != "pass"]
        if len(opts) >= 3:
            return [min(opts, key=lambda c: value(hand.get(c, "")))]
        return ["pass"]
    return timeout(state, seat)


_RESPONSE_CARD = {"nullify": "wuxie", "peach": "tao", "need_shan": "shan"}


def _holds(state: State, seat: int, name: str) -> bool:
    from engines.sanguosha.data import card

    return any(card(c).name == name for c in state["players"][seat]["hand"])


def _play_one(state: State, seat: int, opts: list[str], hand: dict[str, str]) -> list[str]:
    cards = [o for o in opts if o in hand]
    if cards:
        return [min(cards, key=lambda c: value(hand[c]))]
    if "zb" in opts:
        rest = sorted((c for c in _options(state, seat, ["zb"])), key=lambda c: value(hand.get(c, "")))
        if len(rest) >= 2:
            return ["zb", rest[0], rest[1]]
    return ["pass"]


def _discard(hand: dict[str, str], n: int) -> list[str]:
    order = sorted(hand, key=lambda c: (value(hand[c]), c))
    return order[:n]


def _pick(state: State, seat: int, mind: Mind, info: dict[str, Any]) -> list[str]:
    opts = _options(state, seat, [])
    target = info["target"]
    tp = mind.view["players"][target]
    judge = [j["id"] for j in tp["judge"]]
    if mind.friend(target):
        for cid in judge:
            if cid in opts:
                return [cid]
    order = [tp["equip"][s]["id"] for s in ("armor", "weapon", "minus", "plus") if tp["equip"][s]]
    for cid in order:
        if cid in opts:
            return [cid]
    if "hand" in opts:
        return ["hand"]
    return [opts[0]]


def _targets(state: State, seat: int, path: list[str]) -> list[int]:
    return [n for o in _options(state, seat, path) if (n := ascii_int(o)) is not None]


def _play(state: State, seat: int, mind: Mind, hand: dict[str, str], rng: random.Random) -> list[str]:
    playable = [o for o in _options(state, seat, []) if o in hand]
    me = mind.view["players"][seat]
    by_name: dict[str, list[str]] = {}
    for cid in playable:
        by_name.setdefault(hand[cid], []).append(cid)
    equip_names = {"zhuge", "qinggang", "hanbing", "cixiong", "qinglong", "zhangba", "guanshi",
                   "fangtian", "qilin", "bagua", "renwang", "dilu", "jueying", "zhuahuang", "chitu",
                   "dawan", "zixing"}
    slot_of = {"bagua": "armor", "renwang": "armor", "dilu": "plus", "jueying": "plus",
               "zhuahuang": "plus", "chitu": "minus", "dawan": "minus", "zixing": "minus"}
    for cid in playable:
        name = hand[cid]
        if name in equip_names:
            slot = slot_of.get(name, "weapon")
            if me["equip"][slot] is None:
                return [cid]
    if "tao" in by_name and me["hp"] < me["max"]:
        return [by_name["tao"][0]]
    if "wuzhong" in by_name:
        return [by_name["wuzhong"][0]]
    others = [s for s in mind.alive if s != seat]
    enemies = [s for s in others if mind.enemy(s)]
    friends = [s for s in others if mind.friend(s)]
    for name in ("lebu", "shunshou", "guohe"):
        for cid in by_name.get(name, []):
            cands = _targets(state, seat, [cid])
            good = [t for t in cands if mind.enemy(t)]
            if name == "guohe":
                good += [t for t in cands if mind.friend(t) and mind.view["players"][t]["judge"]]
            if good:
                return [cid, str(min(good, key=mind.hp))]
    if "wugu" in by_name:
        return [by_name["wugu"][0]]
    for name in ("nanman", "wanjian"):
        if name in by_name and len(enemies) >= max(1, len(friends)) \
                and not any(mind.hp(f) <= 1 for f in friends):
            return [by_name[name][0]]
    if "taoyuan" in by_name:
        hurt = lambda s: mind.view["players"][s]["max"] - mind.hp(s)  # noqa: E731
        if hurt(seat) + sum(hurt(f) for f in friends) > sum(hurt(e) for e in enemies):
            return [by_name["taoyuan"][0]]
    if "juedou" in by_name and enemies:
        shas = len([c for c in hand if hand[c] == "sha"])
        cands = [t for t in _targets(state, seat, [by_name["juedou"][0]]) if mind.enemy(t)]
        if cands and (shas >= 1 or any(mind.hp(t) <= 1 for t in cands)):
            return [by_name["juedou"][0], str(min(cands, key=mind.hp))]
    if "jiedao" in by_name:
        cid = by_name["jiedao"][0]
        for holder in _targets(state, seat, [cid]):
            if mind.friend(holder) and holder != seat:
                continue
            victims = [v for v in _targets(state, seat, [cid, str(holder)]) if mind.enemy(v)]
            if victims:
                return [cid, str(holder), str(victims[0])]
    if "sha" in by_name:
        for cid in by_name["sha"]:
            cands = [t for t in _targets(state, seat, [cid]) if mind.enemy(t)]
            if cands:
                path = [cid, str(min(cands, key=mind.hp))]
                while True:
                    more = [t for t in _targets(state, seat, path) if mind.enemy(t)]
                    if not more:
                        return path
                    path.append(str(more[0]))
    if "shandian" in by_name and rng.random() < 0.2:
        return [by_name["shandian"][0]]
    return ["end"]


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
        from engines.sanguosha.data import card

        hand = {c: card(c).name for c in state["players"][seat]["hand"]}
        return _discard(hand, ask.info["n"])
    return [_options(state, seat, [])[0]]
