"""The thread's turn post tells a 极武三国 turn shorter: runs of one player's plays, recruits and
deployments become one line each, repeats counted; everything else stays, in order."""

from __future__ import annotations

from engines.base import Msg, key_ref
from engines.jiwu import ENGINE
from engines.jiwu.rules import who
from i18n import tm


def _play(seat: int, cid: str) -> Msg:
    return Msg("jiwu.ev.play", {"player": who(seat), "card": key_ref(f"jiwu_names.card.{cid}")})


def test_a_run_of_plays_is_one_line_with_counts_and_other_lines_stay() -> None:
    deploy = Msg("jiwu.ev.deploy", {"player": who(0), "where": key_ref("jiwu_names.region.luoyang")})
    msgs = [_play(0, "nongfu"), _play(0, "bubing"), _play(0, "nongfu"), _play(0, "nongfu"),
            Msg("jiwu.ev.buy", {"player": who(0), "card": key_ref("jiwu_names.card.cike")}),
            deploy, deploy, _play(1, "nongfu"), _play(0, "nongfu")]
    out = ENGINE.compact(msgs)
    text = [tm("en", m, ["Alice", "Bob"]) for m in out]
    assert text == [
        "Alice (Red) plays Diligent Farmer ×3, Valiant Infantry.",
        "Alice (Red) recruits Assassin.",
        "Alice (Red) deploys soldiers in Luoyang ×2.",
        "Bob (Blue) plays Diligent Farmer.",
        "Alice (Red) plays Diligent Farmer.",
    ]
    assert ENGINE.compact([]) == []
    other = [Msg("publish.away", {})]
    assert ENGINE.compact(other) == other
