"""Save stored matches of every game, as the store holds them, for the upgrade tests.

A week-long match must finish after the bot is upgraded mid-game. ``tests/upgrade`` loads each
file written here into a database built at the schema version it was saved at, lets the current
code migrate it, plays it to the end and replays its export. Files are only ever added: run this
with a new ``--tag`` after a change to stored state or content, never over an older tag.

    python -m tools.make_upgrade_fixtures --tag 2026-11-26 [--only GAME]

Each game is played through the real ``MatchService`` on SQLite with one AI seat and people at
the other seats (their moves chosen by the AI); the match's rows are saved at named points:
right after the start, mid-turn, inside a response window, near the end, and, for 三国杀, inside
a 无懈可击 chain, a dying 桃 window, a skill's yes/no, a 五谷丰登 pick and the hero choice.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gzip
import json
import random
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from engines import registry
from engines.base import Request, State
from service.core import is_window, with_request
from service.errors import UserError
from service.matches import MatchService
from store import migrate, repo
from store.db import Store

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "upgrade" / "fixtures"
#: The match's tables, parents first (restoring inserts in this order); per-process tables
#: (leases, pacing, prefs) are not a match's.
TABLES = ("matches", "seats", "actions", "deadlines", "outbox", "match_meta")
USER0 = 5000


@dataclass
class Game:
    """One match to play: which points to save (name → test on the state and pending requests)."""

    slug: str
    seats: int
    options: dict[str, str] = field(default_factory=dict)
    points: dict[str, Callable[[State, list[Request], int], bool]] = field(default_factory=dict)
    label: str = ""
    #: A fixed seed for a match that must reach a rare point (found by trying seeds).
    seed: int | None = None

    @property
    def name(self) -> str:
        return f"{self.slug}-{self.label or 'default'}-{self.seats}p"


def _window(_s: State, pend: list[Request], _n: int) -> bool:
    return any(is_window(r) for r in pend)


def _mid(after: int) -> Callable[[State, list[Request], int], bool]:
    return lambda _s, _p, n: n >= after


def _kind(kind: str) -> Callable[[State, list[Request], int], bool]:
    return lambda _s, pend, _n: any(r.kind == kind for r in pend)


def _nullify_chain(state: State, pend: list[Request], _n: int) -> bool:
    """A 无懈可击 window opened by a 无懈可击 already played (the chain's second link)."""
    return any(r.kind == "nullify" for r in pend) and json.dumps(state["flow"]["stack"]).count('"nullify"') >= 2


def _games() -> list[Game]:
    common = {"mid": _mid(6), "window": _window}
    sgs = {**common, "hero": _kind("hero"), "nullify": _kind("nullify"), "nullify_chain": _nullify_chain,
           "dying": _kind("peach"), "skill": _kind("skill"), "wugu": _kind("wugu"), "shan": _kind("need_shan")}
    hg = {**common, "heroes": _kind("hg_heroes"), "reveal": _kind("hg_reveal"), "nullify": _kind("nullify"),
          "dying": _kind("peach"), "skill": _kind("skill"), "shan": _kind("need_shan")}
    return [
        Game("pentactic", 2, {"mode": "2"}, dict(common)),
        Game("pentactic", 2, {"mode": "1", "board": "9x7"}, dict(common), "mode1"),
        Game("pentactic", 6, {"mode": "3", "board": "11x6"}, dict(common), "mode3"),
        Game("pentactic", 1, {"mode": "4"}, dict(common), "solo"),
        Game("risk", 2, {"variant": "neutral"}, {**common, "mid": _mid(25)}, "neutral"),
        Game("risk", 6, {"variant": "classic", "setup": "classic"}, {**common, "mid": _mid(40), "late": _mid(200)},
             "classic"),
        Game("risk", 4, {"variant": "mission"}, {**common, "mid": _mid(40)}, "mission"),
        Game("risk", 3, {"variant": "hq"}, {**common, "mid": _mid(40)}, "hq"),
        Game("kingdoms_battle", 3, {}, {**common, "mid": _mid(12)}),
        Game("kingdoms_battle", 5, {}, {**common, "mid": _mid(20)}),
        Game("jiwu", 2, {}, {**common, "mid": _mid(15), "effect": _kind("effect"), "late": _mid(120)}),
        Game("jiwu", 4, {"ending": "turn"}, {**common, "mid": _mid(25), "effect": _kind("effect")}, "turn"),
        Game("sanguosha", 2, {}, {**sgs, "mid": _mid(10)}),
        Game("sanguosha", 5, {}, {**sgs, "mid": _mid(30)}),
        Game("sanguosha", 8, {}, {**sgs, "mid": _mid(40)}),
        Game("sanguosha", 8, {}, {"wugu": _kind("wugu"), "nullify_chain": _nullify_chain, "late": _mid(150)}, "b"),
        Game("sanguosha", 8, {}, {"wugu": _kind("wugu"), "skill": _kind("skill"), "pick": _kind("pick")}, "c",
             seed=4),
        Game("sanguosha", 10, {}, {**sgs, "mid": _mid(40)}),
        Game("sanguosha", 5, {"heroes": "beginner"}, {**sgs, "mid": _mid(30)}, "beginner"),
        # 国战 (issue 20): inside the hero choice, a start-phase reveal, windows, a skill question
        Game("sanguosha", 4, {"mode": "hegemony"}, {**hg, "mid": _mid(30)}, "hg"),
        Game("sanguosha", 8, {"mode": "hegemony"}, {**hg, "mid": _mid(60), "late": _mid(200)}, "hg"),
        Game("sanguosha", 12, {"mode": "hegemony", "peek_next": "on"}, {**hg, "mid": _mid(60)}, "hg"),
    ]


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"$b64": base64.b64encode(bytes(value)).decode("ascii")}
    return value


async def dump_match(store: Store, match_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of the match, column by column, exactly as stored (bytes as base64)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        key = "id" if table == "matches" else "match_id"
        rows = await store.fetchall(f"SELECT * FROM {table} WHERE {key} = ?", (match_id,))
        out[table] = [{k: _encode(row[k]) for k in row.keys()} for row in rows]  # noqa: SIM118
    return out


async def _schema_version(store: Store) -> int:
    row = await store.fetchone("SELECT MAX(version) AS v FROM schema_version")
    return int(row["v"]) if row else 0


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


Watch = Callable[[repo.MatchRecord, list[Request], int], Awaitable[None]]


async def play_to_end(svc: MatchService, match_id: int, humans: dict[int, int], rng: random.Random,
                      clock: list[float], watch: Watch, limit: int = 20000) -> repo.MatchRecord:
    """Play a stored match on to its end through the service: each person's pending request is
    answered with the AI's choice (``rng``), AI seats, windows and time-outs by ``run_due`` as the
    clock moves on. ``watch(record, people's pending requests, moves so far)`` sees every state,
    the final one included. Used to save the fixtures and by the test that finishes them."""
    engine = None
    moves = 0
    for _ in range(limit):
        rec = await repo.get_match(svc.store, match_id)
        assert rec is not None and rec.state is not None
        engine = engine or registry.get(rec.game)
        active = rec.status == "active"
        pend = [r for r in engine.pending(rec.state) if r.seat in humans] if active else []
        await watch(rec, pend, moves)
        if not active:
            return rec
        if pend:
            req = pend[0]
            act = with_request(engine.ai_action, req)(rec.state, req.seat, rng, "normal")
            with contextlib.suppress(UserError):  # a pass held until the window's delay: let time run
                await svc.act(match_id, humans[req.seat], req.id, act)
            moves += 1
            after = await repo.get_match(svc.store, match_id, with_state=False)
            if after is not None and after.version != rec.version:
                continue
        clock[0] += 30.0
        await svc.run_due()
    raise RuntimeError(f"match {match_id}: no end after {limit} steps")


async def play_and_save(game: Game, seed: int, tag: str, out: Path) -> list[str]:
    """Play ``game`` to its end through the service and write a file for each point reached."""
    clock = [1_800_000_000.0]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "m.sqlite3")
        svc = MatchService(store, clock=lambda: clock[0], rate_limits=False, offload=False)
        humans = {i: USER0 + i for i in range(max(1, game.seats - 1))} if game.seats > 1 else {0: USER0}
        info = await svc.create_lobby(game.slug, host_id=USER0, host_name="P0", locale="en", channel_id=77,
                                      options=dict(game.options), turn_seconds=86400)
        for seat, user in humans.items():
            if seat:
                await svc.join(info.id, user, f"P{seat}")
        for _ in range(game.seats - len(humans)):
            await svc.add_ai(info.id, USER0)
        with mock.patch("service.lobby.secrets.randbits", lambda _bits: seed):
            await svc.start(info.id, USER0)
        rng = random.Random(seed)
        saved: dict[str, dict[str, Any]] = {}
        last: dict[str, Any] | None = None
        schema = await _schema_version(store)

        async def snapshot(point: str) -> dict[str, Any]:
            return {"format": 1, "tag": tag, "saved_by": _commit(), "schema_version": schema, "game": game.slug,
                    "name": game.name, "point": point, "seed": seed, "humans": humans,
                    "tables": await dump_match(store, info.id)}

        saved["setup"] = await snapshot("setup")

        async def watch(rec: repo.MatchRecord, pend: list[Request], moves: int) -> None:
            nonlocal last
            if pend:
                for point, test in game.points.items():
                    if point not in saved and test(rec.state, pend, moves):
                        saved[point] = await snapshot(point)
                last = await snapshot("end")

        await play_to_end(svc, info.id, humans, rng, clock, watch)
        if last is not None:
            saved["end"] = last
        await svc.drain()
        await store.close()
    names = []
    for point, data in saved.items():
        path = out / game.slug / f"{tag}_{game.name}_{point}.json.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(json.dumps(data, ensure_ascii=False, sort_keys=True).encode(), mtime=0))
        names.append(path.name)
    return names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tag", required=True, help="a new name for this set (e.g. the date)")
    ap.add_argument("--only", help="one game slug")
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--label", help="only the games whose label starts with this (e.g. hg: the 国战 games)")
    args = ap.parse_args(argv)
    if list(OUT.glob(f"*/{args.tag}_*")) and not args.only:
        raise SystemExit(f"fixtures tagged {args.tag} exist: pick a new tag (fixtures are never rewritten)")
    assert migrate.migrations()
    for i, game in enumerate(_games()):
        if (args.only and game.slug != args.only) or (args.label and not game.label.startswith(args.label)):
            continue
        names = asyncio.run(play_and_save(game, game.seed or args.seed + i, args.tag, OUT))
        print(f"{game.name}: {len(names)} points: {', '.join(n.split('p_', 1)[1].split('.')[0] for n in names)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
