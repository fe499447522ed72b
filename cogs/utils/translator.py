"""Slash-command localization: Discord asks for each command/option/choice string per locale.

Every ``locale_str`` we declare carries ``key=`` naming its catalog entry; the English text is
the catalog's English value (see :func:`ls`), zh-TW and zh-CN come from the same catalogs as
everything else, so translators edit TOML files only.
"""

from __future__ import annotations

import discord
from discord import app_commands

from i18n import catalog

#: Discord locale -> our catalog locale (English is the default name, not a localization).
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.taiwan_chinese: "zh-TW",
    discord.Locale.chinese: "zh-CN",
}


def ls(key: str) -> app_commands.locale_str:
    """A localizable command string whose default (English) text comes from the catalog."""
    return app_commands.locale_str(catalog("en").get(key, key), key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        ours = DISCORD_LOCALES.get(locale)
        if not key or ours is None:
            return None
        return catalog(ours).get(key)
