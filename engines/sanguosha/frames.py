"""The frames of a 三国杀 game: game → turn → phase → card use → effect → response, plus
judgement, damage, dying and death. Each handler is a small machine of named stages
(``frame["st"]``, see ``stages.py``) over the shared :class:`engines.flow.Flow`; every point where a skill or equipment may act is a
``ctx.fire(timing, event)`` (timing names are listed in docs/rules/sanguosha.md).

Asks of this game (``kind``; tokens answered):

- ``play`` (turn player, play phase): ``[card, targets…]``, ``["zb", a, b, targets…]``,
  ``["recast", card]`` (重铸: 铁索连环, 知己知彼), ``["end"]``
- ``discard``: the card ids to discard (exactly the excess)
- ``need_shan`` / ``need_sha`` (window of one, default pass): ``[card]``, ``["zb", a, b]``, ``["pass"]``
- ``nullify`` (window "any" of every living seat, default pass; not opened when no living seat
  can answer, ``rules.can_respond``): ``[无懈 card]``, ``[无懈可击·国, "one" | "kingdom"]`` or ``["pass"]``
- ``peach`` (window "all" of every living seat, default pass): ``[桃 card]`` (the dying seat also
  its own ``[酒 card]``) or ``["pass"]``
- ``pick`` (过河拆桥, 顺手牵羊, 寒冰剑): ``["hand"]`` or a card id in the target's equipment/judgement area
- ``wugu``: a card id from the revealed pool
- ``jiedao``: ``[杀 card]`` / ``["zb", a, b]`` to attack the victim, ``["pass"]`` to hand over the weapon
- weapon questions ``qinglong`` ``guanshi`` ``hanbing`` ``qilin`` ``cixiong`` ``cixiong_choice``
- the 国战 deck's asks (``cards_hegemony.py``, ``equipment_hegemony.py``): ``huogong_show``,
  ``huogong``, ``zhiji``, ``yiyi``, ``sanjian``, ``zhuque``
- hero choice ``hero`` (``setup.py``); skill questions ``skill`` (yes/no), ``guicai``, ``ganglie``,
  ``tuxi``, ``yiji``, ``guanxing``, ``liuli``, ``fanjian_suit`` (``skills_*.py``); a play action or
  a response may also start with a skill token (``skills.py``)
"""

from __future__ import annotations

from typing import Any

from engines.base import key_ref
from engines.flow import Ctx
from engines.rng import Rng
from engines.sanguosha import cards, stages
from engines.sanguosha import rules as R
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.packs import CORE
from engines.sanguosha.rules import FLOW, cname, say, who  # noqa: F401 - FLOW: identity mode's flow, for old callers

Frame = dict[str, Any]
PASS = ("pass",)

#: Frames stored with edition 2's integer stages play on under their names (every kind of the
#: standard packs is in the one frozen table).
CORE.legacy_stage = stages.legacy_name


def ask_window(ctx: Ctx, frame: Frame, seats: list[int], kind: str, mode: str = "one",
               **info: Any) -> None:
    """A response window: short timeout, 'pass' when silent."""
    ctx.ask(frame, seats, kind, mode=mode, default=PASS, short=True, window=True, info=info)


# -- game and turn ----------------------------------------------------------------------------

@CORE.kind("game")
def _game(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    f["cur"] = R.mode_of(s).first_seat(s) if f.get("cur") is None else R.next_living(s, f["cur"])
    ctx.push("turn", seat=f["cur"], st="start")


@CORE.kind("turn")
def _turn(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    if f["st"] == "start" and s["players"][seat].get("stacked"):
        # 叠置: back to 平置 and the whole turn is skipped (the round still counts from it)
        R.turn_over(ctx, seat)
        if R.mode_of(s).starts_round(s, seat):
            s["round"] += 1
        say(ctx, "skip_turn", who=who(seat))
        ctx.pop(f)
        return
    if f["st"] == "start":
        s["turn"], s["phase"], s["sha_used"], s["skip"] = seat, "prepare", 0, []
        s["tflags"] = {}
        s["turns"] += 1
        if R.mode_of(s).starts_round(s, seat) and not f.get("extra"):  # an extra turn (放权) starts none
            s["round"] += 1
        s["log"] = []
        say(ctx, "turn", who=who(seat))
        f["st"] = R.PHASES[0]
        ctx.fire("turn_start", {"seat": seat})
        return
    ctx.take(f)
    if f["st"] in R.PHASES and R.alive(s, seat):  # the stage names the next phase to run
        phase = f["st"]
        nxt = R.PHASES.index(phase) + 1
        f["st"] = R.PHASES[nxt] if nxt < len(R.PHASES) else "end"
        ctx.push("phase", seat=seat, name=phase, st="start")
        return
    s["phase"] = ""
    R.notice(s, "turn_end", {"seat": seat})
    ctx.pop(f)


@CORE.kind("phase")
def _phase(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat, name = f["seat"], f["name"]
    if f["st"] == "start":
        s["phase"] = name
        f["st"] = "fired"
        ctx.fire("phase_start", {"seat": seat, "phase": name, "skip": name in s["skip"]})
        return
    if f["st"] == "fired":
        ev = ctx.take(f)
        if ev.get("cancel") or ev.get("skip"):
            if ev.get("skip"):
                say(ctx, "skip_phase", who=who(seat), phase=key_ref(f"sanguosha.phase.{name}"))
            ctx.pop(f)
            return
        f["st"] = "resolve"
        if name == "judge" and s["players"][seat]["judge"]:
            ctx.push("jarea", seat=seat)
        elif name == "draw":
            ctx.fire("draw_count", {"seat": seat, "n": 2})
        elif name == "play":
            f["st"] = "play"
        elif name == "discard":
            f["st"] = "discard"
        return
    if f["st"] == "resolve":
        ev = ctx.take(f)
        if name == "draw" and ev and not ev.get("cancel"):
            R.draw(ctx, seat, ev["n"])
        f["st"] = "end"
        return
    if f["st"] == "play":  # play phase: ask until the player ends it
        if "reply" in f:
            action = ctx.take(f, "reply")["action"]
            if action == ["end"]:
                f["st"] = "end"
                return
            if action[0] == "recast":
                recast(ctx, seat, action[1])
                return
            if action[0] in ACTIVE:
                R.reveal_for(ctx, seat, action[0])  # a hidden hero's skill: using it shows it
                ACTIVE[action[0]].start(ctx, seat, action[1:])
                return
            start_use_from_action(ctx, seat, action, count=True)
            return
        ctx.take(f)
        ctx.ask(f, [seat], "play")
        return
    if f["st"] == "discard":  # discard down to the hand limit
        if "reply" in f:
            cids = ctx.take(f, "reply")["action"]
            R.to_discard(s, cids)
            say(ctx, "discard", who=who(seat), cards=_labels(cids))
            f["st"] = "end"
            return
        excess = len(s["players"][seat]["hand"]) - R.hand_limit(s, seat)
        if excess <= 0:
            f["st"] = "end"
            return
        ctx.ask(f, [seat], "discard", info={"n": excess})
        return
    ctx.take(f)
    R.notice(s, "phase_end", {"seat": seat, "phase": name})
    ctx.pop(f)


def _labels(cids: list[str]) -> str:
    return " ".join(R.card_label(c) for c in cids)


def recast(ctx: Ctx, seat: int, cid: str) -> None:
    """重铸 (铁索连环, 知己知彼): the card goes to the discard pile and its owner draws one."""
    R.to_discard(ctx.state, [cid], reason="recast")
    say(ctx, "recast", who=who(seat), card=cname(card(cid).shown), sr=R.card_label(cid))
    R.draw(ctx, seat, 1)


# -- using a card -----------------------------------------------------------------------------

#: Skills that let a card be used or played as another (武圣, 龙胆, 倾国, 急救, 奇袭, 国色):
#: token ``[skill, card, targets…]``; filled by the skill modules.
CONVERT: dict[str, Any] = {}
#: Active skills of the play phase (token ``[skill, …]``); filled by the skill modules.
ACTIVE: dict[str, Any] = {}
#: Lord skills answering a 闪/杀 request through other heroes (护驾, 激将): token → starter.
LORD_ASK: dict[str, Any] = {}


def parse_use(state: dict[str, Any], action: list[str]) -> tuple[str, list[str], list[int]]:
    """(card name, physical cards, targets) of a validated play action."""
    if action[0] in CONVERT:
        n = CONVERT[action[0]].count
        return CONVERT[action[0]].as_name, action[1:1 + n], [int(t) for t in action[1 + n:]]
    return card(action[0]).name, [action[0]], [int(t) for t in action[1:]]


def reveal_conversion(ctx: Ctx, seat: int, action: list[str]) -> None:
    """A card used or played through a hidden hero's conversion skill shows that hero. Timing point
    ``card_converted`` (``seat``, ``token``: a card was used or played through a conversion)."""
    if action and action[0] in CONVERT:
        R.reveal_for(ctx, seat, CONVERT[action[0]].skill)
        if CONVERT[action[0]].spend is not None:
            CONVERT[action[0]].spend(ctx, seat)
        R.notice(ctx.state, "card_converted", {"seat": seat, "token": action[0]})


def response_cards(action: list[str]) -> list[str]:
    """The physical cards of a response (``[card]``, ``[token, card…]`` of a conversion)."""
    if action[0] in CONVERT:
        return action[1:1 + CONVERT[action[0]].count]
    return action[:1]


def start_use_from_action(ctx: Ctx, user: int, action: list[str], count: bool) -> None:
    reveal_conversion(ctx, user, action)
    name, cids, targets = parse_use(ctx.state, action)
    extra: dict[str, Any] = {}
    if action[0] not in CONVERT and card(cids[0]).nature:  # a 火杀 / 雷杀 itself (converted: none)
        extra["nature"] = card(cids[0]).nature
    if name == "jiedao":
        targets, extra = [targets[0]], {"victim": targets[1]}
    push_use(ctx, user, name, cids, targets, count=count, extra=extra)


def push_use(ctx: Ctx, user: int, name: str, cids: list[str], targets: list[int], *,
             count: bool, extra: dict[str, Any] | None = None) -> Frame:
    return ctx.push("use", user=user, name=name, cards=list(cids), color=R.color(cids),
                    suit=card(cids[0]).suit if len(cids) == 1 else "", targets=list(targets), count=count,
                    extra=extra or {}, st="start", i=0)


def default_targets(state: dict[str, Any], user: int, name: str) -> list[int]:
    """The seats a card names by itself (its definition's ``default_targets``; none: [])."""
    named = cards.of(name).default_targets
    return named(state, user) if named else []


def card_type(name: str) -> str:
    return kind_of(name)


@CORE.kind("use")
def _use(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    user, name = f["user"], f["name"]
    if f["st"] == "start":
        R.to_proc(s, f["cards"])
        if not f["targets"]:
            f["targets"] = default_targets(s, user, name)
        if f["count"] and name == "sha":
            s["sha_used"] += 1
        label = _labels(f["cards"])
        named = [t for t in f["targets"] if t != user] if cards.of(name).names_targets else []
        one = card(f["cards"][0]) if len(f["cards"]) == 1 else None
        shown = one.shown if one is not None and one.name == name else name  # a 火杀 says 火杀
        if not named:
            say(ctx, "use", who=who(user), card=cname(shown), sr=label)
        for t in named:
            say(ctx, "use_on", who=who(user), card=cname(shown), sr=label, target=who(t))
        if "victim" in f["extra"]:
            say(ctx, "jiedao_victim", who=who(f["targets"][0]), victim=who(f["extra"]["victim"]))
        for t in f["targets"]:
            R.note_act(s, user, t, 1 if cards.harmful(name) else -1 if cards.of(name).friendly else 0)
        f["st"] = "declared"
        ctx.fire("use_declared", {"user": user, "name": name, "cards": f["cards"],
                                  "targets": f["targets"], "color": f["color"],
                                  **({"nature": f["extra"]["nature"]} if "nature" in f["extra"] else {})})
        return
    if f["st"] == "declared":
        ev = ctx.take(f)
        f["targets"] = list(ev["targets"])
        f["extra"].update(ev.get("extra", {}))  # 酒's +1, 朱雀羽扇's fire
        kind = card_type(name)
        if kind == "equip":
            R.to_equip(s, user, f["cards"][0])
            ctx.pop(f)
            return
        if kind == "delayed":
            if not f["targets"]:  # its one target cancelled it (帷幕, 谦逊)
                R.to_discard(s, f["cards"], reason="use")
            else:
                R.to_judge(s, f["targets"][0], f["cards"][0], name)
            ctx.pop(f)
            return
        on_use = cards.of(name).on_use
        if on_use is not None:
            on_use(ctx, f)
        f["st"] = "effects"
        return
    if f["st"] == "effects":  # one effect per target, in order
        ctx.take(f)
        while f["i"] < len(f["targets"]):
            target = f["targets"][f["i"]]
            f["i"] += 1
            if not R.alive(s, target):
                continue
            if f.get("void") and R.kingdom(s, target) in f["void"]:  # 无懈可击·国 over a kingdom
                say(ctx, "nullified", card=cname(name), target=who(target))
                continue
            skip = cards.of(name).skip
            if skip is not None and skip(s, target):
                continue  # e.g. 桃园结义 at full HP: nothing to heal, nothing to cancel (docs/rules)
            ctx.push("effect", name=name, user=user, target=target, cards=f["cards"],
                     color=f["color"], suit=f["suit"], extra=f["extra"], st="start")
            return
        f["st"] = "finish"
        ctx.fire("use_finished", {"user": user, "name": name, "cards": f["cards"]})
        return
    ctx.take(f)
    for cid in f["cards"] + f["extra"].get("pool", []):
        if cid in s["proc"]:
            R.to_discard(s, [cid])
    ctx.pop(f)


# -- effects ----------------------------------------------------------------------------------

@CORE.kind("effect")
def _effect(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    name, target = f["name"], f["target"]
    if f["st"] == "start":
        if not R.alive(s, target):
            ctx.pop(f)
            return
        if R.fold(s, "card_void", False, name=name, user=f["user"], target=target):  # 藤甲
            say(ctx, "void", card=cname(name), target=who(target))
            ctx.pop(f)
            return
        f["st"] = "nullify"
        if cards.nullifiable(name) and not f["extra"].get("nowuxie"):
            ctx.push("nullify", about={"name": name, "user": f["user"], "target": target}, count=0, st="start")
        return
    if f["st"] == "nullify":
        nullified = ctx.take(f)
        if nullified:
            say(ctx, "nullified", card=cname(name), target=who(target))
            use = ctx.below(f)
            if isinstance(nullified, str) and use is not None and use["k"] == "use":
                use.setdefault("void", []).append(nullified)  # 无懈可击·国: the rest of that kingdom too
            ctx.pop(f)
            return
        f["st"] = "effect"
    effect = cards.of(name).effect
    assert effect is not None, name
    effect(ctx, f)


def _done(ctx: Ctx, f: Frame) -> None:
    ctx.take(f)
    ctx.pop(f)


def take_chosen(ctx: Ctx, user: int, target: int, choice: str, to_hand: bool) -> str:
    """Move the chosen card (``"hand"`` = a random hand card) of ``target`` away."""
    s = ctx.state
    hand = s["players"][target]["hand"]
    cid = hand[Rng(s).below(len(hand))] if choice == "hand" else choice
    if to_hand:
        R.to_hand(s, user, [cid])
        if choice == "hand":
            say(ctx, "take_hand", who=who(user), target=who(target))
            say(ctx, "take_hand_private", to=(user, target), card=cname(card(cid).name),
                sr=R.card_label(cid))
        else:
            say(ctx, "take_card", who=who(user), target=who(target), card=cname(card(cid).name),
                sr=R.card_label(cid))
    else:
        R.to_discard(s, [cid])
        say(ctx, "discard_other", who=who(user), target=who(target), card=cname(card(cid).name),
            sr=R.card_label(cid))
    return cid


def recover(ctx: Ctx, seat: int, n: int, by: int | None) -> None:
    p = ctx.state["players"][seat]
    gain = min(n, p["max"] - p["hp"])
    if gain <= 0:
        return
    p["hp"] += gain
    say(ctx, "recover", who=who(seat), n=gain, hp=p["hp"])
    R.notice(ctx.state, "hp_recovered", {"seat": seat, "n": gain, "by": by})


# -- responses --------------------------------------------------------------------------------

@CORE.kind("need")
def _need(ctx: Ctx, f: Frame) -> None:
    """Ask one seat for a 闪 or 杀 (returns True when one was played). Armour such as 八卦阵 may
    produce it first (trigger ``before_need``)."""
    s = ctx.state
    seat, what = f["seat"], f["what"]
    if f["st"] == "start":
        f["st"] = "armour"
        ctx.fire("before_need", {"seat": seat, "what": what, "ignore_armor": f["ignore_armor"],
                                 "done": False})
        return
    if f["st"] == "armour":
        ev = ctx.take(f)
        if ev.get("barred"):  # it may not be answered at all (祸水)
            say(ctx, "no_response", who=who(seat), card=cname(what))
            ctx.pop(f, False)
            return
        if ev.get("done"):
            ctx.pop(f, True)
            return
        f["st"] = "answer"
        ask_window(ctx, f, [seat], f"need_{what}", **f["reason"])
        return
    if f["st"] == "answer":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            say(ctx, "no_response", who=who(seat), card=cname(what))
            ctx.pop(f, False)
            return
        if action[0] in LORD_ASK:
            f["st"] = "lord"
            LORD_ASK[action[0]](ctx, seat, what)
            return
        reveal_conversion(ctx, seat, action)
        cids = response_cards(action)
        if f.get("keep"):  # 激将 in the play phase: the 杀 stays on the table for the lord's use
            R.to_proc(s, cids)
            f["kept"] = cids
        else:
            R.to_discard(s, cids, reason="play")
        say(ctx, "respond", who=who(seat), card=cname(what), sr=_labels(cids))
        f["st"] = "played"
        ctx.fire("card_played", {"seat": seat, "name": what, "cards": cids})
        return
    if f["st"] == "lord":  # 护驾 / 激将: did another hero play it for this seat?
        if not ctx.take(f):
            f["st"] = "answer"
            ask_window(ctx, f, [seat], f"need_{what}", **f["reason"], lord_asked=True)
            return
        ctx.pop(f, True)
        return
    ctx.take(f)
    ctx.pop(f, f.get("kept") or True)


@CORE.kind("nullify")
def _nullify(ctx: Ctx, f: Frame) -> None:
    """A 无懈可击 window: every living seat is asked (those without one can only pass; the
    service answers for them after the uniform delay, so nobody's timing tells a hand); each 无懈
    played re-opens it for the next in the chain. When no living seat can answer at all
    (``rules.can_respond``) the window is not opened: that reveals only "nobody holds a 无懈", as
    the official online game's auto-skip does (docs/rules/sanguosha.md, 无懈可击 windows), and
    saves a wait per trick effect. Returns True when the effect is cancelled (an odd number of
    无懈) — or, when the first 无懈 was a 无懈可击·国 played over the target's kingdom
    (``[card, "kingdom"]``), that kingdom: the use then cancels the rest of it too."""
    s = ctx.state
    if f["st"] == "start":
        seats = R.living(s, s["turn"])
        if not any(R.can_respond(s, seat, "nullify") for seat in seats):
            ctx.pop(f, _nullified(f))
            return
        f["st"] = "open"
        ask_window(ctx, f, seats, "nullify", mode="any", about=f["about"], count=f["count"])
        return
    reply = ctx.take(f, "reply")
    if reply["seat"] is None:
        ctx.pop(f, _nullified(f))
        return
    reveal_conversion(ctx, reply["seat"], reply["action"])  # 看破: a card used as 无懈可击
    cids = response_cards(reply["action"])
    if reply["action"][1:] == ["kingdom"] and f["count"] == 0:  # 无懈可击·国 for a whole kingdom
        f["guo"] = R.kingdom(s, f["about"]["target"])
    R.to_discard(s, cids, reason="use")
    ctx.fire("card_played", {"seat": reply["seat"], "name": "wuxie", "cards": cids})
    f["count"] += 1
    about = f["about"]
    say(ctx, "wuxie", who=who(reply["seat"]), sr=_labels(cids), card=cname(about["name"]),
        target=who(about["target"]), n=f["count"])
    if f["count"] == 1 and f.get("guo"):
        say(ctx, "wuxie_guo", kingdom=key_ref(f"sanguosha.kingdom.{f['guo']}"))
    if cards.harmful(about["name"]) and f["count"] % 2 == 1:
        R.note_act(s, reply["seat"], about["target"], -1)
    f["st"] = "start"


def _nullified(f: Frame) -> bool | str:
    """What a closed 无懈 chain returns (see ``_nullify``)."""
    cancelled = f["count"] % 2 == 1
    return f["guo"] if cancelled and f.get("guo") else cancelled


# -- judgement and delayed tricks -------------------------------------------------------------

@CORE.kind("judge")
def _judge(ctx: Ctx, f: Frame) -> None:
    """Flip the top card for ``seat``'s judgement; returns the (possibly replaced) card id."""
    s = ctx.state
    if f["st"] == "start":
        got = R.deal(s, 1)
        if not got:  # no card anywhere: the judgement has no card (treated as failing)
            ctx.pop(f, None)
            return
        s["proc"].append(got[0])
        why = cname(f["why"]) if f["why"] in cards.DEFS else key_ref(f"sanguosha.skill.{f['why']}")  # 闪电 or 刚烈
        say(ctx, "judge", who=who(f["seat"]), why=why, card=cname(card(got[0]).name),
            sr=R.card_label(got[0]))
        f["st"] = "retouch"
        ctx.fire("judge_retouch", {"seat": f["seat"], "why": f["why"], "card": got[0]})
        return
    if f["st"] == "retouch":
        ev = ctx.take(f)
        f["card"] = ev["card"]
        f["st"] = "done"
        ctx.fire("judge_done", {"seat": f["seat"], "why": f["why"], "card": f["card"]})
        return
    ctx.take(f)
    if f["card"] in s["proc"]:
        R.to_discard(s, [f["card"]])
    ctx.pop(f, f["card"])


def event_below(ctx: Ctx, f: Frame) -> dict[str, Any]:
    """The live event of the nearest timing point under ``f`` (八卦阵's frame right above its
    trigger, or above the ``optional`` frame of a skill that acts as 八卦阵: 八阵)."""
    below = ctx.below(f)
    while below is not None and "ev" not in below:
        below = ctx.below(below)
    assert below is not None
    return below["ev"]  # type: ignore[no-any-return]


def judge_first(ctx: Ctx, f: Frame, why: str) -> bool:
    """Stage "start" of anything that starts with a judgement of ``f["seat"]`` (八卦阵, 刚烈,
    洛神, 铁骑): push it and return True (the caller returns; stage "judged" finds the card under
    ``ret``)."""
    if f["st"] != "start":
        return False
    f["st"] = "judged"
    ctx.push("judge", seat=f["seat"], why=why, st="start")
    return True


@CORE.kind("jarea")
def _jarea(ctx: Ctx, f: Frame) -> None:
    """The judgement phase: delayed tricks in the area, the last placed first."""
    ctx.take(f)
    area = ctx.state["players"][f["seat"]]["judge"]
    if not area or not R.alive(ctx.state, f["seat"]):
        ctx.pop(f)
        return
    cid, name = area[-1]
    R.to_proc(ctx.state, [cid])
    ctx.push("delayed", cid=cid, name=name, seat=f["seat"], st="start")


def shandian_hits(cid: str, suit: str | None = None) -> bool:
    """Does the judgement card strike (♠2–9)? ``suit``: the suit it counts as (红颜)."""
    c = card(cid)
    return (suit or c.suit) == "S" and 2 <= c.rank <= 9


def pass_shandian(ctx: Ctx, cid: str, seat: int) -> None:
    """闪电 moves on to the next living player without one in the judgement area (or stays)."""
    s = ctx.state
    dest = seat
    for cand in R.living(s, seat + 1):
        if cand == seat:
            break
        if not any(e[1] == "shandian" for e in s["players"][cand]["judge"]):
            dest = cand
            break
    R.to_judge(s, dest, cid, "shandian", reason="shandian")
    say(ctx, "shandian_move", who=who(dest))


@CORE.kind("delayed")
def _delayed(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat, name, cid = f["seat"], f["name"], f["cid"]
    if f["st"] == "start":
        f["st"] = "nullify"
        ctx.push("nullify", about={"name": name, "user": None, "target": seat}, count=0, st="start")
        return
    if f["st"] == "nullify":
        if ctx.take(f):
            say(ctx, "nullified", card=cname(name), target=who(seat))
            if name == "shandian":
                pass_shandian(ctx, cid, seat)
            else:
                R.to_discard(s, [cid])
            ctx.pop(f)
            return
        f["st"] = "judged"
        ctx.push("judge", seat=seat, why=name, st="start")
        return
    if f["st"] == "judged":
        judged = ctx.take(f)
        resolve = cards.of(name).delayed
        if resolve is not None:  # 兵粮寸断 and any later delayed trick judge themselves
            resolve(ctx, f, judged)
            return
        if name == "lebu":
            R.to_discard(s, [cid])
            if judged is None or R.suit(s, seat, judged) != "H":
                s["skip"].append("play")
                say(ctx, "lebu_hit", who=who(seat))
            else:
                say(ctx, "lebu_miss", who=who(seat))
            ctx.pop(f)
            return
        if judged is not None and shandian_hits(judged, R.suit(s, seat, judged)):
            R.to_discard(s, [cid])
            say(ctx, "shandian_hit", who=who(seat))
            f["st"] = "damage"
            nature = R.fold(s, "card_nature", "normal", name="shandian")  # 国战's 闪电: thunder
            ctx.push("damage", src=None, dst=seat, n=3, via="shandian", cards=[], st="start",
                     **({"nature": nature} if nature != "normal" else {}))
            return
        pass_shandian(ctx, cid, seat)
        ctx.pop(f)
        return
    _done(ctx, f)


# -- damage, dying, death ---------------------------------------------------------------------

#: Damage natures (seed, 国战 deck: 火杀 / 火攻 fire, 雷杀 / 闪电 thunder); "normal" when a
#: damage frame names none, as every identity-mode damage does.
NATURES = ("normal", "fire", "thunder")


@CORE.kind("damage")
def _damage(ctx: Ctx, f: Frame) -> None:
    """Damage: cause → inflicted → HP lost (dying below 1) → done. Fire or thunder damage to a
    seat in chains (铁索连环, ``player["chained"]``) unchains it and, once resolved, passes the
    same damage on to every other chained seat in turn order from the current player (``chain``
    frame); the passed-on damage does not pass on again."""
    s = ctx.state
    nature = f.get("nature", "normal")
    ev_base = {"src": f["src"], "dst": f["dst"], "n": f["n"], "via": f["via"], "cards": f["cards"]}
    if nature != "normal":
        ev_base["nature"] = nature
    if f.get("chained"):  # passed on along 铁索连环: not the 杀's own target (三尖两刃刀, 酒)
        ev_base["chained"] = True
    if f["st"] == "start":
        f["st"] = "cause"
        ctx.fire("damage_cause", dict(ev_base))
        return
    if f["st"] == "cause":
        ev = ctx.take(f)
        if ev.get("cancel") or ev["n"] <= 0 or not R.alive(s, f["dst"]):
            ctx.pop(f)
            return
        f["n"], f["src"] = ev["n"], ev["src"]  # a skill may name another source (祸首)
        f["st"] = "inflicted"
        ctx.fire("damage_inflicted", dict(ev_base, n=f["n"]))
        return
    if f["st"] == "inflicted":
        ev = ctx.take(f)
        if ev.get("cancel") or ev["n"] <= 0:
            ctx.pop(f)
            return
        p = s["players"][f["dst"]]
        p["hp"] -= ev["n"]
        f["n"] = ev["n"]
        R.note_act(s, f["src"], f["dst"], 2)
        say(ctx, "damage", who=who(f["dst"]), src=who(f["src"]), n=ev["n"], hp=p["hp"])
        if nature != "normal" and p.get("chained"):
            p["chained"] = False
            if not f.get("chained"):
                f["spread"] = True
        f["st"] = "dying"
        if p["hp"] < 1:
            ctx.push("dying", seat=f["dst"], src=f["src"], st="start")
        return
    if f["st"] == "dying":
        ctx.take(f)
        if R.alive(s, f["dst"]):
            f["st"] = "done"
            ctx.fire("damage_done", dict(ev_base, n=f["n"]))
            return
    if f.pop("spread", False):
        ctx.take(f)
        first = s["turn"] if s["turn"] is not None else f["dst"]
        others = [x for x in R.living(s, first) if x != f["dst"] and s["players"][x].get("chained")]
        f["st"] = "chain"
        ctx.push("chain", left=others, src=f["src"], n=f["n"], nature=nature, via=f["via"], cards=f["cards"])
        return
    _done(ctx, f)


@CORE.kind("chain")
def _chain(ctx: Ctx, f: Frame) -> None:
    """The chained seats take the passed-on damage one after another (each still chained and
    alive when its turn comes)."""
    s = ctx.state
    ctx.take(f)
    while f["left"]:
        seat = f["left"].pop(0)
        if R.alive(s, seat) and s["players"][seat].get("chained"):
            ctx.push("damage", src=f["src"], dst=seat, n=f["n"], via=f["via"], cards=f["cards"],
                     nature=f["nature"], chained=True, st="start")
            return
    ctx.pop(f)


@CORE.kind("dying")
def _dying(ctx: Ctx, f: Frame) -> None:
    """Every living seat is asked at once (secretly) whether it spends a 桃; the first willing
    seat in turn order from the current player saves one point, then the window re-opens while
    the dying player is still below 1 HP."""
    s = ctx.state
    seat = f["seat"]
    p = s["players"][seat]
    if f["st"] == "start":
        say(ctx, "dying", who=who(seat), need=1 - p["hp"])
        f["st"] = "fired"
        ctx.fire("dying", {"seat": seat, "src": f["src"]})
        return
    if f["st"] == "fired":
        ctx.take(f)
        # a skill may end the dying process below 1 HP (不屈: 创 of different ranks)
        if p["hp"] >= 1 or not p["alive"] or R.fold(s, "dying_settled", False, seat=seat):
            ctx.pop(f)
            return
        f["st"] = "peach"
        savers = [x for x in R.living(s, s["turn"]) if R.fold(s, "may_save", True, saver=x, seat=seat)]  # 完杀
        ask_window(ctx, f, savers, "peach", mode="all", dying=seat, need=1 - p["hp"])
        return
    if f["st"] == "peach":
        replies = ctx.take(f, "replies")
        order = R.living(s, s["turn"])
        for saver in order:
            action = replies.get(str(saver), ["pass"])
            if action != ["pass"]:
                reveal_conversion(ctx, saver, action)
                cids = response_cards(action)
                R.to_discard(s, cids, reason="use")
                R.note_act(s, saver, seat, -3)
                if cids and card(cids[0]).name == "jiu":  # 酒 on oneself while dying: 1 HP, not a 桃
                    say(ctx, "jiu_save", who=who(seat), sr=R.card_label(cids[0]))
                    recover(ctx, seat, 1, saver)
                    f["st"] = "fired"
                    return
                say(ctx, "peach", who=who(saver), target=who(seat), sr=R.card_label(cids[0]) if cids else "")
                recover(ctx, seat, R.fold(s, "peach_heal", 1, saver=saver, seat=seat), saver)
                f["st"] = "fired"
                return
        f["st"] = "death"
        ctx.push("death", seat=seat, src=f["src"], st="start")
        return
    _done(ctx, f)


@CORE.kind("death")
def _death(ctx: Ctx, f: Frame) -> None:
    """A seat dies: revealed, announced, the game may end (the mode's ``winners``), death
    triggers, its cards discarded, the mode's rewards and penalties, its turn cut short."""
    s = ctx.state
    seat, src = f["seat"], f["src"]
    p = s["players"][seat]
    mode = R.mode_of(s)
    if f["st"] == "start":
        mode.before_death(ctx, seat)
        p["alive"] = False
        p["revealed"] = True
        s["dead_order"].append(seat)
        say(ctx, "death", who=who(seat), role=mode.allegiance_ref(s, seat), src=who(src))
        won = mode.winners(s)
        if won is not None:
            finish_game(ctx, won)
            return
        f["st"] = "fired"
        ctx.fire("death", {"seat": seat, "src": src})
        return
    if f["st"] == "fired":
        ctx.take(f)
        R.to_discard(s, R.all_cards(s, seat) + R.pile_cards(s, seat))
        if src is not None and R.alive(s, src):
            mode.reward(ctx, seat, src)
        if seat == s["turn"]:
            _end_turn_now(ctx)
            return
        f["st"] = "end"
        return
    _done(ctx, f)


def finish_game(ctx: Ctx, won: list[int]) -> None:
    """The game is decided (a death, or in hegemony mode a reveal): every role shown, the side
    told, the table cleared and the flow stopped."""
    s = ctx.state
    s["winners"] = won
    for q in s["players"]:
        q["revealed"] = True
    say(ctx, "game_over", side=key_ref(f"sanguosha.side.{R.mode_of(s).side(s, won)}"))
    R.flush_proc(s)
    del ctx.stack[:]


def _end_turn_now(ctx: Ctx) -> None:
    """The current player died: everything still resolving in their turn stops; cards on the
    table go to the discard pile and the next player's turn begins."""
    stack = ctx.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i]["k"] == "turn":
            del stack[i + 1:]
            stack[i]["st"] = "end"
            stack[i].pop("ret", None)
            break
    R.flush_proc(ctx.state)
