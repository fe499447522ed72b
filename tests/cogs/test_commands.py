"""The slash-command tree as Discord would receive it: names, lengths, localizations, sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest

import bot as botmod
from app_settings import Settings
from cogs.utils.translator import CatalogTranslator

NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = ("zh-TW", "zh-CN")
SHIPPED_GAMES = {"pentactic", "risk"}


@pytest.fixture
async def payloads() -> list[dict[str, Any]]:
    client = botmod.create_bot(Settings(token="unused"))
    translator = CatalogTranslator()
    await client.tree.set_translator(translator)
    for ext in botmod.EXTENSIONS:
        await client.load_extension(ext)
    out = [await cmd.get_translated_payload(client.tree, translator) for cmd in client.tree.get_commands()]
    await client.close()
    return out


def _names_in(item: dict[str, Any], locale: str | None) -> str:
    if locale is None:
        return item["name"]
    return (item.get("name_localizations") or {}).get(locale, item["name"])


def _check_item(item: dict[str, Any], path: str) -> None:
    for locale in (None, *LOCALES):
        name = _names_in(item, locale)
        assert NAME.fullmatch(name), f"{path}: bad {locale or 'default'} name {name!r}"
        assert name == name.lower(), f"{path}: {locale} name not lower case"
        desc = item["description"] if locale is None else (item.get("description_localizations") or {}).get(locale)
        assert desc, f"{path}: missing {locale or 'default'} description"
        assert 1 <= len(desc) <= 100, f"{path}: {locale} description is {len(desc)} chars"
    for locale in LOCALES:
        assert locale in (item.get("name_localizations") or {}), f"{path}: no {locale} name"
    options = item.get("options") or []
    assert len(options) <= 25
    seen_required_end = False
    for locale in (None, *LOCALES):
        names = [_names_in(o, locale) for o in options]
        assert len(names) == len(set(names)), f"{path}: duplicate option names in {locale}"
    for option in options:
        if option.get("type") in (1, 2):
            _check_item(option, f"{path} {option['name']}")
            continue
        _check_item(option, f"{path} [{option['name']}]")
        if not option.get("required"):
            seen_required_end = True
        else:
            assert not seen_required_end, f"{path}: required option after an optional one"
        choices = option.get("choices") or []
        assert len(choices) <= 25
        assert not (choices and option.get("autocomplete"))
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100
            for locale in LOCALES:
                loc_name = (choice.get("name_localizations") or {}).get(locale)
                # Shipped games must be localized; test engines other suites register need not be.
                if choice["value"] in SHIPPED_GAMES:
                    assert loc_name, f"{path}: choice {choice['name']} lacks {locale}"
                assert loc_name is None or 1 <= len(loc_name) <= 100


def _size(item: dict[str, Any], locale: str | None) -> int:
    """Discord's per-command budget: names, descriptions and choice values, all levels."""
    total = len(_names_in(item, locale))
    desc = item.get("description", "")
    if locale is not None:
        desc = (item.get("description_localizations") or {}).get(locale, desc)
    total += len(desc)
    for choice in item.get("choices") or []:
        total += len(_names_in(choice, locale)) + len(str(choice["value"]))
    return total + sum(_size(o, locale) for o in item.get("options") or [])


async def test_every_command_is_valid_and_localized(payloads: list[dict[str, Any]]) -> None:
    names = {p["name"] for p in payloads}
    assert {"play", "move", "match", "help", "rules", "stats"} <= names
    match = next(p for p in payloads if p["name"] == "match")
    assert {o["name"] for o in match["options"]} == {"status", "hand", "log", "resign", "leave", "abandon",
                                                     "settings", "spectate", "history", "export", "replay"}
    stats = next(p for p in payloads if p["name"] == "stats")
    assert {o["name"] for o in stats["options"]} == {"me", "leaderboard"}
    assert len(payloads) <= 100
    for payload in payloads:
        _check_item(payload, "/" + payload["name"])


async def test_command_sizes_within_8000(payloads: list[dict[str, Any]]) -> None:
    for payload in payloads:
        for locale in (None, *LOCALES):
            assert _size(payload, locale) <= 8000, payload["name"]


async def test_localized_names_really_differ(payloads: list[dict[str, Any]]) -> None:
    """The translator must actually translate (not echo English) for both Chinese locales."""
    play = next(p for p in payloads if p["name"] == "play")
    assert play["name_localizations"]["zh-TW"] != "play"
    assert play["name_localizations"]["zh-TW"] != play["name_localizations"]["zh-CN"]
    choices = play["options"][0]["choices"]
    assert choices and all(c["name_localizations"]["zh-TW"] for c in choices)


def test_invite_link_scopes_and_permissions() -> None:
    url = botmod.invite_url(1234)
    assert "client_id=1234" in url and "bot+applications.commands" in url.replace("%20", "+")
    perms = botmod.PERMISSIONS
    assert perms.send_messages and perms.send_messages_in_threads and perms.create_public_threads
    assert perms.embed_links and perms.attach_files and perms.read_message_history
    assert not perms.administrator and not perms.manage_messages and not perms.use_external_emojis
    intents = botmod.intents()
    assert not intents.members and not intents.presences and not intents.message_content
