"""Three real bot processes (shards 0-2 of 3) on one PostgreSQL database against the fake Discord.

Every process has its own gateway session; the fake hands each interaction to a random live one
(as DMs reach shard 0 whoever's match it is), and guild events to all. Matches are played through
the components only; midway process 1 is killed with SIGKILL and started again. Then: every match
finished, each move was applied once, each status post exists once, every committed change was
delivered, and no interaction went unanswered.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from e2e_support import Table, play_to_end, real_bot_missing

import app_settings
from fakediscord import FakeDiscord
from service.matches import MatchService
from store import repo
from store.base import open_store

pytestmark = pytest.mark.skipif(bool(real_bot_missing("pentactic")), reason=str(real_bot_missing("pentactic")))
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PROCESSES = 3


class BotProcess:
    def __init__(self, fake: FakeDiscord, pg_url: str, shard: int, cwd: Path) -> None:
        limit = fake.rate_limit
        pace = app_settings.DEFAULT_POST_INTERVAL * (limit[1] / 5.0) if limit else 0.0
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)]),
                    "DISCORD_TOKEN": fake.token, "DATABASE_URL": pg_url, "SHARD_COUNT": str(PROCESSES),
                    "SHARD_IDS": str(shard), "SCHEDULER_INTERVAL": "0.2", "POST_INTERVAL": str(pace),
                    "LOG_LEVEL": "WARNING"}
        self.args = [sys.executable, str(HERE / "e2e_bot_process.py"), fake.api_base, fake.gateway_url]
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, env=self.env, cwd=self.cwd, stdout=subprocess.DEVNULL,
                                     stderr=open(self.cwd / f"bot-{id(self)}.log", "ab"))  # noqa: SIM115

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def _cluster(fake: FakeDiscord, table: Table, pg_url: str, tmp_path: Path, matches: int) -> None:
    rng = random.Random(3)
    fake.gateway.route = lambda live: rng.choice(live)
    bots = [BotProcess(fake, pg_url, i, tmp_path) for i in range(PROCESSES)]
    store = await open_store(pg_url)
    reader = SimpleNamespace(service=MatchService(store))  # what the players' screens show
    try:
        for b in bots:
            b.start()
        await fake.wait_for(lambda: len(fake.gateway.live()) >= PROCESSES and fake.commands(), 90,
                            "three bot processes connected")
        table.patience = 20.0
        games = []
        for i in range(matches):
            host, guest = fake.add_user(f"host{i}", locale="en-US"), fake.add_user(f"guest{i}", locale="zh-TW")
            info = await table.start_match(reader, host, "pentactic", guests=(guest,), options={"mode": "2"})
            games.append((info, [host, guest]))
        first = 4

        async def some(info, players):  # type: ignore[no-untyped-def]
            with pytest.raises(AssertionError, match=f"not over after {first} moves"):
                await play_to_end(fake, reader, table, info.id, info.thread_id, players, max_moves=first)

        await asyncio.gather(*(some(info, players) for info, players in games))
        bots[1].kill()  # mid-game: whatever it was still posting or pacing is cut off
        await fake.wait_for(lambda: len(fake.gateway.live()) == PROCESSES - 1, 20, "the killed session to drop")
        bots[1].start()
        await fake.wait_for(lambda: len(fake.gateway.live()) >= PROCESSES, 90, "the restarted process")
        rest = await asyncio.gather(*(play_to_end(fake, reader, table, info.id, info.thread_id, players)
                                      for info, players in games))
        for _ in range(100):
            if not await repo.undelivered(store):
                break
            await asyncio.sleep(0.2)
        assert await repo.undelivered(store) == []
        for (info, _players), moves in zip(games, rest, strict=True):
            final = await reader.service.get(info.id)
            assert final.status == "finished"
            log = await repo.list_actions(store, info.id)
            answered = [a.request_id for a in log if a.request_id]
            assert len(answered) == first + moves == len(set(answered)), (info.id, answered)
            markers = [(e.get("footer") or {}).get("text", "") for m in fake.messages_in(info.thread_id)
                       for e in m.embeds]
            markers = [x for x in markers if x.startswith(f"#{info.id}")]
            assert markers and len(markers) == len(set(markers)), ("a status post was repeated", markers)
        # Discord's global limit holds for the three processes together (the fake answers 429
        # past ``GLOBAL_RATE_LIMIT`` per second, which assert_clean counts): the figure for docs/deploy.md.
        print(f"\n{matches} matches: {len(fake.global_calls)} requests counted against the global limit, "
              f"peak {fake.global_peak()} in a second (limit {fake.global_limit})")
        fake.assert_clean()
    finally:
        for b in bots:
            b.stop()
        await store.close()


async def test_three_bot_processes_one_killed(fake: FakeDiscord, table: Table, pg_url: str, tmp_path: Path) -> None:
    await _cluster(fake, table, pg_url, tmp_path, matches=3)


@pytest.mark.slow
async def test_three_bot_processes_thirty_matches_one_killed(fake: FakeDiscord, table: Table, pg_url: str,
                                                             tmp_path: Path) -> None:
    await _cluster(fake, table, pg_url, tmp_path, matches=30)
