"""Risk as text: one line per continent listing each territory as ``name owner:armies``, then one
line per player and, in a seat's own view, its cards and mission. The map's continents come from
the engine's data so the listing follows the map file."""

from __future__ import annotations

from typing import Any

from engines.base import Msg
from i18n import t, tm


def _owner(owner: Any, names: list[str]) -> str:
    if isinstance(owner, int) and 0 <= owner < len(names):
        return str(owner + 1)
    return "N"  # neutral armies


def render(view: dict[str, Any], names: list[str], locale: str) -> list[str]:
    from engines.risk.data import content

    territories = view["territories"]
    lines: list[str] = []
    for cid, members in content().continents.items():
        cells = [f"{t(locale, f'risk.territory.{tid}')} {_owner(territories[tid]['owner'], names)}:"
                 f"{territories[tid]['armies']}" for tid in members if tid in territories]
        lines.append(f"{t(locale, f'risk.continent.{cid}')}: " + ", ".join(cells))
    for p in view["players"]:
        name = names[p["seat"]] if p["seat"] < len(names) else str(p["seat"] + 1)
        lines.append(t(locale, "core.cli.risk_player", number=p["seat"] + 1, name=name,
                       territories=p["territories"], armies=p["armies"], cards=p["cards"]))
    you = view.get("you")
    if you:
        cards = ", ".join(_card(c, locale) for c in you["cards"]) or "-"
        lines.append(t(locale, "core.cli.risk_cards", cards=cards))
        if you.get("mission"):
            lines.append(tm(locale, Msg.from_json(you["mission"]["text"])))
    return lines


def _card(card: dict[str, Any], locale: str) -> str:
    """A card with its symbol ("Alaska – Infantry"): sets are traded by symbol, so the hand must
    show them."""
    if not card.get("territory"):
        return t(locale, "risk.card.wild")
    name = t(locale, f"risk.territory.{card['territory']}")
    return t(locale, "risk.opt.card", name=name, symbol=t(locale, f"risk.symbol.{card['symbol']}"))
