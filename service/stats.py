"""Reading results and ratings for ``/stats`` and ``/match history`` (the writes are
``service.results``, in the transaction that finishes a match)."""

from __future__ import annotations

from dataclasses import dataclass

from service import ratings
from service.core import MatchCore
from store import repo

#: Rows of a leaderboard and of a history, and recent results shown as form.
BOARD_ROWS, HISTORY_ROWS, FORM_GAMES = 10, 10, 10


@dataclass(frozen=True)
class BoardRow:
    """One leaderboard line: rank (1-based), user, their newest seat name, shown rating, rated games."""

    rank: int
    user_id: int
    name: str
    rating: int
    games: int


@dataclass(frozen=True)
class GameStats:
    """A person's figures for one game in one server."""

    game: str
    rating: int | None
    rank: int | None
    players: int
    games: int
    wins: int
    form: list[bool]


@dataclass(frozen=True)
class HistoryEntry:
    """One finished match of a person: won or place, the shown rating change (None: unrated)."""

    match_id: int
    game: str
    finished_at: float
    won: bool
    place: int
    change: int | None
    thread_id: int | None
    channel_id: int | None
    guild_id: int


def _shown(pair: tuple[float, float]) -> int:
    return ratings.display(*pair)


class StatsOps(MatchCore):
    """Leaderboards, a person's figures and history."""

    async def leaderboard(self, guild_id: int | None, game: str, user_id: int | None = None) -> list[BoardRow]:
        """The top :data:`BOARD_ROWS` of the server, plus ``user_id``'s own row when they are
        rated but not among them."""
        guild = guild_id or 0
        ranked = list(enumerate(await repo.leaderboard(self.store, guild, game, BOARD_ROWS), 1))
        if user_id is not None and all(r.user_id != user_id for _, r in ranked):
            own = (await repo.get_ratings(self.store, guild, game, [user_id])).get(user_id)
            place = await repo.rank_of(self.store, guild, game, user_id)
            if own is not None and place is not None:
                ranked.append((place[0], own))
        names = await repo.seat_names(self.store, [r.user_id for _, r in ranked], guild)
        return [BoardRow(i, r.user_id, names.get(r.user_id, str(r.user_id)), ratings.display(r.mu, r.sigma), r.games)
                for i, r in ranked]

    async def user_stats(self, guild_id: int | None, user_id: int, game: str | None = None) -> list[GameStats]:
        """Per game the person played in the server (only ``game`` when given)."""
        guild = guild_id or 0
        out = []
        for name, games, wins in await repo.game_totals(self.store, user_id, guild):
            if game is not None and name != game:
                continue
            own = (await repo.get_ratings(self.store, guild, name, [user_id])).get(user_id)
            place = await repo.rank_of(self.store, guild, name, user_id)
            recent = await repo.history(self.store, user_id, FORM_GAMES, game=name, guild_id=guild)
            out.append(GameStats(name, ratings.display(own.mu, own.sigma) if own else None,
                                 place[0] if place else None, place[1] if place else 0, games, wins,
                                 [h.won for h in reversed(recent)]))
        return out

    async def history(self, user_id: int, limit: int = HISTORY_ROWS, *,
                      guild_id: int | None = None) -> list[HistoryEntry]:
        """The person's last finished matches (of one server when ``guild_id`` is given),
        newest first."""
        return [HistoryEntry(h.match_id, h.game, h.finished_at, h.won, h.place,
                             None if h.before is None or h.after is None else _shown(h.after) - _shown(h.before),
                             h.thread_id, h.channel_id, h.guild_id)
                for h in await repo.history(self.store, user_id, limit, guild_id=guild_id)]
