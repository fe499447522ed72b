"""The game registry: every listed game loads, and a broken engine fails loudly."""

from __future__ import annotations

import sys

import pytest

from engines import registry
from engines.base import Engine


def test_every_listed_game_is_available_and_named_by_its_slug() -> None:
    assert registry.available() == list(registry.GAMES)
    for slug in registry.GAMES:
        engine = registry.get(slug)
        assert isinstance(engine, Engine) and engine.slug == slug


def test_an_engine_that_fails_to_import_is_an_error_not_a_missing_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def _fail(name: str) -> None:
        raise ModuleNotFoundError("No module named 'numpyy'", name="numpyy")

    monkeypatch.setitem(registry.GAMES, "broken_game", "engines.broken_game")
    monkeypatch.setattr(registry, "import_module", lambda name: _fail(name) if name == "engines.broken_game"
                        else sys.modules[name])
    with pytest.raises(ModuleNotFoundError):
        registry.available()


def test_a_game_whose_package_is_absent_is_just_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "not_yet", "engines.not_yet")
    assert "not_yet" not in registry.available()
    with pytest.raises(KeyError):
        registry.get("no_such_game")


def test_every_game_offers_three_ai_levels_each_with_its_own_line_in_every_language() -> None:
    """Issue 23: easy, normal (the lobby's default) and hard in every game, and the level picker
    shows each with the game's own line of what it is like (not the generic fallback)."""
    from i18n import has

    for slug in registry.GAMES:
        assert registry.get(slug).ai_levels() == ["easy", "normal", "hard"], slug
        for locale in ("en", "zh-TW", "zh-CN"):
            for level in ("easy", "normal", "hard"):
                assert has(f"{slug}.ai.about.{level}", locale), (slug, locale, level)
