"""Discord's documented message limits, checked on every message the bot sends or edits.

The real API refuses these with 400 Invalid Form Body; the bot only finds out in production
unless the fake refuses them the same way. Every function returns the broken rules (empty when
the payload is fine) so one request can report all of them at once.
"""

from __future__ import annotations

from typing import Any

from fakediscord.errors import FieldError

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
FILE_MAX = 10 * 1024 * 1024
FILES_TOTAL_MAX = 25 * 1024 * 1024
FILES_COUNT_MAX = 10
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
MODAL_TITLE_MAX = 45
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

BUTTON = 2
SELECT_TYPES = {3, 5, 6, 7, 8}
TEXT_INPUT = 4


def _too_long(path: str, value: Any, limit: int, errors: list[FieldError], *, min_len: int = 0) -> None:
    if value is None:
        if min_len:
            errors.append(FieldError(path, "BASE_TYPE_REQUIRED", "This field is required"))
        return
    text = str(value)
    if len(text) > limit:
        errors.append(FieldError(path, "BASE_TYPE_MAX_LENGTH",
                                 f"Must be {limit} or fewer in length."))
    elif len(text) < min_len:
        errors.append(FieldError(path, "BASE_TYPE_MIN_LENGTH",
                                 f"Must be {min_len} or more in length."))


def check_embeds(embeds: list[dict[str, Any]], errors: list[FieldError]) -> None:
    if len(embeds) > EMBEDS_MAX:
        errors.append(FieldError("embeds", "BASE_TYPE_MAX_LENGTH",
                                 f"Must be {EMBEDS_MAX} or fewer in length."))
    total = 0
    for i, embed in enumerate(embeds):
        p = f"embeds.{i}"
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        _too_long(f"{p}.title", title, EMBED_TITLE_MAX, errors)
        _too_long(f"{p}.description", description, EMBED_DESCRIPTION_MAX, errors)
        total += len(title) + len(description)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.append(FieldError(f"{p}.fields", "BASE_TYPE_MAX_LENGTH",
                                     f"Must be {EMBED_FIELDS_MAX} or fewer in length."))
        for j, field in enumerate(fields):
            name, value = field.get("name"), field.get("value")
            _too_long(f"{p}.fields.{j}.name", name, EMBED_FIELD_NAME_MAX, errors, min_len=1)
            _too_long(f"{p}.fields.{j}.value", value, EMBED_FIELD_VALUE_MAX, errors, min_len=1)
            total += len(str(name or "")) + len(str(value or ""))
        footer = (embed.get("footer") or {}).get("text")
        if footer is not None:
            _too_long(f"{p}.footer.text", footer, EMBED_FOOTER_MAX, errors)
            total += len(footer)
        author = (embed.get("author") or {}).get("name")
        if author is not None:
            _too_long(f"{p}.author.name", author, EMBED_AUTHOR_MAX, errors)
            total += len(author)
    if total > EMBED_TOTAL_MAX:
        errors.append(FieldError("embeds", "MAX_EMBED_SIZE_EXCEEDED",
                                 f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"))


def _check_custom_id(path: str, comp: dict[str, Any], seen: set[str], errors: list[FieldError]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        errors.append(FieldError(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
        return
    _too_long(f"{path}.custom_id", cid, CUSTOM_ID_MAX, errors, min_len=1)
    if cid in seen:
        errors.append(FieldError(f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
                                 "Component custom id cannot be duplicated"))
    seen.add(cid)


def _check_button(path: str, comp: dict[str, Any], seen: set[str], errors: list[FieldError]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.append(FieldError(f"{path}.style", "BASE_TYPE_CHOICES", f"Value must be one of (1..6). ({style})"))
    if style == 5:
        if not comp.get("url"):
            errors.append(FieldError(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required"))
    elif style != 6:
        _check_custom_id(path, comp, seen, errors)
    if comp.get("label") is not None:
        _too_long(f"{path}.label", comp["label"], BUTTON_LABEL_MAX, errors)
    if not comp.get("label") and not comp.get("emoji") and style != 6:
        errors.append(FieldError(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                                 "A button needs a label or an emoji"))
    _check_emoji(f"{path}.emoji", comp.get("emoji"), errors)


def _check_emoji(path: str, emoji: Any, errors: list[FieldError]) -> None:
    """A unicode emoji (no id) must be an emoji, not text: ``{"name": "ok"}`` is refused.

    Deliberately conservative: only names made of plain ASCII (keycaps aside) are flagged, so no
    real emoji is ever refused by the fake.
    """
    if not emoji or emoji.get("id"):
        return
    name = str(emoji.get("name") or "")
    if not name or (name.isascii() and "\u20e3" not in name):
        errors.append(FieldError(f"{path}.name", "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji"))


def _check_select(path: str, comp: dict[str, Any], seen: set[str], errors: list[FieldError]) -> None:
    _check_custom_id(path, comp, seen, errors)
    if comp.get("placeholder") is not None:
        _too_long(f"{path}.placeholder", comp["placeholder"], SELECT_PLACEHOLDER_MAX, errors)
    min_v = comp.get("min_values", 1)
    max_v = comp.get("max_values", 1)
    if not 0 <= min_v <= 25:
        errors.append(FieldError(f"{path}.min_values", "NUMBER_TYPE_MAX", "min_values must be 0..25"))
    if not 1 <= max_v <= 25:
        errors.append(FieldError(f"{path}.max_values", "NUMBER_TYPE_MAX", "max_values must be 1..25"))
    if min_v > max_v:
        errors.append(FieldError(f"{path}.min_values", "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH",
                                 "min_values must not exceed max_values"))
    if comp.get("type") != 3:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        errors.append(FieldError(f"{path}.options", "BASE_TYPE_BAD_LENGTH",
                                 f"Must be between 1 and {SELECT_OPTIONS_MAX} in length."))
    if max_v > len(options) and options:
        errors.append(FieldError(f"{path}.max_values", "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
                                 "max_values must not exceed the number of options"))
    values: set[str] = set()
    for k, opt in enumerate(options):
        op = f"{path}.options.{k}"
        _too_long(f"{op}.label", opt.get("label"), SELECT_OPTION_TEXT_MAX, errors, min_len=1)
        _too_long(f"{op}.value", opt.get("value"), SELECT_OPTION_TEXT_MAX, errors, min_len=1)
        if opt.get("description") is not None:
            _too_long(f"{op}.description", opt["description"], SELECT_OPTION_TEXT_MAX, errors)
        _check_emoji(f"{op}.emoji", opt.get("emoji"), errors)
        if opt.get("value") in values:
            errors.append(FieldError(f"{op}.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                                     "Select option values must be unique"))
        values.add(opt.get("value"))


def _check_row(path: str, row: dict[str, Any], seen: set[str], errors: list[FieldError]) -> int:
    """Check one action row; returns how many components it holds (row included)."""
    children = row.get("components") or []
    if not children:
        errors.append(FieldError(f"{path}.components", "BASE_TYPE_BAD_LENGTH",
                                 "Must be between 1 and 5 in length."))
    kinds = [c.get("type") for c in children]
    if any(k in SELECT_TYPES for k in kinds) and len(children) > 1:
        errors.append(FieldError(f"{path}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                 "The specified component exceeds the maximum width"))
    if len(children) > ROW_BUTTONS_MAX:
        errors.append(FieldError(f"{path}.components", "BASE_TYPE_BAD_LENGTH",
                                 f"Must be between 1 and {ROW_BUTTONS_MAX} in length."))
    for j, comp in enumerate(children):
        cp = f"{path}.components.{j}"
        kind = comp.get("type")
        if kind == BUTTON:
            _check_button(cp, comp, seen, errors)
        elif kind in SELECT_TYPES:
            _check_select(cp, comp, seen, errors)
        elif kind == TEXT_INPUT:
            errors.append(FieldError(f"{cp}.type", "COMPONENT_TYPE_INVALID",
                                     "Text inputs are only allowed in modals"))
        else:
            errors.append(FieldError(f"{cp}.type", "COMPONENT_TYPE_INVALID",
                                     f"Component type {kind} is not allowed in an action row"))
    return 1 + len(children)


def _walk_v2(path: str, comp: dict[str, Any], seen: set[str], errors: list[FieldError],
             text_total: list[int]) -> int:
    """Components V2 (layout view): count everything, check rows, ids and text length."""
    kind = comp.get("type")
    if kind == 1:
        return _check_row(path, comp, seen, errors)
    count = 1
    if kind == 10:  # text display
        text_total[0] += len(str(comp.get("content") or ""))
    if kind == BUTTON:
        _check_button(path, comp, seen, errors)
    for key in ("components", "items"):
        for j, child in enumerate(comp.get(key) or []):
            if isinstance(child, dict) and "type" in child:
                count += _walk_v2(f"{path}.{key}.{j}", child, seen, errors, text_total)
    accessory = comp.get("accessory")
    if isinstance(accessory, dict):
        count += _walk_v2(f"{path}.accessory", accessory, seen, errors, text_total)
    return count


def check_components(components: list[dict[str, Any]], flags: int, errors: list[FieldError]) -> None:
    seen: set[str] = set()
    if flags & FLAG_COMPONENTS_V2:
        text_total = [0]
        total = sum(_walk_v2(f"components.{i}", c, seen, errors, text_total)
                    for i, c in enumerate(components))
        if total > V2_COMPONENTS_MAX:
            errors.append(FieldError("components", "BASE_TYPE_MAX_LENGTH",
                                     f"Must be {V2_COMPONENTS_MAX} or fewer in length."))
        if text_total[0] > V2_TEXT_MAX:
            errors.append(FieldError("components", "BASE_TYPE_MAX_LENGTH",
                                     f"Text displays must total {V2_TEXT_MAX} or fewer characters."))
        return
    if len(components) > ACTION_ROWS_MAX:
        errors.append(FieldError("components", "BASE_TYPE_MAX_LENGTH",
                                 f"Must be {ACTION_ROWS_MAX} or fewer in length."))
    for i, row in enumerate(components):
        if row.get("type") != 1:
            errors.append(FieldError(f"components.{i}.type", "COMPONENT_TYPE_INVALID",
                                     "Top-level components must be action rows"))
            continue
        _check_row(f"components.{i}", row, seen, errors)


def check_files(files: list[tuple[str, bytes]], errors: list[FieldError]) -> None:
    if len(files) > FILES_COUNT_MAX:
        errors.append(FieldError("files", "BASE_TYPE_MAX_LENGTH",
                                 f"Must be {FILES_COUNT_MAX} or fewer in length."))
    total = 0
    for i, (_name, data) in enumerate(files):
        total += len(data)
        if len(data) > FILE_MAX:
            errors.append(FieldError(f"files.{i}", "FILE_TOO_LARGE", "Request entity too large"))
    if total > FILES_TOTAL_MAX:
        errors.append(FieldError("files", "FILES_TOO_LARGE", "Request entity too large"))


def check_message(payload: dict[str, Any], files: list[tuple[str, bytes]], *,
                  creating: bool) -> list[FieldError]:
    """All limit violations of one message create/edit payload."""
    errors: list[FieldError] = []
    flags = int(payload.get("flags") or 0)
    content = payload.get("content")
    if content is not None:
        _too_long("content", content, CONTENT_MAX, errors)
    embeds = payload.get("embeds") or []
    check_embeds(embeds, errors)
    components = payload.get("components") or []
    check_components(components, flags, errors)
    check_files(files, errors)
    if flags & FLAG_COMPONENTS_V2 and (content or embeds):
        errors.append(FieldError("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                 "content and embeds cannot be used with components v2"))
    if creating and not (content or embeds or components or files or payload.get("sticker_ids")
                         or payload.get("poll")):
        errors.append(FieldError("", "50006", "Cannot send an empty message"))
    return errors


def check_modal(data: dict[str, Any]) -> list[FieldError]:
    """A modal callback (type 9): title, 1-5 rows/labels, each holding one text input."""
    errors: list[FieldError] = []
    _too_long("data.title", data.get("title"), MODAL_TITLE_MAX, errors, min_len=1)
    _too_long("data.custom_id", data.get("custom_id"), CUSTOM_ID_MAX, errors, min_len=1)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        errors.append(FieldError("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
    seen: set[str] = set()
    for i, row in enumerate(rows):
        children = row.get("components") or ([row["component"]] if row.get("component") else [])
        for j, comp in enumerate(children):
            p = f"data.components.{i}.components.{j}"
            _check_custom_id(p, comp, seen, errors)
            if comp.get("type") == TEXT_INPUT:
                if comp.get("label") is not None:
                    _too_long(f"{p}.label", comp["label"], TEXT_INPUT_LABEL_MAX, errors)
                if comp.get("value") is not None:
                    _too_long(f"{p}.value", comp["value"], TEXT_INPUT_VALUE_MAX, errors)
                if comp.get("placeholder") is not None:
                    _too_long(f"{p}.placeholder", comp["placeholder"], SELECT_OPTION_TEXT_MAX, errors)
    return errors


def check_autocomplete(data: dict[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    choices = data.get("choices") or []
    if len(choices) > 25:
        errors.append(FieldError("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    for i, choice in enumerate(choices):
        _too_long(f"data.choices.{i}.name", choice.get("name"), 100, errors, min_len=1)
        if isinstance(choice.get("value"), str):
            _too_long(f"data.choices.{i}.value", choice["value"], 100, errors)
    return errors
