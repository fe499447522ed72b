"""Questions the Discord layer asks the match service that are not one call there.

Kept in one module so that when the service grows a direct call (deadlines per request) only this
file changes.
"""

from __future__ import annotations

from typing import Any

from service.matches import MatchService
from service.models import MatchInfo

from .embeds import Pending


async def pending_of(service: MatchService, match: MatchInfo) -> list[Pending]:
    """Requests humans must answer now, with deadlines when the service exposes them.

    Uses ``service.pending_requests(match_id)`` if the service grows one (items with
    ``request_id``/``id``, ``seat`` and ``due_at``); until then reads the deadlines table, which
    holds exactly one row per pending request (read-only, through the store's own query).
    """
    if match.status != "active":
        return []
    direct = getattr(service, "pending_requests", None)
    if direct is not None:
        items: list[Any] = await direct(match.id)
        out = []
        for item in items:
            get = item.get if isinstance(item, dict) else (lambda k, _i=item: getattr(_i, k, None))
            rid = get("request_id") or get("id")
            out.append(Pending(str(rid), int(get("seat")), get("due_at"), get("window") or ""))
        return out
    store = getattr(service, "store", None)
    if store is not None:
        from store import repo

        humans = {s.seat for s in match.seats if not s.is_ai and not s.resigned}
        return [Pending(d.request_id, d.seat, d.due_at, getattr(d, "window", ""))
                for d in await repo.get_deadlines(store, match.id) if d.seat in humans]
    out = []
    for seat in match.seats:
        if seat.is_ai or seat.resigned or seat.user_id is None:
            continue
        for rid in await service.pending_for_user(match.id, seat.user_id):
            out.append(Pending(rid, seat.seat, None))
    return out


def pick_match(matches: list[MatchInfo], user_id: int, channel_id: int | None) -> MatchInfo | None:
    """The match a command without ``match:`` means: the one of this thread/channel the user plays
    in, else the only active one of this thread/channel, else the user's only active match."""
    here = [m for m in matches if channel_id is not None and channel_id in (m.thread_id, m.channel_id)]
    in_thread = [m for m in here if m.thread_id == channel_id]
    for group in (in_thread, here):
        mine = [m for m in group if m.seat_of(user_id) is not None]
        if len(mine) == 1:
            return mine[0]
        if len(group) == 1:
            return group[0]
    mine_all = [m for m in matches if m.seat_of(user_id) is not None and m.status in ("lobby", "active")]
    if len(mine_all) == 1:
        return mine_all[0]
    return None


def order_for_channel(matches: list[MatchInfo], channel_id: int | None) -> list[MatchInfo]:
    """Matches of the current thread/channel first, then the most recently active."""
    def key(m: MatchInfo) -> tuple[int, float]:
        here = channel_id is not None and channel_id in (m.thread_id, m.channel_id)
        return (0 if here else 1, -(m.updated_at or 0.0))
    return sorted(matches, key=key)
