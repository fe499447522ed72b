"""The match service's tunables and their defaults, written once.

``MatchService`` (``service.core.MatchCore``) takes a :class:`ServiceSettings`; ``app_settings``
reads the defaults of the ones a server owner may set (``WINDOW_SECONDS``, ``AI_WINDOW_DELAY``,
``OUTBOX_KEEP_SECONDS``, ``DUE_CONCURRENCY``, ``DUE_WAIT``) from :data:`DEFAULTS`, so the bot and
a service built without settings (tests, the terminal front-end, benchmarks) cannot drift apart.
Nothing here imports more than the standard library: ``app_settings`` loads it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServiceSettings:
    #: A response window's own timeout in live play (seconds; ``Request.short``) ...
    window_seconds: float = 12.0
    #: ... unless the match is played asynchronously (a turn clock longer than this): then a
    #: window waits as long as a turn, since nobody sits at the table.
    async_turn_seconds: int = 600
    #: The uniform delay of a response window: the AI answers this long after the window opened,
    #: a player who can answer nothing but the default is passed for then, a quick pass is held
    #: until then, and no window closes sooner. Never at once: an instant answer would win every
    #: race and its timing would tell what a seat holds. 1.2 s keeps a live 8-player 南蛮入侵
    #: that nobody can answer (7 杀 asks in a row) at ~9 s and 11 Discord calls
    #: (tests/e2e/test_e2e_sanguosha.py), about as long as a quick player takes to click.
    ai_window_delay: float = 1.2
    #: Time-outs in a row after which a seat is marked away (托管) and the AI plays it.
    away_after: int = 2
    #: AI moves one call may make before leaving the rest to the next ``run_due`` (loop guard).
    ai_moves_per_call: int = 200
    #: During a long AI run, committed moves are still delivered at least this often (seconds) ...
    ai_batch_seconds: float = 2.0
    #: ... or after this many moves, so watchers see progress and a batch stays a bounded size.
    ai_batch_moves: int = 60
    #: A lobby nobody changed for this long is closed by ``run_due`` (forgotten lobbies would
    #: otherwise hold a channel's open-lobby quota forever).
    lobby_ttl: float = 24 * 3600.0
    #: Delivered outbox rows are kept this long (to look into a delivery), then pruned by run_due.
    outbox_keep_seconds: float = 86400.0
    #: Matches whose due engine work (time-outs, AI runs) run_due serves at once: enough to keep
    #: the database busy while engines compute, few enough that one round cannot flood the
    #: worker threads.
    due_concurrency: int = 8
    #: How long one run_due call waits for the matches it started (None: until all are done);
    #: slower ones finish in the background, so the scheduler's next round (others' reminders)
    #: is not held up by them.
    due_wait: float | None = 2.0


#: The defaults, for whoever needs one of them (``DEFAULTS.window_seconds``).
DEFAULTS = ServiceSettings()
