"""One human action through service + store (+ render when a renderer exists): median and p99.

Three series over the same kind of game:

* ``act``         two human seats; one act() (lock, load, engine, one transaction, outbox, publish)
* ``act+view+png`` the same plus what the Discord layer does next: view_for_user and render_board
* ``act vs AI``   one human seat against the AI; act() returns after the AI has answered

While the AI series runs, a 1 ms ticker measures how long the event loop was blocked (engine
calls run in worker threads, so other matches keep being served). Run::

    .venv/bin/python bench/bench_roundtrip.py [--actions N] [--game pentactic]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

ROOT = harness.use_code()

from engines import registry  # noqa: E402
from service.matches import MatchService  # noqa: E402

try:  # the code under test may predate it (bench --compare)
    from service.core import settle_heap
except ImportError:  # pragma: no cover
    def settle_heap() -> None:
        pass
from store.db import Store  # noqa: E402

P1, P2 = 1, 2


def pick_game(wanted: str | None) -> str:
    games = registry.available()
    if wanted:
        return wanted
    if "pentactic" in games:
        return "pentactic"
    sys.path.insert(0, str(ROOT / "tests" / "service"))  # fall back to the service tests' toy game
    import svc_toy_engine

    return svc_toy_engine.install().slug


class NullPublisher:
    async def publish(self, match: Any, change: Any) -> None:
        return None


async def state_of(service: MatchService, match_id: int) -> dict[str, Any]:
    row = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (match_id,))
    return json.loads(row["state"])


async def new_match(service: MatchService, game: str, humans: int) -> int:
    info = await service.create_lobby(game, host_id=P1, host_name="One", locale="en")
    if humans == 2:
        await service.join(info.id, P2, "Two")
    else:
        await service.add_ai(info.id, P1)
    return (await service.start(info.id, P1)).id


async def human_series(service: MatchService, game: str, actions: int, render: Any | None) -> list[float]:
    """Times of act() [+ view + render] for ``actions`` human moves in 2-human games."""
    engine = registry.get(game)
    rng = random.Random(1)
    times: list[float] = []
    match_id = await new_match(service, game, 2)
    while len(times) < actions:
        info = await service.get(match_id)
        if info.status != "active":
            match_id = await new_match(service, game, 2)
            continue
        for user in (P1, P2):
            rids = await service.pending_for_user(match_id, user)
            if not rids:
                continue
            seat = info.seat_of(user)
            action = engine.ai_action(await state_of(service, match_id), seat, rng)  # not timed
            t0 = time.perf_counter()
            await service.act(match_id, user, rids[0], action)
            if render is not None:
                view = await service.view_for_user(match_id, user)
                render(view, "en", [s.name for s in info.seats])
            times.append(time.perf_counter() - t0)
            break
    return times


async def ai_series(service: MatchService, game: str, actions: int) -> tuple[list[float], list[float]]:
    engine = registry.get(game)
    rng = random.Random(2)
    times: list[float] = []
    lags: list[float] = []
    stop = False

    async def ticker() -> None:
        while not stop:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append(max(0.0, time.perf_counter() - t0 - 0.001))

    tick = asyncio.create_task(ticker())
    match_id = await new_match(service, game, 1)
    while len(times) < actions:
        info = await service.get(match_id)
        rids = await service.pending_for_user(match_id, P1)
        if info.status != "active" or not rids:
            if info.status != "active":
                match_id = await new_match(service, game, 1)
            else:
                await service.run_due()
            continue
        action = engine.ai_action(await state_of(service, match_id), 0, rng)
        t0 = time.perf_counter()
        await service.act(match_id, P1, rids[0], action)
        times.append(time.perf_counter() - t0)
    stop = True
    await tick
    return times, lags


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--game", default=None)
    parser.add_argument("--no-offload", action="store_true", help="run engine calls on the event loop")
    args = parser.parse_args()
    game = pick_game(args.game)
    render = None
    try:
        from render import has_renderer, render_board

        if has_renderer(game):
            render = render_board
    except ImportError:
        pass
    with harness.Session("roundtrip") as s, tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = MatchService(store, publisher=NullPublisher(), rate_limits=False,
                               offload=not args.no_offload)
        print(f"  game={game}  actions per series={args.actions}  offload={not args.no_offload}")
        settle_heap()  # as the bot does once started (bot.warm_renderers)
        s.series(f"{game} act", [t * 1000 for t in await human_series(service, game, args.actions, None)])
        if render is not None:
            s.series(f"{game} act+view+png",
                     [t * 1000 for t in await human_series(service, game, args.actions, render)])
        times, lags = await ai_series(service, game, args.actions)
        s.series(f"{game} act vs AI", [t * 1000 for t in times])
        s.series(f"{game} loop lag", [t * 1000 for t in lags], quantiles=("p99", "max"),
                 note="1 ms ticker while the AI series ran")
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
