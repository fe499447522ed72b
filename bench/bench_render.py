"""Pentactic render time and PNG size, mid-game and end-game, for every board size and mode.

Views are built by dealing pieces and discs at random legal spots (deterministic seed), in the
exact view shape the engine publishes, so this runs with or without the engine being finished.
Run: ``.venv/bin/python bench/bench_render.py [--repeat N] [--save DIR]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render import pentactic  # noqa: E402
from render.pentactic import PIECES, _orientations  # noqa: E402

SIZES = {"8x8": (8, 8), "9x7": (9, 7), "11x6": (11, 6)}
NAMES = ["Alice", "Bob 🐉", "陳小明", "Łukasz", "王大力", "Zoë"]


def _fill_board(rng: random.Random, w: int, h: int, owner: int, piece_seat: int, n_pieces: int,
                disc_seats: list[int], n_discs: int) -> tuple[dict[str, Any], list[str], list[list[int]]]:
    taken: set[tuple[int, int]] = set()
    discs = []
    rows: set[int] = set()
    cols: set[int] = set()
    for _ in range(n_discs):
        free = [(x, y) for x in range(w) for y in range(h) if x not in cols and y not in rows]
        if not free:
            break
        x, y = rng.choice(free)
        rows.add(y)
        cols.add(x)
        taken.add((x, y))
        discs.append({"cell": [x, y], "by": rng.choice(disc_seats)})
    pieces = []
    used: list[str] = []
    last: list[list[int]] = []
    order = list(PIECES)
    rng.shuffle(order)
    for p in order:
        if len(pieces) >= n_pieces:
            break
        spots = [[(ax + dx, ay + dy) for dx, dy in o]
                 for o in _orientations(p) for ax in range(w) for ay in range(h)]
        spots = [s for s in spots if all(0 <= x < w and 0 <= y < h and (x, y) not in taken for x, y in s)]
        if not spots:
            continue
        cells = rng.choice(spots)
        taken.update(cells)
        pieces.append({"piece": p, "seat": piece_seat, "cells": [list(c) for c in cells]})
        used.append(p)
        last = [list(c) for c in cells]
    return {"owner": owner, "discs": discs, "pieces": pieces}, used, last


def make_view(mode: str, board: str, seats: int, progress: float, seed: int = 1) -> dict[str, Any]:
    """A plausible view: ``progress`` 0..1 of the pieces placed; 1.0 means the game is over."""
    rng = random.Random(seed)
    w, h = SIZES[board]
    over = progress >= 1.0
    boards = []
    players = []
    last = None
    per_board = 1 if mode in ("1", "4") else seats
    for b in range(per_board):
        owner = b
        discarded = [rng.choice(PIECES)] if mode != "4" else []
        others = [s for s in range(seats) if s != owner] or [owner]
        n_pieces = round((11 if mode != "4" else 12) * progress * (0.7 if over else 1))
        n_discs = 8 if mode != "4" else {"8x8": 4, "9x7": 3, "11x6": 6}[board]
        n_discs = n_discs if over or mode == "4" else round(n_discs * progress)
        bview, used, cells = _fill_board(rng, w, h, owner, owner, n_pieces, others, n_discs)
        boards.append(bview)
        if cells:
            last = {"board": owner, "kind": "piece", "cells": cells}
        left = [p for p in PIECES if p not in used and p not in discarded]
        players.append({"seat": owner, "pieces_left": left, "discarded": discarded,
                        "discs_left": 8 - len([d for d in bview["discs"]]) if mode != "4" else 0,
                        "score": (len(left) + 2) if over else None, "total": None,
                        "role": None, "passed": over})
    if mode == "1":
        players[0]["role"] = "attacker"
        players.append({"seat": 1, "pieces_left": [], "discarded": [], "discs_left": 8 - len(boards[0]["discs"]),
                        "score": None, "total": 3 if over else None, "role": "defender", "passed": False})
    return {"game": "pentactic", "mode": mode, "board": board, "width": w, "height": h,
            "round": 2 if over and mode == "1" else 1,
            "phase": "over" if over else "attack", "to_move": [] if over else [0],
            "players": players, "boards": boards, "last": last, "round_results": [],
            "winners": [0] if over else None}


CASES = [(mode, board, seats) for board in SIZES for mode, seats in (("1", 2), ("2", 2), ("3", 4), ("3", 6), ("4", 1))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--locale", default="zh-TW")
    args = ap.parse_args(argv)
    pentactic.render(make_view("1", "8x8", 2, 0.5), args.locale, NAMES)  # warm caches and fonts
    print(f"{'mode':>4} {'board':>5} {'seats':>5} {'stage':>5} {'size px':>10} {'ms':>7} {'KB':>6}")
    for mode, board, seats in CASES:
        for stage, progress in (("mid", 0.5), ("end", 1.0)):
            view = make_view(mode, board, seats, progress)
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                png = pentactic.render(view, args.locale, NAMES)
                times.append(time.perf_counter() - t0)
            img = pentactic.compose(view, args.locale, NAMES)
            times.sort()
            print(f"{mode:>4} {board:>5} {seats:>5} {stage:>5} {img.width:>4}x{img.height:<5} "
                  f"{times[len(times) // 2] * 1000:7.1f} {len(png) / 1024:6.1f}")
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"pentactic_m{mode}_{board}_{seats}p_{stage}.png").write_bytes(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
