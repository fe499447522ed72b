"""JSON forms of what the service stores: changes (outbox payloads), events (log), results.

Engines give ``Msg``/``Event`` a ``to_json``; the readers live here so the store keeps plain JSON
and a change read back after a restart is equal to the one written.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event, Msg, Result
from service.models import Change, MatchInfo, SeatInfo
from store.repo import MatchRecord, SeatRecord


def event_from_json(data: dict[str, Any]) -> Event:
    to = data.get("to")
    return Event(Msg.from_json(data["msg"]), tuple(to) if to is not None else None, data.get("kind", ""))


def change_to_json(change: Change, *, with_events: bool = True) -> dict[str, Any]:
    """``with_events=False``: without the ``events`` key (the caller has them encoded already)."""
    out: dict[str, Any] = {"kind": change.kind, "match_id": change.match_id, "version": change.version,
                           "seat": change.seat}
    if with_events:
        out["events"] = [e.to_json() for e in change.events]
    out["note"] = change.note.to_json() if change.note is not None else None
    out["request_ids"] = list(change.request_ids)
    return out


def change_from_json(data: dict[str, Any], *, request_seats: list[int] | None = None,
                     request_windows: list[str] | None = None) -> Change:
    """The change ``data`` stores; ``request_seats``/``request_windows``: those the caller read
    beside it (the service keeps them in the payload next to the codec's fields)."""
    note = data.get("note")
    return Change(
        kind=data["kind"], match_id=data["match_id"], version=data["version"], seat=data.get("seat"),
        events=[event_from_json(e) for e in data.get("events", [])],
        note=Msg.from_json(note) if note is not None else None,
        request_ids=list(data.get("request_ids", [])),
        request_seats=request_seats or [], request_windows=request_windows or [],
    )


def result_to_json(result: Result, reason: str) -> dict[str, Any]:
    """``reason`` is "game" (the engine decided), "resigned" (the service ended the game after
    resignations) or "winners_resigned" (the engine's winners had all resigned: no winner)."""
    return {
        "winners": sorted(result.winners),
        "scores": {str(k): v for k, v in result.scores.items()} if result.scores is not None else None,
        "summary": result.summary.to_json() if result.summary is not None else None,
        "reason": reason,
    }


def result_for_info(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """Scores come back from JSON keyed by strings; callers index them by seat number."""
    if data is None:
        return None
    out = dict(data)
    if out.get("scores") is not None:
        out["scores"] = {int(k): v for k, v in out["scores"].items()}
    return out


def match_info(rec: MatchRecord, seats: list[SeatRecord]) -> MatchInfo:
    return MatchInfo(
        id=rec.id, game=rec.game, options=dict(rec.options), status=rec.status,  # type: ignore[arg-type]
        version=rec.version, host_id=rec.host_id, locale=rec.locale, turn_seconds=rec.turn_seconds,
        seats=[SeatInfo(s.seat, s.user_id, s.name, s.ai_level, s.resigned, s.away) for s in seats],
        guild_id=rec.guild_id, channel_id=rec.channel_id, thread_id=rec.thread_id,
        lobby_message_id=rec.lobby_message_id, created_at=rec.created_at, updated_at=rec.updated_at,
        result=result_for_info(rec.result),
    )
