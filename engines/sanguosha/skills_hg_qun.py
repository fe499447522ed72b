"""The hegemony (国战) skills of the qun heroes that differ from the identity heroes' skills.

A hegemony hero whose skill reads as the identity one names the standard skill id in its data row
(``data/sanguosha/hegemony/qun.json``); every other skill is registered here into
:data:`packs.HEGEMONY_HEROES`, with its question texts and AI hint beside it.
"""

from __future__ import annotations
