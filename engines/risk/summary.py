"""A Risk turn told in a few lines instead of one line per die roll.

An AI seat's turn is dozens of events (placements, every battle, move-ins, a fortify); the
thread showed the last twenty and "… 27 earlier lines not shown". The publisher hands the public
events of an AI seat's consecutive moves to :func:`summarize` and shows what matters to the
others: how much it placed and fought, the territories it took, and, in full, the continents it
completed, the players it eliminated, the HQs it captured, the cards it traded and how the game
ended. Pure: public events in, ``Msg``s out (no state, so nothing hidden can leak).
"""

from __future__ import annotations

from engines.base import Event, Msg

#: Event kinds shown as they are (rare and important).
KEPT = ("turn", "trade", "continent", "eliminated", "hq", "fortify", "over")
#: One-army set-up steps (claiming a territory, placing one army): counted.
SETUP_STEPS = ("risk.ev.claim", "risk.ev.place_one")


def summarize(events: list[Event]) -> list[Msg]:
    """The public events of one player's run of moves, summarised (a few ``Msg``s)."""
    public = [e for e in events if e.to is None]
    player = next((e.msg.params.get("player") for e in public if "player" in e.msg.params), None)
    placed = sum(int(e.msg.params.get("count", 0)) for e in public if e.kind == "place")
    battles = sum(1 for e in public if e.kind == "battle")
    taken = [e for e in public if e.kind == "conquer"]
    kept = [e.msg for e in public if e.kind in KEPT]
    setup = [e for e in public if e.msg.key in SETUP_STEPS]
    other = [e.msg for e in public if e.kind not in KEPT and e.msg.key not in SETUP_STEPS
             and e.kind not in ("place", "battle", "conquer", "move")]
    head: list[Msg] = []
    if setup:
        head.append(Msg("risk.sum.setup", {"player": setup[-1].msg.params.get("player", player or ""),
                                           "count": len(setup)}))
    if player is not None and (placed or battles or taken):
        head.append(Msg("risk.sum.turn", {"player": player, "placed": placed, "battles": battles,
                                          "taken": len(taken)}))
    if taken:
        last = taken[-1].msg.params
        head.append(Msg("risk.sum.last_taken", {"player": last.get("player", player or ""),
                                                "territory": last.get("territory", ""),
                                                "loser": last.get("loser", "")}))
    turn = [m for m in kept if m.key == "risk.ev.turn"]
    rest = [m for m in kept if m.key != "risk.ev.turn"]
    return [*turn, *head, *rest, *other]
