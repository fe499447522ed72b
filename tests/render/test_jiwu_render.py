"""极武三国 pictures: the board with players and market row at every stage, readable at Discord's
size, identical whatever the hidden hands and decks are; the private hand picture."""

from __future__ import annotations

import copy
import io
import random
import statistics
import time
from typing import Any

import pytest
from PIL import Image, ImageChops
from test_digit_height import MIN_DIGIT_PX, changed_height, ink_height

from engines.jiwu import ENGINE
from engines.jiwu.data import board
from engines.jiwu.engine import _refresh
from render import jiwu as J
from render import render_board, render_step_picture

NAMES = ["Alice", "Bob", "陳小明", "Dmitri"]
MAX_BYTES = 400_000


def _play(seats: int, moves: int | None, seed: int = 3) -> dict[str, Any]:
    """An all-AI game after ``moves`` actions (None: to the end)."""
    state = ENGINE.new_state({}, seats, seed)
    rng = random.Random(seed)
    n = 0
    while ENGINE.pending(state) and (moves is None or n < moves):
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        n += 1
    return state


def _changed(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    """Where two renders differ clearly (the palette may shift a shade elsewhere)."""
    return ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 48 else 0).getbbox()


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


@pytest.mark.parametrize(("seats", "moves", "locale"), [(2, 3, "en"), (3, 150, "zh-TW"), (4, 300, "zh-CN"),
                                                        (2, None, "en")])
def test_boards_open_at_every_stage_and_stay_small(seats: int, moves: int | None, locale: str) -> None:
    state = _play(seats, moves)
    png = render_board(ENGINE.view(state, None), locale, NAMES[:seats])
    img = _open(png)
    assert img.width == J.WIDTH
    assert len(png) < MAX_BYTES
    # header rows + board + the market's two rows of three
    assert img.height >= J.HEADER_H + seats * J.ROW_H + J.BOARD_H + 2 * J.MARKET_CARD_H


def test_region_boxes_do_not_overlap_and_roads_have_room_for_their_slots() -> None:
    b = board()
    assert set(J.POS) == set(b.regions)
    names = list(J.POS)
    for i, a in enumerate(names):
        ax, ay = J.POS[a]
        assert J.BOX_W / 2 <= ax <= J.WIDTH - J.BOX_W / 2 and J.BOX_H / 2 + 18 <= ay <= J.BOARD_H - J.BOX_H / 2
        for c in names[i + 1:]:
            cx, cy = J.POS[c]
            assert max(abs(ax - cx) - J.BOX_W, abs(ay - cy) - J.BOX_H) >= 10, (a, c)
    for pid, (a, e, pts) in J.path_points(0).items():
        assert len(pts) == b.paths[pid].slots
        # consecutive slots (and the boxes at both ends) do not touch
        chain = [a, *pts, e]
        for p, q in zip(chain[1:-2], chain[2:-1], strict=True):
            assert ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5 >= 2 * J.SLOT_R, pid


def test_hidden_cards_never_change_the_public_picture() -> None:
    """Hands, 计策, decks and discard piles are secret: scrambling them changes neither the
    public view nor a byte of the image, while the owner's hand picture does change."""
    state = _play(3, 120)
    other = copy.deepcopy(state)
    for p in other["players"]:
        pool = p["hand"] + p["deck"] + p["discard"]
        random.Random(4).shuffle(pool)
        n, m = len(p["hand"]), len(p["deck"])
        p["hand"], p["deck"], p["discard"] = pool[:n], pool[n:n + m], pool[n + m:]
    changed = [s for s in range(3) if other["players"][s]["hand"] != state["players"][s]["hand"]]
    assert changed
    assert ENGINE.view(other, None) == ENGINE.view(state, None)
    assert render_board(ENGINE.view(other, None), "en", NAMES[:3]) == render_board(ENGINE.view(state, None), "en", NAMES[:3])
    # a seat's own view renders the same board as the public one
    assert render_board(ENGINE.view(state, changed[0]), "en", NAMES[:3]) == render_board(ENGINE.view(state, None), "en", NAMES[:3])
    seat = changed[0]
    assert J.render_hand(ENGINE.view(other, seat), "en") != J.render_hand(ENGINE.view(state, seat), "en")


def test_scores_costs_and_region_values_are_readable_at_550_px() -> None:
    view = ENGINE.view(_play(4, 200), None)
    a, b = copy.deepcopy(view), copy.deepcopy(view)
    a["players"][1]["vp"] = {"kill": 11}
    b["players"][1]["vp"] = {"kill": 88}
    png_a, png_b = render_board(a, "en", NAMES), render_board(b, "en", NAMES)
    assert changed_height(png_a, png_b) >= MIN_DIGIT_PX
    width = _open(png_a).width
    for size in (J.SCORE_SIZE, J.COST_SIZE - 4, J.VP_SIZE - 2):
        assert ink_height(size, width) >= MIN_DIGIT_PX


def test_the_market_row_shows_each_face_up_card() -> None:
    view = ENGINE.view(_play(2, 20), None)
    assert len(view["market"]) == 6
    other = copy.deepcopy(view)
    other["market"][5] = {"iid": "x", "card": "lvbu" if view["market"][5]["card"] != "lvbu" else "cike"}
    a, b = _open(render_board(view, "en", NAMES[:2])), _open(render_board(other, "en", NAMES[:2]))
    box = _changed(a, b)
    assert box is not None
    top = J.HEADER_H + 2 * J.ROW_H + 4 + J.BOARD_H
    assert box[1] >= top + J.MARKET_CARD_H and box[0] >= J.WIDTH * 2 / 3 - J.MARGIN  # the last card only


def test_pieces_on_the_board_show_where_they_stand() -> None:
    state = _play(2, 3)
    view = ENGINE.view(state, None)
    slot = next(s for s, occ in view["slots"].items() if occ is None and s.startswith("luoyang."))
    other = copy.deepcopy(view)
    other["slots"][slot] = [1, ""]
    a, b = _open(render_board(view, "en", NAMES[:2])), _open(render_board(other, "en", NAMES[:2]))
    box = _changed(a, b)
    assert box is not None
    i = int(slot.split(".")[1])
    x, y = J.slot_points("luoyang", J.HEADER_H + 2 * J.ROW_H + 4)[i]
    assert box[0] <= x <= box[2] and box[1] <= y <= box[3]
    assert box[2] - box[0] <= 3 * J.SLOT_R  # only that slot changed


def test_the_hand_picture_is_550_wide_and_grows_with_the_hand() -> None:
    state = _play(2, 40)
    seat = ENGINE.pending(state)[0].seat
    view = ENGINE.view(state, seat)
    small = _open(J.render_hand(view, "zh-CN"))
    assert small.width == J.HAND_W
    big_view = copy.deepcopy(view)
    big_view["you"]["hand"] = view["you"]["hand"] * 2
    big_view["you"]["plans"] = [{"iid": "p", "card": "kurou"}]
    big = _open(J.render_hand(big_view, "zh-CN"))
    assert big.height > small.height
    assert render_step_picture(view, {"kind": "hand"}, "en", NAMES[:2]) == J.render_hand(view, "en")
    assert render_step_picture(ENGINE.view(state, None), {"kind": "hand"}, "en", NAMES[:2]) is None


def test_a_four_player_board_renders_fast() -> None:
    view = ENGINE.view(_play(4, 400), None)
    render_board(view, "en", NAMES)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        render_board(view, "en", NAMES)
        times.append(time.perf_counter() - start)
    # target 100 ms (bench: see bench/bench_render_jiwu.py); margin for a busy shared machine
    assert statistics.median(times) < 0.3


def test_the_recruit_step_shows_the_market_row_and_supply_piles() -> None:
    """Choosing what to recruit, the buttons only name the cards: the step's picture shows the
    market row and the supply piles with their effects, from public facts and one's own silver."""
    state = _play(2, 40)
    seat = ENGINE.pending(state)[0].seat
    state["players"][seat]["gold"] = 9
    _refresh(state)
    step = ENGINE.step(state, seat, ["buy"])
    assert step.picture == {"kind": "market"}
    assert ENGINE.step(state, seat, []).picture is None
    view = ENGINE.view(state, seat)
    png = render_step_picture(view, step.picture, "en", NAMES[:2])
    assert png is not None
    img = _open(png)
    assert img.width == J.HAND_W
    # market cards + the two piles, two to a row: at least four rows of cards
    assert img.height >= 4 * J.HAND_CARD_H
    # the other seat's hidden cards change nothing
    other = copy.deepcopy(state)
    p = other["players"][1 - seat]
    p["hand"], p["deck"] = p["deck"][:len(p["hand"])], p["hand"] + p["deck"][len(p["hand"]):]
    assert render_step_picture(ENGINE.view(other, seat), step.picture, "en", NAMES[:2]) == png
    # a different market card changes the picture
    other = copy.deepcopy(view)
    other["market"][0] = {"iid": "x", "card": "lvbu" if view["market"][0]["card"] != "lvbu" else "cike"}
    assert render_step_picture(other, step.picture, "en", NAMES[:2]) != png


@pytest.mark.parametrize(("seats", "locale"), [(2, "zh-CN"), (4, "en")])
def test_board_over_cached_layers_equals_the_board_drawn_whole(seats: int, locale: str) -> None:
    """The paper and roads, the region boxes (sprites pasted through their footprints) and the
    market cards come from caches; every picture of a game must equal the one drawn whole."""
    state = ENGINE.new_state({}, seats, 11)
    rng = random.Random(11)
    n = checked = 0
    while ENGINE.pending(state):
        seat = ENGINE.pending(state)[0].seat
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        n += 1
        if n % 9:
            continue
        view = ENGINE.view(state, None)
        cached = J.compose(view, locale, NAMES[:seats])
        J.LAYER_CACHE = False
        try:
            whole = J.compose(view, locale, NAMES[:seats])
        finally:
            J.LAYER_CACHE = True
        assert cached.tobytes() == whole.tobytes(), f"move {n}"
        checked += 1
    assert checked > 10
