"""The generic request UI: "Take your turn" and the ephemeral walk through an engine's steps.

Every game is played through the same buttons: the engine's :meth:`~engines.base.Engine.step`
says what the next token can be, we show it (buttons, or a paged select), and Confirm sends the
token path to the service. All state is in the custom ids (see :mod:`cogs.utils.ids`), so every
button keeps working after a restart.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord.ext import commands

from engines.base import Step
from i18n import t, tm
from service.errors import UserError

from .errors import guarded
from .utils import ids
from .utils.board import board_file, step_picture_file
from .utils.dynamic import CustomIdGroups, chosen_value, stale_if_rejected
from .utils.layout import GROUP_TEMPLATE, step_layout
from .utils.logfmt import log_played
from .utils.matchq import pending_of
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


def is_forced(step: Step) -> bool:
    """A step with nothing to decide: one option and not yet a playable action."""
    return not step.complete and len({o.value for o in step.options}) == 1


async def step_labels(service: Any, match_id: int, user_id: int, req: str, path: list[str],
                      locale: str) -> list[str]:
    """Readable labels of the tokens chosen so far (the raw token if a label cannot be found)."""
    return (await _path_info(service, match_id, user_id, req, path, locale))[0]


async def _path_info(service: Any, match_id: int, user_id: int, req: str, path: list[str],
                     locale: str) -> tuple[list[str], list[bool]]:
    """Labels of the chosen tokens, and for each whether its step was forced (taken for the user)."""
    labels, forced = [], []
    for i, token in enumerate(path):
        step: Step = await service.step(match_id, user_id, req, path[:i])
        labels.append(next((tm(locale, o.label) for o in step.options if o.value == token), token))
        forced.append(is_forced(step))
    return labels, forced


def back_target(path: list[str], forced: list[bool]) -> list[str] | bool:
    """Where Back leads: the nearest earlier step that was a real choice (False: none was).

    Going back onto a forced step would just advance again, so Back skips those.
    """
    end = len(path) - 1
    while end >= 0 and forced[end]:
        end -= 1
    return path[:end] if end >= 0 else False


async def advance(service: Any, match_id: int, user_id: int, req: str, path: list[str]) -> tuple[list[str], Step]:
    """The step at ``path``, after taking every forced step (saves a tap per single choice)."""
    step: Step = await service.step(match_id, user_id, req, path)
    for _ in range(AUTO_STEPS_MAX):
        if not is_forced(step):
            break
        path = [*path, step.options[0].value]
        step = await service.step(match_id, user_id, req, path)
    return path, step


async def step_message(interaction: discord.Interaction, match_id: int, req: str, path: list[str],
                       page: int = 0, note: str | None = None, group: str | None = None) -> dict[str, Any]:
    """Keyword arguments for sending/editing the ephemeral step message."""
    service = _service(interaction)
    locale = user_locale(interaction)
    user = interaction.user.id
    path, step = await advance(service, match_id, user, req, list(path))
    match = await service.get(match_id)
    labels, forced = await _path_info(service, match_id, user, req, path, locale)
    layout = step_layout(step, match_id, req, path, page, locale, _paths(interaction),
                         back=back_target(path, forced), game=match.game, group=group)
    lines = [note] if note else []
    if path:
        lines.append(t(locale, "discord.play.chosen", path=" › ".join(labels)))
    lines.append(f"**{tm(locale, step.prompt)}**")
    if step.complete:
        lines.append(t(locale, "discord.play.ready" if step.options else "discord.play.ready_only"))
    kwargs: dict[str, Any] = {"content": clamp("\n".join(lines), CONTENT_MAX), "view": build_view(layout),
                              "embed": None, "attachments": []}
    if step.complete and step.preview:
        view = await service.view_for_user(match_id, user)
        file = await board_file(match, view, locale, filename="preview.png", overlay={"path": list(path)})
        if file is not None:
            kwargs["attachments"] = [file]
            kwargs["embed"] = discord.Embed(title=t(locale, "discord.play.preview")).set_image(
                url="attachment://preview.png")
    elif step.picture:
        view = await service.view_for_user(match_id, user)
        file = await step_picture_file(match, view, step.picture, locale)
        if file is not None:
            kwargs["attachments"] = [file]
            kwargs["embed"] = discord.Embed().set_image(url="attachment://step.png")
    return kwargs


async def open_turn(interaction: discord.Interaction, match_id: int, req: str | None) -> None:
    """Start the ephemeral walk for the clicking user (response must already be deferred)."""
    service = _service(interaction)
    user = interaction.user.id
    mine: list[str] = await service.pending_for_user(match_id, user)
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
            await _walk(interaction, mid, g["req"], g["path"], 0, [chosen_value(interaction)])
        await guarded(interaction, mid, work())


class ConfirmButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                    template=re.compile(ids.CONFIRM_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.match_id, self._confirm(interaction, self.match_id))

    async def _confirm(self, interaction: discord.Interaction, match_id: int) -> None:
        await interaction.response.defer()
        locale = user_locale(interaction)
        req = ids.decode_token(self.groups["req"])
        path = ids.resolve_path(self.groups["path"], match_id, req, _paths(interaction))
        if path is None:
            kwargs = await step_message(interaction, match_id, req, [], 0,
                                        t(locale, "discord.play.path_lost"))
            await interaction.edit_original_response(**kwargs)
            return
        service = _service(interaction)
        with stale_if_rejected():
            labels = await step_labels(service, match_id, interaction.user.id, req, path, locale)
            info, events = await service.act_with_events(match_id, interaction.user.id, req, path)
        names = safe_names(info.seats)
        log_played(log, info, path, user=interaction.user.id, request=req)
        # The result (dice, captures) right here: the thread shows it only in the turn's summary.
        done = t(locale, "discord.play.done", action=clamp(" › ".join(labels), 1500))
        await interaction.edit_original_response(
            content=join_lines([done, *(tm(locale, e.msg, names) for e in events)], 2000),
            view=None, embed=None, attachments=[])


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TurnButton, NavButton, GroupButton, StepSelect,
                                                                ConfirmButton)


class Play(commands.Cog):
    """Holds no commands: the request UI is reached through buttons and /move (cogs.match)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
