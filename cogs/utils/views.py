"""Turn a :class:`~cogs.utils.layout.Layout` into a ``discord.ui.View`` ready to send.

The views built here only carry components: clicks are routed by custom id to the
``DynamicItem`` classes registered on the bot, so the view is stopped before sending and never
kept in discord.py's view store (nothing in memory to lose on restart).
"""

from __future__ import annotations

import discord

from .layout import ButtonSpec, Layout, SelectSpec

_STYLE = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def build_view(layout: Layout) -> discord.ui.View | None:
    """A stopped view with one action row per layout row (None when the layout is empty).

    Must run inside an event loop (discord.ui.View needs one).
    """
    if not layout.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(layout.rows):
        for spec in row:
            if isinstance(spec, ButtonSpec):
                view.add_item(discord.ui.Button(
                    custom_id=spec.custom_id, label=spec.label, style=_STYLE.get(spec.style),
                    emoji=spec.emoji or None, disabled=spec.disabled, row=row_index,
                ))
            elif isinstance(spec, SelectSpec):
                view.add_item(discord.ui.Select(
                    custom_id=spec.custom_id, placeholder=spec.placeholder, row=row_index,
                    options=[discord.SelectOption(label=o.label, value=o.value, default=o.default)
                             for o in spec.options],
                ))
    view.stop()
    return view
