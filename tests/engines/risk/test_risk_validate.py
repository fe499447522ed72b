"""``apply`` checks the moves of a turn directly (``choices.plainly_legal``) before walking the
tree: whatever it vouches for, the tree accepts, and ``validate`` accepts exactly the tree's paths."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from risk_testkit import C, new, position

from engines.base import EngineError
from engines.risk import ENGINE, choices
from engines.risk.engine import REFERENCE, random_action

_WORDS = ["end", "attack", "once", "blitz", "dice", "place", "move", "fortify", "trade", "claim", "hq",
          "0", "1", "2", "3", "4", "-1", "+1", "01", "1.0", " 2", "٣", "²", "999999", "1000000", "", "x"]


def _tree_accepts(state: dict, seat: int, path: list[str]) -> bool:
    try:
        return choices.tree(state, seat, path).complete
    except EngineError:
        return False


def _variants(path: list[str], state: dict, rng: random.Random) -> Iterator[list[str]]:
    """The path, cut short, one token longer, and with each token swapped for a near miss: another
    territory (often a neighbour), a number around the edges of every range, a stray word."""
    yield path
    yield path[:-1]
    yield [*path, rng.choice(_WORDS)]
    numbers = [str(v) for v in range(0, 12)] + [str(state["armies"].get(t, 0) + d)
                                                for t in path if t in C.adjacent for d in (-2, -1, 0, 1)]
    for i, token in enumerate(path):
        pool = list(_WORDS) + numbers
        if token in C.adjacent:
            pool += list(C.adjacent[token]) + rng.sample(C.territories, 4)
        elif i and path[i - 1] in C.adjacent:
            pool += list(C.adjacent[path[i - 1]])
        for other in rng.sample(pool, min(12, len(pool))):
            yield [*path[:i], other, *path[i + 1:]]


@pytest.mark.parametrize("variant,seats,setup,seed", [("classic", 6, "quick", 1), ("mission", 4, "classic", 2),
                                                      ("hq", 3, "quick", 3), ("neutral", 2, "quick", 4),
                                                      ("neutral", 2, "classic", 5)])
def test_direct_check_never_accepts_what_the_tree_refuses(variant: str, seats: int, setup: str, seed: int) -> None:
    rng = random.Random(seed)
    state = new(seats, variant, setup, seed=seed)
    vouched = refused = ai_moves = 0
    for n in range(1500):
        if ENGINE.result(state) is not None:
            break
        req = ENGINE.pending(state)[0]
        moves = [ENGINE.ai_action(state, req.seat, rng, REFERENCE), random_action(ENGINE, state, req.seat, rng),
                 ENGINE.timeout_action(state, req, rng)]
        # Every kind of move, whatever the phase (a place during a forced trade, an attack from
        # a lone army, an end while moving in ...).
        t = rng.choice([x for x in C.territories if state["owner"][x] == req.seat] or list(C.territories))
        n_ = rng.choice(C.adjacent[t])
        count = str(rng.randint(1, 4))
        hand = state["players"][req.seat]["cards"]
        cards = [rng.choice(hand or list(C.card_ids)) for _ in range(3)] + rng.sample(C.card_ids, 2)
        synthetic = [["trade", *cards[:3]], ["trade", *cards[:3], t], ["trade", *cards[2:]], ["trade", *hand[:3]],
                     ["trade", *hand[:3], t], ["trade", *hand[-3:], n_],
                     ["place", t, count], ["move", count], ["end"], ["fortify", t, n_, count],
                     ["attack", t, n_, "once"], ["attack", t, n_, "blitz", count], ["attack", t, n_, "dice", count]]
        for i, move in enumerate(moves):
            # The direct check covers the turn's moves: it must vouch for them.
            if state["phase"] in ("reinforce", "attack", "occupy", "fortify", "setup_claim") \
                    or (state["phase"], state["setup"]) == ("setup_place", "classic"):
                assert choices.plainly_legal(state, req.seat, move), (state["phase"], move)
                ai_moves += i == 0
            if n % 5:
                continue
            for path in synthetic:
                assert _tree_accepts(state, req.seat, path) or not choices.plainly_legal(state, req.seat, path), path
            for seat in {req.seat, (req.seat + 1) % seats}:
                for path in _variants(move, state, rng):
                    if not path:
                        continue
                    direct = choices.plainly_legal(state, seat, path)
                    accepted = _tree_accepts(state, seat, path)
                    assert accepted or not direct, (state["phase"], seat, path)
                    vouched += direct
                    refused += not accepted
                    try:
                        choices.validate(state, seat, path)
                        assert accepted, path
                    except EngineError:
                        assert not accepted, path
        state, _ = ENGINE.apply(state, req.seat, moves[rng.random() < 0.3])
    assert vouched > 150 and refused > 1000 and ai_moves > 80, (vouched, refused, ai_moves)


def test_refusals_keep_the_tree_messages() -> None:
    """Whatever the direct check declines walks the tree, so the error names the bad token."""
    state = new(2, "classic", "quick", seed=1)
    while state["phase"] != "attack":
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, random.Random(0)))
    seat = state["turn"]
    src = next(t for t in C.territories if state["owner"][t] == seat and state["armies"][t] >= 2
               and any(state["owner"][n] != seat for n in C.adjacent[t]))
    dst = next(n for n in C.adjacent[src] if state["owner"][n] != seat)
    for path, key, token in ((["attack", src, dst, "blitz", str(state["armies"][src])], "risk.err.bad_token",
                              str(state["armies"][src])),
                             (["attack", src, dst, "blitz"], "risk.err.incomplete", None),
                             (["attack", src, src, "once"], "risk.err.bad_token", src),
                             (["end", "end"], "risk.err.bad_token", "end")):
        with pytest.raises(EngineError) as err:
            ENGINE.apply(state, seat, path)
        assert err.value.msg.key == key and (token is None or err.value.msg.params.get("token") == token)
    with pytest.raises(EngineError) as err:
        ENGINE.apply(state, 1 - seat, ["end"])
    assert err.value.msg.key == "core.err.not_your_turn"


def test_trades_the_tree_refuses_are_not_vouched_for() -> None:
    """After an elimination a trade is only allowed while forced (more than 4 cards); a set of
    the same card twice is no set; a bonus territory only when two are offered."""
    state = position(2, {"ontario": 1, "japan": 1}, phase="reinforce", reinforcements=3)
    cavalry = ["greenland", "alberta", "ontario"]  # three cavalry: a set; we hold two of them
    state["players"][0]["cards"] = list(cavalry)
    for path, legal in ((["trade", *cavalry], False), (["trade", *cavalry, "greenland"], True),
                        (["trade", *cavalry, "ontario"], False), (["trade", "greenland", "greenland", "alberta"], False)):
        assert choices.plainly_legal(state, 0, path) == legal == _tree_accepts(state, 0, path), path
    state["post_elim"] = True
    assert not choices.plainly_legal(state, 0, ["trade", *cavalry, "greenland"])
    assert not _tree_accepts(state, 0, ["trade", *cavalry, "greenland"])
