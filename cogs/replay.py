"""The replay viewer, ``/match export`` and ``/match history`` (issue 21); the commands themselves
are declared in ``cogs.match`` beside the other ``/match`` commands and call in here.

The viewer is one ephemeral message: the public board after a step (``Timeline.view_at``, the
view a thread post showed; after the end of a finished match, what the rules reveal then), the
step's public log lines, ⏮ ◀ ▶ ⏭ and a "go to" select. Each button's custom id names the step it
goes to, so clicks work after a restart (DynamicItems) and nothing is kept per viewer. The state
and the picture are made in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from typing import Any

import discord

from i18n import t
from service.errors import UserError
from service.models import MatchInfo

from .errors import guarded
from .utils import ids
from .utils.board import MAX_FILE_BYTES, seat_names
from .utils.dynamic import CustomIdGroups, chosen_value
from .utils.embeds import COLOR, fit_embed, game_name, timestamp
from .utils.layout import ButtonSpec, Layout, SelectOptionSpec, SelectSpec
from .utils.perms import may_view_match
from .utils.replies import user_locale
from .utils.text import clamp, join_lines, tm_text
from .utils.views import build_view

#: Options of the "go to" select (Discord's most): steps spread evenly over the match.
GOTO_OPTIONS = 25
LINES_SHOWN = 12
LABEL_MAX = 100


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


def goto_steps(total: int, current: int, count: int = GOTO_OPTIONS) -> list[int]:
    """Up to ``count`` steps: ``count - 1`` spread evenly from first to last, and ``current``."""
    if total <= count:
        return list(range(total))
    return sorted({round(i * (total - 1) / (count - 2)) for i in range(count - 1)} | {current})


def _step_line(match: MatchInfo, timeline: Any, index: int, locale: str) -> str:
    step = timeline.steps[index]
    if index == 0:
        return t(locale, "stats.replay.start")
    return " ".join(tm_text(locale, e.msg, match.seats) for e in step.public) or "…"


def viewer_layout(match: MatchInfo, timeline: Any, index: int, locale: str) -> Layout:
    last = len(timeline) - 1
    buttons = [ButtonSpec(ids.replay_id(match.id, 0, "f"), "⏮", disabled=index == 0),
               ButtonSpec(ids.replay_id(match.id, max(0, index - 1), "p"), "◀", disabled=index == 0),
               ButtonSpec(ids.replay_id(match.id, min(last, index + 1), "n"), "▶", style="primary",
                          disabled=index == last),
               ButtonSpec(ids.replay_id(match.id, last, "l"), "⏭", disabled=index == last)]
    options = []
    for step in goto_steps(len(timeline), index):
        plain = _step_line(match, timeline, step, locale).replace("\\", "")
        label = clamp(t(locale, "stats.replay.goto_option", step=step, label=plain), LABEL_MAX)
        options.append(SelectOptionSpec(str(step), label, default=step == index))
    select = SelectSpec(ids.replay_select_id(match.id), t(locale, "stats.replay.goto"), options)
    return Layout(rows=[buttons, [select]])


async def viewer_message(interaction: discord.Interaction, match: MatchInfo, index: int) -> dict[str, Any]:
    """The viewer at step ``index`` (clamped): embed, board picture, buttons."""
    from render import has_renderer, render_board

    locale = user_locale(interaction)
    timeline = await _service(interaction).timeline(match.id)
    index = max(0, min(index, len(timeline) - 1))
    names = seat_names(match)

    def draw() -> bytes | None:
        view = timeline.view_at(index)
        return render_board(view, locale, names) if has_renderer(view.get("game", match.game)) else None

    png = await asyncio.to_thread(draw)
    lines = [_step_line(match, timeline, index, locale)]
    if index == len(timeline) - 1 and match.status == "finished":
        lines.append(t(locale, "stats.replay.end"))
    embed = discord.Embed(title=t(locale, "stats.replay.title", game=game_name(match.game, locale), match=match.id),
                          description=join_lines(lines[-LINES_SHOWN:], 4000), colour=COLOR)
    embed.set_footer(text=t(locale, "stats.replay.step", step=index, total=len(timeline) - 1))
    out: dict[str, Any] = {"embed": embed, "view": build_view(viewer_layout(match, timeline, index, locale))}
    if png is not None and len(png) <= MAX_FILE_BYTES:
        embed.set_image(url="attachment://replay.png")
        out["attachments"] = [discord.File(io.BytesIO(png), filename="replay.png")]
    fit_embed(embed)
    return out


async def open_viewer(interaction: discord.Interaction, match: MatchInfo) -> None:
    """``/match replay``: the viewer at the last step (the position as it is, or the end)."""
    if match.status == "lobby":
        raise UserError("core.err.not_started")
    timeline = await _service(interaction).timeline(match.id)
    kwargs = await viewer_message(interaction, match, len(timeline) - 1)
    files = kwargs.pop("attachments", [])
    await interaction.followup.send(ephemeral=True, files=files, **kwargs)


async def _viewable(interaction: discord.Interaction, match_id: int) -> MatchInfo:
    match = await _service(interaction).get(match_id)
    if not await may_view_match(interaction.client, match, interaction.user):
        raise UserError("core.err.no_match", match=match_id)
    return match


async def _goto(interaction: discord.Interaction, match_id: int, index: int) -> None:
    match = await _viewable(interaction, match_id)
    await interaction.response.defer()
    kwargs = await viewer_message(interaction, match, index)
    await interaction.edit_original_response(**kwargs)


class ReplayButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                   template=re.compile(ids.REPLAY_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.match_id, _goto(interaction, self.match_id, int(self.groups["step"])))


class ReplaySelect(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Select],
                   template=re.compile(ids.REPLAY_SELECT_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            value = chosen_value(interaction)
            await _goto(interaction, self.match_id, int(value))

        await guarded(interaction, self.match_id, work())


DYNAMIC_ITEMS = (ReplayButton, ReplaySelect)


async def send_export(interaction: discord.Interaction, match: MatchInfo) -> None:
    """``/match export``: the match as a JSON file, ephemeral; a running match without its
    hidden parts (``MatchService.shared_export``)."""
    locale = user_locale(interaction)
    data = await _service(interaction).shared_export(match.id)
    raw = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    if len(raw) > MAX_FILE_BYTES:
        await interaction.followup.send(t(locale, "stats.export.too_big", match=match.id), ephemeral=True)
        return
    key = "stats.export.running_note" if data.get("hidden") else "stats.export.done"
    await interaction.followup.send(t(locale, key, match=match.id), ephemeral=True,
                                    file=discord.File(io.BytesIO(raw), filename=f"match-{match.id}.json"))


def history_line(entry: Any, locale: str) -> str:
    result = t(locale, "stats.history.won") if entry.won else t(locale, "stats.history.place", place=entry.place + 1)
    change = t(locale, "stats.history.unrated") if entry.change is None else f"{entry.change:+d}"
    where = f"<#{entry.thread_id}>" if entry.thread_id else t(locale, "stats.history.no_thread")
    return t(locale, "stats.history.line", match=entry.match_id, game=game_name(entry.game, locale), result=result,
             change=change, when=timestamp(entry.finished_at), where=where)


async def send_history(interaction: discord.Interaction) -> None:
    """``/match history``: the user's last finished matches of this server."""
    locale = user_locale(interaction)
    entries = await _service(interaction).history(interaction.user.id, guild_id=interaction.guild_id)
    lines = [history_line(e, locale) for e in entries]
    embed = discord.Embed(title=t(locale, "stats.history.title"), colour=COLOR,
                          description=join_lines(lines, 4000) if lines else t(locale, "stats.history.empty"))
    await interaction.followup.send(embed=fit_embed(embed), ephemeral=True)
