"""三国杀 standing answers (issue 19): what a player sets once in their DM panel so the windows of
an asynchronous game answer for them at once — 闪 against a 杀, 桃 on themselves when dying,
never 无懈, pass what is not aimed at them, yes/no for an optional skill.

An answer is computed from the seat's own view (its hand, its ``you.ask``) and the request
alone, so it knows nothing its player would not; the service logs it as an ordinary action
(source "auto") at the window's uniform delay, so its timing tells the table nothing a quick
click would not. Only answers that can only help are on for a new player (闪 against damage, 桃
on oneself); the rest asks.
"""

from __future__ import annotations

from engines.base import Action, OptionSpec, Request, View
from engines.sanguosha import skills
from engines.sanguosha.heroes import hero
from engines.sanguosha.rules import m

__all__ = ["answer", "ask_always", "specs"]

ASK, YES, NO = "ask", "yes", "no"
#: The skills asked as a yes/no question (``skills.optional``, and 遗计's own ask).
YES_NO_EXTRA = ("yiji",)
#: Cards whose 闪/杀 request aims damage at the asked seat when unanswered.
DAMAGE_SHAN = ("sha", "wanjian")
DAMAGE_SHA = ("nanman",)


def _spec(name: str, values: tuple[str, ...], default: str) -> OptionSpec:
    return OptionSpec(name, m(f"standing.{name}"), [(v, m(f"standing.{name}_{v}")) for v in values], default)


def _yes_no_skills(view: View) -> list[str]:
    """The seat's optional skills: its shown heroes' and, in 国战, its hidden heroes' (a yes then
    shows that hero, which the ``reveal`` setting governs)."""
    you = view.get("you") or {}
    me = next((p for p in view.get("players", []) if p.get("seat") == you.get("seat")), {})
    optional = set(skills.EFFECT) | set(YES_NO_EXTRA)
    own = list(me.get("skills", ()))
    for h in _hidden_heroes(view):
        own += [k for k in hero(h).skills if k not in own]
    return [s for s in own if s in optional]


def _hidden_heroes(view: View) -> list[str]:
    return [h["id"] for h in (view.get("you") or {}).get("heroes", ()) if not h["shown"]]


def _hidden_skill(view: View, skill: str) -> bool:
    """Would using ``skill`` show one of the seat's hidden heroes (no shown hero has it)?"""
    you = view.get("you") or {}
    me = next((p for p in view.get("players", []) if p.get("seat") == you.get("seat")), {})
    return skill not in me.get("skills", ()) and any(skill in hero(h).skills for h in _hidden_heroes(view))


def specs(view: View) -> list[OptionSpec]:
    """The settings, the seat's own optional skills last (one yes/no/ask each)."""
    out = [_spec("shan", (YES, ASK), YES), _spec("tao", (YES, ASK), YES), _spec("sha", (YES, ASK), ASK),
           _spec("wuxie", (ASK, "mine", "never"), ASK), _spec("others", (ASK, "pass"), ASK)]
    if "heroes" in (view.get("you") or {}):  # 国战: showing a hidden hero
        out += [_spec("reveal", (ASK, YES, NO), ASK), _spec("reveal_start", (ASK, "keep"), ASK)]
    for sk in _yes_no_skills(view):
        out.append(OptionSpec(f"skill.{sk}", m("standing.skill", skill={"key": f"sanguosha.skill.{sk}"}),
                              [(v, m(f"standing.skill_{v}")) for v in (ASK, YES, NO)], ASK))
    return out


def ask_always(view: View) -> dict[str, str]:
    return {s.name: (ASK if any(v == ASK for v, _ in s.choices) else s.default) for s in specs(view)}


def _first(view: View, name: str) -> str | None:
    """The first card called ``name`` in the hand, in hand order (the panel's order)."""
    return next((c["id"] for c in (view.get("you") or {}).get("hand", ()) if c["name"] == name), None)


def answer(view: View, request: Request, settings: dict[str, str]) -> Action | None:
    you = view.get("you") or {}
    ask = you.get("ask")
    if not ask or request.default is None:
        return None
    me, kind, info = you["seat"], ask["kind"], ask["info"]
    default = list(request.default)
    passes = settings.get("others") == "pass"
    if kind == "need_shan":
        if info.get("for") is not None:  # 护驾: a 闪 for the lord, not against me
            return default if passes else None
        if settings.get("shan") == YES and info.get("card", "sha") in DAMAGE_SHAN:
            held = [c["id"] for c in you.get("hand", ()) if c["name"] == "shan"]
            # against 无双 one 闪 alone would be lost and the 杀 hit anyway: then the player decides
            return held[:1] if len(held) >= int(info.get("left", 1)) else None
        return None
    if kind == "need_sha":
        if info.get("for") is not None:  # 激将
            return default if passes else None
        if settings.get("sha") == YES and info.get("card") in DAMAGE_SHA:
            cid = _first(view, "sha")
            return [cid] if cid else None
        return None
    if kind == "peach":
        if info.get("dying") == me:
            cid = _first(view, "tao") if view.get("aozhan") != 2 else None  # 鏖战: a 桃 heals nobody
            return [cid] if cid and settings.get("tao") == YES else None
        return default if passes else None
    if kind == "nullify":
        wuxie = settings.get("wuxie")
        mine = (info.get("about") or {}).get("target") == me
        if wuxie == "never" or (wuxie == "mine" and not mine) or (passes and not mine):
            return default
        return None
    if kind == "skill":
        skill = str(info.get("skill"))
        choice = settings.get(f"skill.{skill}")
        if _hidden_skill(view, skill):  # a yes shows a hidden hero: the reveal setting decides first
            reveal = settings.get("reveal", ASK)
            if reveal == NO:
                return ["pass"]
            if reveal == ASK:
                return None
        return ["yes"] if choice == YES else ["pass"] if choice == NO else None
    if kind == "hg_reveal":  # 国战 start phase: keep the heroes hidden without being asked
        return ["pass"] if settings.get("reveal_start") == "keep" else None
    return None
