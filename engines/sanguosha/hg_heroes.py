"""The 60 hegemony (国战) heroes: four hero packs, one per kingdom (``data/sanguosha/hegemony``).

Importing this module registers the skill modules (into :data:`packs.HEGEMONY_HEROES`) and the
packs (``heroes.register_pack``). Their skills are the standard heroes' where the hegemony wording
is the identity one, so a pack's implemented skills are both engine packs' registrations.
"""

from __future__ import annotations

from pathlib import Path

from engines.sanguosha import (  # noqa: F401 - importing fills the packs
    heroes,
    skills_hg_lord_cards,
    skills_hg_lords,
    skills_hg_qun,
    skills_hg_shu,
    skills_hg_wei,
    skills_hg_wu,
    skills_qun,
    skills_shu,
    skills_wei,
    skills_wu,
)
from engines.sanguosha.packs import HEGEMONY_HEROES, STANDARD_HEROES

FOLDER = Path(__file__).resolve().parent.parent.parent / "data" / "sanguosha" / "hegemony"
#: The hegemony packs, one per kingdom.
PACKS = tuple(f"hg_{k}" for k in heroes.KINGDOMS)

for _kingdom in heroes.KINGDOMS:
    heroes.register_pack(f"hg_{_kingdom}", FOLDER / f"{_kingdom}.json", (STANDARD_HEROES, HEGEMONY_HEROES))


#: The 君主 heroes (the lords option, hg_lords.py): a pack of their own, registered like the kingdom
#: packs but not in :data:`PACKS`, so never dealt.
LORDS = "hg_lords"
heroes.register_pack(LORDS, FOLDER / "lords.json", (STANDARD_HEROES, HEGEMONY_HEROES))


def _lord_map() -> dict[str, str]:
    """ordinary hero id → its lord form (each lord row's ``replaces``, a key the pack's
    validation does not read)."""
    import json  # here, not at the top: the lords' block stays one piece of this module

    rows = json.loads((FOLDER / "lords.json").read_text(encoding="utf-8"))["heroes"]
    return {r["replaces"]: r["id"] for r in rows}


LORD_OF: dict[str, str] = _lord_map()


def lord_form(hid: str) -> str | None:
    return LORD_OF.get(hid)


def is_lord(hid: str) -> bool:
    """Is ``hid`` a 君主 hero (only the swap puts one on a seat)?"""
    return hid in heroes.heroes(LORDS)


def every_hero() -> dict[str, heroes.Hero]:
    """The 60 hegemony heroes (a pack that fails its validation fails here, loudly)."""
    out: dict[str, heroes.Hero] = {}
    for name in PACKS:
        out.update(heroes.heroes(name))
    return out
