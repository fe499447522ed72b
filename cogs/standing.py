"""Standing answers in the DM panel (issue 19): a "Standing answers" button on the panel opens an
ephemeral message, private to its player, with one select of every setting (choosing one moves
it to its next value) and two buttons, "Ask me every time" and "Defaults".

Custom ids (templates here, as ``cogs.risk`` does)::

    g:sa:{match}:{op}    op = open (from the panel), ask, defaults
    g:ss:{match}         the settings select; the chosen value is the setting's name

Why one cycling select instead of one select per setting: a 三国杀 hero adds a setting per
optional skill, and a message has five rows; a select of up to 25 settings fits any hero.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from engines import registry
from engines.base import Engine
from i18n import t, tm
from service.errors import UserError
from service.standing import StandingAnswers

from .errors import guarded
from .utils import ids
from .utils.dynamic import CustomIdGroups, chosen_value
from .utils.layout import ButtonSpec, Layout, SelectOptionSpec, SelectSpec
from .utils.replies import user_locale
from .utils.text import clamp, join_lines
from .utils.views import build_view

__all__ = ["DYNAMIC_ITEMS", "has_standing", "open_button", "standing_message"]

BUTTON_TEMPLATE = r"g:sa:(?P<match>[0-9]+):(?P<op>open|ask|defaults)$"
SELECT_TEMPLATE = r"g:ss:(?P<match>[0-9]+)$"
LABEL_MAX, CONTENT_MAX = 100, 2000


def has_standing(game: str) -> bool:
    """Whether the game offers standing answers (its engine overrides ``standing_specs``)."""
    try:
        engine = registry.get(game)
    except KeyError:
        return False
    return type(engine).standing_specs is not Engine.standing_specs


def open_button(match_id: int, locale: str) -> ButtonSpec:
    return ButtonSpec(f"g:sa:{match_id}:open", t(locale, "discord.standing.open"))


def _value_label(answers: StandingAnswers, name: str, locale: str) -> str:
    spec = next(s for s in answers.specs if s.name == name)
    label = next((lab for v, lab in spec.choices if v == answers.values[name]), None)
    return tm(locale, label) if label is not None else answers.values[name]


def standing_message(match_id: int, answers: StandingAnswers, locale: str) -> dict[str, Any]:
    """The ephemeral settings message (send/edit keyword arguments)."""
    lines = [t(locale, "discord.standing.title", match=match_id), t(locale, "discord.standing.hint")]
    if answers.defaults:
        lines.append(t(locale, "discord.standing.are_defaults"))
    for spec in answers.specs:
        lines.append(t(locale, "discord.standing.line", setting=tm(locale, spec.label),
                       value=_value_label(answers, spec.name, locale)))
    layout = Layout()
    if answers.specs:
        layout.rows.append([SelectSpec(
            f"g:ss:{match_id}", clamp(t(locale, "discord.standing.placeholder"), LABEL_MAX),
            [SelectOptionSpec(ids.encode_token(s.name),
                              clamp(f"{tm(locale, s.label)}: {_value_label(answers, s.name, locale)}", LABEL_MAX))
             for s in answers.specs[:25]])])
    layout.rows.append([ButtonSpec(f"g:sa:{match_id}:ask", t(locale, "discord.standing.ask_all"), "primary"),
                        ButtonSpec(f"g:sa:{match_id}:defaults", t(locale, "discord.standing.defaults"))])
    return {"content": join_lines(lines, CONTENT_MAX), "view": build_view(layout)}


def next_value(answers: StandingAnswers, name: str) -> str:
    """The value after the current one, round the spec's choices."""
    spec = next(s for s in answers.specs if s.name == name)
    values = [v for v, _ in spec.choices]
    return values[(values.index(answers.values[name]) + 1) % len(values)]


class StandingButton(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Button],
                     template=re.compile(BUTTON_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = interaction.client.service  # type: ignore[attr-defined]
            op, uid = self.groups["op"], interaction.user.id
            if op == "open":
                answers = await service.standing_answers(self.match_id, uid)
                msg = standing_message(self.match_id, answers, user_locale(interaction))
                await interaction.response.send_message(ephemeral=True, **msg)
                return
            answers = await service.set_standing_preset(self.match_id, uid, op)
            await interaction.response.edit_message(**standing_message(self.match_id, answers,
                                                                       user_locale(interaction)))
        await guarded(interaction, self.match_id, work())


class StandingSelect(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Select],
                     template=re.compile(SELECT_TEMPLATE)):
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            service = interaction.client.service  # type: ignore[attr-defined]
            name = ids.decode_token(chosen_value(interaction))
            uid = interaction.user.id
            answers = await service.standing_answers(self.match_id, uid)
            if name not in answers.values:
                raise UserError("core.err.stale")
            answers = await service.set_standing(self.match_id, uid, name, next_value(answers, name))
            await interaction.response.edit_message(**standing_message(self.match_id, answers,
                                                                       user_locale(interaction)))
        await guarded(interaction, self.match_id, work())


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (StandingButton, StandingSelect)
