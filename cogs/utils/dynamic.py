"""How every DynamicItem of ours reads its custom id, and what answers a custom id none of them claims.

Parsing only keeps the id's named groups: ``from_custom_id`` must not raise (discord.py would log
and drop the click unanswered), so all the work, decoding included, happens in ``callback`` under
``guarded``. Every template has an ASCII-digits ``match`` group, so ``match_id`` cannot fail; its
range is checked in ``guarded`` (:func:`cogs.utils.ids.check_match_id`).

discord.py drops, silently, a component interaction whose custom id no registered template
matches, or that matches one but names a component the message does not have: the user sees
"This interaction failed". :func:`is_claimed` repeats discord.py's own test so the catch-all
listener (registered in ``cogs.errors``) answers exactly those clicks, and nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Self

import discord

from engines.base import EngineError
from service.errors import UserError

STALE = "core.err.stale"
#: The service's refusal of a malformed action (empty, absurd sizes): from a custom id, forged.
ILLEGAL = "core.err.illegal"


class CustomIdGroups:
    """Mixin placed before ``discord.ui.DynamicItem[...]`` in the bases."""

    groups: dict[str, str]
    match_id: int

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        self = cls(item)  # type: ignore[call-arg]
        self.groups = match.groupdict()
        self.match_id = int(match["match"])
        return self


def _walk_components(components: list[Any]) -> Iterator[Any]:
    for comp in components:
        yield comp
        for attr in ("children", "components"):
            yield from _walk_components(list(getattr(comp, attr, None) or []))
        accessory = getattr(comp, "accessory", None)
        if accessory is not None:
            yield from _walk_components([accessory])


def message_component(interaction: discord.Interaction) -> Any | None:
    """The component of the clicked message that this interaction names (None if it has none)."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    message = interaction.message
    if message is None or custom_id is None:
        return None
    return next((c for c in _walk_components(list(message.components))
                 if getattr(c, "custom_id", None) == custom_id and int(c.type.value) == kind), None)


def is_claimed(interaction: discord.Interaction, templates: list[re.Pattern[str]]) -> bool:
    """Whether discord.py hands this component interaction to one of our DynamicItems (a template
    matches the whole id AND the clicked message has that component) or to a persistent view."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id") or "")
    if any(t.fullmatch(custom_id) for t in templates) and message_component(interaction) is not None:
        return True
    client = interaction.client
    return any(getattr(item, "custom_id", None) == custom_id
               for view in getattr(client, "persistent_views", ()) for item in view.children)


def chosen_value(interaction: discord.Interaction) -> str:
    """The one value chosen in a select, if the select on the message offered it; else the
    "out of date" answer (a forged or replayed interaction can carry any value)."""
    values = list((interaction.data or {}).get("values") or [])  # type: ignore[union-attr]
    component = message_component(interaction)
    offered = {str(o.value) for o in getattr(component, "options", None) or []}
    if len(values) != 1 or str(values[0]) not in offered:
        raise UserError(STALE)
    return str(values[0])


@contextmanager
def stale_if_rejected() -> Iterator[None]:
    """Around work on a token path read from a custom id: we only write paths the engine offered,
    so when the engine refuses one now, the button is out of date (or forged) — say that, not
    the engine's detailed reason for a path the user never typed."""
    try:
        yield
    except EngineError as err:
        raise UserError(STALE) from err
    except UserError as err:
        if isinstance(err.__cause__, EngineError) or err.msg.key == ILLEGAL:
            raise UserError(STALE) from err
        raise
