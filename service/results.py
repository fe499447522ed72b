"""A finished match's result rows and rating changes, in the store.

:func:`record` runs inside the transaction that finishes a match (``MatchCore``), so the result,
the rating change and the match's end stand or fall together. :func:`settle` is the one
computation, shared with :mod:`tools.ratings` (``tasks.py ratings --rebuild``), which replays
every finished match's log and must arrive at the stored ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service import ratings
from store import repo
from store.db import Tx

#: ``serialize_on`` name: results take their ``seq`` and read-modify-write ratings one at a time
#: (PostgreSQL processes too), so the rebuild's order is the order ratings were really taken.
LOCK = "ratings"


def settle(placed: list[ratings.Placed], seats: Sequence[ratings.SeatLike], guild_id: int, game: str,
           current: dict[int, repo.RatingRecord]) -> tuple[bool, list[repo.SeatResultRow], list[repo.RatingRecord]]:
    """(rated, the seats' result rows, the people's new ratings) of one match, from the
    current ratings of its people by user id."""
    rated = ratings.is_rated(placed, seats)
    by_seat = {s.seat: s for s in seats}
    before = {s.seat: (current[s.user_id].mu, current[s.user_id].sigma) if s.user_id in current
              else (ratings.MU, ratings.SIGMA) for s in seats if s.user_id is not None}
    after = ratings.rate(placed, seats, {u: (r.mu, r.sigma) for u, r in current.items()}) if rated else {}
    rows = [repo.SeatResultRow(p.seat, by_seat[p.seat].user_id, by_seat[p.seat].ai_level, p.team, p.place, p.won,
                               before.get(p.seat) if rated else None, after.get(p.seat)) for p in placed]
    updated = []
    for seat, (mu, sigma) in sorted(after.items()):
        user = by_seat[seat].user_id
        assert user is not None
        games = current[user].games if user in current else 0
        updated.append(repo.RatingRecord(guild_id, game, user, mu, sigma, games + 1))
    return rated, rows, updated


def seats_of(records: Sequence[repo.SeatRecord]) -> list[ratings.SeatLike]:
    return [ratings.SeatLike(s.seat, s.user_id, s.ai_level, s.resigned) for s in records]


async def record(tx: Tx, *, match_id: int, guild_id: int | None, game: str, finished_at: float,
                 teams: list[list[int]] | None, result: dict[str, Any], seats: Sequence[repo.SeatRecord]) -> None:
    """Store a finished match's places and move its people's ratings (nothing for a match
    without a person: it is nobody's history and changes no rating)."""
    like = seats_of(seats)
    if not any(s.user_id is not None for s in like):
        return
    await repo.serialize_on(tx, LOCK)
    guild = guild_id or 0
    placed = ratings.places(teams, result, like)
    users = [s.user_id for s in like if s.user_id is not None]
    current = await repo.get_ratings(tx, guild, game, users)
    rated, rows, updated = settle(placed, like, guild, game, current)
    seq = await repo.next_result_seq(tx)
    await repo.insert_result(tx, match_id, seq, guild, game, rated, finished_at, rows)
    if updated:
        await repo.put_ratings(tx, updated, finished_at)
