"""The generic request UI: "Take your turn" and the ephemeral walk through an engine's steps.

Every game is played through the same buttons: the engine's :meth:`~engines.base.Engine.step`
says what the next token can be, we show it (buttons, or a paged select), and Confirm sends the
token path to the service. All state is in the custom ids (see :mod:`cogs.utils.ids`), so every
button keeps working after a restart.

Fewer clicks (a Risk turn went from 36–40 to about 13):

* an option the engine marks ``commit`` plays at once (no Confirm);
* a step with one ordinary option beside options that commit (Risk's "Attack" beside "End
  attack") is passed through like a forced step: the player sees the next step at once, with the
  committing options as extra buttons;
* the reply to a played action carries the player's next decision (no new "Take your turn"),
  reopened where the last action left off while that is still legal (the same attack again, the
  same territory's "+1"), and when only AI seats are thinking it waits a few seconds for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

import discord
from discord.ext import commands

from engines.base import Option, Step
from i18n import t, tm
from service.errors import UserError

from .errors import guarded
from .utils import ids
from .utils.board import board_file, step_picture_file
from .utils.dynamic import CustomIdGroups, chosen_value, stale_if_rejected
from .utils.layout import BACK_REQUEST, COMMIT_TEMPLATE, GROUP_TEMPLATE, step_layout
from .utils.logfmt import log_played
from .utils.matchq import pending_of
from .utils.panel import HAND_PICTURE, is_window_request, one_click, wants_panel
from .utils.replies import user_locale
from .utils.text import clamp, join_lines, safe_names
from .utils.views import build_view

log = logging.getLogger(__name__)
CONTENT_MAX = 2000


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


def _paths(interaction: discord.Interaction) -> ids.PathStore:
    return interaction.client.paths  # type: ignore[attr-defined]


#: Most single-option steps taken in a row automatically (a guard against a looping engine).
AUTO_STEPS_MAX = 8
#: After a move, how long the reply waits for AI seats before offering the player's next decision.
AI_WAIT_SECONDS = 6.0
AI_POLL_SECONDS = 0.1
#: Room kept for the played action's result above the next step in one reply.
RESULT_MAX = 1500


def is_forced(step: Step) -> bool:
    """A step with nothing to decide: one option and not yet a playable action. A single option
    that plays at once is not taken for the user: its one click is the move (the last free
    territory to claim), where taking it would only trade that click for a Confirm."""
    return (not step.complete and len({o.value for o in step.options}) == 1
            and not step.options[0].commit)


def passed_through(step: Step) -> Option | None:
    """The option to go on with when a step offers one ordinary option and the rest commit at
    once ("Attack" beside "End attack"): the UI shows the step after it directly, with the
    committing options as extra buttons, which saves the click on the only way forward."""
    if step.complete:
        return None
    ordinary = [o for o in step.options if not o.commit]
    if len({o.value for o in ordinary}) == 1 and len(ordinary) < len(step.options):
        return ordinary[0]
    return None


def skipped(step: Step) -> bool:
    """Whether the UI takes this step for the user (so Back does not lead onto it)."""
    return is_forced(step) or passed_through(step) is not None


def side_options(step: Step) -> list[Option]:
    """The committing options of a passed-through step, shown beside the step after it."""
    return [o for o in step.options if o.commit] if passed_through(step) is not None else []


async def step_labels(service: Any, match_id: int, user_id: int, req: str, path: list[str],
                      locale: str) -> list[str]:
    """Readable labels of the tokens chosen so far (the raw token if a label cannot be found)."""
    return (await _path_info(service, match_id, user_id, req, path, locale))[0]


async def _path_info(service: Any, match_id: int, user_id: int, req: str, path: list[str],
                     locale: str) -> tuple[list[str], list[bool]]:
    """Labels of the chosen tokens, and for each whether its step was taken for the user."""
    labels, forced, _, _ = await _trail(service, match_id, user_id, req, path, locale)
    return labels, forced


async def _trail(service: Any, match_id: int, user_id: int, req: str, path: list[str],
                 locale: str) -> tuple[list[str], list[bool], list[str], list[tuple[list[str], Option]]]:
    """Per chosen token: its label, whether its step was taken for the user, its option's hint
    (the group it was picked from); and the side options to show at the end of ``path`` (those
    of a passed-through step followed only by forced ones), each with the path before it."""
    labels, forced, hints = [], [], []
    side: list[tuple[list[str], Option]] = []
    for i, token in enumerate(path):
        step: Step = await service.step(match_id, user_id, req, path[:i])
        chosen = next((o for o in step.options if o.value == token), None)
        labels.append(tm(locale, chosen.label) if chosen else token)
        hints.append(chosen.hint if chosen else "")
        forced.append(skipped(step))
        through = passed_through(step)
        if through is not None and through.value == token:
            # Consecutive pass-throughs keep each other's side options: "End attack" must stay
            # beside "Roll once" when Attack › source › target › Blitz were all the only ways on,
            # or the player could not end the phase from the step they are shown.
            side = [*side, *((path[:i], o) for o in side_options(step))]
        elif not is_forced(step):  # a real choice since: Back leads to the side options
            side = []
    return labels, forced, hints, side


def back_target(path: list[str], forced: list[bool]) -> list[str] | bool:
    """Where Back leads: the nearest earlier step that was a real choice (False: none was).

    Going back onto a forced step would just advance again, so Back skips those.
    """
    end = len(path) - 1
    while end >= 0 and forced[end]:
        end -= 1
    return path[:end] if end >= 0 else False


async def advance(service: Any, match_id: int, user_id: int, req: str, path: list[str]) -> tuple[list[str], Step]:
    """The step at ``path``, after taking every forced or passed-through step (saves a tap per
    single choice)."""
    step: Step = await service.step(match_id, user_id, req, path)
    for _ in range(AUTO_STEPS_MAX):
        through = step.options[0] if is_forced(step) else passed_through(step)
        if through is None:
            break
        path = [*path, through.value]
        step = await service.step(match_id, user_id, req, path)
    return path, step


async def step_message(interaction: discord.Interaction, match_id: int, req: str, path: list[str],
                       page: int = 0, note: str | None = None, group: str | None = None) -> dict[str, Any]:
    """Keyword arguments for sending/editing the ephemeral step message."""
    return await step_kwargs(_service(interaction), _paths(interaction), interaction.user.id,
                             user_locale(interaction), match_id, req, path, page, note, group)


async def step_kwargs(service: Any, paths: ids.PathStore, user: int, locale: str, match_id: int, req: str,
                      path: list[str], page: int = 0, note: str | None = None,
                      group: str | None = None) -> dict[str, Any]:
    """The step message for ``user``'s request ``req`` at ``path`` (also the private panel's
    buttons, built without an interaction). For an engine with a private panel the seat's hand
    picture comes with every step, and a response window's answers play in one click."""
    path, step = await advance(service, match_id, user, req, list(path))
    match = await service.get(match_id)
    panel_game = wants_panel(match.game)
    if panel_game and await is_window_request(service, match_id, user, req):
        step = await one_click(service, match_id, user, req, path, step)
    labels, forced, _, side = await _trail(service, match_id, user, req, path, locale)
    layout = step_layout(step, match_id, req, path, page, locale, paths,
                         back=back_target(path, forced), game=match.game, group=group,
                         side=side)
    lines = [note] if note else []
    if path:
        lines.append(t(locale, "discord.play.chosen", path=" › ".join(labels)))
    lines.append(f"**{tm(locale, step.prompt)}**")
    if step.complete:
        lines.append(t(locale, "discord.play.ready" if step.options else "discord.play.ready_only"))
    kwargs: dict[str, Any] = {"content": clamp("\n".join(lines), CONTENT_MAX), "view": build_view(layout),
                              "embed": None, "attachments": []}
    picture = step.picture or (HAND_PICTURE if panel_game else None)
    if step.complete and step.preview:
        view = await service.view_for_user(match_id, user)
        file = await board_file(match, view, locale, filename="preview.png", overlay={"path": list(path)})
        if file is not None:
            kwargs["attachments"] = [file]
            kwargs["embed"] = discord.Embed(title=t(locale, "discord.play.preview")).set_image(
                url="attachment://preview.png")
    elif picture:
        view = await service.view_for_user(match_id, user)
        file = await step_picture_file(match, view, picture, locale)
        if file is not None:
            kwargs["attachments"] = [file]
            kwargs["embed"] = discord.Embed().set_image(url="attachment://step.png")
    return kwargs


async def open_turn(interaction: discord.Interaction, match_id: int, req: str | None) -> None:
    """Start the ephemeral walk for the clicking user (response must already be deferred)."""
    service = _service(interaction)
    user = interaction.user.id
    back = req == BACK_REQUEST  # "I'm back": like "Respond", it names no request
    req = None if back else req or None  # "Respond" names no request either: take the clicker's own
    come_back = getattr(service, "come_back", None)
    if come_back is not None:  # a click of a player marked away (托管) ends it
        await come_back(match_id, user)
    mine: list[str] = await service.pending_for_user(match_id, user)
    if back and not mine:  # nothing asked of them now: say they play again themselves
        await interaction.edit_original_response(content=t(user_locale(interaction), "discord.play.back_again"))
        return
    note = None
    if req is None or req not in mine:
        if not mine:
            match = await service.get(match_id)
            if match.seat_of(user) is None:
                raise UserError("core.err.not_a_player")
            if match.status != "active":
                raise UserError("core.err.not_active")
            others = await pending_of(service, match)
            if req is None or any(p.request_id == req for p in others):
                raise UserError("core.err.not_your_turn")
            raise UserError("core.err.stale")
        if req is not None:
            note = t(user_locale(interaction), "discord.play.moved_on")
        req = mine[0]
    kwargs = await step_message(interaction, match_id, req, [], 0, note)
    await interaction.edit_original_response(**kwargs)


# The DynamicItem classes only parse their custom id (see cogs.utils.dynamic) and hand the work
# to ``guarded``.
class TurnButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                 template=re.compile(ids.TURN_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await open_turn(interaction, self.match_id, ids.decode_token(self.groups["req"]))
        await guarded(interaction, self.match_id, work())


async def _walk(interaction: discord.Interaction, match_id: int, raw_req: str, raw_path: str, page: int,
                extra: list[str] | None = None, group: str | None = None) -> None:
    await interaction.response.defer()
    req = ids.decode_token(raw_req)
    path = ids.resolve_path(raw_path, match_id, req, _paths(interaction))
    note = None
    if path is None:
        path, page, extra, group = [], 0, None, None
        note = t(user_locale(interaction), "discord.play.path_lost")
    with stale_if_rejected():
        kwargs = await step_message(interaction, match_id, req, path + (extra or []), page, note, group)
    await interaction.edit_original_response(**kwargs)


class NavButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                template=re.compile(ids.NAV_TEMPLATE)):
    """An option, Back, Prev or Next: all of them just show the step at a path and page."""

    async def callback(self, interaction: discord.Interaction) -> None:
        g = self.groups
        mid = self.match_id
        await guarded(interaction, mid, _walk(interaction, mid, g["req"], g["path"], int(g["page"])))


class GroupButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                  template=re.compile(GROUP_TEMPLATE)):
    """A group of a long option list (a continent): shows that group's options of the same step."""

    async def callback(self, interaction: discord.Interaction) -> None:
        g = self.groups
        mid = self.match_id

        async def work() -> None:
            await _walk(interaction, mid, g["req"], g["path"], int(g["page"]),
                        group=ids.decode_token(g["group"]))
        await guarded(interaction, mid, work())


class StepSelect(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Select],
                 template=re.compile(ids.SELECT_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        g = self.groups
        mid = self.match_id

        async def work() -> None:
            values = [chosen_value(interaction)]
            req = ids.decode_token(g["req"])
            path = ids.resolve_path(g["path"], mid, req, _paths(interaction))
            if path is not None and values and await _commits(interaction, mid, req, path, str(values[0])):
                await interaction.response.defer()
                await play_path(interaction, mid, req, [*path, str(values[0])])
                return
            await _walk(interaction, mid, g["req"], g["path"], 0, values[:1])
        await guarded(interaction, mid, work())


async def _commits(interaction: discord.Interaction, match_id: int, req: str, path: list[str], value: str) -> bool:
    """Whether ``value`` is an option of the step at ``path`` that plays at once."""
    step: Step = await _service(interaction).step(match_id, interaction.user.id, req, path)
    return any(o.value == value and o.commit for o in step.options)


class ConfirmButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                    template=re.compile(ids.CONFIRM_TEMPLATE)):
    """Confirm, and (same handling, own id) an option that plays at once: play the path."""

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.match_id, self._confirm(interaction, self.match_id))

    async def _confirm(self, interaction: discord.Interaction, match_id: int) -> None:
        await interaction.response.defer()
        req = ids.decode_token(self.groups["req"])
        path = ids.resolve_path(self.groups["path"], match_id, req, _paths(interaction))
        if path is None:
            kwargs = await step_message(interaction, match_id, req, [], 0,
                                        t(user_locale(interaction), "discord.play.path_lost"))
            await interaction.edit_original_response(**kwargs)
            return
        await play_path(interaction, match_id, req, path)


class CommitButton(ConfirmButton, template=re.compile(COMMIT_TEMPLATE)):
    """An option the engine marked ``commit`` ("End attack", "All here"): one click plays it."""


async def play_path(interaction: discord.Interaction, match_id: int, req: str, path: list[str], *,
                    via: str | None = None, typed: bool = False) -> None:
    """Play ``path`` (the response is deferred), show the result, and with it the player's next
    decision when there is one (see :func:`show_next`). A path read from a custom id that the
    engine refuses is "out of date"; a ``typed`` one gets the engine's own reason."""
    service = _service(interaction)
    locale = user_locale(interaction)
    user = interaction.user.id
    publisher = getattr(interaction.client, "publisher", None)
    book = getattr(publisher, "panels", None)
    before = await service.get(match_id)
    seat = (next((s for s in before.seats if s.user_id == user), None)
            if book is not None and wants_panel(before.game) else None)
    # A click in the player's DM panel updates that panel itself (below); the publisher, which
    # delivers the change before ``act`` returns, leaves it alone meanwhile: one edit, not two.
    in_panel = seat is not None and interaction.guild_id is None
    if in_panel:
        book.hold(match_id, seat.seat)
    try:
        with contextlib.nullcontext() if typed else stale_if_rejected():
            labels, _, hints, _ = await _trail(service, match_id, user, req, path, locale)
            info, events = await service.act_with_events(match_id, user, req, path)
        names = safe_names(info.seats)
        log_played(log, info, path, user=user, request=req, via=via or "button")
        # The result (dice, captures) right here: the thread shows it only in the turn's summary.
        done = t(locale, "discord.play.done", action=clamp(" › ".join(labels), RESULT_MAX))
        result = join_lines([done, *(tm(locale, e.msg, names) for e in events)], RESULT_MAX)
        if seat is not None:  # a panel game: the reply becomes the player's panel, next decision included
            fresh = await service.get(match_id)
            seat = next((s for s in fresh.seats if s.user_id == user), seat)
            await publisher.refresh_panel(fresh, seat, locale, None, message=interaction.edit_original_response,
                                          extra=result, record=in_panel)
            return
    finally:
        if in_panel:
            book.release(match_id, seat.seat)
            # What was committed while the panel was held (an AI's answer) and is not shown yet.
            with contextlib.suppress(Exception):
                await publisher.refresh_panel(await service.get(match_id), seat, locale, None)
    if not await show_next(interaction, match_id, path, hints, result):
        await interaction.edit_original_response(content=join_lines([result], CONTENT_MAX),
                                                 view=None, embed=None, attachments=[])


async def show_next(interaction: discord.Interaction, match_id: int, played: list[str], hints: list[str],
                    result: str) -> bool:
    """Edit the reply into ``result`` plus the user's next decision; False when there is none.

    While only AI seats are thinking (a Risk set-up against the AI alternates every army) the
    result is shown at once and the next decision added when it comes, within
    :data:`AI_WAIT_SECONDS`; otherwise the thread's next status post has the button."""
    service = _service(interaction)
    user = interaction.user.id
    mine: list[str] = await service.pending_for_user(match_id, user)
    if not mine:
        if not await _ai_thinking(service, match_id):
            return False
        await interaction.edit_original_response(content=result, view=None, embed=None, attachments=[])
        mine = await _wait_for_turn(interaction, match_id)
        if not mine:
            return True
    req = mine[0]
    try:
        path, group = await resume_point(service, match_id, user, req, played, hints)
        kwargs = await step_message(interaction, match_id, req, path, 0, result, group)
    except UserError:  # answered or moved on meanwhile: the result alone is still right
        return False
    await interaction.edit_original_response(**kwargs)
    return True


async def _ai_thinking(service: Any, match_id: int) -> bool:
    """Whether the match waits for AI seats only (no human is asked right now)."""
    match = await service.get(match_id)
    return match.status == "active" and not await service.pending_requests(match_id)


async def _wait_for_turn(interaction: discord.Interaction, match_id: int) -> list[str]:
    """The user's pending requests once the AI seats have moved ([] if someone else is asked,
    the match ended, the bot is closing, or it takes longer than :data:`AI_WAIT_SECONDS`)."""
    service = _service(interaction)
    loop = asyncio.get_running_loop()
    end = loop.time() + AI_WAIT_SECONDS
    while loop.time() < end and not getattr(interaction.client, "closing_down", False):
        await asyncio.sleep(AI_POLL_SECONDS)
        mine: list[str] = await service.pending_for_user(match_id, interaction.user.id)
        if mine:
            return mine
        if not await _ai_thinking(service, match_id):
            return []
    return []


async def resume_point(service: Any, match_id: int, user_id: int, req: str, played: list[str],
                       hints: list[str]) -> tuple[list[str], str | None]:
    """Where the next decision opens: the longest proper prefix of the action just played that
    is still an open choice for ``req`` (the same attack again, "+1" on the same territory,
    the next claim in the same continent's group), else the first step."""
    for k in range(len(played) - 1, 0, -1):
        try:
            step: Step = await service.step(match_id, user_id, req, played[:k])
        except UserError:
            continue
        if not step.complete:
            return played[:k], (hints[k] or None) if k < len(hints) else None
    return [], None


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TurnButton, NavButton, GroupButton, StepSelect,
                                                                ConfirmButton, CommitButton)


class Play(commands.Cog):
    """Holds no commands: the request UI is reached through buttons and /move (cogs.match)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
