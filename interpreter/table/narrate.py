"""Phase 6, run (narration): log records to lines a person can follow.

Input: the records a game writes (interpreter/engine/game.py `record`), one at a time, and who is
watching (None: the whole table; a player: only what that player may see). Output: text
lines in the game's own words (interpreter/engine/words.py): phases and turns as headings,
each roll said by whoever rolled it with its dice by their labels, decisions by their
option's label, draws, moves and deals by the zones' labels, transfers by the state's label,
eliminations, timers, events, and the result with a score table. No line names a rule, a
check, a procedure or an item by the engine's id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.values import visible_to
from interpreter.engine.words import (
    capital,
    counted,
    item,
    items_words,
    label,
    lower_first,
    number,
    phase_label,
    readable,
    who,
    zone_words,
)


class _Public:
    """The viewer that is everyone at once: a screen nobody holds yet sees only what every
    player may see."""

    name = None
    team = None

    def __repr__(self) -> str:
        return "the table"


PUBLIC = _Public()


def describe(game, rec: dict, viewer=None) -> str | None:
    """One record as a line of narration, or None when it is not for this viewer."""
    t = rec["t"]
    if t == "phase":
        return f"\n== {phase_label(game, rec['phase'])} =="
    if t == "turn":
        return f"\n-- round {rec['round']}, turn {rec['turn']}: {rec['player']} --"
    if t == "say":
        to = rec.get("to")
        if to is not None and viewer is not None and viewer.name not in to:
            return None
        text = rec["text"].rstrip()  # a YAML folded text (`>`) ends with a newline
        if to is None:
            return f"  {text}"
        # A person sees their own private lines as such; the whole table's narration (bots,
        # a log read afterwards) says whose they are.
        return f"  (private) {text}" if viewer is not None else \
            f"  (to {', '.join(map(str, to))}) {text}"
    if t == "eliminated":
        because = rec.get("because")
        return f"  {rec['player']} is out" + (f": {because}" if because else "")
    words = _WORDS.get(t)
    # The rule's own steps say what a trigger or a check does; their names are the engine's.
    return words(game, rec, viewer) if words is not None else None


def _roll(game, rec: dict, viewer) -> str:
    """A roll as each viewer may see it, one line per roller: dice in the open with their
    faces; dice in a zone not everyone sees with their faces only for those who see that zone
    ("Player 2 rolls 5 dice in their cup, out of sight")."""
    dice, faces = rec["dice"], rec["faces"]
    by = rec.get("by") or [game.current.name] * len(dice)  # a record from before `by`
    groups = rec.get("private") or []
    grouped = {i for g in groups for i in g["items"]}
    lines = []
    in_open: dict[Any, list[int]] = {}
    for i in range(len(dice)):
        if i not in grouped:
            in_open.setdefault(by[i] if i < len(by) else None, []).append(i)
    for roller, places in in_open.items():
        lines.append(f"{capital(who(game, roller))} rolls " + items_words(
            game, [dice[i] for i in places], [faces[i] for i in places]))
    for g in groups:
        first = g["items"][0]
        name = who(game, by[first] if first < len(by) else g["owner"])
        where = zone_words(game, g["zone"], name)
        k = len(g["items"])
        if not _sees(g, viewer):
            lines.append(f"{capital(name)} rolls {counted(k, 'die', 'dice')} in {where}, "
                         "out of sight")
            continue
        text = items_words(game, [dice[i] for i in g["items"]], [faces[i] for i in g["items"]])
        mark = " (private)" if viewer is not None else (
            f" (seen by {', '.join(g['to'])})" if g["to"] else " (seen by nobody)")
        lines.append(f"{capital(name)} rolls {text} in {where}{mark}")
    return "\n".join("  " + line for line in lines)


def _decision(game, rec: dict, viewer) -> str | None:
    if rec.get("only"):
        return None  # one legal option: nobody decided anything
    if rec.get("sealed") and (viewer is None or viewer.name != rec["by"]):
        return f"  {rec['by']} decides (sealed)"  # the choice is shown at the reveal
    return f"  {rec['by']} chooses {lower_first(readable(rec['id']))}: " + choice_words(
        game, rec["choice"], rec.get("label"), viewer)


def choice_words(game, choice: Any, label_text: str | None = None, viewer=None) -> str:
    """A decision's answer as people read it: the option's own label; a named option by a
    readable form of its name; a die by its kind and face (when the viewer sees it), a card
    by its name; a player, a number or a text as it is."""
    if label_text:
        return label_text
    thing = item(game, choice) if isinstance(choice, str) else None
    if thing is not None:
        z = game.zone_of(thing)
        if z is not None and not visible_to(z.visibility, z.owner, viewer):
            return "one out of sight"
        return items_words(game, [choice])
    if isinstance(choice, str) and _named(choice) and not _someone(game, choice):
        return readable(choice)
    return number(choice) if isinstance(choice, (int, float)) else str(choice)


def _named(text: str) -> bool:
    return text.isidentifier() and text.isascii()


def _someone(game, name: str) -> bool:
    return any(p.name == name for p in game.players) or any(t.name == name for t in game.teams)


def _race(game, rec: dict, viewer) -> str:
    if "counts" in rec:  # a counting table's report: how many of each kind each took
        return f"  {readable(rec['id'])}: " + "; ".join(
            f"{who(game, racer)} takes " + (", ".join(
                f"{n} {lower_first(readable(kind))}" for kind, n in counts.items() if n)
                or "nothing")
            for racer, counts in rec["counts"].items())
    missed = rec.get("missed") or {}
    lines = [f"{readable(rec['id'])} ({rec['seconds']:.1f} s):"]
    for racer, items in rec["claims"].items():
        line = f"{who(game, racer)} takes " + (_items(game, items, viewer) if items else
                                                 "nothing")
        if missed.get(racer):
            line += f" (too slow for {_items(game, missed[racer], viewer)})"
        lines.append("  " + line)
    return "\n".join("  " + line for line in lines)


def _items(game, ids: list, viewer, unseen: set[int] | None = None) -> str:
    """Items a viewer reads about: those they may see in words, the others counted. `unseen`:
    the places a move or a deal kept from the viewer (an item people saw go into a cup is
    no secret); without it, an item lying in a zone the viewer cannot see is unseen."""
    shown, hidden = [], 0
    for i, x in enumerate(ids):
        thing = item(game, x)
        z = game.zone_of(thing) if thing is not None and unseen is None else None
        if (unseen is not None and i in unseen) or (
                z is not None and not visible_to(z.visibility, z.owner, viewer)):
            hidden += 1
        else:
            shown.append(x)
    parts = ([items_words(game, shown)] if shown else []) + (
        [counted(hidden, "item") + " out of sight"] if hidden else [])
    return "; ".join(parts) or "nothing"


def _revealed(game, rec: dict, viewer) -> str:
    return f"  Revealed together, {lower_first(readable(rec['id']))}: " + "; ".join(
        f"{k}: {choice_words(game, v)}" for k, v in rec["choices"].items())


def _transfer(game, rec: dict, viewer) -> str:
    """A transfer of a per-player quantity by its label, with what each side now has (where
    the viewer may see it)."""
    of = rec["of"]
    words = {"bank": "the bank"}
    line = (f"  {label(game, of)}: {number(rec['amount'])} from "
            f"{words.get(rec['source'], rec['source'])} to {words.get(rec['to'], rec['to'])}")
    spec = ((game.program.data.get("state") or {}).get("player") or {}).get(of)
    vis = spec.get("visibility", "public") if isinstance(spec, dict) else "public"
    now = []
    for name in (rec["source"], rec["to"]):
        p = next((q for q in game.players if q.name == name), None)
        if p is not None and visible_to(vis, p, viewer):
            value = getattr(p, of, None)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                now.append(f"{name} has {number(value)}")
    return line + (f" ({', '.join(now)})" if now else "")


def _timer(game, rec: dict, viewer) -> str | None:
    name, action = label(game, rec["timer"]), rec["action"]
    if action == "start":
        return f"  Timer started: {name}, {number(rec['seconds'])} s"
    if action == "stop":
        return None if _hidden_timer(game, rec["timer"], viewer) else \
            f"  Timer stopped: {name}, with {rec['left']:.1f} s to spare"
    return f"  Time is up: {name}!"


def _raised(game, rec: dict, viewer) -> str:
    by = rec.get("by")
    event = readable_event(rec["event"])
    return f"  ! {capital(who(game, by))} calls {event}" if by else \
        f"  ! {event} happens"  # by chance (a hazard): no one called it


def _doer(game, zone_id: Any) -> str:
    """Who handles a zone's items: its owner; else the player whose turn it is; else (setup,
    a phase's on_begin) the table."""
    owner = str(zone_id).rpartition(".")[0]
    if owner:
        return who(game, owner)
    return game.current.name if game.in_turn else "the table"


def _draw(game, rec: dict, viewer) -> str:
    ids = rec["items"]
    there = game.zone_of(item(game, ids[0])) if ids else None
    doer = who(game, rec["by"]) if "by" in rec else _doer(
        game, there.id if there is not None and there.owner is not None else rec["source"])
    return f"  {capital(doer)} draws {len(ids)} from {zone_words(game, rec['source'], doer)}"


def _deal(game, rec: dict, viewer) -> str:
    ids = rec["items"]
    there = game.zone_of(item(game, ids[0])) if ids else None
    to = f" to {zone_words(game, there.id)}" if there is not None else ""
    return (f"  Dealt from {zone_words(game, rec['source'])}{to}: "
            + _items(game, ids, viewer, _unseen(rec, viewer)))


def _move(game, rec: dict, viewer) -> str | None:
    if not rec["items"]:
        return None  # nothing moved
    to = rec["to"]
    head = "Out of the game" if to == "out" else (
        f"Moved to {zone_words(game, to)}" if isinstance(to, str) else f"Moved to {to}")
    return f"  {head}: " + _items(game, rec["items"], viewer, _unseen(rec, viewer))


def _shuffle(game, rec: dict, viewer) -> str:
    doer = _doer(game, rec["zone"])
    return f"  {capital(doer)} shuffles {zone_words(game, rec['zone'], doer)}"


_WORDS: dict[str, Callable[[Any, dict, Any], str | None]] = {
    "roll": _roll, "decision": _decision, "race": _race, "revealed": _revealed,
    "transfer": _transfer, "timer": _timer, "raised": _raised, "draw": _draw, "deal": _deal,
    "move": _move, "shuffle": _shuffle,
}


def _sees(group: dict, viewer) -> bool:
    return viewer is None or getattr(viewer, "name", None) in group["to"]


def _unseen(rec: dict, viewer) -> set[int]:
    """The places of the record's items that lie in a zone hidden from `viewer`."""
    return {i for g in rec.get("private") or () if not _sees(g, viewer) for i in g["items"]}


def input_words(game, rec: dict) -> str:
    """A thing people entered (a roll typed in, a choice, a race's report, a blind draw, an
    event raised), said as what an `undo` takes back: "the roll of red die ⚀ 1; blue die ⚃ 4",
    "Player 1's choice for keep or pass: keep". Faces rolled out of sight are
    counted, not shown."""
    t = rec["t"]
    if t == "roll":
        if rec.get("private"):
            return f"the roll of {counted(len(rec['dice']), 'die', 'dice')}, out of sight"
        return "the roll of " + items_words(game, rec["dice"], rec["faces"])
    if t == "decision":
        return (f"{rec['by']}'s choice for {lower_first(readable(rec['id']))}: "
                + choice_words(game, rec["choice"], rec.get("label")))
    if t == "race":
        return (f"the {'counts' if 'counts' in rec else 'claims'} of the "
                f"{lower_first(readable(rec['id']))}")
    if t == "draw":
        return (f"the draw of {items_words(game, rec['items'])} from "
                f"{zone_words(game, rec['source'])}")
    return f"the event {readable_event(rec['event'])} raised by {who(game, rec.get('by'))}"


def readable_event(name: str) -> str:
    """An event's name as people say it: `dice_knocked` -> "dice knocked"."""
    return name.replace("_", " ")


def _hidden_timer(game, name: str, viewer) -> bool:
    t = game.timers.get(name)
    return t is not None and viewer is not None and not visible_to(t.visibility, t.owner, viewer)


def result_lines(result) -> list[str]:
    lines = ["", f"Game over: {result.reason}"]
    if result.error is not None:
        return lines
    team_of = {s.name: s.team for s in result.seats}
    teamed = any(t is not None for t in team_of.values())
    if result.winners:
        line = ("Winner: " if len(result.winners) == 1 else "Winners: ") + ", ".join(result.winners)
        won = {team_of.get(w) for w in result.winners}
        if teamed and len(won) == 1 and None not in won:
            line += f" (team {won.pop()})"  # a team game is won by a team
        lines.append(line)
    else:
        lines.append("No winner.")
    width = max(len(s.name) for s in result.seats)
    team_width = max([4] + [len(s.team or "") for s in result.seats])
    team_head = f"  {'team':<{team_width}}" if teamed else ""
    lines.append(f"  {'place':>5}  {'player':<{width}}{team_head}  {'score':>6}  seat controller")
    for s in sorted(result.seats, key=lambda s: (s.placement, s.seat)):
        score = "" if s.score is None else s.score
        out = (" (out)" if s.eliminated else "") + (" (cannot win)" if s.eligible is False
                                                     else "")
        team = f"  {s.team or '':<{team_width}}" if teamed else ""
        lines.append(f"  {s.placement:>5}  {s.name:<{width}}{team}  {score!s:>6}  {s.seat}: "
                     f"{s.controller}{out}")
    lines.append(f"  {result.rounds} rounds, {result.turns} turns, {result.rolls} rolls, "
                 f"{result.steps} steps" + (f", {play_time(result.seconds)} of play"
                                            if result.seconds >= 0.5 else ""))
    return lines


def play_time(seconds: float) -> str:
    """A game's length as people say it: "45 s", "12 min 5 s", "1 h 20 min" (a game of
    bots on the real clock, over in a blink, is not given a length at all)."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min" + (f" {s % 60} s" if s % 60 else "")
    return f"{s // 3600} h" + (f" {s % 3600 // 60} min" if s % 3600 // 60 else "")


def printer(echo: Callable[[str], None], viewer=None):
    """A narrator for `Game`: prints each record as it happens."""
    def narrate(game, rec: dict) -> None:
        line = describe(game, rec, viewer)
        if line is not None:
            echo(line)
    return narrate


class Screen:
    """The one terminal people share in live play.

    Public narration is printed as it happens. A line addressed to some players only (`say ...
    to:`, a private reveal) is printed only for a person it is addressed to: at once when that
    person holds the screen, else kept until they take it. With two or more people at the
    terminal (hot seat), the screen changes hands before a person decides: everyone is asked
    to look away, the screen is cleared, and the next person confirms with Enter before seeing
    their own view and their private lines; in a game without secrets (`secrets` False) the
    screen is only announced as passing on. Lines for bots are never shown.
    """

    def __init__(self, echo: Callable[[str], None], people: list,
                 confirm: Callable[[str], Any] | None = None,
                 clear: Callable[[], None] | None = None, secrets: bool = True):
        self.echo = echo
        self.people = list(people)       # the players a person controls
        self.confirm = confirm           # reads the hand-over Enter (None: no hand-over)
        self.secrets = secrets           # anything hidden from someone: hand over in private
        self.clear = clear or (lambda: echo("\n" * 40))  # clears the screen for a hand-over
        self.holder = self.people[0] if len(self.people) == 1 else None
        self.pending: dict[str, list[str]] = {p.name: [] for p in self.people}

    def narrate(self, game, rec: dict) -> None:
        to = rec.get("to") if rec["t"] == "say" else None
        if to is None:
            line = describe(game, rec, self.holder if self.holder is not None else PUBLIC)
            if line is not None:
                self.echo(line)
            if rec.get("private"):  # the others keep what only they may see for their turn
                public = describe(game, rec, PUBLIC)
                for p in self.people:
                    mine = describe(game, rec, p)
                    if p is not self.holder and mine is not None and mine != public:
                        self.pending[p.name].append(mine)
            return
        for p in self.people:
            if p.name not in to:
                continue
            line = describe(game, rec, p)
            if line is None:
                continue
            if p is self.holder:
                self.echo(line)
            else:
                self.pending[p.name].append(line)

    def take(self, player) -> None:
        """`player` is about to use the screen: hand it over if someone else holds it."""
        if player is self.holder or player not in self.people:
            return
        if self.confirm is not None and len(self.people) > 1 and not self.secrets:
            self.echo(f"== {player.name}, your move ==")  # nothing to hide: nobody looks away
        elif self.confirm is not None and len(self.people) > 1:
            self.clear()
            self.echo(f"== Pass the screen to {player.name}: everyone else, "
                      "look away ==")
            self.confirm(f"{player.name}, press Enter when only you can see the screen: ")
        self.holder = player
        for line in self.pending[player.name]:
            self.echo(line)
        self.pending[player.name].clear()
