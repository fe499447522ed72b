"""Message catalogs: every user-facing string lives in ``data/i18n/<locale>/<domain>.toml``.

A catalog file's tables are flattened with its file stem as prefix: ``[err] not_your_turn = ...``
in ``core.toml`` is the key ``core.err.not_your_turn``. A domain may be split over several files,
``<domain>+<part>.toml`` (e.g. ``sanguosha+hg_wei.toml`` holds ``sanguosha.*`` keys of the 魏
hegemony heroes), so content added beside a domain has a file of its own. Lookup falls back to English, then to the
key itself (so a missing string is visible, never a crash). Parameters use ``str.format`` syntax.
A parameter that is a dict is translated first (``engines.base.key_ref`` / ``seat_ref``); a string
parameter is data and is substituted as it is: names are never looked up as keys.

Plurals: a placeholder whose format spec holds ``|`` picks a form by the number it is given, ``#``
standing for the number: ``"{count:# card|# cards}"`` reads "1 card" / "3 cards" in English. The
forms follow the locale's plural categories (English: one, other); Chinese has a single form and
simply writes ``{count} 張``. Inline forms, rather than a table per message, let one message carry
several counts ("2 territories, 1 army, 0 cards").
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from engines.base import Msg, key_ref, seat_ref  # noqa: F401 - re-exported for front-ends

LOCALES = ("en", "zh-TW", "zh-CN")
DEFAULT_LOCALE = "en"
CATALOG_DIR = Path(__file__).resolve().parent.parent / "data" / "i18n"


def normalize_locale(locale: str | None) -> str:
    """Map a Discord locale (``en-US``, ``zh-TW``, ``zh-CN``, ``ja``...) to one we ship."""
    if not locale:
        return DEFAULT_LOCALE
    loc = str(locale)
    if loc in LOCALES:
        return loc
    low = loc.lower().replace("_", "-")
    if low in {"zh-tw", "zh-hk", "zh-hant", "zh-mo"}:
        return "zh-TW"
    if low.startswith("zh"):
        return "zh-CN"
    return DEFAULT_LOCALE


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


#: Catalog folders of content packs (same layout as :data:`CATALOG_DIR`), after the product's.
_EXTRA: list[Path] = []


def add_catalogs(folder: Path) -> None:
    """Add a content pack's catalogs (``folder/<locale>/<domain>.toml``): a hero pack brings its
    heroes' and skills' names and texts with it instead of editing the product's files. A key the
    product (or another pack) already has is an error, so a pack never rewords what it does not
    own."""
    if folder in _EXTRA:
        return
    _EXTRA.append(folder)
    catalog.cache_clear()
    try:
        for loc in LOCALES:
            catalog(loc)  # fail now, at registration, not at the first message
    except ValueError:
        remove_catalogs(folder)
        raise


def remove_catalogs(folder: Path) -> None:
    if folder in _EXTRA:
        _EXTRA.remove(folder)
        catalog.cache_clear()


def _load(folder: Path, out: dict[str, str]) -> None:
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as fh:
            table: dict[str, str] = {}
            _flatten(path.stem.split("+")[0], tomllib.load(fh), table)
        clash = sorted(table.keys() & out.keys())
        if clash:
            raise ValueError(f"{path}: keys already defined: {', '.join(clash[:5])}")
        out.update(table)


@cache
def catalog(locale: str) -> dict[str, str]:
    """All strings of one locale (loaded once)."""
    out: dict[str, str] = {}
    for root in (CATALOG_DIR, *_EXTRA):
        if (root / locale).is_dir():
            _load(root / locale, out)
    return out


def has(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    return key in catalog(normalize_locale(locale)) or key in catalog(DEFAULT_LOCALE)


class _SafeDict(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _param(loc: str, value: Any, seat_names: Sequence[str] | None) -> Any:
    """A parameter as shown: dicts are references (a seat, a nested message), the rest is data."""
    if not isinstance(value, dict):
        return value
    if "seat" not in value:
        if "key" not in value:
            return value
        return t(loc, str(value["key"]), seat_names=seat_names, **dict(value.get("params") or {}))
    seat = int(value["seat"])
    label = t(loc, value["key"]) if value.get("key") else ""
    name = seat_names[seat] if seat_names and 0 <= seat < len(seat_names) else ""
    if name:
        return f"{name} ({label})" if label else name
    return label or t(loc, "core.seat", n=seat + 1)


def t(locale: str | None, key: str, *, seat_names: Sequence[str] | None = None, **params: Any) -> str:
    """Translate ``key`` into ``locale`` with ``params`` substituted."""
    loc = normalize_locale(locale)
    text = catalog(loc).get(key)
    if text is None:
        text = catalog(DEFAULT_LOCALE).get(key, key)
    resolved = {k: _param(loc, v, seat_names) for k, v in params.items()}
    try:
        if "|" in text:
            return _PluralFormatter(loc).vformat(text, (), _SafeDict(resolved))
        return text.format_map(_SafeDict(resolved))
    except (ValueError, IndexError, KeyError):
        return text


def plural_category(locale: str, n: int) -> int:
    """Index of the plural form for ``n``: English has one (0) and other (1); Chinese one form."""
    if normalize_locale(locale).startswith("zh"):
        return 0
    return 0 if n == 1 else 1


class _PluralFormatter(string.Formatter):
    """``str.format`` plus the ``{n:# form|# forms}`` plural spec (see the module docstring)."""

    def __init__(self, locale: str) -> None:
        super().__init__()
        self.locale = locale

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Any) -> Any:  # noqa: ANN401
        return kwargs[key] if isinstance(key, str) else args[key]

    def format_field(self, value: Any, format_spec: str) -> str:  # noqa: ANN401
        if "|" not in format_spec:
            return super().format_field(value, format_spec)
        forms = format_spec.split("|")
        try:
            n = int(value)
        except (TypeError, ValueError):
            return forms[-1].replace("#", str(value))
        form = forms[min(plural_category(self.locale, n), len(forms) - 1)]
        return form.replace("#", str(value))


def tm(locale: str | None, msg: Msg, seat_names: Sequence[str] | None = None) -> str:
    """Translate a :class:`Msg`; ``seat_names`` (by seat) turn seat references into names."""
    return t(locale, msg.key, seat_names=seat_names, **msg.params)
