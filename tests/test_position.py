"""`meeple run --from POSITION` on a small neutral ruleset: a position in the game's words sets
state, zones, dice, whose turn, round and phase; every problem is located; what it leaves out
keeps its setup value; `--json`'s position reads back to the same state; logs, replays and
resumes start from it again; and a `--dice` file fixes shuffles and blind draws."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cli.main import main
from interpreter.engine.chance import ScriptedChance
from interpreter.engine.setup import load, new_game
from interpreter.table import position
from interpreter.table.views import state_of

RULESET = """\
meeple: 1
metadata: {name: Test}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    die: {sides: 6}
    white: {count: 3, sides: 6, in: pool}
  zones:
    deck: {kind: deck}
    bag: {kind: bag}
    pool: {kind: pool}
    table: {kind: row}
    hand: {kind: pool, owner: player}
  decks:
    cards:
      in: deck
      cards: [{name: Ace, rank: 1}, {name: King, rank: 13}, {name: Queen, rank: 12},
              {name: Jack, rank: 11}]
    chips:
      in: bag
      known_by: [value]
      cards: [{value: 5}, {value: 5}, {value: 10}]
state:
  global:
    pot: 0
    best: {type: card, initial: none}
    seen: {type: list, initial: []}
    ledger: {type: map, initial: {}}
    leader: {type: player, initial: none}
  player:
    score: 0
  round:
    lap: 0
  turn:
    turn_total: 0
triggers:
  hello:
    on: game_start
    do: [say: "game starts"]
  new_round:
    on: round_start
    do: [say: "round {round} starts"]
flow:
  phases:
    setup:
      do: [shuffle: deck, say: "setup"]
      next: play
    play:
      on_begin: [say: "play begins"]
      turns: {order: clockwise}
      repeat: {times: 2}
      do:
        - say: "{current.name}: turn {turn}, round {round}, lap {lap}, total {turn_total}"
        - add: {turn_total: 1, lap: 1}
        - add: {current.score: turn_total}
      next: tally
    tally:
      do: [say: "tally"]
      next: end
scoring: {score: player.score, order: highest}
"""


@pytest.fixture
def ruleset(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(RULESET)
    return str(path)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def write(tmp_path, text: str, name: str = "pos.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def built(ruleset, text: str, tmp_path, players: int = 3):
    """A game built for `ruleset` and put at the position `text` (not yet run)."""
    game = new_game(load(ruleset).program, players, None, ScriptedChance())
    position.apply(game, position.check(position.load_position(write(tmp_path, text)), game))
    return game


def said(game) -> list[str]:
    return [r["text"] for r in game.log if r["t"] == "say"]


# -- what a position sets ---------------------------------------------------------------------

def test_a_position_sets_state_zones_and_dice_in_the_games_words(ruleset, tmp_path):
    game = built(ruleset, """\
        state:
          pot: 12
          best: King
          seen: [{card: Ace}, {player: Player 2}, B4]
          ledger: {Player 1: 3}
          leader: 2
        players:
          Player 1: {score: 40, hand: [Queen, chips=10]}
          3: {score: 7}
        zones:
          deck: [Jack, Ace]
          table: [{die: "white[1]", face: 6}]
        dice: {die: 3, white: [2, 6, 5]}
        """, tmp_path)
    env, cards = game.env, {c.name: c for c in game.env["cards"]}
    assert env["pot"] == 12 and env["best"] is cards["King"]
    assert env["seen"] == [cards["Ace"], game.players[1], "B4"]  # an untagged text stays one
    assert env["ledger"] == {"Player 1": 3} and env["leader"] is game.players[1]
    p1, p2, p3 = game.players
    assert (p1.score, p2.score, p3.score) == (40, 0, 7)
    assert p1.hand.items == [cards["Queen"], env["chips"][2]]  # chips=10: the $10 chip
    assert game.zones["deck"].items == [cards["Jack"], cards["Ace"]]  # top first
    # A zone the position lists holds exactly that; King is out of play, held by `best`.
    assert cards["King"].zone == ""
    assert [d.id for d in game.zones["table"].items] == ["white[1]"]
    assert [d.id for d in game.zones["pool"].items] == ["white[0]", "white[2]"]  # unlisted
    assert env["die"].face == 3 and [d.face for d in env["white"]] == [2, 6, 5]
    assert [c.value for c in game.zones["bag"].items] == [5, 5]  # the rest keep their place


def test_what_a_position_leaves_out_keeps_its_setup_value(ruleset, tmp_path):
    game = built(ruleset, "players: {Player 2: {score: 9}}\n", tmp_path)
    assert [p.score for p in game.players] == [0, 9, 0]
    assert [c.name for c in game.zones["deck"].items] == ["Ace", "King", "Queen", "Jack"]
    assert game.env["pot"] == 0 and game.begin is None


def test_without_a_phase_the_game_begins_as_usual_from_the_position(ruleset, tmp_path):
    game = built(ruleset, "players: {Player 2: {score: 9}}\n", tmp_path)
    result = game.run()
    assert said(game)[:3] == ["game starts", "setup", "play begins"]
    assert [s.score for s in result.seats] == [2, 11, 2]  # 9 + two turns of 1


def test_a_phase_begins_there_without_game_start_or_the_phases_before(ruleset, tmp_path):
    game = built(ruleset, "phase: play\nround: 4\nturn: 10\n", tmp_path)
    game.run()
    lines = said(game)
    assert lines[:3] == ["play begins", "round 5 starts", "Player 1: turn 11, round 5, lap 0, total 0"]
    assert "game starts" not in lines and "setup" not in lines
    assert lines[-1] == "tally"


def test_current_resumes_inside_the_phase_at_that_players_turn_keeping_turn_state(
        ruleset, tmp_path):
    game = built(ruleset, """\
        phase: play
        round: 3
        turn: 8
        current: Player 2
        state: {turn_total: 5, lap: 4}
        """, tmp_path)
    game.run()
    lines = said(game)
    # The phase's beginning and round 3's start are behind the position: Player 2's turn is
    # turn 8 of round 3, with the position's turn and round state; Player 1 has had this turn.
    assert lines[:3] == ["Player 2: turn 8, round 3, lap 4, total 5",
                         "Player 3: turn 9, round 3, lap 5, total 0",
                         "round 4 starts"]
    assert "play begins" not in lines
    # The phase's two passes are this round and the next: 5 + 1, then 1 more for Player 2.
    assert [p.score for p in game.players] == [1, 7, 2]


def test_phase_end_scores_the_position_at_once(ruleset, tmp_path):
    game = built(ruleset, "phase: end\nplayers: {1: {score: 3}, 2: {score: 8}}\n", tmp_path)
    result = game.run()
    assert result.winners == ["Player 2"] and said(game) == [] and result.turns == 0


# -- located errors ---------------------------------------------------------------------------

BAD = {
    "unknown state": ("state: {pott: 3}\n",
                      ":1:9:", "no table state is called 'pott' (did you mean 'pot'?)"),
    "player state at the table": ("state: {score: 3}\n", ":1:9:", "'score' is each player's"),
    "wrong type": ("players:\n  Player 1: {score: lots}\n",
                   ":2:21:", "score: the text 'lots' where a whole number is wanted"),
    "wrong type in a typed thing": ("state: {best: {player: Player 1}}\n",
                                    ":1:15:", "a player where a card is wanted"),
    "unknown card": ("zones: {deck: [Ace, Jokr]}\n", ":1:21:", "no card or die is called 'Jokr'"),
    "a card in two places": ("zones: {deck: [Ace]}\nplayers: {Player 1: {hand: [King, Ace]}}\n",
                             ":2:35:", "Ace is already placed at line 1"),
    "unknown phase": ("phase: plya\n", ":1:8:", "no phase is called 'plya' (did you mean 'play'?)"),
    "unknown player": ("current: Player 7\n",
                       ":1:10:", "no player is called 'Player 7' in a game of 3"),
    "a face the die lacks": ("dice: {die: 7}\n", ":1:13:", "die has no face 7"),
    "too few faces": ("dice: {white: [1, 2]}\n", ":1:15:", "white is 3 dice"),
    "a kind with none left": ("zones: {table: [chips=10, chips=10]}\n",
                              ":1:27:", "no chips piece that people call '10' is left"),
    "a die given two faces": ('dice: {white: [1, 2, 3]}\n'
                              'zones: {pool: [{die: "white[0]", face: 4}]}\n',
                              ":2:40:", "white[0] is given two faces (1 at line 1 and 4)"),
    "unknown key": ("phases: play\n", ":1:1:", "unknown key 'phases' (did you mean 'phase'?)"),
    "parameters": ("parameters: {x: 1}\n", ":1:1:", "--set NAME=VALUE"),
    "not a mapping": ("[1, 2]\n", ":1:1:", "the position is a list, not a mapping"),
    "a huge number": ("state: {pot: 1e300}\n", ":1:14:", "where a whole number is wanted"),
    "an eliminated current": ("current: 2\nplayers: {2: {eliminated: true}}\n",
                              ":1:10:", "Player 2 is eliminated"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_position_is_refused_located_with_exit_2(ruleset, tmp_path, case):
    text, where, words = BAD[case]
    path = write(tmp_path, text)
    out = run("run", ruleset, "--from", path)
    assert out.exit_code == 2, out.output
    assert f"pos.yaml{where} error: --from: " in out.output, out.output
    assert words in out.output and "[bad-input]" in out.output
    assert "Traceback" not in out.output


def test_every_problem_of_a_position_is_reported_not_only_the_first(ruleset, tmp_path):
    path = write(tmp_path, "phase: nowhere\nstate: {pott: 1}\nplayers: {Player 9: {}}\n")
    out = run("run", ruleset, "--from", path)
    assert out.exit_code == 2
    assert re.findall(r"pos\.yaml:(\d+:\d+): error", out.output) == ["1:8", "2:9", "3:11"]


def test_an_unreadable_position_is_refused_like_any_data_file(ruleset, tmp_path):
    path = tmp_path / "pos.yaml"
    path.write_bytes(b"phase: [play\n")
    out = run("run", ruleset, "--from", str(path))
    assert out.exit_code == 2 and "--from: YAML syntax" in out.output
    out = run("run", ruleset, "--from", str(tmp_path / "missing.yaml"))
    assert out.exit_code == 2 and "--from: cannot read" in out.output


# -- the position of --json, read back ----------------------------------------------------------

def test_json_gives_the_final_position_and_from_reads_it_back_to_the_same_state(
        ruleset, tmp_path):
    first = run("run", ruleset, "--seed", "4", "--json", "--from", write(tmp_path, """\
        players: {Player 1: {hand: [King, chips=5]}}
        zones: {table: ["white[2]"], deck: [Queen]}
        state: {seen: [{card: Jack}, 3, {player: 3}], best: Ace}
        """))
    assert first.exit_code == 0, first.output
    final = json.loads(first.output)["position"]
    assert final["phase"] == "end" and final["players"]["Player 1"]["hand"] == ["King", "chips[0]"]
    assert final["state"]["seen"] == [{"card": "Jack"}, 3, {"player": "Player 3"}]
    assert final["out"] == ["Ace", "Jack"]  # what started in a zone and is in none now
    path = tmp_path / "final.json"
    path.write_text(json.dumps(final))
    game = new_game(load(ruleset).program, 3, None, ScriptedChance())
    position.apply(game, position.check(position.load_position(str(path)), game))
    assert position.position_of(game) == final
    again = run("run", ruleset, "--json", "--from", str(path))
    assert again.exit_code == 0, again.output
    again = json.loads(again.output)
    assert again["position"] == final
    assert [s["score"] for s in again["seats"]] == [s["score"] for s in
                                                    json.loads(first.output)["seats"]]


def test_a_position_read_back_gives_the_whole_state_of_the_game_it_came_from(ruleset, tmp_path):
    game = new_game(load(ruleset).program, 3, None, ScriptedChance([4, 1, 2, 6]))
    game.run()
    path = tmp_path / "final.json"
    path.write_text(json.dumps(position.position_of(game)))
    again = new_game(load(ruleset).program, 3, None, ScriptedChance())
    position.apply(again, position.check(position.load_position(str(path)), again))
    assert state_of(again, None) == state_of(game, None)


# -- logs, replays and resumes ------------------------------------------------------------------

def test_a_game_from_a_position_is_logged_replayed_and_resumed_from_it(ruleset, tmp_path):
    pos = write(tmp_path, "phase: play\ncurrent: Player 3\nplayers: {3: {score: 50}}\n")
    log = tmp_path / "g.jsonl"
    played = run("run", ruleset, "--from", pos, "--log", str(log), "--json")
    assert played.exit_code == 0, played.output
    head = json.loads(log.read_text().splitlines()[0])
    assert head["from"]["path"] == pos and "score: 50" in head["from"]["text"]
    replayed = run("replay", str(log), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["seats"] == json.loads(played.output)["seats"]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(log.read_text().splitlines()[:6]) + "\n")
    resumed = run("run", "--resume", str(cut), "--json")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.output)["seats"] == json.loads(played.output)["seats"]
    assert run("run", "--resume", str(cut), "--from", pos).exit_code == 2


def test_a_logs_position_is_checked_like_the_file(ruleset, tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", ruleset, "--from", write(tmp_path, "phase: play\n"), "--log", str(log), "--json")
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["from"]["text"] = "phase: nowhere\n"
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    out = run("replay", str(log))
    assert out.exit_code == 2 and "pos.yaml:1:8: error: --from: no phase" in out.output
    head["from"] = {"path": "pos.yaml", "text": 3}
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    out = run("replay", str(log))
    assert out.exit_code == 1 and "'from' must hold the position's text" in out.output


# -- --dice files fix shuffles and blind draws ----------------------------------------------------

def test_a_dice_file_fixes_a_shuffle_and_a_blind_draw(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(HEAD_CARDS)
    dice = write(tmp_path, """\
        faces: [4]
        shuffles:
          - {zone: deck, order: [Queen, Ace]}
        draws:
          - [chips=10]
        """, "dice.yaml")
    out = run("run", str(path), "--dice", dice, "--json")
    assert out.exit_code == 0, out.output
    final = json.loads(out.output)["position"]
    # The shuffle put Queen and Ace on top, the rest as they were; the first player drew the
    # top card (Queen) and the $10 chip blind; the die showed 4.
    assert final["zones"]["deck"] == ["Ace", "King", "Jack"]
    assert final["players"]["Player 1"]["hand"] == ["Queen", "chips[2]"]
    assert final["dice"]["die"] == 4


@pytest.mark.parametrize("text, code, words", [
    ("shuffles: [[Quen]]\n", 2,
     "dice.yaml:1:13: error: --dice: no card or die is called 'Quen' (did you mean 'Queen'?)"),
    ("shuffles: [{zone: dek, order: []}]\n", 2,
     "dice.yaml:1:19: error: --dice: a shuffle of 'dek': no zone is called so "
     "(did you mean 'deck'?)"),
    ("draws: [{items: [chips=5], from: bag}]\n", 2,
     "dice.yaml:1:28: error: --dice: a blind draw 1: unknown key 'from'"),
    ("draws: 3\n", 2, "dice.yaml:1:8: error: --dice: 'draws' is a number, not a list"),
    ("shuffles: [{zone: bag, order: [Ace]}]\n", 1,
     "shuffle 1 (line 1) is of bag, but the game takes it from deck"),
    ("faces: [4]\ndraws: [[chips=5, chips=10]]\n", 1,
     "blind draw 1 (line 2) names 2 pieces, but the game draws 1"),
])
def test_a_dice_files_shuffles_and_draws_are_checked(tmp_path, text, code, words):
    path = tmp_path / "cards.yaml"
    path.write_text(HEAD_CARDS)
    out = run("run", str(path), "--dice", write(tmp_path, text, "dice.yaml"))
    assert out.exit_code == code, out.output
    assert words in out.output and "Traceback" not in out.output


HEAD_CARDS = """\
meeple: 1
metadata: {name: Cards}
players: {min: 1, max: 2, default: 1}
components:
  dice:
    die: {sides: 6}
  zones:
    deck: {kind: deck}
    bag: {kind: bag}
    hand: {kind: pool, owner: player}
  decks:
    cards:
      in: deck
      cards: [{name: Ace}, {name: King}, {name: Queen}, {name: Jack}]
    chips:
      in: bag
      known_by: [value]
      cards: [{value: 5}, {value: 5}, {value: 10}]
flow:
  phases:
    play:
      turns: {order: clockwise}
      do:
        - shuffle: deck
        - draw: deck
          as: top
          to: current.hand
        - draw: bag
          as: chip
          to: current.hand
        - roll: die
      next: end
scoring: {score: "count(player.hand)", order: highest}
"""


# -- nothing a position or a dice file says ends in a traceback ---------------------------------

WORDS = ["play", "end", "Player 1", "2", "pot", "score", "hand", "deck", "bag", "Ace", "King",
         "chips=5", "white=3", "white[1]", "die", "card", "player", "die", "face", "lap",
         "turn_total", "seen", "best", "ledger", "leader", "x", "order", "items", "zone"]
values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10**20, max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(WORDS)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(WORDS), inner, max_size=3), max_leaves=12)
documents = st.dictionaries(st.sampled_from(
    ["phase", "round", "turn", "current", "state", "players", "teams", "zones", "dice", "out",
     "x"]), values, max_size=5)
dice_documents = st.dictionaries(st.sampled_from(["faces", "shuffles", "draws", "x"]), values,
                                 max_size=3)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=documents, dice_document=dice_documents)
def test_any_position_or_dice_file_gets_a_clean_answer(tmp_path_factory, document,
                                                       dice_document):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "game.yaml").write_text(RULESET)
    (folder / "cards.yaml").write_text(HEAD_CARDS)
    (folder / "pos.json").write_text(json.dumps(document))
    (folder / "dice.json").write_text(json.dumps(dice_document))
    for out in (run("run", str(folder / "game.yaml"), "--from", str(folder / "pos.json")),
                run("run", str(folder / "cards.yaml"), "--dice", str(folder / "dice.json"))):
        assert out.exception is None or isinstance(out.exception, SystemExit), (
            repr(out.exception), document, dice_document)
        assert out.exit_code in (0, 1, 2) and "Traceback" not in out.output


# -- the worked examples of docs/running.md do what it says -------------------------------------

def _example(first_line: str) -> str:
    text = (Path(__file__).resolve().parents[1] / "docs" / "running.md").read_text()
    found = re.search(r"```yaml\n(" + re.escape(first_line) + r".*?)```", text, re.S)
    assert found, first_line
    return found.group(1)


def test_the_worked_examples_of_running_md_play_as_it_says(tmp_path):
    dws = str(Path(__file__).resolve().parents[1] / "rulesets" / "dark_water_salvage.yaml")
    out = run("run", dws, "--from", write(tmp_path, _example("# end_game.yaml"), "end.yaml"))
    assert out.exit_code == 0, out.output
    assert "from the position in" in out.output and "at phase start_cities" in out.output
    assert "Player 1 hires a boat at Westport" in out.output
    assert "Kestrel is salvaged: worth $63; Player 1 gains 8 Prestige" in out.output
    assert "Player 1 located Kestrel in B1: 5 Prestige" in out.output
    dice = write(tmp_path, _example("# salvage.dice.yaml"), "salvage.dice.yaml")
    out = run("run", dws, "--players", "2", "--dice", dice, "--json")
    assert out.exit_code == 0, out.output
    final = json.loads(out.output)["position"]
    assert final["state"]["wreck_region"]["Kestrel"] == "I3"
    assert final["state"]["wreck_value"]["Kestrel"] == {"card": "V12"}
    assert final["state"]["wreck_region"]["Amber Gull"] == "F1"
    out = run("run", dws, "--players", "2", "--dice", dice)
    assert "Player 1 holds Turn Order card 2" in out.output
    assert "Player 2 holds Turn Order card 1" in out.output
    assert "the GLNS offers $35 in loans" in out.output


# -- teams, and snapshots of a game from a position -------------------------------------------

TEAMS = """\
meeple: 1
metadata: {name: Teams}
players: {min: 4, max: 4}
teams: {names: [red, blue], assign: alternate}
components:
  zones:
    stash: {kind: pool, owner: team}
  decks:
    gems:
      cards: [{name: Ruby}, {name: Pearl}]
state:
  team:
    points: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      do: [add: {current.team.points: 1}]
      next: end
scoring: {score: player.team.points, order: highest}
"""


def test_a_position_sets_each_teams_state_and_zones(tmp_path):
    path = tmp_path / "teams.yaml"
    path.write_text(TEAMS)
    out = run("run", str(path), "--json", "--from", write(tmp_path, """\
        teams:
          red: {points: 10, stash: [Ruby]}
          blue: {points: 3, stash: [Pearl]}
        """))
    assert out.exit_code == 0, out.output
    final = json.loads(out.output)["position"]
    assert final["teams"] == {"red": {"points": 12, "stash": ["Ruby"]},
                              "blue": {"points": 5, "stash": ["Pearl"]}}
    out = run("run", str(path), "--from", write(tmp_path, "teams: {green: {points: 1}}\n"))
    assert out.exit_code == 2 and "no team is called 'green'" in out.output


def test_a_snapshot_of_a_game_from_a_position_restores_it(tmp_path):
    from interpreter.engine.chance import SeededChance
    from interpreter.table.snapshot import restore, save

    class Stop(Exception):  # noqa: N818 - carries the snapshot out of the game
        pass

    program = load(str(Path(__file__).resolve().parents[1] / "rulesets" / "pig.yaml")).program
    text = "phase: play\ncurrent: Player 2\nplayers: {Player 1: {score: 50}, 2: {score: 60}}\n"
    where = write(tmp_path, text)

    def from_position():
        game = new_game(program, 2, None, SeededChance(5), 5)
        position.apply(game, position.check(position.load_position(where), game))
        return game
    full = from_position()
    full.run()
    game = from_position()
    seen = []

    def hook(g, req):
        seen.append(req)
        if len(seen) == 3:
            raise Stop(save(g, req))
    game.on_decision = hook
    with pytest.raises(Stop) as stopped:
        game.run()
    saved = json.loads(json.dumps(stopped.value.args[0]))
    assert saved["from"]["text"] == text
    clone = restore(program, saved)  # replayed from the position, its state checked
    clone.run()
    assert clone.log == full.log
    assert full.log[0] == {"t": "phase", "phase": "play"}  # no game_start before it
