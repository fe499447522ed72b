"""鬪三國: AI self-play figures for the tile set (issue 9) and the speed of a full 5-AI game.

For each player count (3, 4, 5) it plays N seeded all-AI games and reports how games end (8
points vs tiles exhausted), game length, completed small/large cities, civil and national wars,
stratagems played, tiles discarded as unplaceable, and how often a completed city ends the game
joined by plain (no barricade between) to another completed city — the map's room for wars and
transfers, independent of how bold the AI is. Run::

    .venv/bin/python -m bench kingdoms_battle [--games N] [--markdown]
    .venv/bin/python -m bench kingdoms_battle --level hard --first 930000 --games N [--seats 5]

Then it renders a 5-player board with 70 tiles (``render/kingdoms_battle.py``, warm caches, as the
bot renders every post) and reports the median and p99 time and the PNG's size; the target is
< 100 ms. ``--render-only`` skips the self-play.
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

from engines.kingdoms_battle import ENGINE, board  # noqa: E402
from engines.kingdoms_battle import rules as R  # noqa: E402


def play(seats: int, seed: int, levels: list[str] | None = None) -> tuple[dict[str, Any], float, int, int]:
    """One game: (final state, seconds, actions, stratagems played)."""
    levels = levels or ["normal"] * seats
    rng = random.Random(seed)
    state = ENGINE.new_state({}, seats, seed)
    actions = plots = 0
    start = time.perf_counter()
    while not ENGINE.result(state):
        req = ENGINE.pending(state)[0]
        action = ENGINE.ai_action(state, req.seat, rng, levels[req.seat])
        plots += action[:2] == ["card", "plot"]
        state, _ = ENGINE.apply(state, req.seat, action)
        actions += 1
    return state, time.perf_counter() - start, actions, plots


def linked_share(state: dict[str, Any]) -> float:
    done = R.done_cities(state)
    if not done:
        return 0.0
    links = board.links(state)
    return sum(1 for c in done if links.get(c, set()) & set(done)) / len(done)


def figures(seats: int, games: int, base: int = 0, level: str = "normal") -> dict[str, Any]:
    rows = []
    for g in range(games):
        state, secs, actions, plots = play(seats, base + g, [level] * seats)
        st = state["stats"]
        rows.append({"points": state["end_reason"] == "points", "turns": st["turns"], "actions": actions,
                     "small": st["done_small"], "large": st["done_large"], "civil": st["civil"],
                     "national": st["national"], "plots": plots, "discarded": st["discarded"],
                     "linked": linked_share(state), "placed": len(state["tiles"]),
                     "top": max(R.score(state, s) for s in range(seats)), "ms": secs * 1000})

    def mean(k: str) -> float:
        return statistics.fmean(r[k] for r in rows)
    return {"seats": seats, "games": games, "by_points": sum(r["points"] for r in rows) / games,
            "turns": mean("turns"), "turns_min": min(r["turns"] for r in rows),
            "turns_max": max(r["turns"] for r in rows), "actions": mean("actions"), "small": mean("small"),
            "large": mean("large"), "civil": mean("civil"), "national": mean("national"), "plots": mean("plots"),
            "discarded": mean("discarded"), "linked": mean("linked"), "placed": mean("placed"),
            "top": mean("top"), "ms": statistics.median(r["ms"] for r in rows),
            "ms_max": max(r["ms"] for r in rows)}


HEADER = ("| players | games | ends at 8 points | ends by tiles | turns (min–max) | tiles placed | "
          "small cities | large cities | civil wars | national wars | stratagems | discarded | "
          "cities joined by plain | winner's points | ms/game (median, max) |")


def row(f: dict[str, Any]) -> str:
    return (f"| {f['seats']} | {f['games']} | {f['by_points']:.0%} | {1 - f['by_points']:.0%} | "
            f"{f['turns']:.1f} ({f['turns_min']}–{f['turns_max']}) | {f['placed']:.1f} | {f['small']:.1f} | "
            f"{f['large']:.1f} | {f['civil']:.2f} | {f['national']:.2f} | {f['plots']:.2f} | "
            f"{f['discarded']:.2f} | {f['linked']:.0%} | {f['top']:.1f} | {f['ms']:.0f}, {f['ms_max']:.0f} |")


def board_at(tiles: int, seats: int = 5, seed: int = 1) -> dict[str, Any]:
    """An all-AI game played until ``tiles`` tiles lie on the map (or it ends), as its public view."""
    rng = random.Random(seed)
    state = ENGINE.new_state({}, seats, seed)
    while not ENGINE.result(state) and len(state["tiles"]) < tiles:
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
    return ENGINE.view(state, None)


def render_figures(tiles: int = 70, runs: int = 40) -> dict[str, Any]:
    from render import render_board

    view = board_at(tiles)
    names = ["Alice", "Bob", "陳小明", "Dmitri", "Eve"]
    from render import kingdoms_battle

    prepare = getattr(kingdoms_battle, "prepare", None)
    if callable(prepare):  # as the bot does at start-up
        prepare()
    png = render_board(view, "en", names)  # warm the tile-face and glyph caches, like a running bot
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        png = render_board(view, "en", names)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"tiles": len(view["tiles"]), "median": statistics.median(times),
            "p99": times[min(len(times) - 1, round(0.99 * (len(times) - 1)))], "bytes": len(png)}


PLOTS = {"beauty": "美人計", "tiger": "驅虎吞狼", "lure": "調虎離山", "chencang": "暗渡陳倉"}


def stratagems(seats: int, games: int, base: int) -> None:
    """Per stratagem: games where anyone played it, player-games, plays per game, and the share of
    player-games won when played (ties split) — docs/rules/kingdoms_battle.md, issue 23."""
    in_games: dict[str, int] = dict.fromkeys(PLOTS, 0)
    by_player = dict.fromkeys(PLOTS, 0)
    plays = dict.fromkeys(PLOTS, 0)
    won = dict.fromkeys(PLOTS, 0.0)
    for seed in range(base, base + games):
        rng = random.Random(seed)
        state = ENGINE.new_state({}, seats, seed)
        used: list[set[str]] = [set() for _ in range(seats)]
        while not ENGINE.result(state):
            req = ENGINE.pending(state)[0]
            action = ENGINE.ai_action(state, req.seat, rng)
            if action[:2] == ["card", "plot"]:
                used[req.seat].add(action[2])
                plays[action[2]] += 1
            state, _ = ENGINE.apply(state, req.seat, action)
        winners = ENGINE.result(state).winners  # type: ignore[union-attr]
        for plot in set().union(*used):
            in_games[plot] += 1
        for seat, plots in enumerate(used):
            for plot in plots:
                by_player[plot] += 1
                won[plot] += (seat in winners) / len(winners)
    print(f"stratagems, {seats} players, all-AI games, seeds {base}-{base + games - 1}:")
    print("| stratagem | games where played | player-games | per game | wins when played |")
    print("|---|---|---|---|---|")
    for plot, name in PLOTS.items():
        print(f"| {name} {plot} | {in_games[plot] / games:.1%} | {by_player[plot] / (games * seats):.1%} | "
              f"{plays[plot] / games:.2f} | {won[plot] / max(1, by_player[plot]):.1%} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--stratagems", action="store_true",
                    help="per-stratagem use at 4 players on seeds --base.. (the docs use 80000, 1000 games)")
    ap.add_argument("--base", type=int, default=80000)
    ap.add_argument("--level", default="normal", help="the AI level of every seat in the self-play table")
    ap.add_argument("--first", type=int, default=0, help="the self-play table's first seed per player count")
    ap.add_argument("--seats", type=int, action="append", help="player counts of the self-play table (3, 4, 5)")
    args = ap.parse_args()
    with harness.Session("kingdoms_battle") as s:
        if args.stratagems:
            stratagems(4, args.games, args.base)
            return
        if not args.render_only:
            selfplay(args.games, args.level, args.first, args.seats or [3, 4, 5])
            if args.level != "normal":
                return
        r = render_figures()
        s.figure(f"board picture, {r['tiles']} tiles, median", r["median"], "ms")
        s.figure(f"board picture, {r['tiles']} tiles, p99", r["p99"], "ms")
        s.figure("board PNG", r["bytes"] / 1024, "KB")


def selfplay(games: int, level: str = "normal", first: int = 0, counts: list[int] | None = None) -> None:
    print(f"all seats {level}, seeds {first}-{first + games - 1} per player count")
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    for seats in counts or [3, 4, 5]:
        print(row(figures(seats, games, first, level)), flush=True)


if __name__ == "__main__":
    main()
