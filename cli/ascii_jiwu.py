"""极武三国 as text: whose turn (or the duel, or the result), one line per player with merit,
soldiers, spies, cards, might, silver and generals, the regions in play grouped by section
(centre, west, east) as a table of their slots, spies, 城池卡 and who holds them, the roads with
soldiers on them, the market row with each card's effect and, in a seat's own view, its hand
and stratagems.

Slots are written one token each: the seat number for a player's soldier (``*`` after it for a
general), ``N`` for a grey soldier, ``.`` for an empty slot. Drawn from the view of the seat
playing at the terminal only, with the words the pictures use (``render.jiwu_text``).
"""

from __future__ import annotations

from typing import Any

from cli.ascii import packed, table
from engines.jiwu.board import NEUTRAL, dominator
from engines.jiwu.data import board, card
from i18n import t
from render.jiwu_text import card_name, card_text, seat_name

#: The board says whose turn and each player's merit, soldiers, might and silver.
COVERS_STATUS = True
#: Sections in the order the table lists them (the rule book's centre, west and east).
SECTIONS = ("C", "W", "E")


def _c(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"core.cli.jiwu.{key}", **params)


def _who(view: dict[str, Any], locale: str, names: list[str], seat: int) -> str:
    if seat == NEUTRAL:
        return t(locale, "jiwu.neutral")
    return f"{seat + 1} {seat_name(view, locale, names, seat)}"


def _slot(view: dict[str, Any], slot: str) -> str:
    occ = view["slots"].get(slot)
    if occ is None:
        return "."
    owner, general = int(occ[0]), occ[1]
    return "N" if owner == NEUTRAL else f"{owner + 1}{'*' if general else ''}"


def _card(locale: str, cid: str) -> str:
    c = card(cid)
    tag = t(locale, f"jiwu_names.aspect.{c.aspect}") if c.aspect else t(locale, f"jiwu.render.kind.{c.kind}")
    name = t(locale, "jiwu.opt.card", card={"key": f"jiwu_names.card.{cid}"}, cost=c.cost)
    return _c(locale, "card", card=name, tag=tag, text=card_text(locale, cid))


def _head(view: dict[str, Any], locale: str, names: list[str]) -> list[str]:
    phase = view["phase"]
    if phase == "over":
        winners = t(locale, "core.cli.list_sep").join(
            seat_name(view, locale, names, s) for s in view.get("winners") or [])
        return [t(locale, "jiwu.render.over", players=winners)]
    deck = t(locale, "jiwu.render.deck", n=view["market_deck"])
    if phase == "duel" and view.get("duel"):
        duel = view["duel"]
        sides = [_general(view, locale, names, duel[k]) for k in ("a", "b")]
        return [f"{t(locale, 'jiwu.render.duel', round=duel['round'])} · {deck}",
                _c(locale, "duel", a=sides[0], b=sides[1])]
    key = "jiwu.render.setup" if phase == "setup" else "jiwu.render.turn"
    return [f"{t(locale, key, player=seat_name(view, locale, names, view['turn']))} · {deck}"]


def _general(view: dict[str, Any], locale: str, names: list[str], iid: str) -> str:
    for p in view["players"]:
        if iid in p["generals"]:
            return _c(locale, "duellist", card=card_name(locale, p["generals"][iid]["card"]),
                      player=seat_name(view, locale, names, p["seat"]))
    return iid


def _players(view: dict[str, Any], locale: str, names: list[str]) -> list[list[str]]:
    scores = view.get("scores") or {}
    rows = []
    for p in view["players"]:
        seat = p["seat"]
        merit = scores.get(str(seat), sum(p["vp"].values()))
        gens = []
        for g in p["generals"].values():
            name = card_name(locale, g["card"])
            region = str(g["slot"]).split(".", 1)[0] if g["slot"] else ""
            gens.append(_c(locale, "general_at", card=name, hp=g["hp"],
                           region={"key": f"jiwu_names.region.{region}"}) if region in board().regions
                        else _c(locale, "general", card=name, hp=g["hp"]))
        mark = ">" if seat in (view.get("asked") or []) and view["phase"] != "over" else " "
        color = t(locale, f"jiwu.color.{p['color']}")
        rows.append([f"{mark}{_who(view, locale, names, seat)} ({color})", _c(locale, "merit", n=merit),
                     t(locale, "jiwu.render.row", supply=p["supply"], spies=p["spies"], hand=p["hand"],
                       deck=p["deck"], power=p["power"], gold=p["gold"]),
                     t(locale, "core.cli.list_sep").join(gens)])
    return rows


def _regions(view: dict[str, Any], locale: str, names: list[str]) -> list[str]:
    b = board()
    open_ = {s.split(".", 1)[0] for s in view["slots"]}
    rows: list[list[str]] = []
    for section in SECTIONS:
        regions = [r for r in b.regions.values() if r.section == section and r.id in open_]
        if not regions:
            continue
        rows.append([_c(locale, f"section.{section}"),
                     *(_c(locale, f"col_{k}") for k in ("vp", "slots", "spies", "city", "holds"))])
        for r in regions:
            name = t(locale, f"jiwu_names.region.{r.id}")
            name = "  " + (_c(locale, "start", region=name) if r.start else name)
            slots = " ".join(_slot(view, f"{r.id}.{i}") for i in range(r.slots))
            spies = " ".join(str(s + 1) for s in view["spies"].get(r.id, [])) or "-"
            city = ""
            if r.city:
                holder = view["cities"].get(r.id)
                city = (_c(locale, "city", n=r.city) if holder is None
                        else _c(locale, "city_held", n=r.city, player=seat_name(view, locale, names, holder)))
            # 称霸 read off the view's public slots (the rule's own function; it needs no secret).
            top = dominator(view, r.id)
            rows.append([name, str(r.vp), slots, spies, city, "-" if top is None else _who(view, locale, names, top)])
    # One table for all sections, so their columns line up; each section starts with its heading.
    return [*table(rows), _c(locale, "legend")]


def _roads(view: dict[str, Any], locale: str) -> list[str]:
    entries = []
    for pid, p in board().paths.items():
        slots = [_slot(view, f"{pid}.{i}") for i in range(p.slots) if f"{pid}.{i}" in view["slots"]]
        if any(s != "." for s in slots):
            entries.append(_c(locale, "road", a={"key": f"jiwu_names.region.{p.a}"},
                              b={"key": f"jiwu_names.region.{p.b}"}, slots=" ".join(slots)))
    return [_c(locale, "roads"), *packed(entries)] if entries else []


def render(view: dict[str, Any], names: list[str], locale: str) -> list[str]:
    lines = _head(view, locale, names)
    lines.extend(table(_players(view, locale, names)))
    lines.extend(_regions(view, locale, names))
    lines.extend(_roads(view, locale))
    piles = view["piles"]
    lines.append(t(locale, "jiwu.render.market", n=view["market_deck"], jiangnan=piles.get("jiangnan", 0),
                   tieqi=piles.get("tieqi", 0), canbing=piles.get("canbing", 0)))
    lines.extend(f"  {_card(locale, c['card'])}" for c in view["market"])
    you = view.get("you")
    if you:
        me = view["players"][you["seat"]]
        lines.append(t(locale, "jiwu.render.purse", power=me["power"], gold=me["gold"], deck=me["deck"],
                       discard=me["discard"]))
        if you["hand"]:
            lines.append(t(locale, "jiwu.render.hand", n=len(you["hand"])))
            lines.extend(f"  {_card(locale, c['card'])}" for c in you["hand"])
        else:
            lines.append(t(locale, "jiwu.render.no_cards"))
        if you["plans"]:
            lines.append(t(locale, "jiwu.render.plans", n=len(you["plans"])))
            lines.extend(f"  {_card(locale, c['card'])}" for c in you["plans"])
        if you.get("duel_pick"):
            lines.append(_c(locale, "your_pick", move={"key": f"jiwu_names.duel.{you['duel_pick']}"}))
    return lines
