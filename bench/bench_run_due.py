"""The scheduler's backlog: ``run_due`` with 2 000 due items of a mixed workload.

Matches of all five games, each with one person (the host, seat 0) and AI seats, turn clock one
hour, on SQLite, with seeded deals. When the clock jumps, due at once are:

* time-outs: the person's request expired, so the AI plays for them, and then the AI seats'
  moves it makes owed, until the person is asked again (an AI run);
* window closes: 三国杀 matches where the person was asked to respond in a window (prepared by
  playing each match until that happens); the window's default is applied for them and play
  goes on with the AI seats;
* reminders: matches whose person is a quarter of the turn before its end;
It times the ``run_due`` rounds until nothing is due any more, when each reminder was
published, and, with a 1 ms ticker, how long the event loop was kept from running (and, apart
from that, the CPU the loop's thread spent in each callback: what the loop itself did at a
stretch, while the lag also counts its waits for the GIL and for a core), and the CPU of
the loop's, the engine and the database threads apart. Then a
minute later a slow match (``--slow`` seconds of CPU in its AI's move) falls due together with
100 reminders and 50 Risk time-outs of other matches: they must not wait for it. Targets
(issue 22), with the parallel load: the 2 000 done < 5 s; no reminder delayed by the slow match
(all out long before it is done); the loop never blocked > 20 ms. Run::

    python3 tasks.py bench run_due [--items 2000] [--slow 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

harness.use_code()

import service.lobby as lobby  # noqa: E402
from engines import registry  # noqa: E402
from service.matches import MatchService  # noqa: E402

try:  # the code under test may predate it (bench --compare)
    from service.core import settle_heap
except ImportError:  # pragma: no cover
    def settle_heap() -> None:
        pass
from store import repo  # noqa: E402
from store.db import Store  # noqa: E402

TURN = 3600
#: game -> (options, seats) of its matches: one person, the rest AI seats.
TABLES: dict[str, tuple[dict[str, str], int]] = {
    "pentactic": ({"mode": "2"}, 2), "risk": ({"setup": "quick"}, 4), "sanguosha": ({}, 5),
    "kingdoms_battle": ({}, 4), "jiwu": ({}, 3),
}
#: Shares of the due items: time-outs (spread over the five games), 三国杀 window closes, reminders.
SHARES = {"timeout": 0.6, "window": 0.1, "reminder": 0.3}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Posts:
    """A batch publisher noting when, after ``arm()``, each match was first published to and
    each reminder went out."""

    def __init__(self) -> None:
        self.armed_at: float | None = None
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.reminders: list[float] = []
        self.changes = 0

    def arm(self) -> None:
        self.armed_at = time.perf_counter()

    async def publish(self, match: Any, change: Any) -> None:
        await self.publish_batch(match, [change])

    async def publish_batch(self, match: Any, changes: list[Any]) -> None:
        self.changes += len(changes)
        if self.armed_at is None:
            return
        at = time.perf_counter() - self.armed_at
        self.first.setdefault(match.id, at)
        self.last[match.id] = at
        self.reminders += [at for c in changes if c.kind == "reminder"]


class Ticker:
    """How late a 1 ms sleep wakes up: how long the event loop was kept from running."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            self.lags.append(max(0.0, time.perf_counter() - t0 - 0.001) * 1000)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class LoopWork:
    """How much CPU the event loop's thread spent in each callback (``time.thread_time``): what
    the loop itself did at a stretch, apart from the lag the ticker sees, which also counts the
    waits for the GIL and, on a loaded machine, for a core. Callbacks under 1 ms are counted,
    not kept."""

    def __init__(self) -> None:
        self.long: list[float] = []
        self.count = 0
        self._real: Any = None

    def start(self) -> None:
        handle = asyncio.events.Handle
        real = self._real = handle._run

        def run(h: Any) -> None:
            t0 = time.thread_time()
            try:
                real(h)
            finally:
                self.count += 1
                spent = (time.thread_time() - t0) * 1000
                if spent >= 1:
                    self.long.append(spent)

        handle._run = run  # type: ignore[method-assign]

    def stop(self) -> None:
        asyncio.events.Handle._run = self._real  # type: ignore[method-assign]

    def p99(self) -> float:
        """The 99th percentile over every callback (those under 1 ms count as 0)."""
        rank = int(0.99 * self.count)
        over = sorted(self.long, reverse=True)
        return over[self.count - 1 - rank] if self.count - 1 - rank < len(over) else 0.0


def thread_cpu() -> dict[str, float]:
    """CPU seconds so far of this process's threads, by kind: the event loop, the engine
    threads, the SQLite connections' threads, the rest (Linux ``/proc``; empty elsewhere).
    Everything runs under one GIL, so the total is wall time; the split says where it goes."""
    import os
    import threading
    kinds = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[str, float] = {}
    try:
        tids = os.listdir("/proc/self/task")
        hz = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        return out
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        name = kinds.get(int(tid), "")
        kind = "event loop" if name == "MainThread" else "engine threads" if name.startswith("engine") \
            else "database threads" if "connection" in name else "other threads"
        out[kind] = out.get(kind, 0.0) + (int(fields[11]) + int(fields[12])) / hz
    return out


class Slowness:
    """Whether the slow match's AI is to burn its CPU seconds (once, after ``armed``)."""

    armed = False
    burnt = False


def slow_engine(seconds: float) -> str:
    """Register a Risk engine whose AI burns ``seconds`` of CPU on its first move once armed; its
    slug."""
    base = registry.get("risk")

    class Slow(type(base)):  # type: ignore[misc]
        slug = "risk_slow"

        def ai_action(self, state: Any, seat: int, rng: Any, level: str = "normal", request: Any = None) -> Any:
            burn()
            return super().ai_action(state, seat, rng, level, request)

        def timeout_action(self, state: Any, request: Any, rng: Any) -> Any:
            burn()
            return super().timeout_action(state, request, rng)

    def burn() -> None:
        if Slowness.armed and not Slowness.burnt:
            Slowness.burnt = True
            end = time.thread_time() + seconds
            while time.thread_time() < end:
                pass

    registry.register("risk_slow", Slow())
    return "risk_slow"


async def new_match(service: MatchService, game: str, host: int, options: dict[str, str], seats: int,
                    turn: int = TURN) -> int:
    info = await service.create_lobby(game, host_id=host, host_name=f"H{host}", locale="en", options=options,
                                      turn_seconds=turn)
    for _ in range(seats - 1):
        await service.add_ai(info.id, host)
    await service.start(info.id, host)
    return info.id


async def settle(service: MatchService, clock: Clock, limit: int = 100) -> None:
    """Let the AI answer what is due now (AI windows need their delay to pass)."""
    while await service.run_due(limit):
        await service.drain()
    await service.drain()


async def into_windows(service: MatchService, clock: Clock, ids: dict[int, int], rounds: int) -> set[int]:
    """Play the person of each 三国杀 match (their AI's choice) until they are asked to respond in a
    window; returns the matches that got there (the others are dropped)."""
    engine = registry.get("sanguosha")
    rng = random.Random(5)
    ready: set[int] = set()
    for _ in range(rounds):
        busy = False
        for match_id, host in ids.items():
            if match_id in ready:
                continue
            mine = [r for r in await service.pending_requests(match_id) if r.user_id == host]
            if any(r.window for r in mine):
                ready.add(match_id)
                continue
            if not mine:
                continue
            busy = True
            row = await service.store.fetchone("SELECT state FROM matches WHERE id = ?", (match_id,))
            state = json.loads(row["state"])
            req = next(r for r in engine.pending(state) if r.id == mine[0].request_id)
            action = engine.ai_action(state, req.seat, rng, "normal", req)
            await service.act(match_id, host, req.id, action)
        clock.now += 2
        await settle(service, clock)
        if not busy:
            break
    return ready


async def work_off(service: MatchService, store: Store, now: float) -> tuple[int, int]:
    """``run_due`` rounds (and waits for work left in the background) until nothing is due at
    ``now``: (rounds, things done)."""
    rounds = done = 0
    while True:
        n = await service.run_due()
        rounds += 1
        done += n
        if n == 0:
            await service.drain()
            if not await repo.due_deadlines(store, now, 1) and not await repo.due_reminders(store, now, 1):
                return rounds, done


async def people_due(store: Store, now: float) -> int:
    return (await store.fetchone(
        "SELECT COUNT(*) AS n FROM deadlines d JOIN seats s ON s.match_id = d.match_id AND s.seat = d.seat"
        " WHERE d.due_at <= ? AND s.user_id IS NOT NULL", (now,)))["n"]


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=2000, help="due items (time-outs, window closes, reminders)")
    ap.add_argument("--slow", type=float, default=2.0, help="CPU seconds of the slow match's AI move (0: none)")
    ap.add_argument("--game", nargs="*", choices=list(TABLES), help="only these games' time-outs and reminders"
                    " (the 三国杀 windows only with sanguosha)")
    args = ap.parse_args()
    if args.game:
        for game in set(TABLES) - set(args.game):
            del TABLES[game]
    picks = random.Random(11)
    lobby.secrets = types.SimpleNamespace(randbits=picks.getrandbits)  # seeded deals: the same games each run
    clock = Clock()
    posts = Posts()
    per_game = round(args.items * SHARES["timeout"] / len(TABLES))
    windows = round(args.items * SHARES["window"]) if "sanguosha" in TABLES else 0
    reminders = round(args.items * SHARES["reminder"] / len(TABLES))
    with harness.Session("run_due") as s, tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "due.sqlite3")
        service = MatchService(store, publisher=posts, clock=clock, rate_limits=False)
        t0 = time.perf_counter()
        host = 10_000
        start = clock.now
        # The first part is due at T1 (time-outs of matches started at +600, windows opened
        # before it, reminders of matches started at +1200). The second is set up after it, with
        # one-minute turns (reminded 15 s before the end): the slow match and other matches
        # started at T1 are due at T2 = T1 + 60, reminders of matches started at T1 + 10.
        t1 = start + 600 + TURN + 1
        window_ids: dict[int, int] = {}
        for _ in range(windows + windows // 2):  # not every match gets a window in time
            host += 1
            window_ids[await new_match(service, "sanguosha", host, *TABLES["sanguosha"])] = host
        await settle(service, clock)
        ready = await into_windows(service, clock, window_ids, rounds=250)
        for match_id in list(ready)[windows:]:
            await service.abandon(match_id, window_ids[match_id])
        for match_id in set(window_ids) - ready:
            await service.abandon(match_id, window_ids[match_id])
        clock.now = max(clock.now, start + 600)
        for game, (options, seats) in TABLES.items():
            for _ in range(per_game):
                host += 1
                await new_match(service, game, host, options, seats)
        await settle(service, clock)
        clock.now = start + 1200
        for game, (options, seats) in TABLES.items():
            for _ in range(reminders):
                host += 1
                await new_match(service, game, host, options, seats)
        await settle(service, clock)
        setup = time.perf_counter() - t0
        settle_heap()  # as the bot does once started (bot.warm_renderers)

        clock.now = t1
        due = await people_due(store, clock.now)
        due_reminders = len(await repo.due_reminders(store, clock.now, 10 ** 6))
        print(f"  due: {due} people's deadlines (time-outs of {per_game} matches per game,"
              f" {min(windows, len(ready))} 三国杀 window closes), {due_reminders} reminders;"
              f" set-up {setup:.0f} s", flush=True)
        ticker = Ticker()
        work = LoopWork()
        posts.arm()
        ticker.start()
        work.start()
        began, cpu0, split0 = time.perf_counter(), time.process_time(), thread_cpu()
        rounds, done = await work_off(service, store, clock.now)
        total = time.perf_counter() - began
        cpu = time.process_time() - cpu0
        split = thread_cpu()
        work.stop()
        await ticker.stop()
        s.figure("run_due total", total, "s", note=f"{due + due_reminders} due items, {rounds} rounds,"
                 f" {done} things done, {posts.changes} changes published, CPU {cpu:.1f} s")
        s.figure("run_due per due item", total / max(1, due + due_reminders) * 1000, "ms")
        s.series("reminder published after", sorted(posts.reminders), unit="s", quantiles=("median", "p99", "max"))
        s.series("first post per match after", list(posts.first.values()), unit="s",
                 quantiles=("median", "p99"))
        s.series("event loop lag", ticker.lags, quantiles=("p99", "max"))
        for kind in ("event loop", "engine threads", "database threads"):
            if kind in split:
                s.figure(f"CPU of the {kind}", split[kind] - split0.get(kind, 0.0), "s")
        s.figure("event loop callback CPU p99", work.p99(), note=f"{work.count} callbacks")
        s.figure("event loop callback CPU max", max(work.long, default=0.0))

        if args.slow:
            second: list[int] = []
            slow_id = await new_match(service, slow_engine(args.slow), host + 1, {"setup": "quick"}, 3, 60)
            for k in range(50):
                second.append(await new_match(service, "risk", host + 2 + k, {"setup": "quick"}, 4, 60))
            await settle(service, clock)
            clock.now = t1 + 10
            for k in range(100):
                await new_match(service, "kingdoms_battle", host + 100 + k, {}, 4, 60)
            await settle(service, clock)
            clock.now = t1 + 60
            due2 = await people_due(store, clock.now)
            due_reminders2 = len(await repo.due_reminders(store, clock.now, 10 ** 6))
            print(f"  then due: {due2} people's deadlines (the slow match: its AI takes {args.slow:g} s of CPU,"
                  f" and {len(second)} Risk matches), {due_reminders2} reminders", flush=True)
            posts.first.clear()
            posts.reminders.clear()
            ticker = Ticker()
            work = LoopWork()
            posts.arm()
            Slowness.armed = True
            ticker.start()
            work.start()
            began = time.perf_counter()
            await work_off(service, store, clock.now)
            work.stop()
            await ticker.stop()
            s.figure("slow match done after", posts.last.get(slow_id, float("nan")), "s")
            s.series("beside it: reminder published after", sorted(posts.reminders), unit="s",
                     quantiles=("median", "max"))
            s.series("beside it: other time-out published after", [posts.first[m] for m in second if m in posts.first],
                     unit="s", quantiles=("median", "max"))
            s.series("beside it: event loop lag", ticker.lags, quantiles=("p99", "max"))
            s.figure("beside it: event loop callback CPU max", max(work.long, default=0.0))
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
