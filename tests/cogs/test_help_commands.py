"""/help and every catalog text name commands as the user's client shows them: the localized
command names the Translator gives Discord ("/對局 手牌" in zh-TW, "/match hand" in English)."""

from __future__ import annotations

import re

import pytest

from cogs.help import HELP_COMMANDS, command_ref, help_embed, rules_embed, usage
from engines import registry
from i18n import LOCALES, catalog, t

TOP = ("play", "move", "match", "help", "rules", "risk")
SUBS = {"match": ("status", "spectate", "hand", "log", "resign", "leave", "abandon", "settings"),
        "risk": ("risk_attack", "risk_place", "risk_fortify", "risk_trade", "risk_cards")}


def _name(locale: str, cmd: str) -> str:
    return t(locale, f"discord.cmd.{cmd}.name")


def test_usage_uses_localized_names() -> None:
    assert usage("zh-TW", "hand") == "/對局 手牌 [對局]"
    assert usage("zh-CN", "status") == f"/{_name('zh-CN', 'match')} {_name('zh-CN', 'status')} [{t('zh-CN', 'discord.opt.match.name')}]"
    assert usage("en", "settings") == "/match settings notify"
    assert usage("en", "risk") == "/risk attack · place · fortify · trade · cards"
    assert usage("zh-TW", "risk").startswith("/戰國風雲 攻擊 · ")
    assert command_ref("zh-CN", "play") == f"/{_name('zh-CN', 'play')}"


@pytest.mark.parametrize("locale", LOCALES)
def test_help_embed_lists_every_command_with_localized_usage(locale: str) -> None:
    embed = help_embed(locale)
    assert [f.name for f in embed.fields] == [usage(locale, c) for c in HELP_COMMANDS]


@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_texts_name_commands_in_their_own_language(locale: str) -> None:
    """A "/command sub" inside any text of a locale uses that locale's command names."""
    wrong = []
    for other in LOCALES:
        if other == locale:
            continue
        for top in TOP:
            foreign_top, own_top = _name(other, top), _name(locale, top)
            if foreign_top == own_top:
                for sub in SUBS.get(top, ()):
                    foreign, own = _name(other, sub), _name(locale, sub)
                    if foreign != own:
                        pattern = re.compile(rf"/{re.escape(own_top)} {re.escape(foreign)}(?![\w])")
                        wrong += [(k, v) for k, v in catalog(locale).items() if pattern.search(v)]
                continue
            pattern = re.compile(rf"(?<![\w./]){'/' + re.escape(foreign_top)}(?![\w])")
            wrong += [(k, v) for k, v in catalog(locale).items() if pattern.search(v)]
    assert not wrong, wrong


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", registry.available())
def test_every_game_has_a_rules_summary(game: str, locale: str) -> None:
    """/rules answers every game with its own summary in every language, whole (not trimmed)."""
    key = f"{game}.rules.summary"
    assert key in catalog(locale), f"{locale} lacks {key}"
    embed = rules_embed(game, locale)
    assert embed.description == t(locale, key)
    assert len(embed.description) <= 4096 and len(embed) <= 6000
