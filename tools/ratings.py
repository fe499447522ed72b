"""``python3 tasks.py ratings --rebuild [--check] [--db TARGET]``: recompute every rating from the logs.

Each finished match is replayed from its seed and action log (``service.replay``) to its final
state, whose sides (``Engine.teams``) and the stored result give the places; ratings are then
taken in the order the bot took them (``match_results.seq``; matches finished before results were
recorded first, by finish time) through the same ``service.results.settle`` the bot uses, so the
rebuilt ratings equal the stored ones. ``--check`` only compares and says what differs (exit 1);
without it the results and ratings tables are rewritten in one transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass, field

from engines import registry
from service import ratings, results
from service.matches import MatchService
from service.replay import replay
from store import repo
from store.base import Database, open_store


@dataclass
class Rebuilt:
    """What a rebuild computed: the result rows per match and the final ratings."""

    matches: list[tuple[int, int, str, bool, float, list[repo.SeatResultRow]]] = field(default_factory=list)
    ratings: dict[tuple[int, str, int], repo.RatingRecord] = field(default_factory=dict)
    #: The finished matches as the rebuild found them (``repo.result_order``), to notice one
    #: that a running bot finished meanwhile.
    order: list[tuple[int, int | None]] = field(default_factory=list)

    def sorted_ratings(self) -> list[repo.RatingRecord]:
        return [self.ratings[k] for k in sorted(self.ratings)]


async def compute(store: Database) -> Rebuilt:
    """Replay every finished match and rate them in order (nothing is written)."""
    service = MatchService(store, offload=False)
    out = Rebuilt()
    out.order = await repo.result_order(store)
    for match_id, _seq in out.order:
        rec = await repo.get_match(store, match_id, with_state=False)
        assert rec is not None
        seats = await repo.get_seats(store, match_id)
        if not any(s.user_id is not None for s in seats):
            continue
        export = await service.export(match_id)
        state = replay(export)
        resigned = {a["seat"] for a in export["actions"] if a["source"] == "system" and a["action"] == ["resign"]}
        like = [ratings.SeatLike(s.seat, s.user_id, s.ai_level, s.seat in resigned) for s in seats]
        guild = rec.guild_id or 0
        placed = ratings.places(registry.get(rec.game).teams(state), rec.result or {}, like)
        current = {k[2]: r for k, r in out.ratings.items() if k[0] == guild and k[1] == rec.game}
        rated, rows, updated = results.settle(placed, like, guild, rec.game, current)
        out.matches.append((match_id, guild, rec.game, rated, float(rec.finished_at or 0.0), rows))
        for r in updated:
            out.ratings[(r.guild_id, r.game, r.user_id)] = r
    return out


class Raced(RuntimeError):
    """A match finished while the rebuild computed: nothing was written; run it again."""


async def write(store: Database, rebuilt: Rebuilt, now: float) -> None:
    """Replace the results and ratings tables with the rebuilt ones, in one transaction that
    holds the lock a finishing match takes (``results.LOCK``), and only if no match finished
    since :func:`compute` read them — a bot may be running (docs/ratings.md), and its result
    rows and rating changes must not be lost or collide with the rebuilt numbering."""
    async with store.transaction() as tx:
        await repo.serialize_on(tx, results.LOCK)
        if await repo.result_order(tx) != rebuilt.order:
            raise Raced("a match finished while the ratings were rebuilt; nothing was written, run it again")
        await repo.clear_results(tx)
        for seq, (match_id, guild, game, rated, finished_at, rows) in enumerate(rebuilt.matches, 1):
            await repo.insert_result(tx, match_id, seq, guild, game, rated, finished_at, rows)
        await repo.put_ratings(tx, rebuilt.sorted_ratings(), now)


def differences(stored: list[repo.RatingRecord], rebuilt: Rebuilt) -> list[str]:
    """Human-readable lines for every rating that differs (empty: identical)."""
    have = {(r.guild_id, r.game, r.user_id): r for r in stored}
    lines = []
    for key in sorted(set(have) | set(rebuilt.ratings)):
        a, b = have.get(key), rebuilt.ratings.get(key)
        if a != b:
            lines.append(f"server {key[0]} {key[1]} user {key[2]}: stored {a} rebuilt {b}")
    return lines


def main(argv: list[str]) -> int:
    import time

    import app_settings

    parser = argparse.ArgumentParser(prog="tasks.py ratings", description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="recompute every rating from the match logs")
    parser.add_argument("--check", action="store_true", help="compare with the stored ratings, write nothing")
    parser.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (default: the settings')")
    args = parser.parse_args(argv)
    if not args.rebuild:
        parser.print_help()
        return 2
    target = args.db or app_settings.load().database_target

    async def run() -> int:
        store = await open_store(target)
        try:
            rebuilt = await compute(store)
            diff = differences(await repo.all_ratings(store), rebuilt)
            if args.check:
                print("\n".join(diff) or f"{len(rebuilt.ratings)} ratings equal the stored ones.")
                return 1 if diff else 0
            try:
                await write(store, rebuilt, time.time())
            except Raced as err:
                print(err)
                return 1
            print(f"Rebuilt {len(rebuilt.ratings)} ratings from {len(rebuilt.matches)} matches"
                  f" ({len(diff)} differed from the stored ones).")
            return 0
        finally:
            await store.close()

    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
