"""Places and ratings of a finished match: pure functions, shared by the service (at the end of a
match) and ``tasks.py ratings --rebuild`` (from the logs), so both compute the very same floats.

The rule (docs/ratings.md):
- Only finished matches count; abandoned ones never do. A seat that resigned is taken out of its
  side and placed last (tied with the other resigners), so resigning never saves a rating.
- Sides come from ``Engine.teams`` (三国杀: camps), else every seat plays for itself. A side
  with a winner is placed first; the others follow by their best score when the game has
  scores, else share second place.
- A match is rated when it has at least two sides and at least one person. AI seats are players
  with a fixed rating per level (:data:`AI_RATINGS`) that never moves, so beating the hard AI
  shows progress; a person's rating moves only by openskill's Plackett-Luce update.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

#: A new person's rating (openskill's defaults).
MU, SIGMA = 25.0, 25.0 / 3
#: AI levels as fixed players: (mu, sigma). Unknown levels count as "normal".
AI_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (17.0, 1.0),
    "normal": (25.0, 1.0),
    "hard": (31.0, 1.0),
}
#: Shown rating = DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma): a new person shows 1000.
DISPLAY_BASE, DISPLAY_SCALE = 1000, 40

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class SeatLike:
    """What the rating needs of a seat (``repo.SeatRecord`` and export seats both fit)."""

    seat: int
    user_id: int | None
    ai_level: str | None
    resigned: bool


@dataclass(frozen=True)
class Placed:
    """A seat's side (index into the sides) and place (0 = first; shared places tie)."""

    seat: int
    team: int
    place: int
    won: bool


def display(mu: float, sigma: float) -> int:
    """The number players see: conservative (mu - 3 sigma), so a few lucky games do not top a
    ladder, scaled to look like the ratings people know."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def places(teams: list[list[int]] | None, result: dict[str, Any], seats: Sequence[SeatLike]) -> list[Placed]:
    """Each seat's side and place from the stored result (winners, scores) and the sides."""
    resigned = {s.seat for s in seats if s.resigned}
    sides = [[s for s in team if s not in resigned] for team in (teams or [[s.seat] for s in seats])]
    sides = [side for side in sides if side] + [[s] for s in sorted(resigned)]
    winners = {int(w) for w in result.get("winners") or []}
    scores = {int(k): v for k, v in (result.get("scores") or {}).items()}

    def score(side: list[int]) -> float:
        return max((float(scores.get(s, 0)) for s in side), default=0.0)

    playing = [i for i, side in enumerate(sides) if side[0] not in resigned]
    losing = sorted({score(sides[i]) for i in playing if not winners.intersection(sides[i])}, reverse=True)
    place: dict[int, int] = {}
    for i in playing:
        won = bool(winners.intersection(sides[i]))
        place[i] = 0 if won else 1 + (losing.index(score(sides[i])) if scores else 0)
    last = max(place.values(), default=-1) + 1
    out = []
    for i, side in enumerate(sides):
        for seat in side:
            out.append(Placed(seat, i, place.get(i, last), seat in winners and seat not in resigned))
    return sorted(out, key=lambda p: p.seat)


def is_rated(placed: list[Placed], seats: Sequence[SeatLike]) -> bool:
    """At least two sides and at least one person."""
    return len({p.team for p in placed}) >= 2 and any(s.user_id is not None for s in seats)


def rate(placed: list[Placed], seats: Sequence[SeatLike],
         current: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of each person's seat, from their current ratings by user id (absent: a
    new person). AI seats play at their level's fixed rating and are not returned."""
    by_seat = {s.seat: s for s in seats}
    team_ids = sorted({p.team for p in placed})
    members: dict[int, list[int]] = {t: [p.seat for p in placed if p.team == t] for t in team_ids}
    team_place = {p.team: p.place for p in placed}
    teams = []
    for t in team_ids:
        row = []
        for seat in members[t]:
            s = by_seat[seat]
            if s.user_id is None:
                mu, sigma = AI_RATINGS.get(s.ai_level or "normal", AI_RATINGS["normal"])
            else:
                mu, sigma = current.get(s.user_id, (MU, SIGMA))
            row.append(_MODEL.rating(mu=mu, sigma=sigma))
        teams.append(row)
    new = _MODEL.rate(teams, ranks=[float(team_place[t]) for t in team_ids])
    out: dict[int, tuple[float, float]] = {}
    for t, row in zip(team_ids, new, strict=True):
        for seat, r in zip(members[t], row, strict=True):
            if by_seat[seat].user_id is not None:
                out[seat] = (float(r.mu), float(r.sigma))
    return out
