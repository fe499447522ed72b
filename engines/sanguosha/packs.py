"""The parts of 三国杀 a mode is built from, as :class:`engines.flow.Pack`s filled at import.

- :data:`CORE` — the turn, phases, card use and effects, responses, 无懈可击, judgement, damage,
  dying, losing HP and the skill machinery (``frames.py``, ``skills.py``);
- :data:`EQUIPMENT` — weapons, armour and horses (``equipment.py``);
- :data:`CARDS_HEGEMONY` — what only the 国战 deck's cards need on the flow: 酒, 无懈可击·国 and
  铁索连环's answers, 藤甲, 白银狮子, 吴六剑, 三尖两刃刀, 朱雀羽扇 (``cards_hegemony.py``,
  ``equipment_hegemony.py``); identity mode does not install it;
- :data:`STANDARD_HEROES` — the 25 standard heroes' skills (``skills_wei/shu/wu/qun.py``);
- :data:`IDENTITY` — identity mode's own frames: role deal and hero choice (``setup.py``) and
  death with its rewards (``identity.py``);
- :data:`HEGEMONY_HEROES` — the skills of the 60 hegemony (国战) heroes that are not the standard
  heroes' own skills (``skills_hg_wei/shu/wu/qun.py``); a hegemony hero whose skill reads as the
  identity one names the standard skill id;
- :data:`HEGEMONY` — hegemony mode's own frames (``hegemony.py``).

A mode (``modes.py``) names the packs its flow is built from; nothing registers into a flow
directly, so a second mode can bring its own set-up and death beside identity mode's.
"""

from __future__ import annotations

from engines.flow import Pack

CORE = Pack("sanguosha.core")
EQUIPMENT = Pack("sanguosha.equipment")
CARDS_HEGEMONY = Pack("sanguosha.cards.hegemony")
STANDARD_HEROES = Pack("sanguosha.heroes.standard")
IDENTITY = Pack("sanguosha.mode.identity")
HEGEMONY_HEROES = Pack("sanguosha.heroes.hegemony")
HEGEMONY = Pack("sanguosha.mode.hegemony")
