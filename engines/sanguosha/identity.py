"""Identity mode (身份局): hidden roles — lord, loyalists, rebels, the renegade.

The seed's rules that belong to this mode and not to the cards or heroes: the lord is known and
starts, rounds are counted at the lord's turn, a rebel's killer draws 3, a lord who kills a
loyalist discards hand and equipment, and the side that has won (游戏结束). Roles are dealt and
heroes chosen by this mode's own ``setup`` frame (``setup.py``, in the :data:`packs.IDENTITY`
pack); the AI is ``ai.py`` with its role-guessing mind (``ai_mind.py``).
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import key_ref
from engines.flow import Ctx
from engines.rng import Rng
from engines.sanguosha import (  # noqa: F401 - importing fills the packs
    ai,
    equipment,
    frames,
    modes,
    setup,
    skills,
    skills_qun,
    skills_shu,
    skills_wei,
    skills_wu,
)
from engines.sanguosha import rules as R
from engines.sanguosha.data import deck
from engines.sanguosha.packs import CORE, EQUIPMENT, IDENTITY, STANDARD_HEROES
from engines.sanguosha.rules import ROLE_NAMES, ROLES, say, who

State = dict[str, Any]


class IdentityMode(modes.Mode):
    name = "identity"
    packs = (CORE, EQUIPMENT, STANDARD_HEROES, IDENTITY)

    def new_game(self, options: dict[str, str], n: int, seed: int) -> State:
        """Roles dealt at random (the lord revealed). Beginner: everyone 4 HP (the lord +1 with 5+
        players: seed 分发体力牌), 4 cards each, and the lord's first turn started. Standard: the
        hero choice starts (``setup.py``), which then sets HP, deals and starts the lord's turn."""
        state = modes.table(options, n, seed, **({} if self.name == R.DEFAULT_MODE else {"mode": self.name}))
        standard = options["heroes"] == "standard"
        rng = Rng(state)
        roles = deal_roles(rng, n)
        cards = list(deck(self.deck))
        rng.shuffle(cards)
        state["deck"] = cards
        state["lord"] = roles.index("Z")
        for r in roles:
            hp = 0 if standard else 4 + (1 if r == "Z" and n >= 5 else 0)
            state["players"].append({
                "role": r, "hp": hp, "max": hp, "alive": True, "revealed": r == "Z",
                "hero": None if standard else "beginner", "gender": None, "kingdom": None, "skills": [],
                "hand": [], "equip": {"weapon": None, "armor": None, "plus": None, "minus": None}, "judge": [],
            })
        flow = R.flow_of(state)
        ctx = Ctx(flow, state)
        if standard:
            ctx.push("setup", st="start")
        else:
            for seat in R.living(state, state["lord"]):
                state["players"][seat]["hand"].extend(R.deal(state, 4))
            ctx.push("game", cur=None)
        flow.run(ctx)
        return state

    def first_seat(self, state: State) -> int:
        return int(state["lord"])

    def starts_round(self, state: State, seat: int) -> bool:
        return bool(seat == state["lord"])

    def allegiance_ref(self, state: State, seat: int) -> dict[str, Any]:
        return key_ref(f"sanguosha.role.{ROLE_NAMES[state['players'][seat]['role']]}")

    def winners(self, state: State) -> list[int] | None:
        """The winning seats if the game is decided (seed: 游戏结束)."""
        ps = state["players"]
        roles = [p["role"] for p in ps]
        alive = [i for i, p in enumerate(ps) if p["alive"]]
        if not ps[state["lord"]]["alive"]:
            if len(alive) == 1 and roles[alive[0]] == "N":
                return alive
            return [i for i, r in enumerate(roles) if r == "F"]
        if all(roles[i] in "ZC" for i in alive):
            return [i for i, r in enumerate(roles) if r in "ZC"]
        return None

    def camps(self, state: State) -> list[list[int]]:
        """Lord and loyalists, the rebels, and each renegade alone (a renegade wins only as the
        last one standing, so two renegades are two sides)."""
        out: dict[str, list[int]] = {}
        for i, p in enumerate(state["players"]):
            side = R.side(p["role"])
            out.setdefault(f"{side}{i}" if side == "renegade" else side, []).append(i)
        return list(out.values())

    def side(self, state: State, won: list[int]) -> str:
        roles = {state["players"][i]["role"] for i in won}
        return "lord" if "Z" in roles else "renegade" if roles == {"N"} else "rebel"

    def reward(self, ctx: Ctx, seat: int, src: int) -> None:
        s = ctx.state
        role = s["players"][seat]["role"]
        if role == "F":
            say(ctx, "reward", who=who(src))
            R.draw(ctx, src, 3)
        elif role == "C" and src == s["lord"]:
            say(ctx, "penalty", who=who(src))
            # every card of the lord's areas (the seed: 弃置区域内所有牌); before rules edition 4
            # the judgement area was kept
            R.to_discard(s, R.all_cards(s, src, judge=R.rules_edition(s) >= 4))

    def public_allegiance(self, state: State, seat: int) -> str | None:
        p = state["players"][seat]
        if p["revealed"] or seat == state["lord"]:
            return ROLE_NAMES[p["role"]]
        return None

    def own_allegiance(self, state: State, seat: int) -> str | None:
        return ROLE_NAMES[state["players"][seat]["role"]]

    def decide(self, state: State, seat: int, rng: random.Random, level: str) -> list[str]:
        return ai.decide(state, seat, rng, level)


def deal_roles(rng: Rng, n: int) -> list[str]:
    """The role letters of ``n`` seats as a new game deals them: the first draws of its seed,
    so the self-play ladder (:func:`camps`) knows the roles of a seed before it is played."""
    roles = list(ROLES[n])
    rng.shuffle(roles)
    return roles


def camps(seats: int, seed: int, a: str, b: str) -> list[str]:
    """The ladder's seating (``engines.selfplay.Assign``) for a team game: every seat of one
    side at one level — the lord and loyalists at ``a`` on even seeds, the rebels and the
    renegade at ``a`` on odd ones — so a level's per-seat win rate is its camps' wins, each level
    playing each side equally often, and the rate is ½ between equal levels."""
    roles = deal_roles(Rng({"rng": Rng.seed_value(seed)}), seats)
    lords, others = (a, b) if seed % 2 == 0 else (b, a)
    return [lords if r in "ZC" else others for r in roles]


MODE = IdentityMode()
modes.install(MODE, R.FLOW)
