"""Pictures of ``/stats me`` and ``/stats leaderboard``: drawn at 550 px, the width Discord shows
them, so no text is shrunk by the client (the smallest text is 18 px).

Inputs are plain rows (names already chosen by the caller, shown as typed: a picture cannot
mention anyone), words from the ``stats`` catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from i18n import t
from render.common import BACKGROUND, INK, MUTED, draw_text, lighten, text_fit, to_png

WIDTH = 550
PAD = 16
ROW = 40
TITLE = 30
TEXT = 20
SMALL = 18
WIN: tuple[int, int, int] = (20, 150, 70)
LOSS: tuple[int, int, int] = (190, 35, 25)
HIGHLIGHT: tuple[int, int, int] = (255, 236, 170)


@dataclass(frozen=True)
class BoardLine:
    rank: int
    name: str
    rating: int
    games: int
    you: bool


@dataclass(frozen=True)
class GameBlock:
    game: str
    rating: int | None
    rank: int | None
    players: int
    games: int
    wins: int
    form: Sequence[bool]


def _title(draw: ImageDraw.ImageDraw, text: str) -> None:
    fitted, size = text_fit(text, WIDTH - 2 * PAD, TITLE, bold=True, min_size=SMALL)
    draw_text(draw, (PAD, PAD), fitted, size, INK, bold=True)


def leaderboard_png(game: str, rows: Sequence[BoardLine], locale: str) -> bytes:
    """Rank, name, rating and games per row; the caller's row tinted (and set apart by a gap
    when it is below the top rows)."""
    gap = 1 if rows and rows[-1].you and len(rows) > 1 and rows[-1].rank > rows[-2].rank + 1 else 0
    height = PAD * 2 + TITLE + 14 + ROW * (len(rows) + 1 + gap)
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    _title(draw, t(locale, "stats.picture.board_title", game=game))
    cols = (PAD, PAD + 56, WIDTH - PAD - 130, WIDTH - PAD)
    y = PAD + TITLE + 14
    for x, key, anchor in ((cols[0], "col_rank", "la"), (cols[1], "col_player", "la"),
                           (cols[2], "col_rating", "ra"), (cols[3], "col_games", "ra")):
        draw_text(draw, (x, y + 8), t(locale, f"stats.picture.{key}"), SMALL, MUTED, anchor=anchor)
    y += ROW
    for i, row in enumerate(rows):
        if gap and i == len(rows) - 1:
            draw_text(draw, (WIDTH / 2, y + 8), "⋯", TEXT, MUTED, anchor="ma")
            y += ROW
        if row.you:
            draw.rectangle((PAD // 2, y, WIDTH - PAD // 2, y + ROW - 4), fill=HIGHLIGHT)
        elif i % 2:
            draw.rectangle((PAD // 2, y, WIDTH - PAD // 2, y + ROW - 4), fill=lighten(BACKGROUND, 0.6))
        draw_text(draw, (cols[0], y + 8), str(row.rank), TEXT, INK, bold=True)
        name = row.name + (f" ({t(locale, 'stats.picture.you')})" if row.you else "")
        fitted, size = text_fit(name, cols[2] - 90 - cols[1], TEXT, min_size=SMALL)
        draw_text(draw, (cols[1], y + 8), fitted, size, INK)
        draw_text(draw, (cols[2], y + 8), str(row.rating), TEXT, INK, bold=True, anchor="ra")
        draw_text(draw, (cols[3], y + 8), str(row.games), TEXT, INK, anchor="ra")
        y += ROW
    return to_png(img)


def me_png(name: str, blocks: Sequence[GameBlock], game_names: dict[str, str], locale: str) -> bytes:
    """One block per game: its name, the rating (or "unrated") and rank, games and wins, and
    the recent form as W/L squares oldest to newest (a letter in each, not colour alone)."""
    block_h = 3 * ROW + 8
    height = PAD * 2 + TITLE + 14 + block_h * len(blocks)
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    _title(draw, t(locale, "stats.picture.me_title", name=name))
    y = PAD + TITLE + 14
    for b in blocks:
        draw.line((PAD, y, WIDTH - PAD, y), fill=MUTED, width=1)
        draw_text(draw, (PAD, y + 8), game_names.get(b.game, b.game), TEXT, INK, bold=True)
        rating = str(b.rating) if b.rating is not None else t(locale, "stats.picture.unrated")
        draw_text(draw, (WIDTH - PAD, y + 4), rating, TITLE, INK, bold=True, anchor="ra")
        line = [t(locale, "stats.picture.games", count=b.games),
                t(locale, "stats.picture.wins", count=b.wins, percent=round(100 * b.wins / b.games) if b.games else 0)]
        if b.rank is not None:
            line.insert(0, t(locale, "stats.picture.rank", rank=b.rank, count=b.players))
        draw_text(draw, (PAD, y + ROW + 6), " · ".join(line), SMALL, INK)
        x = PAD + draw_text(draw, (PAD, y + 2 * ROW + 6), t(locale, "stats.picture.form"), SMALL, MUTED) + 10
        for won in b.form:
            colour = WIN if won else LOSS
            draw.rectangle((x, y + 2 * ROW + 2, x + 28, y + 2 * ROW + 30), fill=colour)
            mark = t(locale, "stats.picture.win_mark" if won else "stats.picture.loss_mark")
            draw_text(draw, (x + 14, y + 2 * ROW + 16), mark, SMALL, (255, 255, 255), bold=True, anchor="mm")
            x += 34
        y += block_h
    return to_png(img)
