"""/help and /rules: ephemeral, in the asking user's language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from i18n import has, t

from .lobby import with_game_choices
from .utils.embeds import COLOR, fit_embed, game_name
from .utils.replies import user_locale
from .utils.translator import ls

#: Commands listed by /help, in this order; each has ``discord.help.cmd.<name>``.
HELP_COMMANDS = ("play", "move", "risk", "status", "hand", "log", "resign", "leave", "abandon", "settings",
                 "spectate", "rules")


def help_embed(locale: str) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "discord.help.title"), description=t(locale, "discord.help.intro"),
                          colour=COLOR)
    for name in HELP_COMMANDS:
        embed.add_field(name=t(locale, f"discord.help.usage.{name}"), value=t(locale, f"discord.help.cmd.{name}"),
                        inline=False)
    return fit_embed(embed)


def rules_embed(game: str, locale: str) -> discord.Embed:
    """The game's own ``<slug>.rules.summary`` when its catalog has one, else a short line."""
    key = f"{game}.rules.summary"
    text = t(locale, key) if has(key, locale) else t(locale, "discord.rules.missing", game=game_name(game, locale))
    embed = discord.Embed(title=t(locale, "discord.rules.title", game=game_name(game, locale)), description=text,
                          colour=COLOR)
    return fit_embed(embed)


class Help(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("discord.cmd.help.name"), description=ls("discord.cmd.help.desc"))
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(user_locale(interaction)), ephemeral=True)

    @app_commands.command(name=ls("discord.cmd.rules.name"), description=ls("discord.cmd.rules.desc"))
    @app_commands.rename(game=ls("discord.cmd.play.game.name"))
    @app_commands.describe(game=ls("discord.cmd.rules.game.desc"))
    @with_game_choices
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(embed=rules_embed(game, user_locale(interaction)), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
