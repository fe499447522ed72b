"""三国杀 hegemony (国战) pictures: what a 国战 table adds to the identity-mode drawing.

The public table (``render.sanguosha.compose``, from ``view(state, None)`` only) draws a 国战 seat
with taller panels: its two heroes side by side, each face down until shown (a hidden hero is a
card back saying "main"/"deputy", never a name: the view holds null there), the panel framed in
the seat's kingdom colour once a shown hero settled it (野心家 in its own colour, with its chip),
marker chips (阴阳鱼, 先驱, 珠联璧合) and a 叠置 seat greyed with its label; the felt carries the
鏖战 banner from the turn it is announced. Eleven and twelve seats sit two to a side column
(``layout``), so the 1000 px picture stays readable when Discord shows it 550 px wide.

The seat's own pictures (DM panel, ephemeral): while the hero choice is asked, the heroes dealt
(kingdom, 阴阳鱼 halves, skill names; those without a partner of their kingdom greyed, since the
main needs one); afterwards, above the hand, its two heroes with shown/hidden state and skills,
its markers, and the hidden heroes it has looked at (先驱, 知己知彼, the next-deputy rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.sanguosha.heroes import Hero, hero
from i18n import has, t
from render import sanguosha as S
from render.common import BACKGROUND, INK, MUTED, RGB, darken, draw_text, lighten, mix, text_fit
from render.sanguosha_text import hero_name, seat_name

#: Taller seat panels than identity mode's: the main and deputy one above the other (a full
#: line each, so "Yan Liang & Wen Chou" stays readable at 550 px) and the marker line.
PANEL_H = 226
#: The felt is taller too: the 鏖战 banner sits above the "waiting for responses" pill.
MIDDLE_H = 280
#: Kingdom colours of frames and chips (野心家: a kingdom of one, in its own colour).
KINGDOM_COLOR: dict[str, RGB] = {**S.KINGDOM_INK, "ye": (128, 52, 160)}
STACKED_FILL: RGB = (212, 216, 228)
STACKED_CHIP: RGB = (90, 100, 130)
CHAINED_FILL: RGB = (200, 200, 200)
PILE_FILL: RGB = (240, 225, 190)
#: A seat with no kingdom yet: a light frame, apart from 群's dark grey.
UNKNOWN_FRAME: RGB = (178, 172, 162)
AOZHAN: RGB = (170, 30, 30)
MARKS = ("yinyang", "xianqu", "zhulian")
MARK_FILL: dict[str, RGB] = {"yinyang": (236, 236, 236), "xianqu": (255, 214, 160), "zhulian": (250, 200, 220)}
PEEK_FILL: RGB = (220, 232, 250)


def is_hegemony(view: dict[str, Any]) -> bool:
    """A 国战 view (its table has the 鏖战 state; identity views never do)."""
    return "aozhan" in view


def _r(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"render.sanguosha.hg.{key}", **params)


def _hero(hid: str) -> Hero | None:
    """The hero's data, or None for an id no registered pack knows (a picture still draws)."""
    try:
        return hero(hid)
    except KeyError:
        return None


def _skill_names(locale: str, h: Hero | None) -> str:
    if h is None:
        return ""
    names = [t(locale, f"sanguosha.skill.{k}") if has(f"sanguosha.skill.{k}", locale) else k for k in h.skills]
    return t(locale, "render.sanguosha.hg.list_sep").join(names)


def _halves(h: Hero | None) -> str:
    """A hero's HP in 阴阳鱼 halves, as the number players read on the card (1½, 2)."""
    if h is None:
        return "?"
    whole, half = divmod(round(h.hp * 2), 2)
    return f"{whole}½" if half else str(whole)


# ---------------------------------------------------------------------------------------------
# The public table


def layout(n: int) -> tuple[list[S.Box], S.Box, int]:
    return S.layout(n, PANEL_H, MIDDLE_H)


def _hero_tile(d: ImageDraw.ImageDraw, box: S.Box, hid: str | None, index: int, alive: bool, locale: str) -> None:
    """One of a seat's two heroes, main above deputy: face down (a card back saying main/deputy)
    until shown, then its name in its kingdom's colour."""
    x0, y0, x1, y1 = box
    label = _r(locale, "main" if index == 0 else "deputy")
    if hid is None:
        fill = (150, 60, 50) if alive else (170, 170, 170)
        d.rounded_rectangle(box, radius=5, fill=fill, outline=darken(fill, 0.4), width=2)
        d.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=4, outline=lighten(fill, 0.4), width=1)
        fitted, used = text_fit(label, x1 - x0 - 12, 15, True, min_size=11)
        draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2), fitted, used, (255, 240, 225), True, anchor="mm")
        return
    h = _hero(hid)
    ink = KINGDOM_COLOR.get(h.kingdom if h else "", INK) if alive else S.DEAD_INK
    d.rounded_rectangle(box, radius=5, fill=S.PANEL if alive else S.DEAD, outline=ink, width=2)
    fitted, used, bold = name_fit(hero_name(locale, hid), x1 - x0 - 6)
    draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2), fitted, used, ink, bold, anchor="mm")


#: The smallest name size on the table: 17 px is 9.35 px tall when shown 550 px wide.
NAME_MIN = 17
#: Room for a name on its line of a seat panel (the tile spans the panel but 8 px each side).
NAME_ROOM = S.PANEL_W - 22


def name_fit(name: str, room: float) -> tuple[str, int, bool]:
    """(text, size, bold) of a hero's name on its line: bold while it fits at a readable size,
    else the regular face, which is narrower than a smaller bold one ("Zhang Zhao & Zhang Hong")."""
    fitted, used = text_fit(name, room, S.HERO_SIZE, True, min_size=NAME_MIN)
    if fitted == name:
        return fitted, used, True
    fitted, used = text_fit(name, room, S.HERO_SIZE, False, min_size=14)
    return fitted, used, False


def _chips(p: dict[str, Any], locale: str) -> list[tuple[str, RGB]]:
    """A seat's public extras as (label, fill): markers held, 铁索连环, cards on its hero (周泰's
    创, ranks shown: they decide whether he is dying)."""
    out = []
    for mark in MARKS:
        n = (p.get("marks") or {}).get(mark, 0)
        if n:
            out.append((_r(locale, f"mark.{mark}") + (f"×{n}" if n > 1 else ""), MARK_FILL[mark]))
    if p.get("chained"):
        out.append((_r(locale, "chained"), CHAINED_FILL))
    for name, cards in sorted((p.get("piles") or {}).items()):
        key = f"sanguosha.skill.{name}"
        ranks = " ".join(S.RANK_TEXT.get(c.get("rank"), str(c.get("rank", ""))) for c in cards)
        out.append((_r(locale, "pile", name=t(locale, key) if has(key, locale) else name, cards=ranks), PILE_FILL))
    return out


def _chip_width(text: str, size: int) -> float:
    """A chip's width as ``render.sanguosha._chip`` draws it at its full size."""
    return S.text_width(text, size, True) + 12


def _chip_row(d: ImageDraw.ImageDraw, x: float, right: float, y: float, chips: list[tuple[str, RGB]],
              size: int, *, last: bool = True) -> list[tuple[str, RGB]]:
    """Chips left to right from ``x`` up to ``right``, each whole; returns those left over. The
    ``last`` row ends with a "+n" chip for what it cannot hold (a cut label would say nothing)."""
    for i, (text, fill) in enumerate(chips):
        room = right - x
        if _chip_width(text, size) > room:
            more = f"+{len(chips) - i}"
            if last and _chip_width(more, size) <= room:
                S._chip(d, x, y, more, size, (230, 230, 230), INK)
            return chips[i:]
        x += S._chip(d, x, y, text, size, fill, S.text_color_on(fill)) + 4
    return []


def _marks_flow(d: ImageDraw.ImageDraw, box: S.Box, p: dict[str, Any], locale: str, y: float,
                after_judge: float, state_room: float) -> None:
    """The 叠置 label, markers, 连环 and piles on the marker line; what does not fit goes on to the
    bottom line between the judgement chips and the seat's state (so a busy seat loses nothing)."""
    x0, _, x1, y1 = box
    chips = ([(_r(locale, "stacked"), STACKED_CHIP)] if p.get("stacked") else []) + _chips(p, locale)
    rest = _chip_row(d, x0 + 10, x1 - 8, y, chips, 13, last=False)
    if rest:
        _chip_row(d, after_judge, x1 - 8 - state_room, y1 - 27, rest, 13)


def draw_seat(d: ImageDraw.ImageDraw, box: S.Box, p: dict[str, Any], view: dict[str, Any], locale: str,
              names: Sequence[str]) -> None:
    """A 国战 seat from its public view entry: heroes shown or face down, the kingdom once known."""
    x0, y0, x1, y1 = box
    alive = p["alive"]
    is_turn, won, ink, fill = S._seat_state(p, view)
    if p.get("stacked") and alive and not won:
        fill = STACKED_FILL
    kingdom = p.get("role")  # the public kingdom: null while no hero is shown
    frame = KINGDOM_COLOR.get(kingdom or "")
    if not alive:
        border, bw = (150, 150, 150), 2
    elif is_turn or won:
        border, bw = S.GOLD, 5
    else:
        border, bw = (frame, 4) if frame else (UNKNOWN_FRAME, 2)
    d.rounded_rectangle(box, radius=10, fill=fill, outline=border, width=bw)
    if frame and alive and (is_turn or won):  # the kingdom inside the gold
        d.rounded_rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), radius=7, outline=frame, width=3)
    chip = t(locale, f"sanguosha.role.{kingdom}") if kingdom else "?"
    chip_fill = KINGDOM_COLOR.get(kingdom or "", S.HIDDEN_ROLE)
    if not alive:
        chip_fill = mix(chip_fill, S.DEAD, 0.45)
    S._header(d, box, p, locale, names, ink, fill, chip, chip_fill)
    heroes = p.get("heroes") or [None, None]
    for i, hid in enumerate(heroes[:2]):
        ty = y0 + 40 + i * 28
        _hero_tile(d, (x0 + 8, ty, x1 - 8, ty + 25), hid, i, alive, locale)
    S._stats(d, x0, y0 + 110, p, ink)
    S._equipment(d, x0, x1, y0 + 138, p, ink, locale)
    after_judge = S._bottom(d, box, p, view, locale, is_turn, won)
    # The state at the bottom right: the phase chip, "dead"/"winner", or the distance.
    state_room = 126 if is_turn else 76 if won or not alive else 44
    _marks_flow(d, box, p, locale, y0 + 173, after_judge, state_room)


def draw_banner(d: ImageDraw.ImageDraw, table: S.Box, view: dict[str, Any], locale: str) -> None:
    """鏖战: announced (from the next turn) or on; a red ribbon on the felt, never switched off."""
    state = view.get("aozhan") or 0
    if not state or view.get("winners") is not None:
        return
    x0, _, x1, y1 = table
    text = _r(locale, "aozhan" if state == 2 else "aozhan_next")
    fitted, used = text_fit(text, (x1 - x0) - 90, 18, True, min_size=12)
    w = S.text_width(fitted, used, True)
    cx, y = (x0 + x1) / 2, y1 - 72
    d.rounded_rectangle((cx - w / 2 - 14, y, cx + w / 2 + 14, y + used + 12), radius=6, fill=AOZHAN,
                        outline=S.GOLD, width=2)
    draw_text(d, (cx, y + (used + 12) / 2), fitted, used, (255, 255, 255), True, anchor="mm")


def over_side(view: dict[str, Any]) -> str:
    """The winning kingdom's side key (all winners share one kingdom; 野心家 alone)."""
    roles = {p["seat"]: p.get("role") for p in view.get("players", [])}
    won = [roles.get(s) for s in view.get("winners") or []]
    return str(won[0]) if won and won[0] else ""


# ---------------------------------------------------------------------------------------------
# The seat's own pictures

OFFER_ROW = 50


def compose_offer(view: dict[str, Any], locale: str) -> Image.Image:
    """The heroes dealt to this seat while it chooses main and deputy: one row each, in the
    buttons' order, with kingdom, 阴阳鱼 HP and skills; a hero with no partner of its kingdom in
    the offer is greyed (it cannot be the main, and no main can take it as deputy)."""
    offer = list((view.get("you") or {}).get("offer") or [])
    data = [_hero(h) for h in offer]
    kingdoms = [h.kingdom if h else "" for h in data]
    top = 42
    img = Image.new("RGB", (S.HAND_W, top + len(offer) * OFFER_ROW + 8), BACKGROUND)
    d = ImageDraw.Draw(img)
    fitted, used = text_fit(_r(locale, "offer_title", n=len(offer)), S.HAND_W - 20, 18, True, min_size=12)
    draw_text(d, (10, 22), fitted, used, INK, True, anchor="lm")
    for i, (hid, h) in enumerate(zip(offer, data, strict=True)):
        y = top + i * OFFER_ROW
        alone = kingdoms.count(kingdoms[i]) < 2
        colour = KINGDOM_COLOR.get(kingdoms[i], MUTED)
        ink = MUTED if alone else colour
        d.rounded_rectangle((10, y, S.HAND_W - 10, y + OFFER_ROW - 6), radius=7,
                            fill=(236, 236, 236) if alone else S.PANEL, outline=mix(colour, (255, 255, 255), 0.3),
                            width=2)
        d.rectangle((10, y, 16, y + OFFER_ROW - 6), fill=colour)
        kkey = f"sanguosha.kingdom.{kingdoms[i]}"
        kw = S._chip(d, 24, y + 10, t(locale, kkey) if has(kkey, locale) else "?", 14,
                     mix(colour, (255, 255, 255), 0.15) if not alone else (200, 200, 200), max_w=96)
        nx = 24 + kw + 8
        hx = 256  # HP and skills in columns, whatever the kingdom chip's width
        name, size = text_fit(hero_name(locale, hid), hx - nx - 8, 20, True, min_size=13)
        draw_text(d, (nx, y + (OFFER_ROW - 6) / 2), name, size, ink, True, anchor="lm")
        S._heart(d, hx + 8, y + (OFFER_ROW - 6) / 2, 7.5, S.HP_FULL if not alone else (170, 170, 170),
                 darken(S.HP_FULL if not alone else (170, 170, 170), 0.3))
        draw_text(d, (hx + 20, y + (OFFER_ROW - 6) / 2), _halves(h), 18, INK, True, anchor="lm")
        sx = hx + 62
        skills = _skill_names(locale, h) if not alone else _r(locale, "no_partner")
        fitted, used = text_fit(skills, S.HAND_W - 18 - sx, 16, not alone, min_size=11)
        draw_text(d, (sx, y + (OFFER_ROW - 6) / 2), fitted, used, INK if not alone else MUTED, not alone,
                  anchor="lm")
    return img


HERO_ROW = 62
NOTE_ROW = 30


def hand_rows_height(view: dict[str, Any]) -> int:
    """The room above the cards for the seat's heroes and its markers/peeks (0: identity mode)."""
    you = view.get("you") or {}
    if not you.get("heroes"):
        return 0
    return HERO_ROW + (NOTE_ROW if _notes(view) else 0)


def _notes(view: dict[str, Any], locale: str = "en") -> bool:
    me = _me(view)
    return bool((view.get("you") or {}).get("peeks") or _chips(me, locale) or me.get("stacked"))


def _me(view: dict[str, Any]) -> dict[str, Any]:
    seat = (view.get("you") or {}).get("seat")
    return next((p for p in view.get("players", []) if p.get("seat") == seat), {})


def draw_hand_rows(d: ImageDraw.ImageDraw, view: dict[str, Any], locale: str, names: Sequence[str], y: float) -> None:
    """The seat's main and deputy (shown or hidden, with skills), then markers and peeked heroes."""
    you = view.get("you") or {}
    w = (S.HAND_W - 26) / 2
    for i, h in enumerate(you.get("heroes") or []):
        x = 10 + i * (w + 6)
        data = _hero(h["id"])
        colour = KINGDOM_COLOR.get(data.kingdom if data else "", INK)
        shown = bool(h.get("shown"))
        d.rounded_rectangle((x, y, x + w, y + HERO_ROW - 8), radius=7, fill=S.PANEL if shown else (232, 226, 222),
                            outline=colour, width=3 if shown else 2)
        state = _r(locale, "shown" if shown else "hidden")
        role = _r(locale, "main" if i == 0 else "deputy")
        cw = S._chip(d, x + w - 6, y + 5, state, 13, colour if shown else (150, 60, 50), anchor_right=True, max_w=90)
        name, size = text_fit(f"{role} · {hero_name(locale, h['id'])}", w - cw - 18, 18, True, min_size=12)
        draw_text(d, (x + 8, y + 16), name, size, colour, True, anchor="lm")
        skills = _skill_names(locale, data)
        if h.get("lost"):
            skills = _r(locale, "lost")
        fitted, used = text_fit(f"♥{_halves(data)} · {skills}", w - 16, 15, False, min_size=10)
        draw_text(d, (x + 8, y + 40), fitted, used, INK, False, anchor="lm")
    if not _notes(view):
        return
    me = _me(view)
    chips = _chips(me, locale)
    if me.get("stacked"):
        chips.append((_r(locale, "stacked"), STACKED_FILL))
    for peek in you.get("peeks") or []:
        chips.append((_r(locale, "peek", name=seat_name(locale, names, peek["seat"]),
                         which=_r(locale, "main" if peek["index"] == 0 else "deputy"),
                         hero=hero_name(locale, peek["hero"])), PEEK_FILL))
    _chip_row(d, 10, S.HAND_W - 10, y + HERO_ROW - 2, chips, 14)  # 530 px: room for all but many peeks
