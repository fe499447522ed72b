"""Component layouts as plain data, so Discord's limits can be checked without a gateway.

Discord allows 5 action rows per message, 5 buttons per row or one select per row, 25 options per
select, button labels of 80 and select option labels of 100 characters. The planners here never
produce more than that; :mod:`cogs.utils.views` turns a plan into a ``discord.ui.View``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.base import Option, OptionSpec, Step
from i18n import has, t, tm
from service.models import MatchInfo

from . import ids
from .text import clamp

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
BUTTON_LABEL_MAX = 80
SELECT_LABEL_MAX = 100
PLACEHOLDER_MAX = 150
#: Up to this many options are shown as buttons (4 rows of 5, leaving a row for Back/Confirm).
MAX_OPTION_BUTTONS = 20
#: Turn time limits offered in the lobby, seconds.
TURN_CHOICES = (60, 300, 3600, 86400, 259200, 604800)
DEFAULT_TURN_SECONDS = 86400

_STYLES = {"primary", "secondary", "success", "danger"}


@dataclass(frozen=True)
class ButtonSpec:
    custom_id: str
    label: str
    style: str = "secondary"
    emoji: str = ""
    disabled: bool = False


@dataclass(frozen=True)
class SelectOptionSpec:
    value: str
    label: str
    default: bool = False


@dataclass(frozen=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: list[SelectOptionSpec]


Row = list[ButtonSpec] | list[SelectSpec]


@dataclass
class Layout:
    rows: list[Row] = field(default_factory=list)
    page: int = 0
    pages: int = 1


def page_count(n: int, size: int = MAX_SELECT_OPTIONS) -> int:
    return max(1, math.ceil(n / size))


def page_slice(n: int, page: int, size: int = MAX_SELECT_OPTIONS) -> tuple[int, int, int]:
    """(start, end, page) of ``page`` clamped into range, for ``n`` items ``size`` per page."""
    pages = page_count(n, size)
    page = min(max(page, 0), pages - 1)
    start = page * size
    return start, min(n, start + size), page


def _style(hint: str) -> str:
    return hint if hint in _STYLES else "secondary"


#: An option that plays at once (``Option.commit``): play {path}, which ends with the option.
COMMIT_TEMPLATE = r"g:p:(?P<match>[0-9]+):(?P<req>[^:]+):(?P<path>[^:]*)$"


def commit_id(match_id: int, req: str, path: list[str], store: ids.PathStore | None = None) -> str:
    """Custom id of an option that plays ``path`` at once (handled like Confirm)."""
    return ids.fit_id(f"{ids.PREFIX}:p:{match_id}:{ids.encode_token(req)}:", path, match_id, req, store)


def option_button(match_id: int, req: str, path: list[str], option: Option, locale: str,
                  store: ids.PathStore | None = None) -> ButtonSpec:
    """The button of ``option`` at ``path``: plays at once when the option commits, else shows
    the next step."""
    full = [*path, option.value]
    cid = (commit_id(match_id, req, full, store) if option.commit
           else ids.nav_id(match_id, req, 0, full, store))
    return ButtonSpec(cid, clamp(tm(locale, option.label), BUTTON_LABEL_MAX), _style(option.hint), option.emoji)


#: A group-choice button: the options of group {group} after {path}, page {page}.
GROUP_TEMPLATE = r"g:h:(?P<match>[0-9]+):(?P<req>[^:]+):(?P<group>[^:]+):(?P<page>[0-9]+):(?P<path>[^:]*)$"


def group_id(match_id: int, req: str, group: str, page: int, path: list[str],
             store: ids.PathStore | None = None) -> str:
    """Custom id of a group button (same path encoding and fallback as :mod:`cogs.utils.ids`)."""
    head = f"{ids.PREFIX}:h:{match_id}:{ids.encode_token(req)}:{ids.encode_token(group)}:{page}:"
    cid = head + ids.encode_path(path)
    if len(cid) <= ids.MAX_CUSTOM_ID:
        return cid
    if store is None:
        raise ids.BadCustomId("path too long for a custom id and no store")
    cid = head + "*" + store.put(match_id, req, path)
    if len(cid) > ids.MAX_CUSTOM_ID:
        raise ids.BadCustomId("request or group id too long for a custom id")
    return cid


def group_label(game: str, hint: str, locale: str) -> str | None:
    """The localized name of an option group, or None when no catalog names it."""
    for key in (f"{game}.group.{hint}", f"{game}.continent.{hint}"):
        if game and has(key, locale):
            return t(locale, key)
    return None


def option_groups(options: list[Option], game: str, locale: str) -> list[tuple[str, str, int]] | None:
    """``(hint, label, count)`` per group when grouping saves taps, else None (then we page).

    Only for more options than one select holds, every option hinted, 2..20 groups (one button
    each) and every group named in the catalogs: a half-named set of groups would be worse than
    plain paging.
    """
    if len(options) <= MAX_SELECT_OPTIONS or any(not o.hint for o in options):
        return None
    counts: dict[str, int] = {}
    for o in options:
        counts[o.hint] = counts.get(o.hint, 0) + 1
    if not 2 <= len(counts) <= MAX_OPTION_BUTTONS:
        return None
    out = []
    for hint, n in counts.items():
        label = group_label(game, hint, locale)
        if label is None:
            return None
        out.append((hint, label, n))
    return out


def _rows(buttons: list[ButtonSpec]) -> list[Row]:
    return [buttons[i:i + MAX_BUTTONS_PER_ROW] for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)]


def step_layout(step: Step, match_id: int, req: str, path: list[str], page: int, locale: str,
                store: ids.PathStore | None = None, *, back: list[str] | bool = True,
                game: str = "", group: str | None = None,
                side: Sequence[tuple[list[str], Option]] = ()) -> Layout:
    """Buttons for up to 20 options, else group buttons (when the options carry named groups) or
    a select paged 25 at a time; then Back/Confirm/paging.

    ``back`` is where Back leads: True means one token up, False no Back button (every earlier
    step had a single option and was taken automatically). ``group`` is the group chosen on the
    group buttons; its options are laid out like a step of their own. ``side`` are committing
    options of an earlier step the UI passed through (``(the path before them, option)``, "End
    attack" beside the attack sources); they lead the control row.
    """
    seen: set[str] = set()
    options = [o for o in step.options if not (o.value in seen or seen.add(o.value))]
    layout = Layout()
    controls: list[ButtonSpec] = []
    groups = option_groups(options, game, locale)
    in_group = groups is not None and group is not None and any(g[0] == group for g in groups)
    if in_group:
        options = [o for o in options if o.hint == group]
    if groups is not None and not in_group:
        layout.rows.extend(_rows([
            ButtonSpec(group_id(match_id, req, hint, 0, path, store),
                       clamp(t(locale, "discord.step.group", group=label, n=n), BUTTON_LABEL_MAX))
            for hint, label, n in groups
        ]))
    elif len(options) <= MAX_OPTION_BUTTONS:
        layout.rows.extend(_rows([option_button(match_id, req, path, o, locale, store) for o in options]))
    else:
        start, end, page = page_slice(len(options), page)
        layout.page, layout.pages = page, page_count(len(options))
        placeholder = t(locale, "discord.play.choose_page", prompt=tm(locale, step.prompt),
                        page=page + 1, pages=layout.pages)
        layout.rows.append([SelectSpec(
            ids.select_id(match_id, req, path, store), clamp(placeholder, PLACEHOLDER_MAX),
            [SelectOptionSpec(o.value, clamp(tm(locale, o.label), SELECT_LABEL_MAX))
             for o in options[start:end]],
        )])

        def to_page(p: int) -> str:
            if in_group:
                return group_id(match_id, req, group or "", p, path, store)
            return ids.nav_id(match_id, req, p, path, store)
        # Only the directions that lead somewhere: a greyed-out button is one more thing to misread
        # on a phone (and one more dead target for a click).
        if page > 0:
            controls.append(ButtonSpec(to_page(page - 1), t(locale, "discord.button.prev")))
        if page + 1 < layout.pages:
            controls.append(ButtonSpec(to_page(page + 1), t(locale, "discord.button.next")))
    if in_group:  # Back to the group buttons of this same step
        controls.append(ButtonSpec(ids.nav_id(match_id, req, 0, path, store), t(locale, "discord.button.back")))
    elif path and back is not False:
        target = path[:-1] if back is True else list(back)  # type: ignore[arg-type]
        controls.append(ButtonSpec(ids.nav_id(match_id, req, 0, target, store),
                                   t(locale, "discord.button.back")))
    if step.complete:
        controls.append(ButtonSpec(ids.confirm_id(match_id, req, path, store),
                                   t(locale, "discord.button.confirm"), "success"))
    sides = [option_button(match_id, req, prefix, o, locale, store) for prefix, o in side]
    # Side buttons lead; a second control row only if a row is free, else they share the one.
    control_rows = _rows(sides + controls)
    if len(layout.rows) + len(control_rows) > MAX_ROWS:
        control_rows = [(sides + controls)[-MAX_BUTTONS_PER_ROW:]] if sides or controls else []
    layout.rows.extend(row for row in control_rows if row)
    return layout


def turn_label(locale: str, seconds: int) -> str:
    if seconds in TURN_CHOICES:
        return t(locale, f"discord.turn.s{seconds}")
    return t(locale, "discord.turn.seconds", n=seconds)


def lobby_layout(match: MatchInfo, specs: list[OptionSpec], locale: str) -> Layout:
    """Join/Leave/Add AI/Remove AI/Start, then one select per option and the turn-time select.

    The last row holds the recap switch. When the options do not fit in the rows left (two
    selects), the first two are shown with the turn select and a "More options" button beside the
    switch opens the rest in an ephemeral message.
    """
    mid = match.id
    layout = Layout()
    layout.rows.append([
        ButtonSpec(ids.lobby_id(mid, "join"), t(locale, "discord.button.join"), "primary"),
        ButtonSpec(ids.lobby_id(mid, "leave"), t(locale, "discord.button.leave")),
        ButtonSpec(ids.lobby_id(mid, "ai"), t(locale, "discord.button.add_ai")),
        ButtonSpec(ids.lobby_id(mid, "unai"), t(locale, "discord.button.remove_ai")),
        ButtonSpec(ids.lobby_id(mid, "start"), t(locale, "discord.button.start"), "success"),
    ])
    turn_select = SelectSpec(
        ids.lobby_turn_id(mid), clamp(t(locale, "discord.lobby.turn_placeholder"), PLACEHOLDER_MAX),
        [SelectOptionSpec(str(s), turn_label(locale, s), s == match.turn_seconds) for s in TURN_CHOICES],
    )
    # Rows after the buttons: the option selects, the turn select, and a row for the recap switch
    # (with "More options" when the options do not all fit), so every lobby can turn it off.
    shown, hidden = _lobby_options(specs)
    more = bool(hidden)
    for spec in shown:
        layout.rows.append([option_select(match, spec, locale)])
    layout.rows.append([turn_select])
    last: list[ButtonSpec] = []
    if more:
        last.append(ButtonSpec(ids.lobby_id(mid, "more"), t(locale, "discord.button.more_options")))
    last.append(ButtonSpec(ids.lobby_id(mid, "recap"), t(locale, "stats.recap.button")))  # issue 21
    layout.rows.append(last)  # type: ignore[arg-type]  # a row of buttons
    return layout


def ai_level_name(level: str, locale: str) -> str:
    """A level's name ("Hard", "困難"); an unknown level (an engine's own) shows as it is."""
    key = f"core.ai.level.{level}"
    return t(locale, key) if has(key, locale) else level


def ai_level_about(game: str, level: str, locale: str) -> str:
    """One line of what playing against ``level`` is like: the game's own line, else the
    generic one, else nothing."""
    for key in (f"{game}.ai.about.{level}", f"core.ai.about.{level}"):
        if has(key, locale):
            return t(locale, key)
    return ""


def ai_level_picker(match: MatchInfo, levels: Sequence[str], locale: str, added: str = "") -> tuple[str, Layout]:
    """The ephemeral "Add AI" picker: a line per level saying what it is like, and a button per
    level that adds a seat at it. It stays open, so filling a table is one click a seat;
    ``added`` is the line saying what the last click did."""
    lines = [t(locale, "discord.lobby.ai_pick")]
    for level in levels:
        about = ai_level_about(match.game, level, locale)
        lines.append(t(locale, "discord.lobby.ai_line", level=ai_level_name(level, locale), about=about)
                     if about else f"**{ai_level_name(level, locale)}**")
    if added:
        lines.append(added)
    row = [ButtonSpec(ids.lobby_ai_id(match.id, level), clamp(ai_level_name(level, locale), BUTTON_LABEL_MAX),
                      "primary" if level == "normal" else "secondary")
           for level in levels[:MAX_BUTTONS_PER_ROW]]
    return "\n".join(lines), Layout(rows=[row])  # type: ignore[list-item]  # a row of buttons


def option_select(match: MatchInfo, spec: OptionSpec, locale: str) -> SelectSpec:
    current = match.options.get(spec.name, spec.default)
    return SelectSpec(
        ids.lobby_option_id(match.id, spec.name),
        clamp(tm(locale, spec.label), PLACEHOLDER_MAX),
        [SelectOptionSpec(value, clamp(tm(locale, label), SELECT_LABEL_MAX), value == current)
         for value, label in spec.choices[:MAX_SELECT_OPTIONS]],
    )


def _lobby_options(specs: list[OptionSpec]) -> tuple[list[OptionSpec], list[OptionSpec]]:
    """(shown on the lobby message, behind "More options"): the message has the button row, the
    turn select and the recap row besides, so two selects fit."""
    free = MAX_ROWS - 3
    return (specs, []) if len(specs) <= free else (specs[:free], specs[free:])


def extra_option_layout(match: MatchInfo, specs: list[OptionSpec], locale: str) -> Layout:
    """The options that did not fit on the lobby message (at most five selects)."""
    hidden = _lobby_options(specs)[1]
    return Layout(rows=[[option_select(match, s, locale)] for s in hidden[:MAX_ROWS]])


#: The request id of the "I'm back" button: no engine's (they never start with "!"). A click on it
#: is a turn-button click (which ends the clicker's away state) that names no request.
BACK_REQUEST = "!back"


def turn_buttons(match_id: int, requests: list[tuple[str, str]], locale: str, *, window: bool = False,
                 back: bool = False) -> Layout:
    """One "Take your turn" button per pending request (label names the seat when several);
    ``window``: plus one "Respond" button for all response-window requests, naming nobody (its
    empty request id opens the clicker's own request); ``back``: plus "I'm back" for a player the
    AI plays for (away), who has no turn button of their own while the AI answers at once."""
    buttons = []
    for req, name in requests[:MAX_ROWS * MAX_BUTTONS_PER_ROW - int(window) - int(back)]:
        label = (t(locale, "discord.button.take_turn") if len(requests) == 1
                 else t(locale, "discord.button.take_turn_for", name=name))
        buttons.append(ButtonSpec(ids.turn_id(match_id, req), clamp(label, BUTTON_LABEL_MAX), "primary"))
    if window:
        buttons.append(ButtonSpec(ids.turn_id(match_id, ""), clamp(t(locale, "publish.respond"), BUTTON_LABEL_MAX),
                                  "primary"))
    if back:
        buttons.append(ButtonSpec(ids.turn_id(match_id, BACK_REQUEST),
                                  clamp(t(locale, "discord.button.im_back"), BUTTON_LABEL_MAX), "secondary"))
    return Layout(rows=[buttons[i:i + MAX_BUTTONS_PER_ROW] for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)])
