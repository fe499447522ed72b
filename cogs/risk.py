"""/risk attack|place|fortify|trade|cards: one-line Risk actions for people who know what they want.

Nothing here knows Risk's rules: every suggestion comes from ``service.step`` for the user's
pending request (so only legal values are offered, labelled with the engine's localized option
labels), and every command just builds the token path the buttons would have built. A command
whose path is not a whole action yet (a blitz without ``stop_at``, a placement that still needs a
count) continues in the ordinary step message, so nothing is ever played half-specified.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engines.base import Option, Step
from engines.tokens import ascii_int
from i18n import t, tm
from service.errors import UserError
from service.models import MatchInfo

from .errors import guarded
from .match import match_autocomplete, match_option, resolve_match, send_private_view
from .play import play_path, step_message
from .utils import ids
from .utils.dynamic import CustomIdGroups, chosen_value, stale_if_rejected
from .utils.layout import (
    MAX_SELECT_OPTIONS,
    PLACEHOLDER_MAX,
    SELECT_LABEL_MAX,
    Layout,
    SelectOptionSpec,
    SelectSpec,
)
from .utils.replies import user_locale
from .utils.text import clamp
from .utils.translator import ls
from .utils.views import build_view

log = logging.getLogger(__name__)
GAME = "risk"
CHOICE_MAX = 100
MAX_CHOICES = 25
#: Card sets offered by /risk trade are found by walking the trade steps; a hand is small, but cap it.
MAX_SET_WALK = 400
TRADE_TEMPLATE = r"g:rt:(?P<match>[0-9]+):(?P<req>[^:]+)$"


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


def trade_select_id(match_id: int, req: str) -> str:
    """The custom id of the card-set select; the chosen value carries the cards (restart-proof)."""
    return f"{ids.PREFIX}:rt:{match_id}:{ids.encode_token(req)}"


async def _risk_match(interaction: discord.Interaction, match_id: int | None) -> MatchInfo:
    match = await resolve_match(interaction, match_id)
    if match.game != GAME:
        raise UserError("discord.risk.not_risk", match=match.id)
    return match


async def _request(interaction: discord.Interaction, match: MatchInfo) -> str:
    reqs: list[str] = await _service(interaction).pending_for_user(match.id, interaction.user.id)
    if not reqs:
        raise UserError("core.err.not_your_turn")
    return reqs[0]


# ----- autocomplete ------------------------------------------------------------------------------

async def legal_options(interaction: discord.Interaction, prefix: list[str]) -> list[Option]:
    """The options after ``prefix`` for the user's pending request in the command's match."""
    match = await _risk_match(interaction, getattr(interaction.namespace, "match", None))
    req = await _request(interaction, match)
    step: Step = await _service(interaction).step(match.id, interaction.user.id, req, prefix)
    return list(step.options)


async def is_legal_next(interaction: discord.Interaction, prefix: list[str], token: str) -> bool:
    """Whether the engine accepts ``token`` after ``prefix`` (a typed number the options don't list)."""
    try:
        await legal_options(interaction, [*prefix, token])
    except UserError:
        return False
    return True


def filter_choices(options: list[Option], current: str, locale: str) -> list[tuple[str, str]]:
    """``(label, value)`` of the options whose label or value contains what the user typed."""
    needle = str(current or "").strip().lower()
    out = []
    for option in options:
        label = tm(locale, option.label)
        if needle and needle not in label.lower() and needle not in option.value.lower():
            continue
        out.append((clamp(label, CHOICE_MAX), option.value))
    return out[:MAX_CHOICES]


def _ns(interaction: discord.Interaction, name: str) -> str:
    value = getattr(interaction.namespace, name, None)
    return "" if value is None else str(value)


def _str_autocomplete(*prefix: str) -> Callable[..., Awaitable[list[app_commands.Choice[str]]]]:
    """Autocomplete for a string option: ``prefix`` names literal tokens and earlier options
    (``"=from"`` is the value typed into option ``from``)."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            path = [_ns(interaction, p[1:]) if p.startswith("=") else p for p in prefix]
            if not all(path):
                return []
            locale = user_locale(interaction)
            options = await legal_options(interaction, path)
            return [app_commands.Choice(name=n, value=v) for n, v in filter_choices(options, current, locale)]
        except Exception:  # autocomplete must answer; errors show as "no options"
            log.debug("risk autocomplete failed", exc_info=True)
            return []
    return complete


def _int_autocomplete(*prefix: str) -> Callable[..., Awaitable[list[app_commands.Choice[int]]]]:
    """Like :func:`_str_autocomplete` for whole-number options (army counts, blitz stop)."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        try:
            path = [_ns(interaction, p[1:]) if p.startswith("=") else p for p in prefix]
            if not all(path):
                return []
            locale = user_locale(interaction)
            options = [o for o in await legal_options(interaction, path) if ascii_int(o.value) is not None]
            typed = str(current or "").strip()
            choices = [app_commands.Choice(name=n, value=int(v)) for n, v in filter_choices(options, typed, locale)]
            number = ascii_int(typed)  # ASCII digits only, as the engine reads them
            if number is not None and all(c.value != number for c in choices) \
                    and await is_legal_next(interaction, path, str(number)):
                # Counts accept any number in range, not only the suggested ones.
                choices.insert(0, app_commands.Choice(name=str(number), value=number))
            return choices[:MAX_CHOICES]
        except Exception:
            log.debug("risk autocomplete failed", exc_info=True)
            return []
    return complete


# ----- acting ------------------------------------------------------------------------------------

async def play_tokens(interaction: discord.Interaction, match: MatchInfo, tokens: list[str]) -> None:
    """Play ``tokens`` (response already deferred, ephemeral) and show the result with the next
    decision's buttons (as a click would); a path that is not a whole action yet continues as the
    step message, with buttons."""
    service = _service(interaction)
    user = interaction.user.id
    req = await _request(interaction, match)
    step: Step = await service.step(match.id, user, req, tokens)  # UserError when illegal
    if not step.complete:
        await interaction.edit_original_response(**await step_message(interaction, match.id, req, tokens))
        return
    await play_path(interaction, match.id, req, tokens, via="risk", typed=True)


async def card_sets(service: Any, match_id: int, user_id: int, req: str) -> list[list[str]]:
    """Every set of cards the trade steps accept now, in hand order, each once."""
    root: Step = await service.step(match_id, user_id, req, [])
    if not any(o.value == "trade" for o in root.options):
        return []
    found: dict[frozenset[str], list[str]] = {}
    frontier: list[list[str]] = [[]]
    calls = 0
    while frontier and calls < MAX_SET_WALK:
        chosen = frontier.pop(0)
        step: Step = await service.step(match_id, user_id, req, ["trade", *chosen])
        calls += 1
        if len(chosen) == 3:
            found.setdefault(frozenset(chosen), chosen)
            continue
        frontier.extend([*chosen, o.value] for o in step.options)
    return list(found.values())[:MAX_SELECT_OPTIONS]


async def card_names(service: Any, match_id: int, user_id: int, req: str, locale: str) -> dict[str, str]:
    """Localized labels of the cards offered at the first trade step."""
    step: Step = await service.step(match_id, user_id, req, ["trade"])
    return {o.value: tm(locale, o.label) for o in step.options}


def trade_layout(match_id: int, req: str, sets: list[list[str]], names: dict[str, str], locale: str) -> Layout:
    sep = t(locale, "discord.risk.set_sep")
    options = [SelectOptionSpec(" ".join(s), clamp(sep.join(names.get(c, c) for c in s), SELECT_LABEL_MAX))
               for s in sets]
    return Layout(rows=[[SelectSpec(trade_select_id(match_id, req),
                                    clamp(t(locale, "discord.risk.trade_placeholder"), PLACEHOLDER_MAX), options)]])


class TradeSelect(CustomIdGroups, discord.ui.DynamicItem[discord.ui.Select],
                  template=re.compile(TRADE_TEMPLATE)):
    """The chosen card set continues as the ordinary step message (bonus territory, Confirm)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            cards = chosen_value(interaction).split()
            if len(cards) != 3:
                raise UserError("core.err.stale")
            await interaction.response.defer()
            req = ids.decode_token(self.groups["req"])
            with stale_if_rejected():
                kwargs = await step_message(interaction, self.match_id, req, ["trade", *cards])
            await interaction.edit_original_response(**kwargs)
        await guarded(interaction, self.match_id, work())


MODES = [app_commands.Choice(name=ls(f"risk.verb.{m}"), value=m) for m in ("once", "blitz", "dice")]


class RiskCog(commands.Cog):
    group = app_commands.Group(name=ls("discord.cmd.risk.name"), description=ls("discord.cmd.risk.desc"),
                               guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(name=ls("discord.cmd.risk_attack.name"), description=ls("discord.cmd.risk_attack.desc"))
    @app_commands.rename(source=ls("discord.opt.from.name"), target=ls("discord.opt.to.name"),
                         mode=ls("discord.opt.mode.name"), stop_at=ls("discord.opt.stop_at.name"),
                         match=ls("discord.opt.match.name"))
    @app_commands.describe(source=ls("discord.opt.from.desc"), target=ls("discord.opt.to.desc"),
                           mode=ls("discord.opt.mode.desc"), stop_at=ls("discord.opt.stop_at.desc"),
                           match=ls("discord.opt.match.desc"))
    @app_commands.choices(mode=MODES)
    @app_commands.autocomplete(source=_str_autocomplete("attack"), target=_str_autocomplete("attack", "=from"),
                               stop_at=_int_autocomplete("attack", "=from", "=to", "blitz"),
                               match=match_autocomplete)
    async def attack(self, interaction: discord.Interaction, source: str, target: str, mode: str,
                     stop_at: app_commands.Range[int, 1, 999] | None = None, match: int | None = None) -> None:
        info = await _risk_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tokens = ["attack", source, target, mode]
        if mode == "blitz" and stop_at is not None:
            tokens.append(str(stop_at))
        await play_tokens(interaction, info, tokens)

    @group.command(name=ls("discord.cmd.risk_place.name"), description=ls("discord.cmd.risk_place.desc"))
    @app_commands.rename(territory=ls("discord.opt.territory.name"), count=ls("discord.opt.count.name"),
                         match=ls("discord.opt.match.name"))
    @app_commands.describe(territory=ls("discord.opt.territory.desc"), count=ls("discord.opt.count.desc"),
                           match=ls("discord.opt.match.desc"))
    @app_commands.autocomplete(territory=_str_autocomplete("place"),
                               count=_int_autocomplete("place", "=territory"), match=match_autocomplete)
    async def place(self, interaction: discord.Interaction, territory: str,
                    count: app_commands.Range[int, 1, 999] | None = None, match: int | None = None) -> None:
        info = await _risk_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tokens = ["place", territory]
        if count is not None:
            # Classic set-up places one army at a time: there a count is simply not asked for.
            step: Step = await _service(interaction).step(info.id, interaction.user.id,
                                                          await _request(interaction, info), tokens)
            if not (step.complete and not step.options):
                tokens.append(str(count))
        await play_tokens(interaction, info, tokens)

    @group.command(name=ls("discord.cmd.risk_fortify.name"), description=ls("discord.cmd.risk_fortify.desc"))
    @app_commands.rename(source=ls("discord.opt.from.name"), target=ls("discord.opt.to.name"),
                         count=ls("discord.opt.count.name"), match=ls("discord.opt.match.name"))
    @app_commands.describe(source=ls("discord.opt.from.desc"), target=ls("discord.opt.to.desc"),
                           count=ls("discord.opt.count.desc"), match=ls("discord.opt.match.desc"))
    @app_commands.autocomplete(source=_str_autocomplete("fortify"), target=_str_autocomplete("fortify", "=from"),
                               count=_int_autocomplete("fortify", "=from", "=to"), match=match_autocomplete)
    async def fortify(self, interaction: discord.Interaction, source: str, target: str,
                      count: app_commands.Range[int, 1, 999] | None = None, match: int | None = None) -> None:
        info = await _risk_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await play_tokens(interaction, info, ["fortify", source, target,
                                              *([str(count)] if count is not None else [])])

    @group.command(name=ls("discord.cmd.risk_trade.name"), description=ls("discord.cmd.risk_trade.desc"))
    @match_option
    async def trade(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await _risk_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = _service(interaction)
        locale = user_locale(interaction)
        req = await _request(interaction, info)
        sets = await card_sets(service, info.id, interaction.user.id, req)
        if not sets:
            raise UserError("discord.risk.no_sets")
        names = await card_names(service, info.id, interaction.user.id, req, locale)
        view = build_view(trade_layout(info.id, req, sets, names, locale))
        await interaction.edit_original_response(content=t(locale, "discord.risk.trade_placeholder"), view=view)

    @group.command(name=ls("discord.cmd.risk_cards.name"), description=ls("discord.cmd.risk_cards.desc"))
    @match_option
    async def cards(self, interaction: discord.Interaction, match: int | None = None) -> None:
        info = await _risk_match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_private_view(interaction, info)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RiskCog(bot))
    bot.add_dynamic_items(TradeSelect)
