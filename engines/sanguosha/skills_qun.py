"""群 skills: 青囊 急救 无双 离间 闭月 (see skills.py for the mechanism and
docs/rules/sanguosha.md for the rulings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.base import EngineError, Step
from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, _discard_order, _valid, _worth_hitting, play_hint, value
from engines.sanguosha.choices import card_opt, seat_opt
from engines.sanguosha.data import card
from engines.sanguosha.frames import push_use, recover
from engines.sanguosha.packs import STANDARD_HEROES
from engines.sanguosha.rules import m, say, who
from engines.sanguosha.skills import Active, Conversion, active, announce, conversion, optional
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


# 青囊 -------------------------------------------------------------------------------------------

def _wounded(state: State, seat: int) -> list[int]:
    ps = state["players"]
    return [x for x in R.living(state, seat) if ps[x]["hp"] < ps[x]["max"]]


def _qingnang_step(state: State, seat: int, path: list[str]) -> Step:
    hand = state["players"][seat]["hand"]
    if not path:
        return Step(m("step.qingnang_card"), [card_opt(c) for c in hand])
    if path[0] not in hand:
        raise EngineError("sanguosha.err.illegal")
    if len(path) == 1:
        return Step(m("step.qingnang_to"), [seat_opt(state, x, seat) for x in _wounded(state, seat)])
    if ascii_int(path[1]) not in _wounded(state, seat) or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.qingnang_to"), [], complete=True)


def _qingnang_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "qingnang")
    announce(ctx, seat, "qingnang")
    R.to_discard(ctx.state, path[:1])
    say(ctx, "discard", who=who(seat), cards=R.card_label(path[0]))
    target = int(path[1])
    R.note_act(ctx.state, seat, target, -2)
    recover(ctx, target, 1, seat)


active(Active("qingnang", lambda s, seat: not R.flag(s, "qingnang") and bool(s["players"][seat]["hand"])
              and bool(_wounded(s, seat)), _qingnang_step, _qingnang_start))


# 急救: outside your turn, a red card as a 桃 ----------------------------------------------------

conversion(Conversion("jijiu", "jijiu", "tao", lambda s, seat, c: card(c).red, equip=True,
                      when=lambda s, seat: s["turn"] != seat))


# 无双 -------------------------------------------------------------------------------------------

@STANDARD_HEROES.on("sha_effect", "wushuang", priority=25, can=lambda ctx, ev: R.has_skill(ctx.state, ev["user"], "wushuang"))
def _wushuang(ctx: Ctx, ev: Ev) -> None:
    ev["need"] = max(ev["need"], 2)


@STANDARD_HEROES.modifier("juedou_need", "wushuang")
def _wushuang_duel(state: State, value: int, args: dict[str, Any]) -> int:
    """The one playing 杀 in a duel against 吕布 needs two each time."""
    return max(value, 2) if R.has_skill(state, args["other"], "wushuang") else value


# 离间 -------------------------------------------------------------------------------------------

def _men(state: State, seat: int) -> list[int]:
    return [x for x in R.living(state, seat + 1) if x != seat and state["players"][x].get("gender") == "m"]


@dataclass(frozen=True)
class Lijian:
    """离间 as an edition words it: ``first_uses`` — the first chosen man uses the 决斗 on the
    second (identity) or the second on the first (国战); ``nowuxie`` — it cannot be negated
    (identity). ``prompts``: the step keys for the first and the second man."""

    skill: str
    first_uses: bool
    nowuxie: bool
    prompts: tuple[str, str]

    def _ok(self, state: State, first: int, second: int) -> bool:
        user, target = (first, second) if self.first_uses else (second, first)
        return R.can_target(state, user, target, "juedou")

    def step(self, state: State, seat: int, path: list[str]) -> Step:
        mine = R.all_cards(state, seat, judge=False)
        if not path:
            return Step(m("step.lijian_card"), [card_opt(c) for c in mine])
        if path[0] not in mine:
            raise EngineError("sanguosha.err.illegal")
        men = _men(state, seat)
        chosen = [ascii_int(t) for t in path[1:]]
        if len(chosen) > 2 or len(set(chosen)) != len(chosen) or any(c not in men for c in chosen):
            raise EngineError("sanguosha.err.illegal")
        if len(chosen) == 2:
            if not self._ok(state, chosen[0], chosen[1]):  # type: ignore[arg-type]
                raise EngineError("sanguosha.err.illegal")
            return Step(m(self.prompts[1]), [], complete=True)
        if not chosen:
            return Step(m(self.prompts[0]), [seat_opt(state, x, seat) for x in men
                                             if any(self._ok(state, x, y) for y in men if y != x)])
        return Step(m(self.prompts[1]), [seat_opt(state, x, seat) for x in men if x != chosen[0]
                                         and self._ok(state, chosen[0], x)])  # type: ignore[arg-type]

    def start(self, ctx: Ctx, seat: int, path: list[str]) -> None:
        R.bump(ctx.state, self.skill)
        announce(ctx, seat, self.skill)
        R.to_discard(ctx.state, path[:1])
        say(ctx, "discard", who=who(seat), cards=R.card_label(path[0]))
        a, b = int(path[1]), int(path[2])
        user, target = (a, b) if self.first_uses else (b, a)
        push_use(ctx, user, "juedou", [], [target], count=False, extra={"nowuxie": True} if self.nowuxie else None)

    def can(self, state: State, seat: int) -> bool:
        men = _men(state, seat)
        return (not R.flag(state, self.skill) and R.has_cards(state, seat, judge=False)
                and any(self._ok(state, a, b) for a in men for b in men if a != b))

    def active(self) -> Active:
        return Active(self.skill, self.can, self.step, self.start)


active(Lijian("lijian", first_uses=True, nowuxie=True, prompts=("step.lijian_a", "step.lijian_b")).active())


# 闭月 -------------------------------------------------------------------------------------------

@optional("phase_start", "biyue", can=lambda ctx, ev: ev["phase"] == "finish" and not ev["skip"])
def _biyue(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.draw(ctx, f["seat"], 1)


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

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
