"""One definition per card: what a card is and does, in one place (its home).

A :class:`CardDef` holds everything the engine and its AI need to know of a card by name: whether
it is a hostile or a friendly act (the AI's public record, 无懈 chains), whether 无懈可击 may
cancel its effect, whether and when it may be used in the play phase, how its targets are chosen
or which seats it names by itself, its effect (run per target by the ``effect`` frame), and how
much the AI values holding it. The standard deck's cards are defined in ``cards_standard.py``
(equipment: ``equipment.py`` adds what an item does on the trigger registry); a new deck's cards
are defined beside it, and nothing else in the engine lists card names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.flow import Ctx

State = dict[str, Any]
Frame = dict[str, Any]
#: (state, user, physical cards, targets chosen so far, the living others ``user`` may target)
#: → (seats that may be added as the next target, whether the chosen ones are enough).
TargetFn = Callable[[State, int, list[str], list[int], list[int]], tuple[list[int], bool]]


@dataclass(frozen=True)
class CardDef:
    name: str
    #: A hostile act on each target (the AI's record; a 无懈 on it helps the target).
    harmful: bool = False
    #: A friendly act on each target (桃, 桃园结义).
    friendly: bool = False
    #: A trick whose effect on each target 无懈可击 may cancel (delayed tricks: at their judgement).
    nullifiable: bool = False
    #: May be used in the play phase at all (闪 and 无懈可击 only answer).
    usable: bool = True
    #: A further play-phase condition (桃: hurt; 闪电: none in one's own area).
    can_use: Callable[[State, int], bool] | None = None
    #: How targets are chosen; None: the card chooses none (its ``default_targets``).
    targets: TargetFn | None = None
    #: The seats a card names by itself (南蛮入侵: every other seat; 无中生有: the user).
    default_targets: Callable[[State, int], list[int]] | None = None
    #: Whether the public line names its targets (an AoE says only that it was used).
    names_targets: bool = True
    #: What happens on use, before the per-target effects (五谷丰登 reveals its pool).
    on_use: Callable[[Ctx, Frame], None] | None = None
    #: A target whose effect is skipped outright, nothing to cancel (桃园结义 at full HP).
    skip: Callable[[State, int], bool] | None = None
    #: The effect on one target (the ``effect`` frame; pops it when done).
    effect: Callable[[Ctx, Frame], None] | None = None
    #: How much the AI values holding one (discards keep the best, 五谷丰登 takes the best).
    ai_value: int = 4
    #: May be recast (重铸) in the play phase instead: into the discard pile, draw one (铁索连环).
    recast: bool = False
    #: A delayed trick's judgement (the ``delayed`` frame, its card already out of the area):
    #: ``(ctx, frame, judged card id or None)``, pops the frame (兵粮寸断). None: 乐不思蜀 and 闪电,
    #: which the frame itself knows.
    delayed: Callable[[Ctx, Frame, str | None], None] | None = None


#: name → definition, filled by the card modules on import.
DEFS: dict[str, CardDef] = {}


def define(card_def: CardDef) -> CardDef:
    if card_def.name in DEFS:
        raise ValueError(f"card {card_def.name} defined twice")
    DEFS[card_def.name] = card_def
    return card_def


def of(name: str) -> CardDef:
    return DEFS[name]


def harmful(name: str) -> bool:
    return name in DEFS and DEFS[name].harmful


def nullifiable(name: str) -> bool:
    return name in DEFS and DEFS[name].nullifiable
