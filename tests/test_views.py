"""Views: at every decision of a seeded game of every shipped ruleset, each player's view
shows another player's private values (and hidden ones) only as "hidden"."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.chance import SeededChance
from interpreter.engine.decisions import Controller
from interpreter.engine.setup import controller_for, load, new_game
from interpreter.table.views import HIDDEN, state_of

ROOT = Path(__file__).resolve().parents[1]
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


def _vis(spec) -> str:
    return spec.get("visibility", "public") if isinstance(spec, dict) else "public"


def leaks(game, viewer) -> list[str]:
    """What this viewer's view shows that the visibility rules forbid it to see."""
    data = game.program.data
    view = state_of(game, viewer)
    out = []
    state = data.get("state") or {}
    for scope in ("global", "round", "turn"):
        for name, spec in (state.get(scope) or {}).items():
            if _vis(spec) in ("hidden", "owner", "others") and view["state"][name] != HIDDEN:
                out.append(f"{scope} {name}")
    zones = (data.get("components") or {}).get("zones") or {}
    for row, player in zip(view["players"], game.players, strict=True):
        mine = player is viewer
        for name, spec in (state.get("player") or {}).items():
            vis = _vis(spec)
            forbidden = vis == "hidden" or (vis == "owner" and not mine) or (
                vis == "others" and mine)
            if forbidden and row[name] != HIDDEN:
                out.append(f"{player.name}.{name}")
        for name, spec in zones.items():
            vis = spec.get("visibility", "public")
            if spec.get("owner") == "player" and (vis == "hidden" or (vis == "owner" and not mine)
                                                  or (vis == "others" and mine)):
                if row[name] != {"count": len(getattr(player, name).items), "items": HIDDEN}:
                    out.append(f"{player.name}.{name}")
    for row, team in zip(view.get("teams") or [], game.teams, strict=True):
        ours = viewer is not None and viewer.team is team
        for name, spec in [*(state.get("team") or {}).items(),
                           *((k, z) for k, z in zones.items() if z.get("owner") == "team")]:
            vis = _vis(spec)
            forbidden = vis == "hidden" or (vis == "owner" and not ours) or (
                vis == "others" and ours)
            shown_hidden = ({"count": len(getattr(team, name).items), "items": HIDDEN}
                            if name in zones else HIDDEN)
            if forbidden and row[name] != shown_hidden:
                out.append(f"team {team.name}.{name}")
    for name, t in game.timers.items():
        if (t.visibility == "others" and t.owner is viewer) or t.visibility == "hidden":
            if view["timers"][name]["remaining"] != HIDDEN:
                out.append(f"timer {name}")
    return out


class Watching(Controller):
    """Checks every player's view before passing the decision to the seat's own controller."""

    def __init__(self, inner, problems, checked):
        self.inner, self.problems, self.checked = inner, problems, checked
        self.name = inner.name

    def decide(self, game, request):
        for viewer in game.players:
            self.problems += [f"{viewer.name} sees {x}" for x in leaks(game, viewer)]
            self.checked.append(1)
        return self.inner.decide(game, request)


@pytest.mark.parametrize("name", RULESETS)
def test_no_view_holds_another_players_hidden_values(name):
    variants = [None, *((load(str(ROOT / "rulesets" / f"{name}.yaml")).program.data
                         .get("variants") or {}).keys())]
    checked: list = []
    for variant in variants:
        program = load(str(ROOT / "rulesets" / f"{name}.yaml"), variant).program
        for seed in range(3):
            problems: list[str] = []
            n = program.data["players"].get("default", program.data["players"]["min"])
            ctrls = {i + 1: Watching(controller_for(program, None), problems, checked)
                     for i in range(n)}
            game = new_game(program, None, None, SeededChance(seed), seed, controllers=ctrls)
            game.run()  # a game the interpreter cannot finish yet is still checked up to there
            assert problems == [], f"{name} {variant} seed {seed}: {problems[:5]}"
    assert checked, "no decision was reached, so no view was checked"


def test_the_hidden_timer_variant_hides_the_dive_timer_from_its_diver_only():
    program = load(str(ROOT / "rulesets" / "wreckdivers.yaml"), "hidden_timer").program
    seen = {}

    class Look(Controller):
        name = "look"

        def decide(self, game, request):
            if request.id == "dive_action" and not seen:
                diver = request.player
                other = next(p for p in game.players if p is not diver)
                seen["diver"] = state_of(game, diver)["timers"]["dive"]["remaining"]
                seen["other"] = state_of(game, other)["timers"]["dive"]["remaining"]
            return request.options[-1]  # ascend

    game = new_game(program, 2, None, SeededChance(1), 1, controllers={1: Look(), 2: Look()})
    game.run()
    assert seen["diver"] == HIDDEN
    assert isinstance(seen["other"], float | int) and seen["other"] > 0


TEAM_SECRETS = """\
meeple: 1
metadata: {name: Team secrets}
players: {min: 4, max: 4}
teams: {names: [red, blue]}
components:
  dice:
    die: {count: 2, in: supply}
  zones:
    supply: {kind: pool}
    vault: {kind: pool, owner: team, visibility: owner}
state:
  team:
    plan: {type: int, initial: 7, visibility: owner}
    score: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      do:
        - move: "[first(supply)]"
          to: current.team.vault
        - end_game
"""


def test_a_teams_own_state_and_zones_are_seen_by_its_members_only(tmp_path):
    path = tmp_path / "secrets.yaml"
    path.write_text(TEAM_SECRETS)
    game = new_game(load(str(path)).program, 4, None, SeededChance(0), 0)
    game.run()
    p1, p2 = game.players[0], game.players[1]  # teams alternate: red, blue
    red_as_p1 = state_of(game, p1)["teams"][0]
    red_as_p2 = state_of(game, p2)["teams"][0]
    assert red_as_p1["name"] == "red" and red_as_p1["members"] == ["Player 1", "Player 3"]
    assert red_as_p1["plan"] == 7 and red_as_p1["vault"] == [{"die": "die[0]", "face": None}]
    assert red_as_p2["plan"] == HIDDEN and red_as_p2["vault"] == {"count": 1, "items": HIDDEN}
    assert red_as_p2["score"] == 0  # public team state: everyone sees it
    assert leaks(game, p1) == [] and leaks(game, p2) == []
