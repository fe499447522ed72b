"""Discord's rules for application commands, checked on bulk overwrite like the real API.

A command that breaks a rule makes the whole sync fail in production (and silently keeps the old
commands), so the fake refuses the same payloads with the same error shape.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from fakediscord.errors import FieldError

LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
    "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
})
NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
COMMAND_CHARS_MAX = 8000
GLOBAL_CHAT_COMMANDS_MAX = 100
GLOBAL_CONTEXT_COMMANDS_MAX = 5

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
NUMBER = 10
OPTION_TYPES = set(range(1, 12))


def _name_char_ok(ch: str) -> bool:
    """``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$`` without the third-party regex module."""
    if ch in "-_":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    code = ord(ch)
    return 0x0900 <= code <= 0x097F or 0x0E00 <= code <= 0x0E7F or 0xA8E0 <= code <= 0xA8FF


def chat_name_problem(name: Any) -> str | None:
    """Why ``name`` is not a valid chat-input command/option name, or None."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return f"Must be between 1 and {NAME_MAX} in length."
    if not all(_name_char_ok(ch) for ch in name):
        return "Command name is invalid"
    if any(ch.lower() != ch for ch in name):
        return "Command name must be lower case"
    return None


class _Checker:
    def __init__(self) -> None:
        self.errors: list[FieldError] = []
        self.chars = 0

    def add(self, path: str, code: str, message: str) -> None:
        self.errors.append(FieldError(path, code, message))

    def name(self, path: str, value: Any, *, chat: bool) -> None:
        if chat:
            problem = chat_name_problem(value)
            if problem:
                self.add(path, "APPLICATION_COMMAND_INVALID_NAME", problem)
        elif not isinstance(value, str) or not 1 <= len(value) <= NAME_MAX:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {NAME_MAX} in length.")
        self.chars += len(str(value or ""))

    def description(self, path: str, value: Any, *, required: bool) -> None:
        text = value or ""
        if required and not 1 <= len(text) <= DESCRIPTION_MAX:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {DESCRIPTION_MAX} in length.")
        if not required and text:
            self.add(path, "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
                     "Context menu commands cannot have a description")
        self.chars += len(text)

    def localizations(self, path: str, table: Any, *, kind: str, chat: bool) -> None:
        if not table:
            return
        if not isinstance(table, dict):
            self.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            return
        for locale, text in table.items():
            lp = f"{path}.{locale}"
            if locale not in LOCALES:
                self.add(lp, "LOCALE_INVALID", f"Invalid locale {locale!r}")
                continue
            if kind == "name":
                self.name(lp, text, chat=chat)
            else:
                self.description(lp, text, required=True)

    def options(self, path: str, options: list[dict[str, Any]], depth: int) -> None:
        if len(options) > OPTIONS_MAX:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {OPTIONS_MAX} or fewer in length.")
        names: set[str] = set()
        seen_optional = False
        subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs and len(subs) != len(options):
            self.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                     "Sub-commands and groups cannot be mixed with other options")
        for i, opt in enumerate(options):
            op = f"{path}.{i}"
            kind = opt.get("type")
            if kind not in OPTION_TYPES:
                self.add(f"{op}.type", "BASE_TYPE_CHOICES", f"Invalid option type {kind}")
            if kind == SUB_COMMAND_GROUP and depth > 0:
                self.add(f"{op}.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                         "Sub-command groups cannot be nested")
            if kind == SUB_COMMAND and depth > 1:
                self.add(f"{op}.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Nested too deep")
            self.name(f"{op}.name", opt.get("name"), chat=True)
            if opt.get("name") in names:
                self.add(f"{op}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                         "Option names must be unique")
            names.add(opt.get("name"))
            self.description(f"{op}.description", opt.get("description"), required=True)
            self.localizations(f"{op}.name_localizations", opt.get("name_localizations"),
                               kind="name", chat=True)
            self.localizations(f"{op}.description_localizations",
                               opt.get("description_localizations"), kind="description", chat=True)
            if kind not in (SUB_COMMAND, SUB_COMMAND_GROUP):
                if opt.get("required"):
                    if seen_optional:
                        self.add(f"{op}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                 "Required options must be placed before non-required options")
                else:
                    seen_optional = True
            choices = opt.get("choices") or []
            if choices:
                if kind not in (STRING, INTEGER, NUMBER):
                    self.add(f"{op}.choices", "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED",
                             "Choices are only allowed for string, integer and number options")
                if opt.get("autocomplete"):
                    self.add(f"{op}.autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                             "Autocomplete cannot be used with choices")
                self.choices(f"{op}.choices", choices, kind)
            for key in ("min_length", "max_length"):
                if key in opt and opt[key] is not None and not 0 <= int(opt[key]) <= 6000:
                    self.add(f"{op}.{key}", "NUMBER_TYPE_MAX", "Must be between 0 and 6000")
            if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
                self.options(f"{op}.options", opt.get("options") or [], depth + 1)

    def choices(self, path: str, choices: list[dict[str, Any]], kind: Any) -> None:
        if len(choices) > CHOICES_MAX:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
        for j, choice in enumerate(choices):
            cp = f"{path}.{j}"
            name = choice.get("name")
            if not isinstance(name, str) or not 1 <= len(name) <= 100:
                self.add(f"{cp}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            self.chars += len(str(name or ""))
            for locale, text in (choice.get("name_localizations") or {}).items():
                if locale not in LOCALES:
                    self.add(f"{cp}.name_localizations.{locale}", "LOCALE_INVALID",
                             f"Invalid locale {locale!r}")
                elif not isinstance(text, str) or not 1 <= len(text) <= 100:
                    self.add(f"{cp}.name_localizations.{locale}", "BASE_TYPE_BAD_LENGTH",
                             "Must be between 1 and 100 in length.")
                self.chars += len(str(text or ""))
            value = choice.get("value")
            if kind == STRING and (not isinstance(value, str) or not 1 <= len(value) <= 100):
                self.add(f"{cp}.value", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            self.chars += len(str(value))


def check_command(cmd: dict[str, Any], path: str = "") -> list[FieldError]:
    """All problems of one command payload; ``path`` prefixes error paths (``"3"`` in a list)."""
    c = _Checker()
    kind = cmd.get("type", CHAT_INPUT)
    chat = kind == CHAT_INPUT
    pre = f"{path}." if path else ""
    c.name(f"{pre}name", cmd.get("name"), chat=chat)
    c.description(f"{pre}description", cmd.get("description"), required=chat)
    c.localizations(f"{pre}name_localizations", cmd.get("name_localizations"), kind="name", chat=chat)
    if chat:
        c.localizations(f"{pre}description_localizations", cmd.get("description_localizations"),
                        kind="description", chat=True)
        c.options(f"{pre}options", cmd.get("options") or [], 0)
    elif cmd.get("options"):
        c.add(f"{pre}options", "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
              "Context menu commands cannot have options")
    if c.chars > COMMAND_CHARS_MAX:
        c.add(pre.rstrip(".") or "name", "APPLICATION_COMMAND_TOO_LARGE",
              f"Command exceeds maximum size ({COMMAND_CHARS_MAX})")
    return c.errors


def check_command_list(cmds: Any, *, is_global: bool) -> list[FieldError]:
    """A bulk overwrite body: every command valid, names unique per type, counts within limits."""
    if not isinstance(cmds, list):
        return [FieldError("", "BASE_TYPE_ARRAY", "Must be an array")]
    errors: list[FieldError] = []
    seen: set[tuple[int, str]] = set()
    counts: dict[int, int] = {}
    for i, cmd in enumerate(cmds):
        errors += check_command(cmd, str(i))
        key = (cmd.get("type", CHAT_INPUT), cmd.get("name"))
        if key in seen:
            errors.append(FieldError(f"{i}.name", "APPLICATION_COMMAND_ALREADY_EXISTS",
                                     "Application command names must be unique"))
        seen.add(key)
        counts[key[0]] = counts.get(key[0], 0) + 1
    limit_chat = GLOBAL_CHAT_COMMANDS_MAX
    if counts.get(CHAT_INPUT, 0) > limit_chat:
        errors.append(FieldError("", "APPLICATION_COMMANDS_TOO_MANY",
                                 f"Maximum number of application commands reached ({limit_chat})"))
    for kind in (2, 3):
        if counts.get(kind, 0) > GLOBAL_CONTEXT_COMMANDS_MAX:
            errors.append(FieldError("", "APPLICATION_COMMANDS_TOO_MANY",
                                     "Maximum number of context menu commands reached (5)"))
    return errors
