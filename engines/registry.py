"""Slug -> engine. The only place that knows which games exist."""

from __future__ import annotations

from importlib import import_module

from engines.base import Engine

#: slug -> module path holding an ``ENGINE`` instance; order is the order games are offered in.
GAMES: dict[str, str] = {
    "pentactic": "engines.pentactic",
    "risk": "engines.risk",
    "sanguosha": "engines.sanguosha",
    "kingdoms_battle": "engines.kingdoms_battle",
    "jiwu": "engines.jiwu",
}

_cache: dict[str, Engine] = {}


def available() -> list[str]:
    """Slugs whose engine package exists. A package that exists but fails to import raises: a
    broken engine must fail loudly (in tests and at start-up), never silently vanish."""
    out = []
    for slug in GAMES:
        try:
            get(slug)
        except ModuleNotFoundError as err:
            if err.name != GAMES[slug]:
                raise
            continue
        out.append(slug)
    return out


def get(slug: str) -> Engine:
    if slug not in GAMES:
        raise KeyError(slug)
    if slug not in _cache:
        module = import_module(GAMES[slug])
        _cache[slug] = module.ENGINE
    return _cache[slug]


def register(slug: str, engine: Engine) -> None:
    """Install an engine object under ``slug`` without a module lookup (test toy engines, plug-ins)."""
    GAMES.setdefault(slug, type(engine).__module__)
    _cache[slug] = engine
