"""The 60 hegemony (国战) heroes: four hero packs, one per kingdom (``data/sanguosha/hegemony``).

Importing this module registers the skill modules (into :data:`packs.HEGEMONY_HEROES`) and the
packs (``heroes.register_pack``). Their skills are the standard heroes' where the hegemony wording
is the identity one, so a pack's implemented skills are both engine packs' registrations.
"""

from __future__ import annotations

import json
from pathlib import Path

from engines.sanguosha import (  # noqa: F401 - importing fills the packs
    heroes,
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

#: Packs that failed validation while the 60 heroes are being written (a test requires none).
FAILED: dict[str, str] = {}

for _kingdom in heroes.KINGDOMS:
    _name, _path = f"hg_{_kingdom}", FOLDER / f"{_kingdom}.json"
    heroes.register_pack(_name, _path, (STANDARD_HEROES, HEGEMONY_HEROES))
    try:
        heroes.heroes(_name)
    except heroes.HeroError as _exc:  # TODO(issue 20): strict once the four packs are complete
        FAILED[_name] = str(_exc)
        # meanwhile the pack's finished heroes (every skill implemented) are playable in tests
        _raw = json.loads(_path.read_text(encoding="utf-8"))
        _known = heroes.implemented(_name)
        _raw["heroes"] = [r for r in _raw["heroes"] if all(k in _known for k in r["skills"])]
        _ids = {r["id"] for r in _raw["heroes"]}
        for _r in _raw["heroes"]:
            _r["pairs"] = [x for x in _r.get("pairs", ()) if x in _ids]
        _raw["rules"] = dict(_raw["rules"], kingdoms={_kingdom: len(_raw["heroes"])} if _ids else {})
        _raw["ai"] = {"pick": [x for x in _raw["ai"]["pick"] if x in _ids]}
        heroes.register_pack(_name, _path, (STANDARD_HEROES, HEGEMONY_HEROES), raw=_raw)


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
    """All hegemony heroes of the registered kingdom packs."""
    out: dict[str, heroes.Hero] = {}
    for name in PACKS:
        if name in heroes.PACK_FILES:
            out.update(heroes.heroes(name))
    return out
