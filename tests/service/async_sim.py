"""A simulated-clock asynchronous game (issue 19): people who look at Discord a few times a day.

Each person looks in at random moments (``looks_per_day``, uniform over the day) and answers
whatever is pending for them then (the AI picks the answer, as a stand-in for the person); AI
seats and the service do the rest through ``run_due`` at the service's own deadlines. The
simulation jumps from one moment to the next (a look-in, or the service's next due time), so a
month of play takes seconds.

Measured (:class:`SimReport`): simulated days; windows asked of a person, and the share closed
by standing answers (every person in it answered by one) or without waiting for anyone (standing
answers and seats that could not answer); the longest a window stayed open; the notifications
each person would get per day (a decision put to them that they must make themselves while they
are not looking in, and each reminder: an upper bound of the DMs, since a panel prompt is an
edit, not a new DM).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import patch

from svc_helpers import Clock, Recorder

from engines import registry
from service.core import window_key
from service.matches import MatchService
from service.replay import replay
from store import repo
from store.db import Store

DAY = 86400.0


@dataclass
class SimReport:
    finished: bool = False
    days: float = 0.0
    actions: int = 0
    windows: int = 0  # windows that asked at least one person (not away)
    by_standing: int = 0
    without_wait: int = 0
    longest_window: float = 0.0
    notifications: dict[int, int] = field(default_factory=dict)  # user -> count
    replays: bool = False
    duels: int = 0

    @property
    def standing_share(self) -> float:
        return self.by_standing / self.windows if self.windows else 0.0

    @property
    def no_wait_share(self) -> float:
        return self.without_wait / self.windows if self.windows else 0.0

    def per_day(self, user: int) -> float:
        return self.notifications.get(user, 0) / max(self.days, 1.0)  # a game shorter than a day: per game

    def line(self) -> str:
        per = ", ".join(f"{self.per_day(u):.1f}" for u in sorted(self.notifications))
        return (f"finished={self.finished} duels={self.duels} days={self.days:.1f} actions={self.actions} windows={self.windows} "
                f"standing={self.standing_share:.0%} no_wait={self.no_wait_share:.0%} "
                f"longest_window={self.longest_window / 3600:.2f} h notifications/day={per}")


async def simulate(store: Store, game: str, humans: list[int], ai_seats: int, *, seed: int,
                   looks_per_day: int = 3, max_days: float = 120.0, options: dict[str, str] | None = None,
                   standing: dict[int, dict[str, str]] | None = None) -> SimReport:
    rng = random.Random(seed)
    clock = Clock(1_700_000_000.0)
    svc = MatchService(store, publisher=Recorder(), clock=clock, offload=False, rate_limits=False)
    engine = registry.get(game)
    info = await svc.create_lobby(game, host_id=humans[0], host_name="P0", locale="en", options=options)
    for i, user in enumerate(humans[1:], 1):
        await svc.join(info.id, user, f"P{i}")
    for _ in range(ai_seats):
        await svc.add_ai(info.id, humans[0])
    with patch("service.lobby.secrets.randbits", lambda bits: rng.getrandbits(bits)):  # one deal per seed
        mid = (await svc.start(info.id, humans[0])).id
    for user, values in (standing or {}).items():
        for name, value in values.items():
            await svc.set_standing(mid, user, name, value)
    start = clock.now
    looks: list[tuple[float, int]] = []

    def plan_day(day: int) -> None:
        for user in humans:
            for _ in range(looks_per_day):
                looks.append((start + day * DAY + rng.random() * DAY, user))
        looks.sort()

    planned = 0
    report = SimReport(notifications={u: 0 for u in humans})
    seen_people: set[str] = set()  # person-decided request ids already counted
    windows: dict[str, dict[str, Any]] = {}  # window key -> {opened, human, standing, nowait}
    reminded: set[str] = set()

    async def observe() -> None:
        rows = {d.request_id: d for d in await repo.get_deadlines(store, mid)}
        rec = await repo.get_match(store, mid)
        seats = await repo.get_seats(store, mid)
        open_now: set[str] = set()
        if rec.status == "active" and rec.state is not None:
            for req in engine.pending(rec.state):
                s = seats[req.seat]
                person = s.user_id is not None and not s.away and not s.resigned
                d = rows.get(req.id)
                key = window_key(req)
                if key:
                    open_now.add(key)
                    w = windows.setdefault(key, {"opened": d.opened_at if d and d.opened_at else clock.now,
                                                 "human": False, "standing": True, "nowait": True})
                    if person and d is not None:
                        w["human"] = True
                        w["standing"] &= d.auto == repo.AUTO_STANDING
                        w["nowait"] &= d.auto in (repo.AUTO_STANDING, repo.AUTO_CANNOT)
                if person and d is not None and d.auto == repo.AUTO_NONE and req.id not in seen_people:
                    seen_people.add(req.id)
                    report.notifications[s.user_id] += 1  # type: ignore[index]
                if person and d is not None and d.reminded and req.id not in reminded:
                    reminded.add(req.id)
                    report.notifications[s.user_id] += 1  # type: ignore[index]
        for key in [k for k, w in windows.items() if k not in open_now and "closed" not in w]:
            w = windows[key]
            w["closed"] = clock.now
            report.longest_window = max(report.longest_window, clock.now - w["opened"])

    async def look(user: int) -> None:
        seat = next(s for s in (await svc.get(mid)).seats if s.user_id == user)
        if seat.away:
            await svc.come_back(mid, user)
        for _ in range(50):
            pending = await svc.pending_for_user(mid, user)
            if not pending or (await svc.get(mid)).status != "active":
                return
            state = (await repo.get_match(store, mid)).state
            req = next(r for r in engine.pending(state) if r.id == pending[0])
            action = engine.ai_action(state, req.seat, random.Random(rng.random()), "normal", request=req)
            await svc.act(mid, user, req.id, action)
            seen_people.update(await svc.pending_for_user(mid, user))  # asked while looking: no call
            await observe()

    await observe()
    while (await svc.get(mid)).status == "active" and clock.now - start < max_days * DAY:
        while planned * DAY <= clock.now - start + DAY:
            plan_day(planned)
            planned += 1
        due = await svc.next_due_at()
        at, who = looks[0]
        if due is not None and due <= at:
            clock.now = max(clock.now, due)
            await svc.run_due()
        else:
            looks.pop(0)
            clock.now = max(clock.now, at)
            await svc.run_due()
            await observe()
            await look(who)
        await observe()
    match = await svc.get(mid)
    report.finished = match.status == "finished"
    report.days = (clock.now - start) / DAY
    report.actions = len(await svc.log(mid, 100000))
    report.windows = sum(1 for w in windows.values() if w["human"])
    report.by_standing = sum(1 for w in windows.values() if w["human"] and w["standing"])
    report.without_wait = sum(1 for w in windows.values() if w["human"] and w["nowait"])
    export = await svc.export(mid, include_state=True)
    report.replays = replay(export) == export["state"]
    report.duels = int(export["state"].get("stats", {}).get("duels", 0)) if game == "jiwu" else 0
    return report
