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

_MATCH = "discord.opt.match.name"
#: Commands listed by /help, in this order (each has ``discord.help.cmd.<name>``): the command's
#: path of ``discord.cmd.<x>.name`` keys and its options' name keys (optional ones in brackets).
#: The usage line is built from the same keys the Translator gives Discord, so /help shows the
#: names a Chinese client really shows ("/對局 手牌"), never a hand-written copy that drifts.
HELP_USAGE: dict[str, tuple[tuple[str, ...], tuple[tuple[str, bool], ...]]] = {
    "play": (("play",), (("discord.cmd.play.game.name", False),)),
    "move": (("move",), (("discord.opt.action.name", False), (_MATCH, True))),
    "risk": (("risk",), ()),
    "status": (("match", "status"), ((_MATCH, True),)),
    "hand": (("match", "hand"), ((_MATCH, True),)),
    "log": (("match", "log"), ((_MATCH, True),)),
    "resign": (("match", "resign"), ((_MATCH, True),)),
    "leave": (("match", "leave"), ((_MATCH, True),)),
    "abandon": (("match", "abandon"), ((_MATCH, True),)),
    "settings": (("match", "settings"), (("discord.opt.notify.name", False),)),
    "spectate": (("match", "spectate"), ((_MATCH, True),)),
    "rules": (("rules",), (("discord.cmd.play.game.name", False),)),
    "stats_me": (("stats.cmd.stats.name", "stats.cmd.me.name"), (("stats.opt.game.name", True),)),
    "stats_leaderboard": (("stats.cmd.stats.name", "stats.cmd.leaderboard.name"), (("stats.opt.game.name", False),)),
    "history": (("match", "stats.cmd.history.name"), ()),
    "export": (("match", "stats.cmd.export.name"), ((_MATCH, True),)),
    "replay": (("match", "stats.cmd.replay.name"), ((_MATCH, True),)),
}
HELP_COMMANDS = tuple(HELP_USAGE)
#: /risk's subcommands, listed on its usage line.
RISK_SUBCOMMANDS = ("risk_attack", "risk_place", "risk_fortify", "risk_trade", "risk_cards")


def command_ref(locale: str, *path: str) -> str:
    """A command as the user types it in their client's language: ``command_ref("zh-TW",
    "match", "hand")`` is "/對局 手牌". A part with a dot is a whole catalog key (commands whose
    names live in another domain, ``stats.cmd.me.name``)."""
    return "/" + " ".join(t(locale, name if "." in name else f"discord.cmd.{name}.name") for name in path)


def usage(locale: str, name: str) -> str:
    """The usage line of a /help entry, e.g. "/match status [match]"."""
    path, options = HELP_USAGE[name]
    if name == "risk":
        subs = t(locale, "discord.help.risk_sep").join(t(locale, f"discord.cmd.{s}.name") for s in RISK_SUBCOMMANDS)
        return f"{command_ref(locale, *path)} {subs}"
    opts = [f"[{t(locale, key)}]" if optional else t(locale, key) for key, optional in options]
    return " ".join([command_ref(locale, *path), *opts])


def help_embed(locale: str) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "discord.help.title"), description=t(locale, "discord.help.intro"),
                          colour=COLOR)
    for name in HELP_COMMANDS:
        embed.add_field(name=usage(locale, name), value=t(locale, f"discord.help.cmd.{name}"), inline=False)
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
