"""When a request is due and when to nudge its seat first."""

from __future__ import annotations

#: Below this turn length a reminder would come too close to the deadline to help; a one-minute
#: live turn (the shortest the lobby offers) still gets one, 15 seconds before its end.
MIN_REMIND_TURN = 60
#: Remind at most this long before the deadline (a quarter of the turn for short turns).
MAX_REMIND_LEAD = 3600.0


def deadline_for(now: float, turn_seconds: int) -> tuple[float, float | None]:
    """(due_at, remind_at) for a human request made at ``now``; remind_at None means no reminder."""
    due = now + turn_seconds
    if turn_seconds < MIN_REMIND_TURN:
        return due, None
    return due, due - min(turn_seconds / 4, MAX_REMIND_LEAD)
