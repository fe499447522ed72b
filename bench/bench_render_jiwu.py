"""极武三国 render time and PNG size: the board + market picture at the start, mid-game and end of
all-AI games at 2, 3 and 4 players, and the private hand picture; then apply + public view + PNG
for every move of a 4-player game (what a person's click costs before the post). Run::

    .venv/bin/python -m bench render_jiwu [--repeat N] [--save DIR] [--locale zh-CN]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from engines.jiwu import ENGINE  # noqa: E402
from render import jiwu  # noqa: E402

NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz"]


def game_states(seats: int, seed: int = 7) -> dict[str, dict[str, Any]]:
    """States at the start, half-way through and at the end of one all-AI game."""
    state = ENGINE.new_state({}, seats, seed)
    rng = random.Random(seed)
    history = [state]
    while pending := ENGINE.pending(state):
        seat = pending[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        history.append(state)
    return {"start": history[seats], "mid": history[len(history) // 2], "end": history[-1]}


def timed(draw: Any, repeat: int) -> tuple[float, bytes]:
    times = []
    png = b""
    for _ in range(repeat):
        t0 = time.perf_counter()
        png = draw()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, png


def act_view_png(locale: str) -> tuple[list[float], list[int]]:
    state = ENGINE.new_state({}, 4, 3)
    rng = random.Random(3)
    times: list[float] = []
    sizes: list[int] = []
    while pending := ENGINE.pending(state):
        seat = pending[0].seat
        action = ENGINE.ai_action(state, seat, rng)
        t0 = time.perf_counter()
        state, _ = ENGINE.apply(state, seat, action)
        png = jiwu.render(ENGINE.view(state, None), locale, NAMES)
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    return times, sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--save", type=Path, help="write every PNG into this folder")
    ap.add_argument("--locale", default="zh-CN")
    ap.add_argument("--moves", action="store_true", help="also time apply + view + PNG for every move")
    args = ap.parse_args(argv)
    with harness.Session("render_jiwu") as s:
        return _run(s, args)


def _run(s: harness.Session, args: argparse.Namespace) -> int:
    jiwu.render(ENGINE.view(ENGINE.new_state({}, 2, 1), None), args.locale, NAMES)  # warm fonts
    print(f"{'seats':>5} {'stage':>5} {'picture':>7} {'pixels':>10} {'ms':>6} {'KB':>6}")
    slowest: dict[str, float] = {}
    for seats in (2, 3, 4):
        for stage, state in game_states(seats).items():
            seat = state["turn"] if isinstance(state["turn"], int) else 0
            for kind, draw in (("board", lambda s=state, n=seats: jiwu.render(ENGINE.view(s, None), args.locale, NAMES[:n])),
                               ("hand", lambda s=state, k=seat: jiwu.render_hand(ENGINE.view(s, k), args.locale))):
                ms, png = timed(draw, args.repeat)
                w, h = (jiwu.compose(ENGINE.view(state, None), args.locale, NAMES[:seats]).size if kind == "board"
                        else jiwu.compose_hand(ENGINE.view(state, seat), args.locale).size)
                print(f"{seats:>5} {stage:>5} {kind:>7} {w:>4}x{h:<5} {ms:6.1f} {len(png) / 1024:6.1f}")
                slowest[kind] = max(slowest.get(kind, 0.0), ms)
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"jiwu_{seats}p_{stage}_{kind}.png").write_bytes(png)
    for kind, ms in slowest.items():
        s.figure(f"{kind} picture, slowest median", ms, "ms")
    if args.moves:
        times, sizes = act_view_png(args.locale)
        s.series("apply + view + PNG", times, note="every move of a 4-player game")
        s.figure("PNG median", statistics.median(sizes) / 1024, "KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
