"""End-of-match recaps: an animated GIF of the board turn by turn (Risk, Pentactic, 鬪三國,
极武三国), a timeline picture for 三国杀 (each seat's HP by round, deaths and who dealt them).

Why here and like this: a recap is a picture of what the thread already showed, so it is built
the way every picture is — from public views only (``Engine.view(state, None)`` at chosen steps
of a replay of the match's export), drawn by the game's own board renderer. The budget is
Discord's: at most 4 MB and 20 s, legible at 550 px; so frames are taken at turn boundaries
(where the acting seat changes), thinned evenly to at most :data:`MAX_FRAMES`, scaled to
:data:`WIDTH`, and share one palette. It is CPU work of a few seconds: callers run it in a worker
thread (``cogs.publisher``), never on the event loop.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engines import registry
from engines.base import Event, State
from i18n import t
from render import has_renderer, render_board
from render.common import draw_text, player_color, text_fit
from service.replay import steps

#: Frames at most in one animation (the final position is always the last).
MAX_FRAMES = 40
#: Width of an animation frame in pixels (shown at up to 550 px in a Discord client).
WIDTH = 600
#: Discord's attachment limit for a bot without boosts, and the recap's length limit.
MAX_BYTES = 4 * 1024 * 1024
MAX_SECONDS = 20.0
#: How long each frame shows (ms): the whole run fits in :data:`MAX_SECONDS` with the last frame held.
FRAME_MS = (250, 600)
HOLD_MS = 3000

Export = dict[str, Any]


@dataclass(frozen=True)
class Recap:
    data: bytes
    filename: str
    frames: int
    seconds: float


def recap(export: Export, locale: str, names: list[str]) -> Recap | None:
    """The match's recap, or None for a game without a picture of its board (or an empty log)."""
    game = export["game"]
    if game == "sanguosha":
        return _timeline(export, locale, names)
    if not has_renderer(game) or not export["actions"]:
        return None
    return _animation(export, locale, names)


# -- board games: an animation ----------------------------------------------------------------

def turn_ends(export: Export) -> list[int]:
    """Indexes of the actions after which the acting seat changes (a turn ended), and the last."""
    acts = export["actions"]
    out = [i for i in range(len(acts) - 1) if acts[i]["seat"] != acts[i + 1]["seat"]]
    return [*out, len(acts) - 1]


def thin(points: list[int], most: int) -> list[int]:
    """At most ``most`` of ``points``, evenly spread, keeping the last."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return sorted({points[round(i * step)] for i in range(most)})


def _views_at(export: Export, wanted: set[int]) -> Iterator[dict[str, Any]]:
    engine = registry.get(export["game"])
    for i, (state, _events) in enumerate(steps(export)):
        if i in wanted:
            yield engine.view(state, None)


def _animation(export: Export, locale: str, names: list[str]) -> Recap:
    points = turn_ends(export)
    most = MAX_FRAMES
    while True:
        chosen = thin(points, most)
        frames = [_frame(view, locale, names) for view in _views_at(export, set(chosen))]
        data, shown, seconds = _gif(frames)
        if len(data) <= MAX_BYTES or most <= 4:
            return Recap(data, "recap.gif", shown, seconds)
        most //= 2  # too big: fewer frames


def _frame(view: dict[str, Any], locale: str, names: list[str]) -> Image.Image:
    img = Image.open(io.BytesIO(render_board(view, locale, names))).convert("RGB")
    if img.width > WIDTH:
        img = img.resize((WIDTH, round(img.height * WIDTH / img.width)), Image.Resampling.LANCZOS)
    return img


def frame_ms(n: int) -> int:
    """Each frame's time so that ``n`` frames and the held last one fit :data:`MAX_SECONDS`."""
    if n <= 1:
        return FRAME_MS[1]
    share = (MAX_SECONDS * 1000 - HOLD_MS) / (n - 1)
    return int(max(FRAME_MS[0], min(FRAME_MS[1], share)))


def _gif(frames: list[Image.Image]) -> tuple[bytes, int, float]:
    """One palette for all frames (taken from the last, the fullest board), so colours hold still."""
    palette = frames[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    size = max(f.size for f in frames)
    fitted = []
    for f in frames:
        if f.size != size:  # a board that grew (a header line more): pad, never stretch
            canvas = Image.new("RGB", size, (255, 255, 255))
            canvas.paste(f, (0, 0))
            f = canvas
        fitted.append(f.quantize(palette=palette, dither=Image.Dither.NONE))
    each = frame_ms(len(fitted))
    shown: list[Image.Image] = []
    durations: list[int] = []
    for f in fitted:  # a turn that changed nothing visible shows no second, equal frame
        if shown and f.tobytes() == shown[-1].tobytes():
            durations[-1] += each
            continue
        shown.append(f)
        durations.append(each)
    durations[-1] = HOLD_MS
    buf = io.BytesIO()
    shown[0].save(buf, "GIF", save_all=True, append_images=shown[1:], duration=durations, loop=0,
                  optimize=False, disposal=1)
    return buf.getvalue(), len(shown), sum(durations) / 1000


# -- 三国杀: a timeline -------------------------------------------------------------------------

@dataclass
class Timeline:
    """Per seat, its HP at the end of each round (None once dead); deaths as (round, seat, killer)."""

    rounds: list[int]
    hp: list[list[int | None]]
    max_hp: list[int]
    deaths: list[tuple[int, int, int | None]]
    winners: list[int]


def timeline(export: Export) -> Timeline:
    """The public course of a 三国杀 match: HP from public views, deaths from public events."""
    engine = registry.get(export["game"])
    rounds: list[int] = []
    hp: list[list[int | None]] = []
    deaths: list[tuple[int, int, int | None]] = []
    last: dict[str, Any] | None = None
    state: State | None = None
    for state, events in steps(export):
        view = engine.view(state, None)
        for ev in _public(events):
            if ev.msg.key == "sanguosha.ev.death":
                src = ev.msg.params.get("src")
                deaths.append((view["round"], ev.msg.params["who"]["seat"],
                               src.get("seat") if isinstance(src, dict) else None))
        if last is not None and view["round"] != last["round"] and last["round"] >= 1:
            _add_round(rounds, hp, last)  # round 0 is the hero choice: nobody has HP yet
        last = view
    assert last is not None and state is not None
    if last["round"] >= 1:
        _add_round(rounds, hp, last)
    result = engine.result(state)
    return Timeline(rounds, hp, [p["max"] for p in last["players"]], deaths,
                    list(result.winners) if result else [])


def _public(events: list[Event]) -> list[Event]:
    return [e for e in events if e.to is None]


def _add_round(rounds: list[int], hp: list[list[int | None]], view: dict[str, Any]) -> None:
    rounds.append(view["round"])
    for i, p in enumerate(view["players"]):
        if len(hp) <= i:
            hp.append([])
        hp[i].append(p["hp"] if p["alive"] else None)


def _timeline(export: Export, locale: str, names: list[str]) -> Recap | None:
    if not export["actions"]:
        return None
    line = timeline(export)
    img = draw_timeline(line, locale, names)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return Recap(buf.getvalue(), "timeline.png", 1, 0.0)


ROW = 44
LEFT = 170
TOP = 56
COL_MIN, COL_MAX = 8, 36


def draw_timeline(line: Timeline, locale: str, names: list[str]) -> Image.Image:
    """One lane per seat (its colour beside its name): its HP as a bar per round (full height =
    its max HP), ✝ where it died with its killer's name; winners starred and in bold."""
    seats = len(line.hp)
    n = max(1, len(line.rounds))
    col = max(COL_MIN, min(COL_MAX, (1100 - LEFT) // n))
    width = LEFT + col * n + 150  # room for the last round's killer names
    height = TOP + ROW * seats + 40
    img = Image.new("RGB", (max(width, 550), height), (250, 248, 242))
    d = ImageDraw.Draw(img)
    draw_text(d, (12, 12), t(locale, "discord.recap.timeline_title", rounds=len(line.rounds)), 22,
              (40, 40, 40), bold=True)
    died = {seat: (rnd, src) for rnd, seat, src in line.deaths}
    for seat in range(seats):
        y = TOP + seat * ROW
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        d.rectangle((12, y + ROW / 2 - 7, 26, y + ROW / 2 + 7), fill=player_color(seat), outline=(60, 60, 60))
        won = seat in line.winners
        name, size = text_fit(("★ " if won else "") + name, LEFT - 44, 18, bold=won)
        draw_text(d, (34, y + ROW / 2), name, size, (30, 30, 30), bold=won, anchor="lm")
        top_hp = max(1, line.max_hp[seat])
        for r, value in enumerate(line.hp[seat]):
            x = LEFT + r * col
            if value is None:
                continue
            h = round((ROW - 10) * max(0, value) / top_hp)
            d.rectangle((x + 1, y + ROW - 5 - h, x + col - 2, y + ROW - 5), fill=player_color(seat))
        if seat in died:
            rnd, src = died[seat]
            r = line.rounds.index(rnd) if rnd in line.rounds else len(line.rounds) - 1
            x = LEFT + r * col + col / 2
            killer = names[src] if src is not None and src < len(names) else t(locale, "discord.recap.no_killer")
            draw_text(d, (x, y + ROW / 2), "✝", 22, (30, 30, 30), bold=True, anchor="mm")
            killer, size = text_fit(killer, max(60, img.width - x - 20), 15)
            draw_text(d, (x + 14, y + ROW / 2), killer, size, (70, 70, 70), anchor="lm")
        d.line((LEFT, y + ROW - 4, LEFT + col * n, y + ROW - 4), fill=(200, 196, 186))
    for r, rnd in enumerate(line.rounds):
        if n <= 12 or r % max(1, n // 12) == 0:
            draw_text(d, (LEFT + r * col + col / 2, TOP + ROW * seats + 8), str(rnd), 14, (90, 90, 90),
                      anchor="ma")
    return img
