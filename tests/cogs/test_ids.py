"""Custom ids: round trips, Discord's 100-character limit, and the templates that route clicks."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.utils import ids

tokens = st.text(min_size=0, max_size=12)
paths = st.lists(tokens, max_size=8)


@given(paths)
def test_path_round_trip(path: list[str]) -> None:
    text = ids.encode_path(path)
    assert ":" not in text and not text.startswith("*")
    assert ids.decode_path(text) == path


#: Engines make request ids like "r12" or "s3-discard"; ids up to 40 safe characters must always fit.
request_ids = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu", "Nd"), max_codepoint=127)
                      | st.sampled_from("-_."), min_size=1, max_size=40)


@given(st.integers(min_value=1, max_value=2**53), request_ids, paths,
       st.integers(min_value=0, max_value=9))
def test_nav_ids_fit_and_resolve(match_id: int, req: str, path: list[str], page: int) -> None:
    store = ids.PathStore()
    cid = ids.nav_id(match_id, req, page, path, store)
    assert len(cid) <= ids.MAX_CUSTOM_ID
    m = re.fullmatch(ids.NAV_TEMPLATE, cid)
    assert m is not None
    assert int(m["match"]) == match_id and int(m["page"]) == page
    assert ids.decode_token(m["req"]) == req
    assert ids.resolve_path(m["path"], match_id, ids.decode_token(m["req"]), store) == path


def test_long_path_is_kept_server_side_and_lost_after_restart() -> None:
    path = ["territory-with-a-long-name"] * 6
    store = ids.PathStore()
    cid = ids.confirm_id(12345, "r77", path, store)
    assert len(cid) <= ids.MAX_CUSTOM_ID
    m = re.fullmatch(ids.CONFIRM_TEMPLATE, cid)
    assert m is not None and m["path"].startswith("*")
    assert ids.resolve_path(m["path"], 12345, "r77", store) == path
    # Same key, other request: refused rather than applied to the wrong decision.
    assert ids.resolve_path(m["path"], 12345, "r78", store) is None
    # A fresh process (new store) does not know the key: the UI asks again.
    assert ids.resolve_path(m["path"], 12345, "r77", ids.PathStore()) is None
    with pytest.raises(ids.BadCustomId):
        ids.confirm_id(12345, "r77", path, None)


def test_absurd_request_id_is_refused_not_truncated() -> None:
    with pytest.raises(ids.BadCustomId):
        ids.turn_id(1, "r" * 120)
    with pytest.raises(ids.BadCustomId):
        ids.nav_id(1, "é" * 40, 0, ["a"], ids.PathStore())


def test_short_path_stays_in_the_id() -> None:
    cid = ids.nav_id(7, "r1", 0, ["place", "F", "3", "b4"])
    assert cid == "g:a:7:r1:0:place,F,3,b4"


def test_every_builder_matches_its_template_only() -> None:
    built = {
        ids.TURN_TEMPLATE: ids.turn_id(5, "r:1"),
        ids.NAV_TEMPLATE: ids.nav_id(5, "r:1", 2, ["a", "b,c"]),
        ids.SELECT_TEMPLATE: ids.select_id(5, "r:1", []),
        ids.CONFIRM_TEMPLATE: ids.confirm_id(5, "r:1", ["x"]),
        ids.LOBBY_TEMPLATE: ids.lobby_id(5, "join"),
        ids.LOBBY_OPTION_TEMPLATE: ids.lobby_option_id(5, "board size"),
        ids.LOBBY_TURN_TEMPLATE: ids.lobby_turn_id(5),
    }
    for template, cid in built.items():
        for other in built:
            assert bool(re.fullmatch(other, cid)) == (other == template), (template, other, cid)


def test_path_store_is_bounded() -> None:
    store = ids.PathStore(capacity=3)
    keys = [store.put(1, "r", [str(i)]) for i in range(5)]
    assert store.get(keys[0], 1, "r") is None
    assert store.get(keys[-1], 1, "r") == ["4"]


@pytest.mark.parametrize("bad", ["~4", "~zz", "a b", "~C3~28",
                                 # int(x, 16) takes these; encode_token never writes them
                                 "~ZZ", "~ A", "~+1", "~-1", "~a0", "~\u0663\u0663", "~\uff11\uff11", "~1_", "~"])
def test_malformed_tokens_are_rejected(bad: str) -> None:
    with pytest.raises(ids.BadCustomId):
        ids.decode_token(bad)


@given(st.text(max_size=12))
def test_decoding_any_text_either_round_trips_or_is_refused(text: str) -> None:
    """Whatever a forged id carries: a token we could have written, or BadCustomId — never
    another exception (which would become the apology)."""
    try:
        token = ids.decode_token(text)
    except ids.BadCustomId:
        return
    assert ids.encode_token(token) == (text or "~~")


@pytest.mark.parametrize("match_id", [0, -1, 2**63, 10**30])
def test_match_ids_out_of_range_are_refused(match_id: int) -> None:
    with pytest.raises(ids.BadCustomId):
        ids.check_match_id(match_id)


def test_match_ids_in_range_pass() -> None:
    assert ids.check_match_id(1) == 1 and ids.check_match_id(2**63 - 1) == 2**63 - 1


def _every_template_with_a_sample() -> dict[str, str]:
    """Each DynamicItem template the bot registers, with an id of ours for match 12."""
    from cogs import lobby, play, risk
    from cogs.utils import layout

    templates = {item.__discord_ui_compiled_template__.pattern
                 for item in (*play.DYNAMIC_ITEMS, *lobby.DYNAMIC_ITEMS, risk.TradeSelect)}
    samples = {
        ids.TURN_TEMPLATE: ids.turn_id(12, "r1"),
        ids.NAV_TEMPLATE: ids.nav_id(12, "r1", 0, ["a"]),
        ids.SELECT_TEMPLATE: ids.select_id(12, "r1", ["a"]),
        ids.CONFIRM_TEMPLATE: ids.confirm_id(12, "r1", ["a"]),
        ids.LOBBY_TEMPLATE: ids.lobby_id(12, "join"),
        ids.LOBBY_OPTION_TEMPLATE: ids.lobby_option_id(12, "mode"),
        ids.LOBBY_TURN_TEMPLATE: ids.lobby_turn_id(12),
        ids.LOBBY_AI_TEMPLATE: ids.lobby_ai_id(12, "hard"),
        layout.COMMIT_TEMPLATE: layout.commit_id(12, "r1", ["a"]),
        layout.GROUP_TEMPLATE: layout.group_id(12, "r1", "asia", 0, ["a"]),
        risk.TRADE_TEMPLATE: risk.trade_select_id(12, "r1"),
    }
    assert templates == set(samples), "a template without a sample here"
    return samples


@pytest.mark.parametrize(("template", "sample"), sorted(_every_template_with_a_sample().items()))
def test_templates_take_ascii_digits_only(template: str, sample: str) -> None:
    """``\\d`` would match Arabic-Indic or full-width digits, which no id of ours contains: a
    forged ``g:p:١:…`` would then be read as match 1 (``int('١') == 1``) and played."""
    assert re.fullmatch(template, sample)
    assert sample.count(":12") == 1
    for digits in ("\u0661\u0662", "\uff11\uff12"):
        assert not re.fullmatch(template, sample.replace(":12", ":" + digits)), (template, digits)
