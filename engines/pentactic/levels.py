"""Pentactic AI levels beside "normal" (issue 23): "easy" and "hard", built on the normal AI's
measures in :mod:`engines.pentactic.ai`.

Pentactic hides nothing (every board, tray and disc count is public), so no level samples hidden
information; the only chance is in the AI's own tie breaks and play-outs, drawn from ``rng``.

* Easy: one ply, a beginner's measure and some noise. The attacker looks at up to
  :data:`EASY_LOOKS` of its placements and takes one of the three (six at a table of three in
  mode 3) that leave its other pieces the most placements (a plain count: it does not save the
  scarce X and I for later, and it does not see pockets too small for any piece; it never asks
  what disc comes next). The defender puts its disc on the board of the player after it (mode 3:
  the neighbour it watches, never the leader) among the eight that hurt most right now, never
  playing the board out. Neither overlooks a move that plainly shuts a piece out
  (:data:`EASY_SLACK`). Discards as normal.
* Hard: normal's choices, looked at harder where they decide the game. The attacker plays each of
  normal's ten best placements out 40 times when an opponent still holds discs; the defender its
  eight best discs 32 times (normal: six, 24 times, not in mode 3). The play-outs
  (:func:`_playout`) have players who think a little (scarcest piece first, the disc that rules out
  most), not random ones: that is what makes hard stronger, not the counts. Mode 3 at three seats:
  the defender plays its six best discs out 16 times each over the whole table
  (:func:`_table_rollouts`), by its result against the best opponent. Solo: as normal.
"""

from __future__ import annotations

import random
from typing import Any

from engines.pentactic import ai, rules
from engines.pentactic.board import board_masks, geo
from engines.pentactic.geometry import (
    Geometry,
    Placement,
    PlacementIndex,
    cell_token,
    disc_cells,
    nth_bit,
    placement_index,
)

State = dict[str, Any]

#: Easy picks uniformly among its this many best one-ply choices.
EASY_CHOICES = 3
#: ... at three seats in mode 3 (:func:`_easy_choices`).
EASY_CHOICES_THREE = 6
#: ... and among its this many best discs.
EASY_DISC_CHOICES = 8
#: ... among those within this of the best: a piece or disc shut out (100) is never overlooked.
EASY_SLACK = ai.DEAD_PENALTY / 2
#: Easy's attacker looks at this many of its legal placements (drawn at random), not all.
EASY_LOOKS = 120
#: Hard's defender: discs played out and play-outs per disc (normal: 6 and 24).
HARD_DISCS = 8
HARD_DISC_ROLLOUTS = 32
#: Hard's defender in mode 3 at three seats: discs played out, play-outs per disc (the whole table
#: each time, :func:`_table_playout`), and what a point of margin over the best opponent is worth
#: beside a win. Not at four seats or more: there it doubled hard's CPU p99 (84 -> 158 ms) and was
#: not measured (docs/rules/pentactic.md, "AI levels").
HARD_TABLE_DISCS = 6
HARD_TABLE_ROLLOUTS = 16
TABLE_MARGIN = 0.2
#: Hard's attacker: normal's best placements played out, and play-outs per placement.
HARD_PLACEMENTS = 10
HARD_PLACE_ROLLOUTS = 40


def choose(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    phase = state["phase"]
    if phase == "discard":
        return ai.choose(state, seat, rng, "normal")
    if phase == "defend":
        return _defend(state, seat, rng, level)
    return _attack(state, seat, rng, level)


def _defend(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    g = geo(state)
    targets = rules.disc_targets(state, seat)
    if level == "easy" and targets:
        targets = [_watched(state, seat, targets, rng)]
    scored = ai.disc_scores(state, seat, g, targets)
    if level == "easy":
        t, x, y = _some_of_best(scored, rng, EASY_DISC_CHOICES)
    elif state["mode"] == "3" and state["seats"] == 3:
        scored = _table_rollouts(state, seat, g, scored, rng)
        t, x, y = ai.best(scored, rng)
    else:
        scored = ai.defence_rollouts(state, seat, g, scored, rng, HARD_DISCS, HARD_DISC_ROLLOUTS, _playout)
        t, x, y = ai.best(scored, rng)
    return ["disc", *ai.disc_prefix(state, t), cell_token(x, y)]


def _attack(state: State, seat: int, rng: random.Random, level: str) -> list[str]:
    if state["mode"] == "4" and level == "hard":
        return ai.choose(state, seat, rng, "normal")
    g = geo(state)
    occ, _ = board_masks(g, rules.own_board(state, seat))
    pieces = list(state["players"][seat]["pieces"])
    field = ai._Field(g, occ, pieces)
    if level == "easy":
        legal = field.legal
        if len(legal) > EASY_LOOKS:
            legal = [legal[i] for i in sorted(rng.sample(range(len(legal)), EASY_LOOKS))]
        scored = [(_blind_value(field, pl), pl) for pl in legal]
        return ai.place(_some_of_best(scored, rng, _easy_choices(state)))
    scored = ai.first_ply(field, ai.ATTACK_LOOKAHEAD)
    scored = ai.attack_lookahead(state, seat, g, field, occ, scored)
    if state["mode"] != "4" and ai.threat(state, seat):
        scored = _attack_rollouts(state, seat, g, occ, pieces, scored, rng)
    return ai.place(ai.best(scored, rng))


def _table_rollouts(state: State, seat: int, g: Geometry, scored: list[tuple[float, Any]],
                    rng: random.Random) -> list[tuple[float, Any]]:
    """Mode 3: re-rank the best discs (by normal's one-ply measure) by playing the whole table out
    from each (:func:`_table_playout`), scored by this seat's result against its best opponent.

    A play-out of the victim's board alone (what hard does in modes 1 and 2) cannot compare two
    boards: it says how badly the victim ends, not what the disc changes, and it sees neither who
    leads nor the discs left in hand, which are most of a mode-3 score (all players' discs compete
    for the few squares a board's rows and columns leave; a disc that finds none is a point).
    Same random streams for every disc; normal's measure breaks ties."""
    seeds = [rng.randrange(1 << 30) for _ in range(HARD_TABLE_ROLLOUTS)]
    index = placement_index(g.width, g.height)
    occs, banneds, alives, pieces, hands = [], [], [], [], []
    for s in range(state["seats"]):
        occ, discs = board_masks(g, rules.board_of(state, s))
        tray = state["players"][s]["pieces"]
        occs.append(occ)
        banneds.append(g.full & ~disc_cells(g, 0, discs))
        alives.append(index.pieces_bits(tray) & ~index.covering(occ))
        pieces.append(len(tray))
        hands.append(state["players"][s]["discs"])
    hands[seat] -= 1
    later = list(state["queue"][1:])  # the seats still to put a disc this phase
    out = []
    for drop, (t, x, y) in ai.top(scored, HARD_TABLE_DISCS):
        at = y * g.width + x
        occ_t, banned_t, alive_t = occs[t] | 1 << at, banneds[t] | g.row_masks[y] | g.col_masks[x], alives[t] & ~index.cover[at]
        total = 0.0
        for sd in seeds:
            occ, banned, alive = list(occs), list(banneds), list(alives)
            occ[t], banned[t], alive[t] = occ_t, banned_t, alive_t
            total += _table_playout(g, index, seat, occ, banned, alive, list(pieces), list(hands), later,
                                    random.Random(sd))
        out.append((total / HARD_TABLE_ROLLOUTS + 0.001 * drop, (t, x, y)))
    return out


def _table_playout(g: Geometry, index: PlacementIndex, me: int, occ: list[int], banned: list[int],
                   alive: list[int], pieces: list[int], hands: list[int], later: list[int],
                   rng: random.Random) -> float:
    """Play every board of a mode-3 table to the end, from the defence phase with ``later`` still
    to put a disc in it (the lists are per seat and are changed in place): attackers place their
    scarcest piece at random, as in :func:`_playout`; a defender puts the disc that rules out most
    placements on any opponent's board (random among equals) and keeps it when no board has a
    square. The game ends when nobody can place a piece. Returns 1 for a win of ``me`` (ties
    included) plus :data:`TABLE_MARGIN` per point of its lead over the best opponent (negative
    when behind), so a near-miss counts for something and the mean is less noisy."""
    full, width = g.full, g.width
    rows, cols, spent, cover, order = g.row_masks, g.col_masks, index.spent, index.cover, index.order
    kinds = list(index.piece_bits.values())
    seats = range(len(occ))

    def defend(d: int) -> None:
        if not hands[d]:
            return
        most, ats = -1, []
        for t in seats:
            if t == d:
                continue
            n, squares = _ruling_squares(full & ~(occ[t] | banned[t]), cover, alive[t])
            if n > most:
                most, ats = n, [(t, at) for at in squares]
            elif n == most:
                ats += [(t, at) for at in squares]
        if ats:
            t, at = ats[rng.randrange(len(ats))] if len(ats) > 1 else ats[0]
            occ[t] |= 1 << at
            banned[t] |= rows[at // width] | cols[at % width]
            alive[t] &= ~cover[at]
            hands[d] -= 1

    for d in later:
        if not any(alive):
            break
        defend(d)
    while any(alive):
        for a in seats:
            if not alive[a]:
                continue
            fewest, pick = _scarcest(kinds, alive[a])
            i = nth_bit(pick, rng.randrange(fewest))
            occ[a] |= order[i].mask
            pieces[a] -= 1
            alive[a] &= ~spent[i]
        for d in seats:
            if not any(alive):
                break
            defend(d)
    score = [p + h for p, h in zip(pieces, hands, strict=True)]
    rival = min(score[s] for s in seats if s != me)
    return (score[me] <= rival) + TABLE_MARGIN * (rival - score[me])


def _watched(state: State, seat: int, targets: list[int], rng: random.Random) -> int:
    """The board easy puts its disc on. Mode 3: the first player after it in seat order that can
    take one, the neighbour it keeps an eye on, never asking who leads or where a disc hurts most
    (with a random board among all opponents normal beat easy only 65.6 % at three seats; watching
    one neighbour makes easy stronger against random players, which leaves room to loosen its
    placements there, :func:`_easy_choices`). Other modes have one board anyway."""
    if state["mode"] != "3":
        return targets[rng.randrange(len(targets))]
    n = state["seats"]
    return min(targets, key=lambda t: (t - seat) % n)


def _easy_choices(state: State) -> int:
    """How many of its best placements easy picks among: looser (:data:`EASY_CHOICES_THREE`) at a
    table of three in mode 3, where normal's rung over easy was otherwise below the issue's 70 %."""
    if state["mode"] == "3" and state["seats"] == 3:
        return EASY_CHOICES_THREE
    return EASY_CHOICES


def _blind_value(field: ai._Field, pl: Placement) -> float:
    """How many placements the other pieces keep after ``pl``, less a penalty for each piece left
    with none: :meth:`ai._Field.value` as a beginner sees it. A plain count, not concave, so easy
    does not see that the scarce pieces (X, I) should go first; and no capacity term, so it does
    not see pockets too small for any piece."""
    killed = field.spent_by(pl)
    total, dead = 0, 0
    for piece, bits, n in field._live:
        if piece != pl.piece:
            n -= (bits & killed).bit_count()
            total += n
            dead += not n
    return total / 10 - ai.DEAD_PENALTY * dead


def _some_of_best(scored: list[tuple[float, Any]], rng: random.Random, k: int) -> Any:
    """One of the ``k`` best, uniformly: the obvious move, but not always the best;
    never one that is plainly worse (:data:`EASY_SLACK`) than the best."""
    options = ai.top(scored, k)
    options = [o for o in options if o[0] >= options[0][0] - EASY_SLACK]
    return options[rng.randrange(len(options))][1]


def _attack_rollouts(state: State, seat: int, g: Geometry, occ: int, pieces: list[str],
                     scored: list[tuple[float, Any]], rng: random.Random) -> list[tuple[float, Any]]:
    """Re-rank the best placements (by normal's measure) by the mean result of playing the board
    out from each (:func:`_playout`, the defence to move; in mode 3 every opponent with discs puts
    one each turn). Same random streams for every placement, so differences come from the
    placement; normal's measure breaks ties."""
    _, discs = board_masks(g, rules.own_board(state, seat))
    mode = state["mode"]
    if mode == "3":
        foes = [p["discs"] for s, p in enumerate(state["players"]) if s != seat and p["discs"]]
        in_hand, per_turn = sum(foes), len(foes)
    else:
        in_hand, per_turn = state["players"][rules.defender(state) if mode == "1" else 1 - seat]["discs"], 1
    index = placement_index(g.width, g.height)
    seeds = [rng.randrange(1 << 30) for _ in range(HARD_PLACE_ROLLOUTS)]
    banned = g.full & ~disc_cells(g, 0, discs)
    out = []
    for first, pl in ai.top(scored, HARD_PLACEMENTS):
        after = occ | pl.mask
        alive = index.pieces_bits([p for p in pieces if p != pl.piece]) & ~index.covering(after)
        total = sum(_playout(g, index, after, banned, alive, len(pieces) - 1, in_hand, random.Random(sd),
                             defence_first=True, per_turn=per_turn) for sd in seeds)
        out.append((-total / HARD_PLACE_ROLLOUTS + 0.001 * first, pl))
    return out


def _scarcest(kinds: list[int], alive: int) -> tuple[int, int]:
    """The piece with the fewest placements still open (the one most likely to be shut out), as
    (how many, their bits): the play-outs' attacker places it, so its last chances are taken
    before the board closes on them."""
    fewest, pick = 1 << 30, 0
    for bits in kinds:
        live = bits & alive
        n = live.bit_count()
        if n and n < fewest:
            fewest, pick = n, live
    return fewest, pick


def _ruling_squares(cells: int, cover: list[int], alive: int) -> tuple[int, list[int]]:
    """The free disc squares in ``cells`` that rule out most of the ``alive`` placements, as (how
    many they rule out, the squares in ascending order); (-1, []) when there is none. The
    play-outs' defenders pick among them at random."""
    most, ats = -1, []
    while cells:
        low = cells & -cells
        at = low.bit_length() - 1
        cells ^= low
        n = (cover[at] & alive).bit_count()
        if n > most:
            most, ats = n, [at]
        elif n == most:
            ats.append(at)
    return most, ats


def _playout(g: Geometry, index: PlacementIndex, occ: int, banned: int, alive: int, pieces: int, in_hand: int,
             rng: random.Random, defence_first: bool = False, per_turn: int = 1) -> int:
    """:func:`ai._rollout` with players who think a little, so the result is nearer what the
    board gives between real players: the attacker places its scarcest piece (fewest placements
    left: the one most likely to be shut out) somewhere at random, the defenders put up to
    ``per_turn`` discs (mode 3: one for each opponent) where they rule out most of the attacker's
    placements (random among equals). ``defence_first``: the defence is to move."""
    full, width = g.full, g.width
    rows, cols, spent, cover, order = g.row_masks, g.col_masks, index.spent, index.cover, index.order
    kinds = [bits for bits in index.piece_bits.values() if bits & alive]
    attack = not defence_first
    while alive:
        if attack:
            fewest, pick = _scarcest(kinds, alive)
            i = nth_bit(pick, rng.randrange(fewest))
            occ |= order[i].mask
            pieces -= 1
            alive &= ~spent[i]
        attack = True
        for _ in range(per_turn):
            cells = full & ~(occ | banned) if in_hand and alive else 0
            if not cells:
                break
            _, ats = _ruling_squares(cells, cover, alive)
            at = ats[rng.randrange(len(ats))] if len(ats) > 1 else ats[0]
            occ |= 1 << at
            banned |= rows[at // width] | cols[at % width]
            alive &= ~cover[at]
            in_hand -= 1
    return pieces - in_hand
