"""English plurals: a count of 1 reads singular ("1 card", not "1 cards"), through the catalog's
plural forms ``{count:# card|# cards}``; Chinese keeps one form."""

from __future__ import annotations

import re
import string

import pytest

from i18n import LOCALES, catalog, t

#: Nouns the catalogs count. A number followed by one of them in its plural form is what a
#: count of 1 must never produce.
PLURAL_NOUNS = ("armies", "cards", "rolls", "pieces", "discs", "territories", "players", "seconds",
                "minutes", "hours", "lobbies", "seats", "lines", "attacks", "reinforcements", "dice",
                "sets", "hints", "rounds", "days")
#: Placeholders that hold a name (a "1" there would read "1 attacks" as a false alarm).
NAME_PARAMS = {"player", "by", "owner", "loser", "defender", "name", "names", "target", "winner", "mentions"}
_ONE_PLURAL = re.compile(r"(?<![\d.])1 (?:\w+ )?(" + "|".join(PLURAL_NOUNS) + r")\b")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_plural_forms_pick_by_count() -> None:
    assert t("en", "risk.ev.cards_taken", count=1) == "You took 1 card."
    assert t("en", "risk.ev.cards_taken", count=3) == "You took 3 cards."
    assert t("en", "risk.ev.cards_taken", count=0) == "You took 0 cards."
    assert "1 張" in t("zh-TW", "risk.ev.cards_taken", count=1)
    assert t("en", "riskmap.status.turn_battles", attacks=1, conquered=0, att=1, def_=0).startswith(
        "This turn: 1 attack ·")


def test_en_messages_with_count_one_read_singular() -> None:
    """Every English message, every placeholder given 1: no "1 cards", "1 rolls"..."""
    wrong = {}
    for key, text in catalog("en").items():
        fields = _fields(text)
        if not fields:
            continue
        params = {f: "X" if f in NAME_PARAMS else 1 for f in fields}
        out = t("en", key, **params)
        if m := _ONE_PLURAL.search(out):
            wrong[key] = m.group(0)
    assert not wrong, wrong


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_formats(locale: str) -> None:
    """Plural specs are well formed: formatting with numbers never falls back to the raw text."""
    for key, text in catalog(locale).items():
        fields = _fields(text)
        if "|" in text and fields:
            out = t(locale, key, **dict.fromkeys(fields, 2))
            assert "{" not in out and "|" not in out, (key, out)
