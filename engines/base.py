"""The contract every game engine fulfils.

Engines are pure and deterministic: state is a JSON-round-trippable dict, the random generator's
state lives inside it (see ``engines.rng``), and nothing here imports discord, aiosqlite or Pillow.
The match service, the Discord layer, the terminal front-end, the renderers and the tests all talk
to a game only through this interface, so a new game is one new package under ``engines/``.

Actions are short lists of string tokens, the first token being the verb
(``["disc", "c5"]``, ``["place", "F", "3", "b4"]``, ``["pass"]``). Tokens keep one shared
mechanism for everything that produces or consumes actions: buttons and select menus walk the
tokens one step at a time through :meth:`Engine.step`, the slash command autocompletes them, the
action log stores them, and the AI returns them.

User-facing text never lives in an engine: engines speak in :class:`Msg` (a catalog key and its
parameters) and the front-ends translate.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
View = dict[str, Any]
Action = list[str]


#: Version of :meth:`Msg.to_json`. Version 1 (no ``"v"``) marked a nested catalog key as a string
#: starting with ``@``, which made a player named "@everyone" read as a key; version 2 nests keys
#: as ``{"key": ...}`` dicts. Old rows in the action log are read with the old rule.
MSG_JSON_VERSION = 2


@dataclass(frozen=True)
class Msg:
    """A translatable message: a catalog key and its parameters.

    Plain string parameters are data (player names, typed text) and are never looked up, whatever
    they start with. A parameter that is itself translated is a dict: :func:`key_ref` (a catalog
    key, optionally with its own parameters, e.g. ``{"piece": key_ref("pentactic.piece.F")}``)
    or :func:`seat_ref`. Only code builds these dicts, so user text cannot become a key.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params), "v": MSG_JSON_VERSION}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Msg:
        params = dict(data.get("params", {}))
        if data.get("v", 1) < 2:
            # Stored before version 2: a string starting with "@" was a catalog key then.
            params = {k: key_ref(v[1:]) if isinstance(v, str) and v.startswith("@") else v
                      for k, v in params.items()}
        return Msg(data["key"], params)


def key_ref(key: str, **params: Any) -> dict[str, Any]:
    """A Msg parameter that is itself a catalog message (a territory, a phase, a mission...).

    The explicit dict, rather than a marker inside a string, keeps keys apart from data: a
    player's name is a plain string and is shown as typed, even "@everyone" or "@core.x".
    """
    return {"key": key, "params": params} if params else {"key": key}


def seat_ref(seat: int, key: str = "") -> dict[str, Any]:
    """A Msg parameter naming a seat. Engines don't know the players' names; a front-end that
    does shows the name with the seat's label (its colour, from catalog ``key``), others show
    the label alone (``i18n.t`` resolves it)."""
    return {"seat": seat, "key": key}


class EngineError(Exception):
    """The one error an engine raises for an illegal action; the state is left untouched.

    ``msg`` is what the user is told (translated by the front-end).
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.msg = Msg(key, params)


@dataclass(frozen=True)
class Request:
    """Somebody must decide something now.

    ``id`` is unique for the whole match and never reused, so a stale button (whose request was
    answered or replaced) can always be recognised. ``kind`` names the decision (``"turn"``,
    ``"discard"``, ``"defend"``); ``prompt`` is what the seat is asked.
    Several requests may be pending at once (simultaneous secret choices, response windows).

    Response windows: requests sharing a non-empty ``window`` id form one window. ``mode`` says
    who answers it: ``"one"`` (this seat only), ``"any"`` (several seats; the first real,
    non-default answer closes the window and the engine then returns requests with new ids) or
    ``"all"`` (every seat of the window answers: secret simultaneous choices). ``default`` is the
    answer applied for a silent seat (``("pass",)``); None means ``timeout_action`` decides.
    ``short`` asks for the window's own short timeout (live play ~12 s) instead of the turn clock,
    so a player who cannot or will not respond does not stall the table.
    """

    id: str
    seat: int
    kind: str
    prompt: Msg
    window: str = ""
    mode: str = "one"
    default: tuple[str, ...] | None = None
    short: bool = False


@dataclass(frozen=True)
class Option:
    """One choice of one step of an action.

    ``value`` is the token appended to the action path. ``label`` is shown on a button or select
    option; ``hint`` optionally groups or styles it (``"danger"``, ``"primary"``); ``emoji`` is an
    optional unicode emoji for buttons.

    ``commit`` says that choosing this option finishes the action: path + value is complete and
    has nothing further to choose, so a front-end may play it at once instead of asking for a
    Confirm (Risk's "End phase", "All here", a blitz stop). It saves a click per action where a
    second look adds nothing; ``apply`` still validates the whole path. Leave it False where a
    preview or a last look matters (placing a Pentactic piece).
    """

    value: str
    label: Msg
    hint: str = ""
    emoji: str = ""
    commit: bool = False


@dataclass(frozen=True)
class Step:
    """The next choice to make, given the tokens chosen so far.

    ``complete`` is True when the path so far is a full, legal action (it may still have further
    optional steps; then ``options`` is non-empty too). ``prompt`` says what the options are for.
    ``preview`` says a front-end may show a rendered preview of the complete action before
    committing (Pentactic piece placement). ``picture`` is game-specific JSON data: the
    front-end may attach an image drawn by ``render.render_step_picture(view, picture, locale,
    names)`` when labels alone make the choice blind (which way a piece is turned, where a
    corner cell puts it).
    """

    prompt: Msg
    options: list[Option]
    complete: bool = False
    preview: bool = False
    picture: dict[str, Any] | None = None


@dataclass(frozen=True)
class OptionSpec:
    """A match option chosen in the lobby (variant, board size, mode ...)."""

    name: str
    label: Msg
    choices: list[tuple[str, Msg]]
    default: str


@dataclass(frozen=True)
class Result:
    """Final outcome: ``winners`` are seats (ties share the win); ``scores`` per seat if any."""

    winners: list[int]
    scores: dict[int, int] | None = None
    summary: Msg | None = None


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log and the thread narration.

    ``to`` is None for a public event; otherwise the seats that may see it (sent by DM / shown in
    the private view only). Public narration is built only from events with ``to is None``.
    """

    msg: Msg
    to: tuple[int, ...] | None = None
    kind: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"msg": self.msg.to_json(), "to": list(self.to) if self.to is not None else None,
                "kind": self.kind}


class Engine(ABC):
    """A game. Subclasses are stateless singletons; all state is in the ``State`` dict."""

    slug: str = ""
    min_seats: int = 1
    max_seats: int = 6
    #: True when some seat may know what others don't (cards, missions). Decides DM checks.
    hidden_information: bool = False
    #: True when each player needs a standing private panel (one DM per player per match, edited
    #: as their hand changes, with the buttons to act): card games where the hand is the game.
    private_panel: bool = False
    #: True when the game asks out-of-turn answers in response windows (``Request.short``): its
    #: lobby then offers a reaction time apart from the turn time (``service.reaction``).
    reaction_windows: bool = False
    #: The edition of this engine's stored state and game content. A change that alters what a
    #: stored state means (its shape, or content it names: cards, map, heroes) raises it and
    #: teaches :meth:`upgrade_step` the way from the previous edition, so a week-long match
    #: stored by an older bot finishes under the new one (the service upgrades on load).
    edition: int = 1

    def upgrade_step(self, state: State, edition: int) -> State:
        """``state`` as stored at ``edition`` (< :attr:`edition`) turned into edition + 1's, as
        a new dict. No engine has needed one yet; an engine that raises its edition overrides
        this (and keeps the step forever: fixtures of every edition are tested)."""
        raise EngineError("core.err.edition", game=self.slug, edition=edition)

    def replay_engine(self, edition: int) -> Engine:
        """The engine that plays actions logged under ``edition``, for replaying exports and
        logs exactly. An engine whose new edition changes rules (not just the stored shape)
        returns an object keeping the older rules and content loadable."""
        if edition == self.edition:
            return self
        if edition < self.edition:
            return self  # stored shape changed only: the upgraded state plays on the same rules
        raise EngineError("core.err.edition", game=self.slug, edition=edition)

    def option_specs(self) -> list[OptionSpec]:
        """Options offered in the lobby, each with a default."""
        return []

    def seat_range(self, options: dict[str, str]) -> tuple[int, int]:
        """How many seats the given options allow (Pentactic mode 1 is exactly 2)."""
        return self.min_seats, self.max_seats

    def visible_options(self, options: dict[str, str]) -> list[str]:
        """Names of the options that matter for these choices (a lobby shows only those; the
        others keep their value). Pentactic's deal matters only in the solo mode."""
        return [spec.name for spec in self.option_specs()]

    def carry_over(self, previous: State, seat_map: dict[int, int], options: dict[str, str]) -> dict[str, str]:
        """Options a new match with ``options`` takes from the previous finished match of this
        game in the same channel (``previous``: its state; ``seat_map``: its seats → the new
        match's, for the people in both). 国战: the first to die in it starts (the seed)."""
        return {}

    def hidden_for(self, options: dict[str, str]) -> bool:
        """Whether this configuration has hidden information (defaults to the class flag)."""
        return self.hidden_information

    def normalize_options(self, options: dict[str, str]) -> dict[str, str]:
        """Fill defaults and reject unknown values (raises EngineError)."""
        out: dict[str, str] = {}
        for spec in self.option_specs():
            value = options.get(spec.name, spec.default)
            if value not in {c for c, _ in spec.choices}:
                raise EngineError("core.err.bad_option", option=spec.name, value=str(value))
            out[spec.name] = value
        return out

    @abstractmethod
    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        """A fresh game. ``options`` were normalised; ``seed`` seeds the in-state RNG."""

    @abstractmethod
    def pending(self, state: State) -> list[Request]:
        """Who must decide what, now. Empty when the game is over."""

    @abstractmethod
    def step(self, state: State, seat: int, path: Action, request: Request | None = None) -> Step:
        """Choices for the next token after ``path`` for ``seat`` (raises EngineError if the
        path is already illegal or the seat has nothing to decide). ``request`` is the request
        the front-end showed, when known; engines whose seats are asked one thing at a time may
        ignore it."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action,
              request: Request | None = None) -> tuple[State, list[Event]]:
        """Validate and apply; returns a *new* state (the input is not mutated) and events.
        ``request`` is the request being answered (see :meth:`step`)."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """Exactly what ``seat`` may know; ``None`` is the public table (spectators, threads)."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """The outcome once the game is over, else None."""

    @abstractmethod
    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        """A legal action for ``seat``'s pending request (``request`` when given). Must decide
        from ``view(state, seat)`` only when the game has hidden information."""

    def teams(self, state: State) -> list[list[int]] | None:
        """The sides a finished game was played by, for ratings (``service.ratings``): each a
        list of seats that win or lose together. None (the default) is every seat for itself;
        a game with hidden sides (三国杀's camps) names them from its final state, where the
        rules have revealed them."""
        return None

    def can_answer(self, state: State, request: Request) -> bool:
        """Whether ``request``'s seat could answer it with anything but its ``default`` (a 闪 to
        play, a 无懈 to use). False lets the service answer the default by itself at the
        window's uniform delay, the moment an AI seat answers, so the seat's timing looks like
        an AI's or a quick player's and the table does not wait a whole window for a seat that
        has nothing to say. Only asked for window requests; the default (True) keeps the full
        window for every person."""
        return True

    def standing_specs(self, view: View) -> list[OptionSpec]:
        """The standing answers a seat may set for its response windows (issue 19: "闪 against
        杀 when I hold one", a duel's move order), for the seat whose ``view`` this is (its own
        skills may add some). Values are strings like lobby options; each spec's ``default`` is
        what a new player has, and :meth:`standing_ask_always` is the one-click "ask me every
        time". Empty (the default): the game has none."""
        return []

    def standing_ask_always(self, view: View) -> dict[str, str]:
        """The settings that answer nothing by themselves."""
        return {}

    def standing_answer(self, view: View, request: Request, settings: dict[str, str]) -> Action | None:
        """The answer ``settings`` (normalised against :meth:`standing_specs`) give to
        ``request`` for the seat whose ``view`` this is, or None to ask the player. Reads only
        that view and the request, so a standing answer knows nothing its player could not."""
        return None

    def digest(self, msgs: list[Msg], seat: int) -> list[Msg]:
        """What a player coming back to an asynchronous game should read first, from the public
        lines since their last move (``msgs``): the harm done to ``seat`` and what the table
        lost, in a line or two (issue 19: one summary instead of a ping per event). Empty: the
        game has none, or nothing worth it happened."""
        return []

    def timeout_action(self, state: State, request: Request, rng: random.Random) -> Action:
        """What happens when ``request`` expires: by default the AI plays for the absent seat."""
        return self.ai_action(state, request.seat, rng)

    def ai_levels(self) -> list[str]:
        return ["normal"]

    def describe(self, view: View) -> list[Msg]:
        """Short status lines (whose turn, scores, phase) built from a view, for embeds."""
        return []

    def panel_fingerprint(self, view: View, seat: int) -> Any:
        """What a seat's private panel (``private_panel`` games) shows of ``view`` (the seat's
        own view), as JSON-able data: the panel is edited only when this changes, so the
        engine — which knows what its hand picture draws — decides, and a new field (a hidden
        hero, a marker) refreshes the panel without touching the Discord layer. The default is
        the seat's whole private part."""
        return view.get("you")

    def private_summary(self, view: View) -> list[Msg]:
        """Lines describing a seat's private information (hand, mission) from its own view."""
        return []


def upgrade_state(engine: Engine, state: State, edition: int | None, to: int | None = None) -> State:
    """``state`` stored at ``edition`` (None: before editions were recorded, i.e. 1) brought to
    edition ``to`` (default ``engine.edition``) one step at a time; a state from a newer bot is
    refused (EngineError)."""
    at = 1 if edition is None else edition
    target = engine.edition if to is None else to
    if at > target or target > engine.edition:
        raise EngineError("core.err.edition", game=engine.slug, edition=max(at, target))
    while at < target:
        state = engine.upgrade_step(state, at)
        at += 1
    return state


def default_action(request: Request) -> Action | None:
    """The answer the service applies for a silent seat of a response window, or None when the
    engine's ``timeout_action`` must decide."""
    return list(request.default) if request.default is not None else None


def request_for(engine: Engine, state: State, seat: int) -> Request | None:
    """The pending request of ``seat`` (first one if several), or None."""
    for req in engine.pending(state):
        if req.seat == seat:
            return req
    return None
