"""The replay viewer's step time (issue 21: any step of a 750-action Risk match < 300 ms) and the
end-of-match recap's time and size (< 5 s for a full Risk game, ≤ 4 MB).

For each game, an AI-played match (Risk: 750 actions, 6 seats, classic; the others to their end
or 750 actions) becomes a ``service.replay.Timeline`` (timed: the one pass a viewer's first open
costs, then cached), and random steps are shown as the viewer shows them: the state from the
nearest keyframe, the public view, the board PNG (what ``cogs.replay`` runs in a worker thread).
Run::

    .venv/bin/python -m bench replay [--steps N] [--every K]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from render import render_board  # noqa: E402
from render.recap import recap  # noqa: E402
from service.replay import KEYFRAME_EVERY, Timeline  # noqa: E402
from tools.ai_match import ai_export  # noqa: E402

GAMES = (("risk", 6, {"variant": "classic"}), ("pentactic", 2, {}), ("kingdoms_battle", 4, {}),
         ("jiwu", 4, {}), ("sanguosha", 8, {}))
ACTIONS = 750


def longest(slug: str, seats: int, options: dict[str, str]) -> dict[str, object]:
    """The first of a few seeds whose match reaches :data:`ACTIONS` actions (else the longest)."""
    best: dict[str, object] = {"actions": []}
    for seed in range(1, 6):
        export, _ = ai_export(slug, seed, ACTIONS, seats, options)
        if len(export["actions"]) >= len(best["actions"]):  # type: ignore[arg-type]
            best = export
        if len(export["actions"]) >= ACTIONS:
            break
    return best


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40, help="random steps shown per game")
    parser.add_argument("--every", type=int, default=KEYFRAME_EVERY, help="keyframe interval")
    args = parser.parse_args(argv)
    with harness.Session("replay") as s:
        for slug, seats, options in GAMES:
            export = longest(slug, seats, options)
            names = [seat["name"] for seat in export["seats"]]
            t0 = time.perf_counter()
            timeline = Timeline(export, every=args.every)
            s.figure(f"{slug} build ({len(timeline) - 1} actions)", (time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            render_board(timeline.view_at(0), "en", names)
            s.figure(f"{slug} first picture (cold caches)", (time.perf_counter() - t0) * 1000)
            rng = random.Random(1)
            times = []
            for index in [rng.randrange(len(timeline)) for _ in range(args.steps)]:
                t0 = time.perf_counter()
                render_board(timeline.view_at(index), "en", names)
                times.append((time.perf_counter() - t0) * 1000)
            s.series(f"{slug} step (state + view + PNG)", times, quantiles=("median", "p99", "max"))
            t0 = time.perf_counter()
            made = recap(slug, len(timeline), timeline.view_at,
                         lambda tl=timeline: ((v, [e.msg for e in evs]) for v, evs in tl.views()), "en", names, slug)
            s.figure(f"{slug} recap time", (time.perf_counter() - t0) * 1000)
            if made is not None:
                s.figure(f"{slug} recap size ({made[1]})", len(made[0]) / 1024, "KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
