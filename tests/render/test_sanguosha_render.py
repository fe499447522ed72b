"""三国杀 pictures: the public table for 2-10 seats, the private hand, and what they must not show."""

from __future__ import annotations

import copy
import io
import random
from typing import Any

import pytest
from PIL import Image

from engines.sanguosha import ENGINE
from engines.sanguosha.data import SLOTS
from i18n import LOCALES, catalog
from render import fonts, render_board, render_step_picture
from render import sanguosha as S

NAMES = ["Alice", "Bob 🐉", "陳小明", "Dmitri Ivanovich", "Eve", "王大力", "Zoë", "Łukasz", "佐藤", "Hank"]
MAX_BYTES = 300 * 1024


def play(seats: int, moves: int, seed: int = 5, *, mid_game: bool = False) -> dict[str, Any]:
    """A state after ``moves`` AI actions (or at the end of the game, whichever comes first;
    with ``mid_game``, the last state before the end: the AI may win sooner than ``moves``)."""
    state = ENGINE.new_state({}, seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        pending = ENGINE.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        after, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, rng))
        if mid_game and ENGINE.result(after) is not None:
            break
        state = after
    return state


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize(("seats", "moves"), [(2, 60), (5, 200), (8, 300), (10, 400)])
@pytest.mark.parametrize("locale", LOCALES)
def test_mid_game_tables_render_for_2_to_10_seats(seats: int, moves: int, locale: str) -> None:
    state = play(seats, moves, mid_game=True)
    assert ENGINE.result(state) is None, "the game must still be running"
    png = render_board(ENGINE.view(state, None), locale, NAMES[:seats])
    img = _open(png)
    assert img.format == "PNG" and img.width == S.WIDTH
    assert 450 <= img.height <= 650
    assert len(png) < MAX_BYTES


def test_every_seat_count_has_a_ring_of_panels_that_do_not_overlap() -> None:
    for n in range(2, 11):
        boxes, table, height = S.layout(n)
        assert len(boxes) == n
        for i, a in enumerate(boxes + [table]):
            assert 0 <= a[0] < a[2] <= S.WIDTH and 0 <= a[1] < a[3] <= height
            for b in (boxes + [table])[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (n, a, b)
        # Clockwise: seat 0 top left, the top row left to right, the bottom row right to left.
        tops = [b for b in boxes if b[1] == boxes[0][1]]
        assert tops == sorted(tops)
        bottoms = [b for b in boxes if b[1] == boxes[-1][1] and b[1] > table[1]]
        assert bottoms == sorted(bottoms, reverse=True)


def _pixel(img: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    return img.convert("RGB").getpixel((int(xy[0]), int(xy[1])))


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 8) -> bool:
    """Equal up to the palette's rounding (the PNG palette may map white to a near-white)."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= tol


def test_the_turn_seat_is_framed_in_gold_and_the_dead_are_grey() -> None:
    state = play(8, 300)
    view = ENGINE.view(state, None)
    turn = view["turn"]
    view["players"][(turn + 1) % 8]["alive"] = False
    view["players"][(turn + 1) % 8]["role"] = "rebel"
    img = _open(render_board(view, "en", NAMES[:8]))
    boxes, _, _ = S.layout(8)
    for seat, box in enumerate(boxes):
        left_edge = (box[0] + 1, (box[1] + box[3]) / 2)
        inside = (box[0] + 7, box[1] + 75)  # left of the HP pips
        if seat == turn:
            assert _near(_pixel(img, left_edge), S.GOLD)
        else:
            assert not _near(_pixel(img, left_edge), S.GOLD, 40)
        if not view["players"][seat]["alive"]:  # the one killed here, and any who died in play
            assert _near(_pixel(img, inside), S.DEAD)
        else:
            assert _near(_pixel(img, inside), S.PANEL)


def test_the_end_screen_frames_the_winners_and_shows_every_role() -> None:
    state = play(6, 100000, seed=3)
    assert ENGINE.result(state) is not None
    view = ENGINE.view(state, None)
    assert all(p["role"] for p in view["players"]), "every role is public at the end"
    img = _open(render_board(view, "zh-CN", NAMES[:6]))
    boxes, _, _ = S.layout(6)
    for seat, box in enumerate(boxes):
        framed = _near(_pixel(img, (box[0] + 1, (box[1] + box[3]) / 2)), S.GOLD)
        assert framed == (seat in view["winners"]), seat


def _scramble(state: dict[str, Any], seed: int) -> dict[str, Any]:
    """The same game with every hidden thing changed: other cards in every hand and in the deck
    (the counts kept) and the unrevealed roles swapped among their holders."""
    out = copy.deepcopy(state)
    rng = random.Random(seed)
    pool = out["deck"] + [c for p in out["players"] for c in p["hand"]]
    rng.shuffle(pool)
    for p in out["players"]:
        n = len(p["hand"])
        p["hand"], pool = pool[:n], pool[n:]
    out["deck"] = pool
    secret = [i for i, p in enumerate(out["players"]) if not p["revealed"] and i != out["lord"]]
    roles = [out["players"][i]["role"] for i in secret]
    rng.shuffle(roles)
    for i, r in zip(secret, roles, strict=True):
        out["players"][i]["role"] = r
    return out


@pytest.mark.parametrize(("seats", "moves"), [(5, 150), (8, 250), (10, 120)])
def test_the_public_table_is_the_same_whatever_the_hidden_hands_and_roles(seats: int, moves: int) -> None:
    state = play(seats, moves, seed=11)
    base = render_board(ENGINE.view(state, None), "en", NAMES[:seats])
    changed = 0
    for k in range(3):
        other = _scramble(state, k)
        hands = [p["hand"] for p in state["players"]] != [p["hand"] for p in other["players"]]
        changed += hands
        assert render_board(ENGINE.view(other, None), "en", NAMES[:seats]) == base
        # A seat's own view draws the same table (its private part goes to the hand picture).
        seat = ENGINE.pending(other)[0].seat
        assert render_board(ENGINE.view(other, seat), "en", NAMES[:seats]) == base
    assert changed, "the scramble must change the hidden cards"


def test_the_waiting_banner_shows_for_a_window_and_never_names_who_may_answer() -> None:
    view = ENGINE.view(play(8, 300), None)
    quiet = copy.deepcopy(view)
    quiet["waiting"] = None
    window = copy.deepcopy(view)
    window["waiting"] = {"kind": "nullify", "window": True, "seat": None, "short": True}
    a = render_board(quiet, "en", NAMES[:8])
    b = render_board(window, "en", NAMES[:8])
    assert a != b
    # The banner is the only difference and it sits on the table, not on any seat's panel.
    diff = _diff_box(a, b)
    _, table, _ = S.layout(8)
    assert table[0] <= diff[0] and diff[2] <= table[2] and table[1] <= diff[1] and diff[3] <= table[3]


def _diff_box(a: bytes, b: bytes) -> tuple[int, int, int, int]:
    from PIL import ImageChops

    # Clear differences only: the palette of a quantized PNG follows its content, so a far-away
    # anti-aliased edge may shift by a few levels.
    diff = ImageChops.difference(_open(a).convert("RGB"), _open(b).convert("RGB")).convert("L")
    box = diff.point(lambda v: 255 if v > 40 else 0).getbbox()
    assert box is not None
    return box


def test_equipment_and_judgement_area_are_drawn_on_the_owners_panel() -> None:
    view = ENGINE.view(play(5, 10), None)
    bare = copy.deepcopy(view)
    for p in bare["players"]:
        p["equip"] = dict.fromkeys(SLOTS)
        p["judge"] = []
    dressed = copy.deepcopy(bare)
    dressed["players"][2]["equip"]["weapon"] = {"id": "c95", "name": "zhangba", "suit": "S", "rank": 12}
    dressed["players"][2]["judge"] = [{"id": "c86", "name": "lebu", "suit": "S", "rank": 6, "as": "lebu"}]
    box = _diff_box(render_board(bare, "zh-TW", NAMES[:5]), render_board(dressed, "zh-TW", NAMES[:5]))
    panel = S.layout(5)[0][2]
    assert panel[0] <= box[0] and box[2] <= panel[2] and panel[1] <= box[1] and box[3] <= panel[3]


def test_every_label_on_the_pictures_is_drawn_by_the_shipped_fonts() -> None:
    """No tofu and no machine-dependent face: card names, roles, phases and labels in Chinese,
    suits and icons all come from data/fonts."""
    shipped = {fonts.REGULAR, fonts.BOLD, fonts.EMOJI}
    for locale in ("zh-TW", "zh-CN"):
        cat = catalog(locale)
        texts = [v for k, v in cat.items() if k.startswith(("render.sanguosha.", "sanguosha.role.",
                                                             "sanguosha.phase.", "sanguosha.side."))]
        texts += list(S.SUIT_SYMBOL.values()) + list(S.SLOT_ICON.values()) + ["↔", "→"]
        texts += [icon for _, icon in S.JUDGE_STYLE.values() if icon]
        for text in texts:
            for ch in text:
                if ch in "{}" or ch.isspace():
                    continue
                src = fonts.source(ch, True)
                assert src is not None and src.path in shipped, (locale, text, ch)


def _hand_view(cards: int) -> dict[str, Any]:
    state = ENGINE.new_state({}, 5, 3)
    p = state["players"][1]
    extra = [c for c in state["deck"]][: max(0, cards - len(p["hand"]))]
    for c in extra:
        state["deck"].remove(c)
    p["hand"] = (p["hand"] + extra)[:cards]
    return ENGINE.view(state, 1)


@pytest.mark.parametrize(("cards", "rows"), [(0, 1), (4, 1), (7, 1), (8, 2), (12, 2)])
def test_the_hand_picture_is_compact_and_wraps_past_seven_cards(cards: int, rows: int) -> None:
    view = _hand_view(cards)
    assert len(view["you"]["hand"]) == cards
    img = _open(S.render_hand(view, "en"))
    assert img.width <= 550 and img.height <= 300
    assert img.height == 44 + rows * (S.CARD_H + 8) + 40


def test_the_hand_picture_shows_the_cards_of_its_owner() -> None:
    view = _hand_view(5)
    other = copy.deepcopy(view)
    other["you"]["hand"][0] = {**other["you"]["hand"][0], "name": "tao" if view["you"]["hand"][0]["name"] != "tao"
                               else "sha"}
    assert S.render_hand(view, "zh-CN") != S.render_hand(other, "zh-CN")
    # The same picture through the generic step-picture hook.
    assert render_step_picture(view, {"kind": "hand"}, "zh-CN", NAMES[:5]) == S.render_hand(view, "zh-CN")
    assert render_step_picture(ENGINE.view(play(5, 0), None), {"kind": "hand"}, "en", NAMES[:5]) is None


def test_card_colours_come_from_the_type_the_view_gives_not_a_copy_of_the_deck() -> None:
    from engines.sanguosha.data import deck
    from engines.sanguosha.views import card_json
    from render.sanguosha import card_type

    for cid, c in deck().items():
        assert card_type(card_json(cid)) == c.type
    assert card_type({"name": "sha", "type": "equip"}) == "equip"  # whatever the view says
