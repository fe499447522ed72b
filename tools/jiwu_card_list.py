"""Prints the 极武三国 board and card list as Markdown for ``docs/rules/jiwu.md``, from the data
files and the catalogs (so the doc shows exactly what the game loads). Run::

    .venv/bin/python tools/jiwu_card_list.py > /tmp/cards.md
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.jiwu.choices import effects_ref  # noqa: E402
from engines.jiwu.data import board, cards  # noqa: E402
from i18n import t  # noqa: E402


def name(kind: str, key: str) -> str:
    return f"{t('zh-CN', f'jiwu_names.{kind}.{key}')} {t('en', f'jiwu_names.{kind}.{key}')}"


def text(effects: list[dict], loc: str) -> str:
    ref = effects_ref(list(effects))
    return t(loc, ref["key"], **ref.get("params", {}))


def main() -> None:
    b = board()
    print("| region | section | slots | X | 功勋 | 城池卡 / turn | start |")
    print("|---|---|---|---|---|---|---|")
    for r in b.regions.values():
        print(f"| {name('region', r.id)} | {r.section} | {r.slots} | {r.neutral} | {r.vp} | "
              f"{r.city or ''} | {'black' if r.start else ''} |")
    print()
    print("| path | joins | slots | X |")
    print("|---|---|---|---|")
    for p in b.paths.values():
        print(f"| {p.id} | {name('region', p.a)} – {name('region', p.b)} | {p.slots} | {p.neutral} |")
    print()
    for kind in ("market", "art", "start", "supply", "plan"):
        print(f"#### {kind}\n")
        print("| card | type | cost | copies | effect | general |")
        print("|---|---|---|---|---|---|")
        for c in cards().of_kind(kind):
            aspect = t("zh-CN", f"jiwu_names.aspect.{c.aspect}") if c.aspect else ""
            gen = ""
            if c.general:
                s = c.general.skill
                gen = (f"武力值 {c.general.force}; 武技 {name('card', c.general.art)}; duel: on {s['on']} "
                       f"+{s['dice']} dice, block {s['block']}")
            print(f"| {name('card', c.id)} | {aspect} | {c.cost} | {c.copies} | "
                  f"{text(list(c.effects), 'zh-CN')} / {text(list(c.effects), 'en')} | {gen} |")
        print()


if __name__ == "__main__":
    main()
