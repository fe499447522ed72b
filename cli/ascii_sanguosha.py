"""三国杀 as text: whose turn and phase, the piles and what is being played, then one table row
per seat (name, hero, HP, hand size, equipment, judgement area, the role as far as it is shown,
dead or winner) and, in a seat's own view, its role and hand.

Drawn from the view of the seat playing at the terminal only (``view["you"]`` is its own), with
the card short names and labels the table picture uses (``render.sanguosha.*``), so the terminal
and Discord call things alike. Whose turn it is is marked ``>`` before the seat number.
"""

from __future__ import annotations

from typing import Any

from cli.ascii import packed, table
from engines.base import key_ref
from engines.sanguosha.rules import card_label
from i18n import has, t
from render.sanguosha_text import seat_name, short_name, using_text

#: The board says whose turn, each seat's HP, hand and role: the describe() lines would repeat it.
COVERS_STATUS = True
#: Horses are told apart by their slot: "+1 Dilu" keeps you farther, "-1 Red Hare" brings you nearer.
_HORSE = {"plus": "+1 ", "minus": "-1 "}
_SLOTS = ("weapon", "armor", "plus", "minus", "treasure")  # treasure: the 国战 lords option's 定澜夜明珠


def _c(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"core.cli.sanguosha.{key}", **params)


def _sep(locale: str) -> str:
    return t(locale, "core.cli.list_sep")


def _hero(p: dict[str, Any], locale: str) -> str:
    hero = p.get("hero")
    if not hero:
        return "?"  # still choosing
    if hero == "beginner":
        return "-"
    text = t(locale, f"sanguosha.hero.{hero}")
    kingdom = p.get("kingdom")
    return f"{text} · {t(locale, f'sanguosha.kingdom.{kingdom}')}" if kingdom else text


def _equip(p: dict[str, Any], locale: str) -> str:
    cards = [(slot, p["equip"][slot]) for slot in _SLOTS if p["equip"].get(slot)]
    return _sep(locale).join(_HORSE.get(slot, "") + short_name(locale, c["name"]) for slot, c in cards) or "-"


def _judge(p: dict[str, Any], locale: str) -> str:
    out = []
    for j in p.get("judge", []):
        key = f"render.sanguosha.judge.{j.get('as')}"
        out.append(t(locale, key) if has(key, locale) else short_name(locale, j["name"]))
    return _sep(locale).join(out) or "-"


def _role(p: dict[str, Any], view: dict[str, Any], locale: str) -> str:
    role = t(locale, f"sanguosha.role.{p['role'] or 'hidden'}")
    winners = view.get("winners")
    if winners is not None and p["seat"] in winners:
        return _c(locale, "winner", role=role)
    return role if p["alive"] else _c(locale, "dead", role=role)


def _card(c: dict[str, Any], locale: str) -> str:
    return f"{short_name(locale, c['name'])} {card_label(c['id'])}"


def render(view: dict[str, Any], names: list[str], locale: str) -> list[str]:
    lines: list[str] = []
    over = view.get("winners") is not None
    turn = view.get("turn")
    if over:
        lines.append(t(locale, "render.sanguosha.over"))
    elif turn is not None:
        lines.append(t(locale, "render.sanguosha.turn", round=view.get("round", 0), name=seat_name(locale, names, turn),
                       phase=key_ref(f"sanguosha.phase.{view.get('phase') or 'prepare'}")))
    lines.append(_c(locale, "piles", deck=view["deck"], discard=view["discard"]))
    using = using_text(view, locale, names)
    if using and not over:
        lines.append(using)
    if view.get("table") and not over:
        lines.append(_c(locale, "table", cards=_sep(locale).join(_card(c, locale) for c in view["table"])))
    waiting = view.get("waiting")
    if waiting and not over:
        if waiting.get("seat") is None:
            lines.append(t(locale, "sanguosha.desc.waiting"))
        elif waiting["seat"] != turn:
            lines.append(t(locale, "render.sanguosha.waiting_for", name=seat_name(locale, names, waiting["seat"])))
    rows = [[_c(locale, k) for k in ("player", "hero", "hp", "hand", "equip", "judge", "role")]]
    for p in view["players"]:
        mark = ">" if p["seat"] == turn and p["alive"] and not over else " "
        hp = f"{max(0, p['hp'])}/{p['max']}" if p["max"] else "…"  # no HP before the hero is chosen
        rows.append([f"{mark}{p['seat'] + 1} {seat_name(locale, names, p['seat'])}", _hero(p, locale), hp,
                     str(p["hand"]), _equip(p, locale), _judge(p, locale), _role(p, view, locale)])
    lines.extend(table(rows))
    you = view.get("you")
    if you:
        lines.append(t(locale, "sanguosha.private.role", role=key_ref(f"sanguosha.role.{you['role']}")))
        hand = you["hand"]
        if hand:
            lines.append(t(locale, "render.sanguosha.hand_title", n=len(hand)))
            lines.extend(packed([_card(c, locale) for c in hand]))
        else:
            lines.append(t(locale, "render.sanguosha.no_cards"))
    return lines
