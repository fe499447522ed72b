"""The private panel: one DM per player per match, edited as their hand changes.

Games whose engine sets ``Engine.private_panel`` (三国杀, 极武三国) give every human player a standing
private message: the picture of their hand, role and equipment (``render_hand`` through
``Step.picture`` ``{"kind": "hand"}``), their recent private events, and — when they have
something to decide — the buttons of the step UI (``cogs.play.step_kwargs``, the same custom ids
as everywhere, so a click in the DM walks and plays like a click in the thread). A new DM per
change would flood the player's DMs and cost a Discord call per change; an edit is one call and
only when what the panel shows changed (its *fingerprint*).

A response window (闪, 无懈可击, 桃) prompts only the players who can really answer: a seat
whose only option is the window's default ("pass") is not prompted at all — no DM call — and the
service answers for it when the window closes, at the same moment for everyone, so the lack of a
prompt reveals nothing to the table. A prompted answer plays in one click (:func:`one_click`).

The panel's message id is kept in ``match_meta`` (``panel:<seat>``), so it is edited, not sent
again, after a restart. A player whose DMs are closed gets the same panel, ephemeral, from
``/match hand`` (the thread says so once).

The panel does not refresh for HP alone (it is drawn in the hand picture, but HP is public and on
the table image in the thread): an area-of-effect card would otherwise cost one DM edit per
player hit. The HP figure catches up with the next edit.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

import discord

from engines import registry
from engines.base import Request, Step
from i18n import t
from service.errors import UserError
from service.models import MatchInfo, SeatInfo

from .board import step_picture_file
from .embeds import game_name, timestamp
from .text import join_lines

#: The hand picture a panel (and every step message of a panel game) shows.
HAND_PICTURE: dict[str, Any] = {"kind": "hand"}
#: match_meta key of a seat's panel message ("channel id:message id").
PANEL_META = "panel:{seat}"
#: Private event lines a panel keeps (newest last).
NOTES_MAX = 5
CONTENT_MAX = 2000


def wants_panel(game: str) -> bool:
    """Whether the game's engine asked for private panels (unknown games: no)."""
    try:
        return bool(getattr(registry.get(game), "private_panel", False))
    except KeyError:
        return False


def is_window(req: Request) -> bool:
    """A response window's request (answered by a default when silent), not a turn."""
    return bool(req.window) or req.default is not None or req.short


async def _request(service: Any, match_id: int, user_id: int, req_id: str) -> Request | None:
    for req in await service.requests_for_user(match_id, user_id):
        if req.id == req_id:
            return req  # type: ignore[no-any-return]
    return None


async def is_window_request(service: Any, match_id: int, user_id: int, req_id: str) -> bool:
    req = await _request(service, match_id, user_id, req_id)
    return req is not None and is_window(req)


async def real_choice(service: Any, match_id: int, user_id: int, req: Request) -> bool:
    """Whether ``req`` offers anything but its default answer. A window seat with nothing to
    play (no 闪, no 无懈可击) is not prompted: the service's default answers for it when the
    window closes, at the same time as for everyone else."""
    if req.default is None:
        return True
    try:
        step: Step = await service.step(match_id, user_id, req.id, [])
    except UserError:
        return False
    return any(o.value != req.default[0] for o in step.options)


async def one_click(service: Any, match_id: int, user_id: int, req_id: str, path: list[str], step: Step) -> Step:
    """``step`` with every option that completes the answer marked ``commit``, so a response
    (a 闪, a 无懈可击, "pass") is one click: a window lasts seconds, a Confirm would eat them."""
    options = []
    for option in step.options:
        if not option.commit:
            try:
                after: Step = await service.step(match_id, user_id, req_id, [*path, option.value])
            except UserError:
                after = step  # not complete: leave the option as it is
            option = replace(option, commit=after.complete and not after.options)
        options.append(option)
    return replace(step, options=options)


@dataclass
class PanelState:
    """What a seat's panel shows now: its view, the request it is prompted for (None: nothing
    to decide, or only the default), and the fingerprint that decides whether to edit."""

    view: dict[str, Any]
    request: Request | None
    due_at: float | None
    fingerprint: str


async def panel_state(service: Any, match: MatchInfo, seat: SeatInfo, notes: list[str]) -> PanelState:
    view: dict[str, Any] = await service.view(match.id, seat.seat)
    prompted: Request | None = None
    due = None
    if match.status == "active" and seat.user_id is not None and not seat.resigned:
        for req in await service.requests_for_user(match.id, seat.user_id):
            if not is_window(req) or await real_choice(service, match.id, seat.user_id, req):
                prompted = req
                break
        if prompted is not None:
            due = next((p.due_at for p in await service.pending_requests(match.id)
                        if p.request_id == prompted.id), None)
    # What the hand picture draws is the engine's to say (Engine.panel_fingerprint); the panel
    # adds what it shows around the picture: the status, the prompt, away and the notes.
    shown = registry.get(match.game).panel_fingerprint(view, seat.seat)
    fingerprint = json.dumps([match.status, shown, prompted.id if prompted else None, seat.away, notes],
                             sort_keys=True, default=str)
    return PanelState(view, prompted, due, fingerprint)


async def panel_kwargs(service: Any, paths: Any, match: MatchInfo, seat: SeatInfo, locale: str,
                       state: PanelState, notes: list[str], extra: str | None = None) -> dict[str, Any]:
    """The panel message (edit keyword arguments): header, recent private lines, and either the
    step UI of the prompted request with its time left, or the hand picture alone."""
    from cogs.play import step_kwargs  # cogs.play builds its steps with this module's helpers

    lines = [t(locale, "discord.panel.header", game=game_name(match.game, locale), match=match.id), *notes]
    if extra:
        lines.append(extra)
    if seat.away:
        lines.append(t(locale, "discord.panel.away"))
    req = state.request
    if req is not None and seat.user_id is not None:
        try:
            kwargs = await step_kwargs(service, paths, seat.user_id, locale, match.id, req.id, [],
                                       note=join_lines(lines, CONTENT_MAX))
        except UserError:  # answered meanwhile: show the hand alone
            req = None
        else:
            if state.due_at:
                key = "discord.panel.due" if is_window(req) else "discord.panel.due_turn"
                kwargs["content"] = join_lines([kwargs["content"], t(locale, key, due=timestamp(state.due_at))],
                                               CONTENT_MAX)
            return kwargs
    lines.append(t(locale, "discord.panel.waiting" if match.status == "active" else "discord.panel.over"))
    file = await step_picture_file(match, state.view, HAND_PICTURE, locale)
    return {"content": join_lines(lines, CONTENT_MAX), "view": None,
            "embed": discord.Embed().set_image(url=f"attachment://{file.filename}") if file else None,
            "attachments": [file] if file else []}


def send_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Edit keyword arguments turned into ``send`` ones (files instead of attachments, no Nones)."""
    out = {k: v for k, v in kwargs.items() if k != "attachments" and v is not None}
    if kwargs.get("attachments"):
        out["files"] = list(kwargs["attachments"])
    return out


class PanelBook:
    """The publisher's memory of panels: what each shows, its recent private lines, and the
    panels a click is updating itself right now (the publisher leaves those alone)."""

    def __init__(self) -> None:
        self.shown: dict[tuple[int, int], str] = {}
        self.notes: dict[tuple[int, int], deque[str]] = {}
        self.messages: dict[tuple[int, int], tuple[int, int]] = {}
        self.held: dict[tuple[int, int], int] = {}

    def notes_of(self, match_id: int, seat: int) -> list[str]:
        return list(self.notes.get((match_id, seat), ()))

    def add_notes(self, match_id: int, seat: int, lines: list[str]) -> None:
        if lines:
            self.notes.setdefault((match_id, seat), deque(maxlen=NOTES_MAX)).extend(lines)

    def hold(self, match_id: int, seat: int) -> None:
        key = (match_id, seat)
        self.held[key] = self.held.get(key, 0) + 1

    def release(self, match_id: int, seat: int) -> None:
        key = (match_id, seat)
        left = self.held.get(key, 0) - 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)

    def forget(self, match_id: int) -> None:
        for table in (self.shown, self.notes, self.messages):
            for key in [k for k in table if k[0] == match_id]:
                del table[key]
