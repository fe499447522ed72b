"""三国杀 pictures: the public table (seats around a felt table) and a seat's own hand.

The table image is drawn from ``view(state, None)`` only, so it cannot show a hand or a secret
role: two games that differ only in hidden cards give the same bytes (tests/render). Seats sit
on a ring of panels around an oval table, seat 1 top left and the rest clockwise, the way the
turn goes; the middle shows whose turn and phase it is, the deck and discard counts, the cards
being used (or the last discards) and "waiting for responses" while a window is open (never who
could answer: that would tell who holds a 闪 or 无懈).

Every number a player reads at a glance (HP, hand size, distance, deck and discard counts) is
bold and big enough to stay >= 9 px tall when Discord shows the 1000 px picture ~550 px wide
(tests/render/test_digit_height.py). Roles are written out as well as coloured, dead seats are
greyed and struck, and suits keep their printed colours (♠♣ ink, ♥♦ red).

The hand picture (:func:`render_hand`) is for its owner only (DM or ephemeral): the cards as
little playing cards with suit, rank and a short name, plus the seat's role and equipment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import key_ref
from i18n import has, t
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    PLAYER_COLORS,
    RGB,
    darken,
    draw_text,
    draw_text_centered,
    lighten,
    mix,
    text_color_on,
    text_fit,
    text_width,
    to_png,
)
from render.sanguosha_text import hero_name, seat_name, short_name, using_text

Box = tuple[float, float, float, float]

WIDTH = 1000
MARGIN = 10
GAP = 10
PANEL_W = 232
PANEL_H = 168
MIDDLE_H = 236
#: Bold pixel sizes of the numbers read at a glance: HP, hand size, distance, pile counts. At
#: 1000 px shown 550 px wide the digits' ink is >= 9.5 px tall (the test measures it).
NUMBER_SIZE = 28
DIST_SIZE = 24
NAME_SIZE = 21
HERO_SIZE = 19
#: Kingdom colours of the hero line (dark enough on the panel's cream).
KINGDOM_INK = {"wei": (40, 70, 150), "shu": (160, 40, 30), "wu": (30, 110, 50), "qun": (90, 90, 90)}
EQUIP_SIZE = 17
SMALL_SIZE = 15

SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
SLOT_ICON = {"weapon": "⚔", "armor": "🛡", "plus": "+1", "minus": "−1", "treasure": "◆"}
SLOTS = ("weapon", "armor", "plus", "minus")
#: The slots drawn when filled: the four, and the 国战 lords option's treasure (定澜夜明珠), which a
#: seat has only once a treasure is put there (so no other picture changes).
FILLED_SLOTS = (*SLOTS, "treasure")
#: The emoji faces draw ⚔ and 🛡 small for their size; horses are plain text.
ICON_SIZE = {"weapon": 22, "armor": 21, "plus": 17, "minus": 17, "treasure": 17}

RED_SUIT: RGB = PLAYER_COLORS[0]
BLACK_SUIT: RGB = INK
GOLD: RGB = (235, 170, 20)
FELT: RGB = (38, 110, 72)
FELT_EDGE: RGB = (96, 62, 30)
PANEL: RGB = (255, 255, 255)
DEAD: RGB = (206, 206, 206)
DEAD_INK: RGB = (120, 120, 120)
HP_FULL: RGB = PLAYER_COLORS[0]
HP_LOST: RGB = (215, 208, 200)
WAIT: RGB = (255, 214, 102)
DIST_INK: RGB = (30, 90, 170)
#: Role colours as printed on the identity cards (主公 red, 忠臣 yellow, 反贼 green, 内奸 blue),
#: taken from the seat palette, whose pairs stay apart under every colour blindness; the role is
#: always written on the chip too.
ROLE_COLOR: dict[str, RGB] = {"lord": PLAYER_COLORS[0], "loyalist": PLAYER_COLORS[1],
                              "rebel": PLAYER_COLORS[3], "renegade": PLAYER_COLORS[2]}
HIDDEN_ROLE: RGB = (222, 218, 210)
#: The colour strip of a card in a hand, by card type.
TYPE_COLOR: dict[str, RGB] = {"basic": (200, 190, 170), "trick": (120, 160, 220),
                              "delayed": (150, 110, 190), "equip": (205, 140, 60)}
def card_type(c: dict[str, Any]) -> str:
    """The card's type as its view gives it (cards.json via ``views.card_json``)."""
    return str(c.get("type") or "basic")


def _r(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"render.sanguosha.{key}", **params)


def suit_rank(c: dict[str, Any]) -> str:
    return f"{SUIT_SYMBOL.get(c.get('suit', ''), '?')}{RANK_TEXT.get(c.get('rank'), str(c.get('rank', '')))}"


def suit_color(c: dict[str, Any]) -> RGB:
    return RED_SUIT if c.get("suit") in ("H", "D") else BLACK_SUIT


# ---------------------------------------------------------------------------------------------
# Layout

#: Panels per side (top, right, bottom, left) for 2-12 seats; seat 0 is top left, then clockwise
#: (11 and 12: hegemony, two panels on each side, one above the other).
SIDES: dict[int, tuple[int, int, int, int]] = {
    2: (1, 0, 1, 0), 3: (2, 0, 1, 0), 4: (2, 0, 2, 0), 5: (2, 1, 1, 1), 6: (2, 1, 2, 1),
    7: (3, 1, 2, 1), 8: (3, 1, 3, 1), 9: (4, 1, 3, 1), 10: (4, 1, 4, 1), 11: (4, 2, 3, 2), 12: (4, 2, 4, 2),
}


def _row(count: int, y: float, reverse: bool, panel_h: float = PANEL_H) -> list[Box]:
    """``count`` panels spread over the width (evenly, so two read as left and right)."""
    if count <= 0:
        return []
    slot = (WIDTH - 2 * MARGIN) / count
    boxes = []
    for i in range(count):
        cx = MARGIN + slot * (i + 0.5)
        boxes.append((cx - PANEL_W / 2, y, cx + PANEL_W / 2, y + panel_h))
    return boxes[::-1] if reverse else boxes


def _column(count: int, x: float, y_mid: float, middle_h: float, panel_h: float, reverse: bool) -> list[Box]:
    """``count`` panels stacked in the middle band at ``x``, centred (top to bottom; ``reverse``:
    bottom to top, the way the turn goes up the left side)."""
    used = count * panel_h + (count - 1) * GAP
    y0 = y_mid + (middle_h - used) / 2
    boxes = [(x, y0 + i * (panel_h + GAP), x + PANEL_W, y0 + i * (panel_h + GAP) + panel_h) for i in range(count)]
    return boxes[::-1] if reverse else boxes


def layout(n: int, panel_h: int = PANEL_H, middle_h: int = MIDDLE_H) -> tuple[list[Box], Box, int]:
    """Panel boxes in seat order, the table's box in the middle, and the image height
    (``panel_h``/``middle_h``: hegemony's taller panels; the middle grows to hold the side columns)."""
    top, right, bottom, left = SIDES[max(2, min(12, n))]
    middle_h = max(middle_h, max(right, left) * (panel_h + GAP) - GAP)
    y_top = MARGIN
    y_mid = y_top + panel_h + GAP
    y_bot = y_mid + middle_h + GAP
    height = y_bot + panel_h + MARGIN
    boxes = _row(top, y_top, False, panel_h)
    boxes += _column(right, WIDTH - MARGIN - PANEL_W, y_mid, middle_h, panel_h, False)
    boxes += _row(bottom, y_bot, True, panel_h)
    boxes += _column(left, MARGIN, y_mid, middle_h, panel_h, True)
    x0 = MARGIN + (PANEL_W + GAP if left else 0)
    x1 = WIDTH - MARGIN - (PANEL_W + GAP if right else 0)
    return boxes[:n], (x0, y_mid, x1, y_mid + middle_h), int(height)


# ---------------------------------------------------------------------------------------------
# Small pieces


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int, fill: RGB,
          ink: RGB | None = None, anchor_right: bool = False, max_w: float = 200) -> float:
    """A rounded label; returns its width. ``anchor_right``: ``x`` is the right edge."""
    fitted, used = text_fit(text, max_w - 12, size, True, min_size=max(10, size - 4))
    w = text_width(fitted, used, True) + 12
    h = used + 8
    x0 = x - w if anchor_right else x
    d.rounded_rectangle((x0, y, x0 + w, y + h), radius=h / 2, fill=fill, outline=darken(fill, 0.35))
    draw_text(d, (x0 + w / 2, y + h / 2), fitted, used, ink or text_color_on(fill), True, anchor="mm")
    return w


#: A delayed trick in a judgement area: its chip colour and an icon that is not language.
JUDGE_STYLE: dict[str, tuple[RGB, str]] = {"shandian": ((255, 226, 80), "⚡"), "lebu": ((200, 170, 230), "")}


def _judge_chip(d: ImageDraw.ImageDraw, x: float, y: float, j: dict[str, Any], locale: str) -> float:
    """A delayed trick waiting in a judgement area (乐/电: one character in Chinese)."""
    name = j.get("as") or j.get("name", "")
    fill, icon = JUDGE_STYLE.get(name, ((200, 200, 200), ""))
    key = f"render.sanguosha.judge.{name}"
    label = t(locale, key) if has(key, locale) else short_name(locale, name)
    return _chip(d, x, y, f"{icon}{label}", 14, fill, INK, max_w=110)


def _heart(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB, outline: RGB) -> None:
    """An HP pip: a heart of two circles and a triangle (the shape, not only the colour, tells
    a full pip from a lost one: lost pips are hollow)."""
    pts = [(cx - r * 1.0, cy - r * 0.15), (cx + r * 1.0, cy - r * 0.15), (cx, cy + r * 1.05)]
    for ox in (-0.5, 0.5):
        d.ellipse((cx + ox * r - r * 0.55, cy - r * 0.75, cx + ox * r + r * 0.55, cy + r * 0.35),
                  fill=fill, outline=outline, width=2)
    d.polygon(pts, fill=fill, outline=outline)
    if fill != outline:
        # Re-fill the joins the outlines drew across the middle.
        for ox in (-0.5, 0.5):
            d.ellipse((cx + ox * r - r * 0.55 + 2, cy - r * 0.75 + 2, cx + ox * r + r * 0.55 - 2,
                       cy + r * 0.35 - 2), fill=fill)
        d.polygon([(cx - r * 0.85, cy - r * 0.1), (cx + r * 0.85, cy - r * 0.1), (cx, cy + r * 0.85)], fill=fill)


def _card_back(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, dim: bool = False) -> None:
    fill = (150, 60, 50) if not dim else (170, 170, 170)
    d.rounded_rectangle((x, y, x + w, y + h), radius=3, fill=fill, outline=darken(fill, 0.4), width=2)
    d.rounded_rectangle((x + 3, y + 3, x + w - 3, y + h - 3), radius=2, outline=lighten(fill, 0.4), width=1)


def _mini_card(d: ImageDraw.ImageDraw, box: Box, c: dict[str, Any], locale: str, fanned: bool = False) -> None:
    """A face-up card on the table: suit and rank on top, the short name below. ``fanned``: the
    next card covers this one's right part, so the suit and rank go in the corner that shows."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=5, fill=PANEL, outline=(120, 110, 100), width=1)
    d.rectangle((x0 + 1, y1 - 5, x1 - 1, y1 - 2), fill=TYPE_COLOR[card_type(c)])
    if fanned:
        draw_text(d, (x0 + 4, y0 + 3), suit_rank(c), 17, suit_color(c), True)
        return
    draw_text(d, ((x0 + x1) / 2, y0 + 3), suit_rank(c), 17, suit_color(c), True, anchor="ma")
    draw_text_centered(d, (x0 + 2, y0 + 24, x1 - 2, y1 - 6), short_name(locale, c.get("face") or c.get("name", "")),
                       15, INK, True, min_size=10)


# ---------------------------------------------------------------------------------------------
# Seats


def _seat_state(p: dict[str, Any], view: dict[str, Any]) -> tuple[bool, bool, RGB, RGB]:
    """(the seat's turn now, a winner, its ink, its panel fill)."""
    alive = p["alive"]
    winners = view.get("winners")
    is_turn = view.get("turn") == p["seat"] and alive and winners is None
    won = winners is not None and p["seat"] in winners
    ink = INK if alive else DEAD_INK
    fill = PANEL if alive else DEAD
    if won:
        fill = (255, 246, 214)
    return is_turn, won, ink, fill


def _header(d: ImageDraw.ImageDraw, box: Box, p: dict[str, Any], locale: str, names: Sequence[str],
            ink: RGB, fill: RGB, chip_text: str, chip_fill: RGB) -> None:
    """Seat number, name, and the role (or kingdom) chip at the right."""
    x0, y0, x1, _ = box
    seat = p["seat"]
    d.ellipse((x0 + 8, y0 + 8, x0 + 34, y0 + 34), fill=ink)
    draw_text(d, (x0 + 21, y0 + 21), str(seat + 1), 17, fill, True, anchor="mm")
    chip_w = _chip(d, x1 - 8, y0 + 8, chip_text, 16, chip_fill, anchor_right=True, max_w=96)
    name_room = (x1 - 8 - chip_w - 6) - (x0 + 40)
    fitted, used = text_fit(seat_name(locale, names, seat), name_room, NAME_SIZE, True, min_size=14)
    draw_text(d, (x0 + 40, y0 + 21), fitted, used, ink, True, anchor="lm")


def _stats(d: ImageDraw.ImageDraw, x0: float, sy: float, p: dict[str, Any], ink: RGB) -> None:
    """HP pips and number, hand size."""
    alive = p["alive"]
    hp, mx = max(0, p["hp"]), max(0, p["max"])
    pips = min(mx, 5)
    r = 8.5 if pips <= 4 else 7.5
    px = x0 + 14 + r
    full_ink = HP_FULL if alive else DEAD_INK
    for i in range(pips):
        filled = i < hp if mx <= 5 else i < round(hp * 5 / mx)
        _heart(d, px, sy, r, full_ink if filled else HP_LOST, darken(full_ink if filled else HP_LOST, 0.3))
        px += 2 * r + 3
    hp_text = f"{hp}/{mx}" if mx else "…"  # no HP before the hero is chosen
    w = draw_text(d, (px + 2, sy), hp_text, NUMBER_SIZE, ink, True, anchor="lm")
    hx = max(px + w + 14, x0 + 150)
    _card_back(d, hx, sy - 13, 18, 26, dim=not alive)
    draw_text(d, (hx + 23, sy), str(p["hand"]), NUMBER_SIZE, ink, True, anchor="lm")


def _equipment(d: ImageDraw.ImageDraw, x0: float, x1: float, y: float, p: dict[str, Any], ink: RGB,
               locale: str) -> None:
    """The filled slots only (an empty slot says nothing worth the room), one to a line while two
    fit, else two to a line (three with a treasure beside four items, to stay on two lines);
    ``y``: the first line's middle."""
    filled = [(slot, p["equip"][slot]) for slot in FILLED_SLOTS if p["equip"].get(slot)]
    cols = 1 if len(filled) <= 2 else 2 if len(filled) <= 4 else 3  # 5: the lords option's treasure too
    col_w = (x1 - x0 - 20) / cols
    for i, (slot, c) in enumerate(filled):
        cx = x0 + 10 + (i % cols) * col_w
        cy = y + (i // cols) * 23
        iw = draw_text(d, (cx, cy), SLOT_ICON[slot], ICON_SIZE[slot], ink, True, anchor="lm")
        label, size = text_fit(short_name(locale, c["name"]), col_w - iw - 8, EQUIP_SIZE, True, min_size=12)
        draw_text(d, (cx + iw + 4, cy), label, size, ink, True, anchor="lm")


def _bottom(d: ImageDraw.ImageDraw, box: Box, p: dict[str, Any], view: dict[str, Any], locale: str,
            is_turn: bool, won: bool) -> float:
    """Bottom line: judgement area (left), state (right); returns where the judgement chips end."""
    x0, y0, x1, y1 = box
    by = y1 - 27
    jx = x0 + 10
    for j in p.get("judge", []):
        jx += _judge_chip(d, jx, by, j, locale) + 4
    if won:
        _chip(d, x1 - 8, by, _r(locale, "winner"), 14, GOLD, INK, anchor_right=True)
    elif not p["alive"]:
        _chip(d, x1 - 8, by, _r(locale, "dead"), 14, (90, 90, 90), anchor_right=True)
        d.line((x0 + 10, y1 - 10, x1 - 10, y0 + 44), fill=(150, 150, 150), width=2)
    elif is_turn:
        phase = view.get("phase") or "prepare"
        _chip(d, x1 - 8, by, _r(locale, "phase", phase=key_ref(f"sanguosha.phase.{phase}")),
              14, GOLD, INK, anchor_right=True, max_w=120)
    elif p.get("distance") is not None and view.get("winners") is None:
        # Distance from the player whose turn it is (horses included).
        draw_text(d, (x1 - 10, y1 - 15), f"↔{p['distance']}", DIST_SIZE, DIST_INK, True, anchor="rm")
    return jx


def _draw_seat(d: ImageDraw.ImageDraw, box: Box, p: dict[str, Any], view: dict[str, Any], locale: str,
               names: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    alive = p["alive"]
    is_turn, won, ink, fill = _seat_state(p, view)
    border, bw = ((GOLD, 5) if is_turn or won else ((90, 90, 90), 2) if alive else ((150, 150, 150), 2))
    d.rounded_rectangle(box, radius=10, fill=fill, outline=border, width=bw)

    # Header: seat number, name, role chip.
    role = p.get("role")
    role_text = t(locale, f"sanguosha.role.{role}") if role else "?"
    role_fill = ROLE_COLOR.get(role or "", HIDDEN_ROLE)
    if not alive:
        role_fill = mix(role_fill, DEAD, 0.45)
    _header(d, box, p, locale, names, ink, fill, role_text, role_fill)
    hero = p.get("hero")
    if hero and hero != "beginner":
        # The hero in its kingdom's colour, big enough to read at 550 px (standard heroes).
        kingdom = p.get("kingdom") or ""
        kkey = f"sanguosha.kingdom.{kingdom}"
        label = hero_name(locale, hero) + (f" · {t(locale, kkey)}" if kingdom and has(kkey, locale) else "")
        fitted, used = text_fit(label, x1 - x0 - 20, HERO_SIZE, True, min_size=14)
        draw_text(d, (x0 + 10, y0 + 48), fitted, used, KINGDOM_INK.get(kingdom, ink) if alive else ink, True,
                  anchor="lm")
    _stats(d, x0, y0 + 74, p, ink)
    _equipment(d, x0, x1, y0 + 104, p, ink, locale)
    _bottom(d, box, p, view, locale, is_turn, won)


# ---------------------------------------------------------------------------------------------
# The table in the middle


def _pile(d: ImageDraw.ImageDraw, x: float, y: float, label: str, count: int, face: bool) -> float:
    """A pile of cards with its count; returns the width used."""
    for k in range(3):
        if face:
            d.rounded_rectangle((x + k * 2, y - k * 2, x + 30 + k * 2, y + 42 - k * 2), radius=4, fill=PANEL,
                                outline=(120, 110, 100))
        else:
            _card_back(d, x + k * 2, y - k * 2, 30, 42)
    draw_text(d, (x + 42, y + 12), str(count), NUMBER_SIZE, (255, 255, 255), True, anchor="lm")
    w = text_width(str(count), NUMBER_SIZE, True)
    draw_text(d, (x + 42, y + 44), label, SMALL_SIZE, (220, 235, 220), anchor="ld")
    return 44 + max(w, text_width(label, SMALL_SIZE)) + 14


def _draw_table(d: ImageDraw.ImageDraw, box: Box, view: dict[str, Any], locale: str, names: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    # An oval table: a rounded rectangle leaves the corners' room to the text.
    d.rounded_rectangle((x0, y0, x1, y1), radius=70, fill=FELT_EDGE)
    d.rounded_rectangle((x0 + 7, y0 + 7, x1 - 7, y1 - 7), radius=64, fill=FELT)
    cx = (x0 + x1) / 2
    inner_w = (x1 - x0) - 60
    white = (255, 255, 255)
    winners = view.get("winners")
    if winners is not None:
        line = _over_text(view, locale)
        draw_text_centered(d, (cx - inner_w / 2, y0 + 16, cx + inner_w / 2, y0 + 48), line, 22, GOLD, True,
                           min_size=14)
    elif view.get("turn") is not None:
        turn = view["turn"]
        phase = view.get("phase") or "prepare"
        line = _r(locale, "turn", round=view.get("round", 0), name=seat_name(locale, names, turn),
                  phase=key_ref(f"sanguosha.phase.{phase}"))
        draw_text_centered(d, (cx - inner_w / 2, y0 + 16, cx + inner_w / 2, y0 + 46), line, 20, white, True,
                           min_size=13)
    # Piles.
    py = y0 + 56
    deck_label, discard_label = _r(locale, "deck"), _r(locale, "discard")
    w1 = 44 + max(text_width(str(view.get("deck", 0)), NUMBER_SIZE, True), text_width(deck_label, SMALL_SIZE)) + 14
    w2 = 44 + max(text_width(str(view.get("discard", 0)), NUMBER_SIZE, True), text_width(discard_label, SMALL_SIZE))
    px = cx - (w1 + 20 + w2) / 2
    _pile(d, px, py, deck_label, view.get("deck", 0), False)
    _pile(d, px + w1 + 20, py, discard_label, view.get("discard", 0), True)

    # What is being used (innermost card use), the cards on the table or the last discards.
    using = using_text(view, locale, names)
    cy = py + 56
    if using:
        draw_text_centered(d, (cx - inner_w / 2, cy, cx + inner_w / 2, cy + 20), using, 16, (255, 240, 200), True,
                           min_size=11)
    cards = view.get("table") or []
    title = _r(locale, "table") if cards else _r(locale, "last_discards")
    cards = cards or view.get("discard_top") or []
    if cards and winners is None:
        ry = cy + 24
        cw, ch = 62, 62
        room = inner_w * (0.92 if not using else 0.88)
        step = min(cw + 6, (room - cw) / max(1, len(cards) - 1)) if len(cards) > 1 else cw
        total = step * (len(cards) - 1) + cw
        sx = cx - total / 2
        tw = text_width(title, SMALL_SIZE)
        draw_text(d, (sx - 8, ry + ch / 2), title, SMALL_SIZE, (220, 235, 220), anchor="rm") \
            if sx - 8 - tw > x0 + 30 else None
        for i, c in enumerate(cards):
            _mini_card(d, (sx + i * step, ry, sx + i * step + cw, ry + ch), c, locale,
                       fanned=step < cw and i < len(cards) - 1)
    w = view.get("waiting")
    if w and winners is None:
        if w.get("window"):
            text = t(locale, "sanguosha.desc.waiting")
        elif w.get("seat") is not None and w["seat"] != view.get("turn"):
            text = _r(locale, "waiting_for", name=seat_name(locale, names, w["seat"]))
        else:
            text = ""
        if text:
            fitted, used = text_fit(text, inner_w * 0.8, 17, True, min_size=12)
            tw = text_width(fitted, used, True)
            wy = y1 - 34
            d.rounded_rectangle((cx - tw / 2 - 12, wy, cx + tw / 2 + 12, wy + used + 10), radius=(used + 10) / 2,
                                fill=WAIT, outline=darken(WAIT, 0.4))
            draw_text(d, (cx, wy + (used + 10) / 2), fitted, used, INK, True, anchor="mm")


def _over_text(view: dict[str, Any], locale: str) -> str:
    """Who won, by side (the roles are all public at the end; 国战: the winners' kingdom)."""
    from render import sanguosha_hg as HG

    if HG.is_hegemony(view):
        side = HG.over_side(view)
        return t(locale, f"sanguosha.side.{side}") if side else t(locale, "render.sanguosha.over")
    roles = {p["seat"]: p.get("role") for p in view.get("players", [])}
    won = [roles.get(s) for s in view.get("winners") or []]
    side = "lord" if "lord" in won or "loyalist" in won else "renegade" if "renegade" in won else \
        "rebel" if "rebel" in won else ""
    return t(locale, f"sanguosha.side.{side}") if side else t(locale, "render.sanguosha.over")


# ---------------------------------------------------------------------------------------------
# Entry points


def compose(view: dict[str, Any], locale: str, names: Sequence[str]) -> Image.Image:
    from render import sanguosha_hg as HG

    players = view.get("players", [])
    hg = HG.is_hegemony(view)
    boxes, table, height = HG.layout(len(players)) if hg else layout(len(players))
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    _draw_table(d, table, view, locale, names)
    if hg:
        HG.draw_banner(d, table, view, locale)
    draw_seat = HG.draw_seat if hg else _draw_seat
    for p, box in zip(players, boxes, strict=False):
        draw_seat(d, box, p, view, locale, names)
    return img


_KEEP = (RED_SUIT, GOLD, FELT, FELT_EDGE, HP_LOST, WAIT, DEAD, *ROLE_COLOR.values())


def _keep(view: dict[str, Any]) -> tuple[RGB, ...]:
    """The colours the palette must keep exact (国战 adds its kingdom frames)."""
    from render import sanguosha_hg as HG

    return (*_KEEP, *HG.KINGDOM_COLOR.values()) if HG.is_hegemony(view) else _KEEP


def render(view: dict[str, Any], locale: str, names: Sequence[str], overlay: dict[str, Any] | None = None) -> bytes:
    """The public table as PNG. Reads only public fields, so a seat's view renders the same."""
    return to_png(compose(view, locale, names), keep=_keep(view))


HAND_W = 550
CARD_W = 72
CARD_H = 100
CARDS_PER_ROW = 7


def compose_hand(view: dict[str, Any], locale: str, names: Sequence[str] = ()) -> Image.Image:
    """The seat's own hand (two rows past seven cards), role and equipment; in 国战 its two
    heroes, markers and peeked heroes above the cards, and while it chooses its heroes the heroes
    dealt instead. Private: only for the owner of ``view["you"]``."""
    from render import sanguosha_hg as HG

    you = view.get("you") or {}
    if you.get("offer") and HG.is_hegemony(view):
        return HG.compose_offer(view, locale)
    hand = you.get("hand") or []
    seat = you.get("seat")
    me = next((p for p in view.get("players", []) if p.get("seat") == seat), None)
    rows = max(1, -(-len(hand) // CARDS_PER_ROW))
    extra = HG.hand_rows_height(view)
    top = 44 + extra
    equip_h = 30
    height = top + rows * (CARD_H + 8) + equip_h + 10
    img = Image.new("RGB", (HAND_W, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    role = you.get("role")
    x = 10
    if role:
        fill = ROLE_COLOR.get(role) or HG.KINGDOM_COLOR.get(role, HIDDEN_ROLE)
        x += _chip(d, x, 10, t(locale, f"sanguosha.role.{role}"), 17, fill) + 10
    if extra:
        HG.draw_hand_rows(d, view, locale, names, 44)
    elif me is not None and me.get("kingdom"):  # a standard hero, in its kingdom's colour
        x += _chip(d, x, 10, t(locale, f"sanguosha.hero.{me['hero']}"), 17, KINGDOM_INK[me["kingdom"]],
                   max_w=140) + 10
    if me is not None:
        x += draw_text(d, (x, 22), f"{me['hp']}/{me['max']}", 20, INK, True, anchor="lm") + 4
        _heart(d, x + 9, 22, 8, HP_FULL, darken(HP_FULL, 0.3))
        x += 28
    title = _r(locale, "hand_title", n=len(hand))
    fitted, used = text_fit(title, HAND_W - 10 - x, 18, True, min_size=12)
    draw_text(d, (x, 22), fitted, used, INK, True, anchor="lm")
    if not hand:
        draw_text(d, (HAND_W / 2, top + CARD_H / 2), _r(locale, "no_cards"), 16, MUTED, anchor="mm")
    gap = (HAND_W - 20 - CARDS_PER_ROW * CARD_W) / (CARDS_PER_ROW - 1)
    for i, c in enumerate(hand):
        r, k = divmod(i, CARDS_PER_ROW)
        cx = 10 + k * (CARD_W + gap)
        cy = top + r * (CARD_H + 8)
        _hand_card(d, (cx, cy, cx + CARD_W, cy + CARD_H), c, locale)
    # Equipment line.
    ey = height - equip_h - 4
    x = 10
    equip = (me or {}).get("equip") or {}
    for slot in (*SLOTS, *(["treasure"] if equip.get("treasure") else [])):  # a treasure only when there
        c = equip.get(slot)
        iw = draw_text(d, (x, ey + equip_h / 2), SLOT_ICON[slot], ICON_SIZE[slot] - 2, INK if c else MUTED, True, anchor="lm")
        x += iw + 4
        if c is None:
            x += draw_text(d, (x, ey + equip_h / 2), "—", 15, (190, 190, 190), anchor="lm") + 16
            continue
        fitted, used = text_fit(short_name(locale, c["name"]), 84, 16, True, min_size=11)
        x += draw_text(d, (x, ey + equip_h / 2), fitted, used, INK, True, anchor="lm") + 3
        x += draw_text(d, (x, ey + equip_h / 2), suit_rank(c), 14, suit_color(c), True, anchor="lm") + 14
    judge = (me or {}).get("judge") or []
    for j in judge:
        x += _judge_chip(d, x, ey + 3, j, locale) + 4
    return img


def _wrap_name(text: str, width: float, size: int) -> tuple[list[str], int]:
    """One line while it fits at a readable size, else two split at a space, at the largest
    size that fits (card faces are narrow: "Stone Axe" reads better on two lines than tiny)."""
    fitted, used = text_fit(text, width, size, True, min_size=14)
    if fitted == text:
        return [text], used
    if " " in text:
        a, b = text.rsplit(" ", 1)
        s = size
        while s > 10 and max(text_width(a, s, True), text_width(b, s, True)) > width:
            s -= 1
        return [a, b], s
    fitted, used = text_fit(text, width, size, True, min_size=10)
    return [fitted], used


def _hand_card(d: ImageDraw.ImageDraw, box: Box, c: dict[str, Any], locale: str) -> None:
    x0, y0, x1, y1 = box
    name = c.get("face") or c.get("name", "")  # 火杀 shows its face, not 杀
    d.rounded_rectangle(box, radius=7, fill=PANEL, outline=(110, 100, 90), width=2)
    d.rounded_rectangle((x0 + 2, y1 - 12, x1 - 2, y1 - 2), radius=5, fill=TYPE_COLOR[card_type(c)])
    sc = suit_color(c)
    draw_text(d, (x0 + 6, y0 + 4), suit_rank(c), 19, sc, True)
    lines, size = _wrap_name(short_name(locale, name), CARD_W - 8, 17)
    mid = (y0 + 26 + y1 - 12) / 2
    lh = size + 3
    for i, line in enumerate(lines):
        draw_text(d, ((x0 + x1) / 2, mid + (i - (len(lines) - 1) / 2) * lh), line, size, INK, True, anchor="mm")


def render_hand(view: dict[str, Any], locale: str, names: Sequence[str] = ()) -> bytes:
    """The PNG of a seat's own hand, role and equipment (send it to that seat only)."""
    return to_png(compose_hand(view, locale, names), keep=_keep(view))


def render_step_picture(view: dict[str, Any], picture: dict[str, Any], locale: str,
                        names: Sequence[str]) -> bytes | None:
    """``{"kind": "hand"}`` draws the asking seat's hand (the view must be that seat's): in 国战
    while it chooses its heroes, the heroes dealt."""
    if picture.get("kind") == "hand" and view.get("you"):
        return render_hand(view, locale, names)
    return None
