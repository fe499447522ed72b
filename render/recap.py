"""The end-of-match recap (issue 21): an animated GIF of the board through the match, or for 三国杀
a picture of each seat's HP by round with the deaths and who dealt them.

Frames are the public views a replay shows (``service.replay.Timeline.view_at``), spread evenly
over the match, drawn by the game's own renderer and scaled to 550 px wide, the width Discord
shows (the boards are drawn to stay legible there: tests/render/test_digit_height.py). The GIF
stays within :data:`MAX_BYTES` and :data:`MAX_SECONDS`: frames are dropped until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import Msg
from i18n import t
from render import has_renderer, render_board
from render.common import BACKGROUND, INK, MUTED, draw_text, player_color, text_fit, to_png

WIDTH = 550
MAX_BYTES = 4 * 1024 * 1024
MAX_SECONDS = 20.0
FRAMES = 36
FRAME_MS = 400
LAST_MS = 4000
#: Games whose recap is the HP timeline instead of an animation.
TIMELINE_GAMES = frozenset({"sanguosha"})

ViewAt = Callable[[int], dict[str, Any]]


def frame_steps(count: int, frames: int) -> list[int]:
    """``frames`` step indices from the first to the last, evenly spread (all when fewer)."""
    if count <= frames:
        return list(range(count))
    return sorted({round(i * (count - 1) / (frames - 1)) for i in range(frames)})


def _scaled(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    if img.width != WIDTH:
        img = img.resize((WIDTH, round(img.height * WIDTH / img.width)), Image.Resampling.LANCZOS)
    return img


def animation(count: int, view_at: ViewAt, locale: str, names: list[str], *, frames: int = FRAMES) -> bytes:
    """The board at ``frames`` steps as a looping GIF: ≤ :data:`MAX_SECONDS`, ≤ :data:`MAX_BYTES`."""
    images = [_scaled(render_board(view_at(i), locale, names)) for i in frame_steps(count, frames)]
    while True:
        size = max(img.height for img in images)
        canvas = [Image.new("RGB", (WIDTH, size), BACKGROUND) for _ in images]
        for c, img in zip(canvas, images, strict=True):
            c.paste(img, (0, 0))
        # One palette for all frames (from the first and last board side by side), so unchanged
        # pixels stay equal and the GIF writer stores only each frame's changed box.
        sample = Image.new("RGB", (WIDTH * 2, size))
        sample.paste(canvas[0], (0, 0))
        sample.paste(canvas[-1], (WIDTH, 0))
        palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        quantized = [c.quantize(palette=palette, dither=Image.Dither.NONE) for c in canvas]
        durations = [FRAME_MS] * (len(quantized) - 1) + [LAST_MS]
        buf = io.BytesIO()
        quantized[0].save(buf, format="GIF", save_all=True, append_images=quantized[1:], duration=durations,
                          loop=0, optimize=False, disposal=1)
        data = buf.getvalue()
        if len(data) <= MAX_BYTES or len(images) <= 2:
            return data
        images = images[::2] + ([images[-1]] if len(images) % 2 == 0 else [])  # keep the end


def hp_timeline(steps: Iterable[tuple[dict[str, Any], Sequence[Msg]]], locale: str, names: list[str],
                title: str) -> bytes:
    """三国杀: each seat's HP at the end of every round (a line in its colour), and each death
    marked on its round, listed with who dealt it. ``steps``: every step's public view and
    public messages, in order."""
    rounds: list[list[int]] = []
    deaths: list[tuple[int, int, int | None]] = []
    prev_round: int | None = None
    prev_hp: list[int] = []
    seats = 0
    for view, msgs in steps:
        current = int(view.get("round") or 0)
        if prev_round is not None and current != prev_round:
            rounds.append(prev_hp)
        for msg in msgs:
            if msg.key == "sanguosha.ev.death":
                src = (msg.params.get("src") or {}).get("seat")
                deaths.append((len(rounds), int(msg.params["who"]["seat"]), None if src is None else int(src)))
        seats = len(view["players"])
        prev_round, prev_hp = current, [int(p["hp"]) if p["alive"] else 0 for p in view["players"]]
    if prev_hp:
        rounds.append(prev_hp)
    setup = next((i for i, row in enumerate(rounds) if all(row)), 0)  # until every hero is in: no HP yet
    rounds = rounds[setup:]
    deaths = [(max(0, r - setup), who, src) for r, who, src in deaths]
    top = max((max(r) for r in rounds), default=4) or 4
    legend = 30 * ((seats + 1) // 2)
    death_lines = 26 * len(deaths)
    height = 60 + 260 + 40 + legend + death_lines + 10
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    fitted, size = text_fit(title, WIDTH - 24, 24, bold=True, min_size=16)
    draw_text(draw, (12, 12), fitted, size, INK, bold=True)
    x0, y0, x1, y1 = 40, 60, WIDTH - 34, 320
    draw.line((x0, y1, x1, y1), fill=MUTED)
    draw.line((x0, y0, x0, y1), fill=MUTED)
    for hp in range(0, top + 1):
        y = y1 - (y1 - y0) * hp / top
        draw_text(draw, (x0 - 6, y), str(hp), 16, MUTED, anchor="rm")
    n = max(1, len(rounds) - 1)

    def point(r: int, hp: int) -> tuple[float, float]:
        return x0 + (x1 - x0) * r / n, y1 - (y1 - y0) * hp / top

    for seat in range(seats):
        line = [point(r, row[seat]) for r, row in enumerate(rounds)]
        if len(line) > 1:
            draw.line(line, fill=player_color(seat % 6), width=3)
        if line:  # the seat's number at its line's end: colours repeat past six seats
            draw_text(draw, (line[-1][0] + 4, line[-1][1] - 2 - 8 * (seat % 2)), str(seat + 1), 14, INK, anchor="lm")
    for r, who, _ in deaths:
        x, y = point(min(r, n), 0)
        draw.line((x - 7, y - 7, x + 7, y + 7), fill=player_color(who % 6), width=3)
        draw.line((x - 7, y + 7, x + 7, y - 7), fill=player_color(who % 6), width=3)
    draw_text(draw, (x1, y1 + 6), t(locale, "stats.recap.round", round=max(1, len(rounds))), 16, MUTED, anchor="ra")
    y = y1 + 36
    for seat in range(seats):
        x = 20 + (seat % 2) * (WIDTH // 2)
        draw.rectangle((x, y + 6, x + 18, y + 20), fill=player_color(seat % 6))
        label, lsize = text_fit(f"{seat + 1} {names[seat] if seat < len(names) else ''}", WIDTH // 2 - 40, 18,
                                min_size=14)
        draw_text(draw, (x + 24, y + 2), label, lsize, INK)
        if seat % 2:
            y += 30
    if seats % 2:
        y += 30
    for r, who, src in deaths:
        name = names[who] if who < len(names) else str(who + 1)
        text = (t(locale, "stats.recap.died", name=name, killer=names[src] if src < len(names) else str(src + 1))
                if src is not None and src != who else t(locale, "stats.recap.died_alone", name=name))
        line, lsize = text_fit(f"{t(locale, 'stats.recap.round', round=r + 1)} · {text}", WIDTH - 24, 18, min_size=14)
        draw_text(draw, (12, y), line, lsize, INK)
        y += 26
    return to_png(img)


def recap(game: str, count: int, view_at: ViewAt, steps: Callable[[], Iterable[tuple[dict[str, Any], Sequence[Msg]]]],
          locale: str, names: list[str], title: str) -> tuple[bytes, str] | None:
    """(file bytes, file name) of the game's recap, or None for a game without pictures.
    ``view_at`` gives one step's public view, ``steps`` walks them all in order with their
    public messages."""
    if game in TIMELINE_GAMES:
        return hp_timeline(steps(), locale, names, title), "recap.png"
    if not has_renderer(game):
        return None
    return animation(count, view_at, locale, names), "recap.gif"
