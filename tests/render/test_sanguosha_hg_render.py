"""三国杀 hegemony (国战) pictures: hero pairs face down until shown, kingdom frames, 野心家,
markers, 叠置, the 鏖战 banner, 11–12 seats readable at 550 px; the seat's hero choice and panel."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image
from test_digit_height import MIN_DIGIT_PX, changed_height
from test_sanguosha_render import _diff_box, _near, _open, _pixel

from engines.sanguosha import ENGINE
from render import render_board, render_step_picture
from render import sanguosha as S
from render import sanguosha_hg as HG
from tests.engines.sanguosha import hg_testkit as K

#: Pairs of one kingdom among the heroes registered today (a table may repeat them).
PAIRS = [("hg_caocao", "hg_simayi"), ("hg_guanyu", "hg_zhangfei"), ("hg_ganning", "hg_lvmeng"),
         ("hg_lvbu", "hg_diaochan"), ("hg_xiahoudun", "hg_zhangliao"), ("hg_zhugeliang", "hg_zhaoyun"),
         ("hg_huanggai", "hg_zhouyu"), ("hg_xuchu", "hg_guojia"), ("hg_machao", "hg_huangyueying"),
         ("hg_daqiao", "hg_sunshangxiang"), ("hg_zhenji", "hg_caocao"), ("hg_simayi", "hg_xuchu")]
NAMES = [f"Player {i} 名" for i in range(12)]


def _table(n: int, shown: dict[int, tuple[bool, bool]] | None = None, **kw: Any) -> dict[str, Any]:
    return K.table(PAIRS[:n], shown=shown if shown is not None else {0: (True, False)}, turn=1, **kw)


def _board(view: dict[str, Any], locale: str = "en") -> bytes:
    return render_board(view, locale, NAMES[:len(view["players"])])


@pytest.mark.parametrize("panel_h", [S.PANEL_H, HG.PANEL_H])
def test_every_seat_count_up_to_twelve_has_a_ring_of_panels_that_do_not_overlap(panel_h: int) -> None:
    for n in range(2, 13):
        boxes, table, height = S.layout(n, panel_h, HG.MIDDLE_H if panel_h == HG.PANEL_H else S.MIDDLE_H)
        assert len(boxes) == n
        for i, a in enumerate(boxes + [table]):
            assert 0 <= a[0] < a[2] <= S.WIDTH and 0 <= a[1] < a[3] <= height
            for b in (boxes + [table])[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (n, a, b)
        # Clockwise: down the right side, up the left side.
        band = [b for b in boxes if table[1] <= b[1] and b[3] <= table[3]]
        right = [b for b in band if b[0] > table[2]]
        left = [b for b in band if b[2] < table[0]]
        assert right == sorted(right, key=lambda b: b[1])
        assert left == sorted(left, key=lambda b: -b[1])
        if n >= 11:
            assert len(right) == len(left) == 2


def test_identity_layouts_keep_their_boxes() -> None:
    """Identity mode's pictures must not move: one side panel sits in the middle band's centre
    (the before/after renders of identity games were compared byte for byte, see the report)."""
    for n in range(5, 11):
        boxes, table, height = S.layout(n)
        assert height == 2 * S.MARGIN + 2 * S.GAP + 2 * S.PANEL_H + S.MIDDLE_H
        side = [b for b in boxes if b[0] > table[2] and table[1] <= b[1] and b[3] <= table[3]]
        assert side == [(S.WIDTH - S.MARGIN - S.PANEL_W, S.MARGIN + S.PANEL_H + S.GAP + (S.MIDDLE_H - S.PANEL_H) / 2,
                         S.WIDTH - S.MARGIN, S.MARGIN + S.PANEL_H + S.GAP + (S.MIDDLE_H + S.PANEL_H) / 2)]


def test_twelve_seats_fit_one_picture_and_stay_readable_at_550_px() -> None:
    state = _table(12, {i: (i % 2 == 0, i % 3 == 0) for i in range(12)})
    view = ENGINE.view(state, None)
    png = _board(view, "zh-CN")
    img = _open(png)
    assert img.size == (S.WIDTH, 954)
    assert len(png) < 120 * 1024
    other = 7
    a, b = copy.deepcopy(view), copy.deepcopy(view)
    a["players"][other]["hand"], b["players"][other]["hand"] = 3, 8
    assert changed_height(_board(a), _board(b)) >= MIN_DIGIT_PX
    a, b = copy.deepcopy(view), copy.deepcopy(view)
    a["players"][other]["heroes"], b["players"][other]["heroes"] = ["hg_lvbu", None], ["hg_zhugeliang", None]
    assert changed_height(_board(a, "zh-TW"), _board(b, "zh-TW")) >= MIN_DIGIT_PX


def _panel_of(view: dict[str, Any], seat: int) -> S.Box:
    return HG.layout(len(view["players"]))[0][seat]


def test_a_shown_hero_names_itself_on_its_own_tile_and_frames_the_seat_in_its_kingdom() -> None:
    hidden = ENGINE.view(_table(4, {}), None)
    shown = ENGINE.view(_table(4, {2: (True, False)}), None)
    assert shown["players"][2]["role"] == "wu" and hidden["players"][2]["role"] is None
    a, b = _board(hidden), _board(shown)
    box = _diff_box(a, b)
    panel = _panel_of(shown, 2)  # inclusive pixel box: the frame's last column is panel[2]
    assert panel[0] <= box[0] and box[2] <= panel[2] + 1 and panel[1] <= box[1] and box[3] <= panel[3] + 1
    edge = (panel[0] + 1, (panel[1] + panel[3]) / 2)
    assert _near(_pixel(_open(b), edge), HG.KINGDOM_COLOR["wu"])
    assert not _near(_pixel(_open(a), edge), HG.KINGDOM_COLOR["wu"], 40)


def test_a_careerist_gets_its_own_colour_and_chip() -> None:
    """At 3 seats half the table is 1: a second shown 魏 seat is a 野心家."""
    state = K.table([PAIRS[0], PAIRS[10], PAIRS[1]], shown={0: (True, False), 1: (True, False)})
    view = ENGINE.view(state, None)
    assert [p["role"] for p in view["players"]] == ["wei", "ye", None]
    img = _open(_board(view))
    panel = _panel_of(view, 1)
    assert _near(_pixel(img, (panel[0] + 1, (panel[1] + panel[3]) / 2)), HG.KINGDOM_COLOR["ye"])


def test_markers_and_a_turned_over_seat_are_drawn_on_that_seat_only() -> None:
    view = ENGINE.view(_table(5), None)
    marked = copy.deepcopy(view)
    marked["players"][3]["marks"] = {"yinyang": 1, "zhulian": 2}
    panel = _panel_of(view, 3)
    box = _diff_box(_board(view), _board(marked))
    assert panel[0] <= box[0] and box[2] <= panel[2] and panel[1] <= box[1] and box[3] <= panel[3]
    stacked = copy.deepcopy(view)
    stacked["players"][3]["stacked"] = True
    img = _open(_board(stacked))
    assert _near(_pixel(img, (panel[0] + 7, panel[1] + 90)), HG.STACKED_FILL)
    assert _near(_pixel(_open(_board(view)), (panel[0] + 7, panel[1] + 90)), S.PANEL)


@pytest.mark.parametrize("stage", [1, 2])
def test_the_aozhan_banner_sits_on_the_table(stage: int) -> None:
    view = ENGINE.view(_table(8), None)
    on = copy.deepcopy(view)
    on["aozhan"] = stage
    box = _diff_box(_board(view, "zh-CN"), _board(on, "zh-CN"))
    _, table, _ = HG.layout(8)
    assert table[0] <= box[0] and box[2] <= table[2] and table[1] <= box[1] and box[3] <= table[3]


def test_the_hand_picture_shows_both_own_heroes_markers_and_peeked_heroes() -> None:
    state = _table(4, hands={0: ["sha", "shan"]})
    view = ENGINE.view(state, 0)
    assert [h["shown"] for h in view["you"]["heroes"]] == [True, False]
    view["players"][0]["marks"] = {}  # the first to show took 先驱: a picture without notes first
    plain = _open(S.render_hand(view, "en"))
    assert plain.height == 44 + HG.HERO_ROW + S.CARD_H + 8 + 40
    noted = copy.deepcopy(view)
    noted["you"]["peeks"] = [{"seat": 2, "index": 1, "hero": "hg_lvmeng"}]
    img = _open(S.render_hand(noted, "en", NAMES[:4]))
    assert img.height == plain.height + HG.NOTE_ROW
    # Showing the deputy changes its tile (hidden → shown), nothing below the hero row.
    up = copy.deepcopy(view)
    up["you"]["heroes"][1]["shown"] = True
    box = _diff_box(S.render_hand(view, "en"), S.render_hand(up, "en"))
    assert box[1] >= 44 and box[3] <= 44 + HG.HERO_ROW and box[0] >= S.HAND_W / 2
    # The generic step-picture hook draws the same, with the seats' names for the peeks.
    assert render_step_picture(noted, {"kind": "hand"}, "en", NAMES[:4]) == S.render_hand(noted, "en", NAMES[:4])


@pytest.mark.parametrize(("seats", "dealt"), [(3, 7)])
def test_the_hero_choice_shows_the_heroes_dealt_as_a_picture(seats: int, dealt: int) -> None:
    state = ENGINE.new_state({"mode": "hegemony"}, seats, 7)
    view = ENGINE.view(state, 1)
    assert len(view["you"]["offer"]) == dealt
    png = render_step_picture(view, {"kind": "hand"}, "zh-TW", NAMES[:seats])
    assert png is not None
    img = Image.open(io.BytesIO(png))
    assert img.size == (S.HAND_W, 42 + dealt * HG.OFFER_ROW + 8)
    # The picture is the seat's own offer: another seat's offer draws another picture.
    assert png != render_step_picture(ENGINE.view(state, 2), {"kind": "hand"}, "zh-TW", NAMES[:seats])


def test_five_heroes_at_nine_seats_make_a_shorter_picture() -> None:
    view = ENGINE.view(_table(9), 0)
    view["you"]["offer"] = [h for pair in PAIRS[:3] for h in pair][:5]
    img = _open(S.render_hand(view, "en"))
    assert img.size == (S.HAND_W, 42 + 5 * HG.OFFER_ROW + 8)


def test_the_panel_refreshes_when_what_the_hegemony_picture_draws_changes() -> None:
    """The DM panel is edited only when ``panel_fingerprint`` moves: a hero shown, a marker, 叠置
    or a peek must move it (the picture draws them); identity mode's fingerprint is unchanged."""
    view = ENGINE.view(_table(4), 0)
    base = ENGINE.panel_fingerprint(view, 0)
    for change in ("shown", "marks", "stacked", "peeks"):
        other = copy.deepcopy(view)
        if change == "shown":
            other["you"]["heroes"][1]["shown"] = True
        elif change == "marks":
            other["players"][0]["marks"] = {"yinyang": 1}
        elif change == "stacked":
            other["players"][0]["stacked"] = True
        else:
            other["you"]["peeks"] = [{"seat": 1, "index": 0, "hero": "hg_guanyu"}]
        assert ENGINE.panel_fingerprint(other, 0) != base, change
    identity = ENGINE.view(ENGINE.new_state({}, 5, 3), 1)
    assert len(ENGINE.panel_fingerprint(identity, 1)) == 5


def test_identity_pictures_never_enter_the_hegemony_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Identity views (also during the hero choice, when ``you`` has an offer too) are drawn by
    identity mode's code alone, so its pictures stay as they were."""
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a 国战 drawing for an identity view")

    for name in ("draw_seat", "draw_banner", "compose_offer", "draw_hand_rows", "over_side"):
        monkeypatch.setattr(HG, name, boom)
    assert HG.hand_rows_height(ENGINE.view(ENGINE.new_state({}, 5, 3), 1)) == 0
    for seats in (2, 5, 10):
        state = ENGINE.new_state({}, seats, 3)
        lord = state["lord"]
        assert ENGINE.view(state, lord)["you"].get("offer")  # the lord's hero choice
        render_board(ENGINE.view(state, None), "en", NAMES[:seats])
        render_step_picture(ENGINE.view(state, lord), {"kind": "hand"}, "en", NAMES[:seats])


@pytest.mark.parametrize("locale", ["en", "zh-TW", "zh-CN"])
def test_every_hegemony_hero_name_fits_its_line_readably_at_550_px(locale: str) -> None:
    """A shown hero's name fills its own line of the panel: even the longest name keeps a size
    that is >= 9 px tall when Discord shows the picture 550 px wide."""
    from engines.sanguosha import hg_heroes
    from render.sanguosha_text import hero_name

    assert HG.NAME_ROOM == (S.PANEL_W - 16) - 6  # the tile's width less its padding
    for hid in hg_heroes.every_hero():
        name = hero_name(locale, hid)
        fitted, size, _ = HG.name_fit(name, HG.NAME_ROOM)
        assert fitted == name and size * 550 / S.WIDTH >= 9, (hid, name, size)
    # The longest name of the hegemony set (wu, 张昭张纮) in the regular face at 17 px.
    assert HG.name_fit("Zhang Zhao & Zhang Hong", HG.NAME_ROOM)[:2] == ("Zhang Zhao & Zhang Hong", 17)


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_chains_and_cards_on_a_hero_are_chips_that_stay_on_the_panel(locale: str) -> None:
    """铁索连环 and cards on a hero (周泰's 创, with their ranks) are public: chips on the seat's
    marker line, shrunk or cut to the panel however many a seat has at once."""
    view = ENGINE.view(_table(5), None)
    busy = copy.deepcopy(view)
    p = busy["players"][3]
    p["marks"] = {"yinyang": 2, "xianqu": 1, "zhulian": 3}
    p["chained"] = True
    p["piles"] = {"buqu": [{"id": f"c{i}", "name": "sha", "suit": "S", "rank": r, "type": "basic"}
                           for i, r in enumerate((1, 7, 11, 12, 13))]}
    p["stacked"] = True
    panel = _panel_of(view, 3)
    box = _diff_box(_board(view, locale), _board(busy, locale))
    assert panel[0] <= box[0] and box[2] <= panel[2] + 1 and panel[1] <= box[1] and box[3] <= panel[3] + 1
    chained = copy.deepcopy(view)
    chained["players"][3]["chained"] = True
    assert _board(chained, locale) != _board(view, locale)
    # The seat's own picture shows them too.
    own = ENGINE.view(_table(5), 3)
    own["players"][3]["piles"] = p["piles"]
    own["players"][3]["marks"] = {}
    assert _open(S.render_hand(own, locale)).height == 44 + HG.HERO_ROW + HG.NOTE_ROW + S.CARD_H + 8 + 40


def test_the_lords_options_treasure_is_drawn_on_the_board_and_the_hand_panel() -> None:
    """定澜夜明珠 sits in a fifth slot a seat has only once a treasure is put there: drawn where the
    other items are (the seat's panel, the seat's own equipment line), nowhere when absent."""
    gear = ["chitu", "qinggang", "bagua", "dilu"]
    pearl = K.table(PAIRS[:4], shown={0: (True, False)}, turn=0, equip={0: ["pearl", *gear]}, options={"lords": "on"})
    plain = K.table(PAIRS[:4], shown={0: (True, False)}, turn=0, equip={0: gear}, options={"lords": "on"})
    assert "treasure" not in plain["players"][0]["equip"]
    with_view, without_view = ENGINE.view(pearl, 0), ENGINE.view(plain, 0)
    assert with_view["players"][0]["equip"]["treasure"]["name"] == "pearl"
    assert _board(with_view) != _board(without_view)
    names = NAMES[:4]
    assert (render_step_picture(with_view, {"kind": "hand"}, "en", names)
            != render_step_picture(without_view, {"kind": "hand"}, "en", names))
