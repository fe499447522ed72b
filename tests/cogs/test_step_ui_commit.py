"""Fewer clicks without a gateway: options that play at once, steps passed through with their
committing options beside the next step, and where the next decision reopens after a move."""

from __future__ import annotations

import re

from test_layout import _check_limits

from cogs import play
from cogs.utils import ids, layout
from cogs.utils.layout import COMMIT_TEMPLATE, ButtonSpec
from engines import registry
from engines.base import Msg, Option, Step
from i18n import t
from service.errors import UserError

Tree = dict[tuple[str, ...], list[Option]]


def _o(value: str, commit: bool = False, hint: str = "") -> Option:
    return Option(value, Msg("x"), hint, commit=commit)


class _Service:
    """Steps from a dict (path tuple -> options); a path absent from it is a complete action,
    unless listed in ``illegal`` (then the engine refuses it, as after the state moved on)."""

    def __init__(self, tree: Tree, illegal: set[tuple[str, ...]] = frozenset()) -> None:  # type: ignore[assignment]
        self.tree = tree
        self.illegal = illegal

    async def step(self, match_id: int, user_id: int, req: str, path: list[str]) -> Step:
        key = tuple(path)
        if key in self.illegal or any(key[:k] in self.illegal for k in range(len(key))):
            raise UserError("core.err.illegal")
        opts = self.tree.get(key)
        if opts is None:
            return Step(Msg("done"), [], complete=True)
        return Step(Msg("p"), opts)


def _buttons(lay: layout.Layout) -> list[ButtonSpec]:
    return [b for row in lay.rows for b in row if isinstance(b, ButtonSpec)]


def _path(cid: str) -> list[str]:
    return ids.decode_path(cid.rsplit(":", 1)[-1])


# ----- which steps the UI takes for the player ----------------------------------------------

def test_a_step_with_one_way_forward_beside_committing_options_is_passed_through() -> None:
    attack = Step(Msg("p"), [_o("attack"), _o("end", commit=True)])
    assert play.passed_through(attack) == attack.options[0]
    assert play.skipped(attack) and play.side_options(attack) == [attack.options[1]]
    assert play.passed_through(Step(Msg("p"), [_o("trade"), _o("place")])) is None, "two real choices"
    assert play.passed_through(Step(Msg("p"), [_o("1", True), _o("2", True)])) is None, "all commit"
    assert play.passed_through(Step(Msg("p"), [_o("a"), _o("b", True)], complete=True)) is None
    assert not play.skipped(Step(Msg("p"), [_o("trade"), _o("place")]))
    assert not play.is_forced(Step(Msg("p"), [_o("last_free_territory", True)])), \
        "a single option that plays at once is the move itself: shown, not taken (else a Confirm)"


async def test_advance_passes_through_and_the_side_options_stay_until_a_real_choice() -> None:
    tree: Tree = {(): [_o("fortify"), _o("end", commit=True)],
                  ("fortify",): [_o("ural")],  # one source: forced as well
                  ("fortify", "ural"): [_o("siberia"), _o("china")],
                  ("fortify", "ural", "china"): [_o("1", True), _o("4", True)]}
    service = _Service(tree)
    path, step = await play.advance(service, 1, 2, "r", [])
    assert path == ["fortify", "ural"] and [o.value for o in step.options] == ["siberia", "china"]
    _, forced, _, side = await play._trail(service, 1, 2, "r", path, "en")
    assert forced == [True, True] and play.back_target(path, forced) is False
    assert side == [([], tree[()][1])], "no Back here, so 'End turn' must be offered beside the targets"
    _, forced, _, side = await play._trail(service, 1, 2, "r", ["fortify", "ural", "china"], "en")
    assert side == [] and play.back_target(["fortify", "ural", "china"], forced) == ["fortify", "ural"]


async def test_consecutive_pass_throughs_keep_every_side_option() -> None:
    """Attack › the only source › the only target › Blitz (beside "Roll once"): the stop-count
    step must still offer "End attack", or the player shown it could not end the phase (Back
    leads nowhere: every step before it was taken for them). Seen in an e2e game."""
    tree: Tree = {(): [_o("attack"), _o("end", commit=True)],
                  ("attack",): [_o("ural")],
                  ("attack", "ural"): [_o("ukraine")],
                  ("attack", "ural", "ukraine"): [_o("blitz"), _o("once", commit=True)],
                  ("attack", "ural", "ukraine", "blitz"): [_o("0", True), _o("1", True)]}
    service = _Service(tree)
    path, _ = await play.advance(service, 1, 2, "r", [])
    assert path == ["attack", "ural", "ukraine", "blitz"]
    _, _, _, side = await play._trail(service, 1, 2, "r", path, "en")
    assert [(p, o.value) for p, o in side] == [([], "end"), (["attack", "ural", "ukraine"], "once")]


# ----- the buttons --------------------------------------------------------------------------

def test_commit_options_and_side_options_are_play_at_once_buttons() -> None:
    step = Step(Msg("p"), [_o("alaska"), _o("ural"), _o("4", True)])
    end = _o("end", commit=True)
    lay = layout.step_layout(step, 7, "r3", ["attack"], 0, "en", ids.PathStore(), back=False,
                             side=[([], end)])
    _check_limits(lay)
    buttons = _buttons(lay)
    assert [b.custom_id[:4] for b in buttons] == ["g:a:", "g:a:", "g:p:", "g:p:"]
    assert _path(buttons[2].custom_id) == ["attack", "4"]
    assert _path(buttons[3].custom_id) == ["end"] and buttons[3] in lay.rows[-1], "side leads the control row"
    m = re.fullmatch(COMMIT_TEMPLATE, buttons[3].custom_id)
    assert m is not None and m["match"] == "7" and ids.decode_token(m["req"]) == "r3"
    assert not any(b.custom_id.startswith("g:c:") for b in buttons), "nothing to Confirm"


def test_side_buttons_never_push_the_layout_past_five_rows() -> None:
    step = Step(Msg("p"), [_o(f"t{i}") for i in range(20)], complete=True)
    side = [([], _o(f"s{i}", True)) for i in range(3)]
    lay = layout.step_layout(step, 1, "r", ["a", "b"], 0, "en", ids.PathStore(), side=side)
    _check_limits(lay)
    assert len(lay.rows) == layout.MAX_ROWS
    labels = [b.label for b in lay.rows[-1]]
    assert t("en", "discord.button.confirm") in labels and t("en", "discord.button.back") in labels


def test_risk_turn_steps_commit_where_a_second_look_adds_nothing() -> None:
    """End phase, Roll once, placement and move-in amounts play at once; the attack and fortify
    verbs are passed through so a turn's actions start at the territory."""
    engine = registry.get("risk")
    state = engine.new_state({"setup": "quick"}, 2, 1)
    state.update(phase="attack", turn=0, owner={k: 0 for k in state["owner"]},
                 armies={k: 3 for k in state["armies"]})
    state["owner"]["kamchatka"] = 1
    root = engine.step(state, 0, [])
    assert play.passed_through(root) is not None and [o.value for o in play.side_options(root)] == ["end"]
    mode = engine.step(state, 0, ["attack", "alaska", "kamchatka"])
    assert {o.value: o.commit for o in mode.options} == {"once": True, "blitz": False, "dice": False}


# ----- where the reply reopens --------------------------------------------------------------

async def test_resume_reopens_the_same_attack_while_it_is_still_possible() -> None:
    tree: Tree = {(): [_o("attack"), _o("end", True)],
                  ("attack",): [_o("alaska", hint="north_america")],
                  ("attack", "alaska"): [_o("kamchatka", hint="asia")],
                  ("attack", "alaska", "kamchatka"): [_o("once", True), _o("blitz")]}
    played = ["attack", "alaska", "kamchatka", "once"]
    hints = ["danger", "north_america", "asia", "primary"]
    assert await play.resume_point(_Service(tree), 1, 2, "r", played, hints) == (played[:3], "primary")
    # Kamchatka fell: attack from Alaska elsewhere (its group is where Kamchatka was picked from).
    gone = _Service(tree, illegal={("attack", "alaska", "kamchatka")})
    assert await play.resume_point(gone, 1, 2, "r", played, hints) == (["attack", "alaska"], "asia")
    # Another kind of decision (move in): nothing of the attack applies, start at the top.
    other = _Service({(): [_o("move")]}, illegal={("attack",)})
    assert await play.resume_point(other, 1, 2, "r", played, hints) == ([], None)


async def test_resume_never_reopens_a_complete_action() -> None:
    """A prefix that is itself a whole action (a card set before its optional bonus) is not an
    open choice: reopening there would show a Confirm that replays the move."""
    tree: Tree = {(): [_o("place")], ("place",): [_o("a"), _o("b")]}
    service = _Service(tree)
    assert await play.resume_point(service, 1, 2, "r", ["place", "a", "3"], ["", "", ""]) == (["place"], None)
