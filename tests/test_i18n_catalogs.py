"""Every catalog key exists in all three locales and all placeholders match."""

from __future__ import annotations

import string

from i18n import LOCALES, catalog, normalize_locale, t


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_all_locales_have_the_same_keys() -> None:
    en = catalog("en")
    assert en, "English catalog is empty"
    for loc in LOCALES:
        other = catalog(loc)
        missing = sorted(set(en) - set(other))
        extra = sorted(set(other) - set(en))
        assert not missing, f"{loc} lacks {missing[:10]}"
        assert not extra, f"{loc} has keys English lacks: {extra[:10]}"


def test_placeholders_match_across_locales() -> None:
    en = catalog("en")
    for loc in LOCALES:
        other = catalog(loc)
        for key, text in en.items():
            assert _fields(other[key]) == _fields(text), f"{loc}:{key} placeholders differ"


def test_lookup_falls_back_and_substitutes() -> None:
    assert t("zh-TW", "core.err.unexpected", match=7).endswith("7）。")
    assert t("fr", "core.err.not_your_turn") == catalog("en")["core.err.not_your_turn"]
    assert t("en", "no.such.key") == "no.such.key"
    assert normalize_locale("en-US") == "en"
    assert normalize_locale("zh-HK") == "zh-TW"
    assert normalize_locale("zh-CN") == "zh-CN"
