"""One person's click against AI seats, in every game: what the person waits for before the post.

For each game, seeded games with one person (seat 0) and AI seats at the default level. A click
is timed from the person's action to the picture of its outcome: the engine's ``apply`` of the
person's action, every AI answer it triggers (decision and ``apply``, until only the person is
asked again or the game is over: the service's AI run), the public ``view`` and its PNG (the one
post the run becomes). The person's own move is chosen by the same AI, untimed. Every AI decision
is also timed on its own.

Targets (issue 22), p99 with the parallel load: a click < 50 ms (Pentactic < 30 ms); an AI
decision at the default level < 20 ms. Run::

    python3 tasks.py bench click [--clicks N] [--game GAME ...]
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from engines import registry  # noqa: E402
from render import render_board  # noqa: E402

try:  # the code under test may predate it (bench --compare)
    from service.core import settle_heap
except ImportError:  # pragma: no cover
    def settle_heap() -> None:
        pass

NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "王大力", "Zoë", "Dmitri", "Eve", "佐藤", "Hank"]
LOCALE = "zh-TW"
PERSON = 0

#: game -> the tables its games cycle through: (options, seats).
TABLES: dict[str, list[tuple[dict[str, str], int]]] = {
    "pentactic": [({"mode": "2", "board": "8x8"}, 2), ({"mode": "1", "board": "8x8"}, 2),
                  ({"mode": "2", "board": "9x7"}, 2), ({"mode": "1", "board": "11x6"}, 2)],
    "risk": [({"variant": "classic"}, 6), ({"variant": "mission"}, 5), ({"variant": "classic", "setup": "classic"}, 4)],
    "sanguosha": [({"heroes": "standard"}, 5), ({"heroes": "standard"}, 8)],
    "kingdoms_battle": [({}, 4), ({}, 5), ({}, 3)],
    "jiwu": [({}, 4), ({}, 3), ({}, 2)],
}


def clicks(game: str, wanted: int, max_games: int) -> tuple[list[float], list[float], list[float], int]:
    """(click milliseconds, the click's CPU milliseconds, AI decision milliseconds, games played)
    for one game. The CPU time is this thread's: it moves far less than the wall time when other
    people's work shares the cores."""
    engine = registry.get(game)
    tables = [(engine.normalize_options(o), n) for o, n in TABLES[game]]
    level = "normal" if "normal" in engine.ai_levels() else engine.ai_levels()[0]
    click_ms: list[float] = []
    cpu_ms: list[float] = []
    decide_ms: list[float] = []
    prepare = getattr(importlib.import_module(f"render.{game}"), "prepare", None)
    if callable(prepare):  # what the bot does at start-up (bot.warm_renderers)
        prepare()
    for options, seats in tables:  # a running bot has drawn every kind of table before: warm caches
        render_board(engine.view(engine.new_state(options, seats, 1), None), LOCALE, NAMES[:seats])
    settle_heap()  # as the bot does once started (bot.warm_renderers)
    games = 0
    while len(click_ms) < wanted and games < max_games:
        options, seats = tables[games % len(tables)]
        rng = random.Random(games)
        state = engine.new_state(options, seats, 700 + games)
        games += 1

        def decide(state: dict[str, Any], req: Any, rng: random.Random = rng) -> list[str]:
            t0 = time.perf_counter()
            action = engine.ai_action(state, req.seat, rng, level, req)
            decide_ms.append((time.perf_counter() - t0) * 1000)
            return action

        # AI seats first: the game may open with their moves.
        while (pending := engine.pending(state)) and (ai := [r for r in pending if r.seat != PERSON]):
            state, _ = engine.apply(state, ai[0].seat, decide(state, ai[0]), ai[0])
        while len(click_ms) < wanted and (pending := engine.pending(state)):
            req = pending[0]
            action = decide(state, req)
            t0, c0 = time.perf_counter(), time.thread_time()
            state, _ = engine.apply(state, req.seat, action, req)
            while (pending := engine.pending(state)) and (ai := [r for r in pending if r.seat != PERSON]):
                state, _ = engine.apply(state, ai[0].seat, decide(state, ai[0]), ai[0])
            render_board(engine.view(state, None), LOCALE, NAMES[:seats])
            click_ms.append((time.perf_counter() - t0) * 1000)
            cpu_ms.append((time.thread_time() - c0) * 1000)
    return click_ms, cpu_ms, decide_ms, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=300, help="clicks timed per game")
    ap.add_argument("--max-games", type=int, default=60, help="at most this many games per game")
    ap.add_argument("--game", nargs="*", default=list(TABLES), choices=list(TABLES))
    args = ap.parse_args(argv)
    with harness.Session("click") as s:
        for game in args.game:
            click_ms, cpu_ms, decide_ms, games = clicks(game, args.clicks, args.max_games)
            s.series(f"{game} click", click_ms, note=f"{games} games")
            s.series(f"{game} click CPU", cpu_ms)
            s.series(f"{game} AI decision", decide_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
