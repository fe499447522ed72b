"""``/stats me [game]`` and ``/stats leaderboard game:`` (issue 21): pictures of the ratings of
this server (``service.stats``), drawn in a worker thread (``render.stats``), answered only to
the asking user."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t
from render.stats import BoardLine, GameBlock, leaderboard_png, me_png

from .lobby import with_game_choices
from .utils.embeds import game_name
from .utils.replies import user_locale
from .utils.translator import ls


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


class StatsCog(commands.Cog):
    group = app_commands.Group(name=ls("stats.cmd.stats.name"), description=ls("stats.cmd.stats.desc"),
                               guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(name=ls("stats.cmd.me.name"), description=ls("stats.cmd.me.desc"))
    @app_commands.rename(game=ls("stats.opt.game.name"))
    @app_commands.describe(game=ls("stats.opt.game_any.desc"))
    @with_game_choices
    async def me(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = user_locale(interaction)
        stats = await _service(interaction).user_stats(interaction.guild_id, interaction.user.id, game)
        if not stats:
            await interaction.followup.send(t(locale, "stats.stats.none"), ephemeral=True)
            return
        blocks = [GameBlock(s.game, s.rating, s.rank, s.players, s.games, s.wins, s.form) for s in stats]
        names = {s.game: game_name(s.game, locale) for s in stats}
        png = await asyncio.to_thread(me_png, interaction.user.display_name, blocks, names, locale)
        await interaction.followup.send(file=discord.File(io.BytesIO(png), filename="stats.png"), ephemeral=True)

    @group.command(name=ls("stats.cmd.leaderboard.name"), description=ls("stats.cmd.leaderboard.desc"))
    @app_commands.rename(game=ls("stats.opt.game.name"))
    @app_commands.describe(game=ls("stats.opt.game.desc"))
    @with_game_choices
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = user_locale(interaction)
        rows = await _service(interaction).leaderboard(interaction.guild_id, game, interaction.user.id)
        if not rows:
            await interaction.followup.send(t(locale, "stats.stats.board_empty", game=game_name(game, locale)),
                                            ephemeral=True)
            return
        lines = [BoardLine(r.rank, r.name, r.rating, r.games, r.user_id == interaction.user.id) for r in rows]
        png = await asyncio.to_thread(leaderboard_png, game_name(game, locale), lines, locale)
        await interaction.followup.send(file=discord.File(io.BytesIO(png), filename="leaderboard.png"),
                                        ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog(bot))
