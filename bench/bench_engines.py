"""Every engine alone: seeded all-AI games at the default level, timing each ``apply`` and each AI
decision, and (``--check``) fingerprints that prove a speed-up changed nothing.

Targets (issue 22), with the parallel load: 鬪三國 and 极武三国 ``apply`` <= 0.5 ms an action
(the mean over whole games), an AI decision p99 < 20 ms at the default level of every game.
Run::

    python3 tasks.py bench engines [--games N] [--game GAME ...]
    python3 tasks.py bench engines --check [--game GAME ...]   # hashes of seeded games
    python3 tasks.py bench --compare REV engines -- --check    # the same hashes before and after

``--check`` plays seeded games of every game and table size (person time-outs answered by
``timeout_action``, easy and normal AIs) and prints per game one line of hashes: the actions, the
states, the events, a sample of views and steps, and the pixels of a sample of pictures. Two
sides printing the same line played the same games. It runs with ``PYTHONHASHSEED=0``: before
issue 22 the 鬪三國 AI walked a set of strings, whose order differs from process to process.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

from engines import registry  # noqa: E402

#: game -> the tables its timed games cycle through: (options, seats).
TABLES: dict[str, list[tuple[dict[str, str], int]]] = {
    "pentactic": [({"mode": "2", "board": "8x8"}, 2), ({"mode": "1", "board": "9x7"}, 2),
                  ({"mode": "3", "board": "11x6"}, 4)],
    "risk": [({"variant": "classic"}, 6), ({"variant": "mission"}, 5), ({"variant": "hq"}, 4)],
    "sanguosha": [({"heroes": "standard"}, 5), ({"heroes": "standard"}, 8)],
    "kingdoms_battle": [({}, 4), ({}, 5), ({}, 3)],
    "jiwu": [({}, 4), ({}, 3), ({}, 2)],
}
#: game -> the tables of ``--check``: every table size the engine allows, some options each.
CHECK: dict[str, list[tuple[dict[str, str], int]]] = {
    "pentactic": [({"mode": m, "board": b}, n) for m, n in (("1", 2), ("2", 2), ("3", 3), ("3", 6), ("4", 1))
                  for b in ("8x8", "9x7", "11x6")],
    "risk": [({"variant": v, "setup": s}, n) for v, n in (("classic", 6), ("mission", 5), ("hq", 4),
                                                           ("neutral", 2), ("classic", 3), ("mission", 3))
             for s in ("quick", "classic")],
    "sanguosha": [({"heroes": h}, n) for n in (2, 5, 8, 10) for h in ("standard", "beginner")],
    "kingdoms_battle": [({}, n) for n in (3, 4, 5, 3, 4, 5)],
    "jiwu": [({"ending": e}, n) for n in (2, 3, 4) for e in ("round", "turn")],
}


def timed_games(game: str, games: int) -> tuple[list[float], list[float], list[float], int]:
    """(apply ms, AI decision ms, game seconds, actions) over ``games`` seeded all-AI games."""
    engine = registry.get(game)
    apply_ms: list[float] = []
    decide_ms: list[float] = []
    game_s: list[float] = []
    actions = 0
    for g in range(games):
        options, seats = TABLES[game][g % len(TABLES[game])]
        rng = random.Random(g)
        state = engine.new_state(engine.normalize_options(options), seats, 300 + g)
        start = time.perf_counter()
        while pending := engine.pending(state):
            req = pending[0]
            t0 = time.perf_counter()
            action = engine.ai_action(state, req.seat, rng, "normal", req)
            t1 = time.perf_counter()
            state, _ = engine.apply(state, req.seat, action, req)
            t2 = time.perf_counter()
            decide_ms.append((t1 - t0) * 1000)
            apply_ms.append((t2 - t1) * 1000)
            actions += 1
        game_s.append(time.perf_counter() - start)
    return apply_ms, decide_ms, game_s, actions


def _pixels(png: bytes) -> bytes:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGBA").tobytes()


def check(game: str, pictures: bool, normal_only: bool = False) -> str:
    """One line of hashes over the seeded ``--check`` games of ``game``. Some moves are the
    ``easy`` level's; ``normal_only`` plays them at ``normal`` too, so a change to the other
    levels can prove that ``normal`` decides exactly as before."""
    engine = registry.get(game)
    render = None
    if pictures:
        from render import render_board as render
    h = {k: hashlib.sha256() for k in ("actions", "states", "events", "views", "pictures")}
    n = 0
    for g, (options, seats) in enumerate(CHECK[game]):
        rng = random.Random(g)
        state = engine.new_state(engine.normalize_options(options), seats, 500 + g)
        while pending := engine.pending(state):
            req = pending[g % len(pending)]
            level = "easy" if n % 7 == 3 and g % 3 == 0 and not normal_only else "normal"
            if n % 11 == 0:
                action = engine.timeout_action(state, req, rng)
            else:
                action = engine.ai_action(state, req.seat, rng, level, req)
            h["actions"].update(json.dumps(action).encode())
            if n % 5 == 0:
                for seat in (None, req.seat):
                    h["views"].update(json.dumps(engine.view(state, seat), sort_keys=True).encode())
                h["views"].update(repr(engine.step(state, req.seat, action[:1], req)).encode())
            if render is not None and n % 23 == 0:
                names = [f"P{i}" for i in range(seats)]
                h["pictures"].update(_pixels(render(engine.view(state, None), "zh-TW", names)))
            state, events = engine.apply(state, req.seat, action, req)
            h["states"].update(json.dumps(state, sort_keys=True).encode())
            h["events"].update(repr(events).encode())
            n += 1
    return f"{game:<16} {n:6d} actions  " + "  ".join(f"{k} {v.hexdigest()[:12]}" for k, v in h.items()
                                                       if k != "pictures" or pictures)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="timed games per game")
    ap.add_argument("--game", nargs="*", default=list(TABLES), choices=list(TABLES))
    ap.add_argument("--check", action="store_true", help="print hashes of seeded games instead")
    ap.add_argument("--no-pictures", action="store_true", help="--check without the pictures")
    ap.add_argument("--normal-only", action="store_true", help="--check with every AI move at the normal level")
    args = ap.parse_args(argv)
    if args.check:
        if os.environ.get("PYTHONHASHSEED") != "0":  # a set's order must not differ between two sides
            os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
        print(f"# check  code {harness.commit_of(harness.ROOT)}  (PYTHONHASHSEED=0)")
        for game in args.game:
            print(check(game, not args.no_pictures, args.normal_only), flush=True)
        return 0
    with harness.Session("engines") as s:
        for game in args.game:
            apply_ms, decide_ms, game_s, actions = timed_games(game, args.games)
            s.series(f"{game} apply", apply_ms, quantiles=("mean", "p99"))
            s.series(f"{game} AI decision", decide_ms, quantiles=("median", "p99"))
            s.figure(f"{game} game", sum(game_s) / len(game_s) * 1000, "ms",
                     note=f"mean of {len(game_s)} games, {actions / len(game_s):.0f} actions a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
