"""Phase 6, run (narration): log records to lines a person can follow.

Input: the records a game writes (interpreter/engine/game.py `record`), one at a time, and who is
watching (None: the whole table; a player: only what that player may see). Output: text
lines: phases and turns as headings, dice drawn as dice, decisions, the rules that fired,
transfers, eliminations, timers, and the result with a score table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.values import visible_to

_PIPS = "⚀⚁⚂⚃⚄⚅"


class _Public:
    """The viewer that is everyone at once: a screen nobody holds yet sees only what every
    player may see."""

    name = None
    team = None

    def __repr__(self) -> str:
        return "the table"


PUBLIC = _Public()


def die_face(face: Any, sides: int | None = None) -> str:
    if isinstance(face, int) and 1 <= face <= 6 and (sides is None or sides == 6):
        return f"{_PIPS[face - 1]} {face}"
    if face is None:
        return "?"  # a die the referee's table counts: its face is not tracked
    return f"[{face}]"


def describe(game, rec: dict, viewer=None) -> str | None:
    """One record as a line of narration, or None when it is not for this viewer."""
    t = rec["t"]
    if t == "phase":
        return f"\n== {rec['phase']} =="
    if t == "turn":
        return f"\n-- round {rec['round']}, turn {rec['turn']}: {rec['player']} --"
    if t == "roll":
        return _roll(game, rec, viewer)
    if t == "decision":
        if rec.get("sealed") and (viewer is None or viewer.name != rec["by"]):
            return f"  {rec['by']} decides (sealed)"  # the choice is shown at the reveal
        return f"  {rec['by']} chooses {rec['choice']}"
    if t == "race" and "counts" in rec:  # a counting table's report: how many of each kind
        return f"  race {rec['id']}: " + "; ".join(
            f"{who} claims " + (", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
                                or "nothing")
            for who, counts in rec["counts"].items())
    if t == "race":
        missed = rec.get("missed") or {}
        return f"  race {rec['id']} ({rec['seconds']:.1f} s): " + "; ".join(
            f"{who} claims {', '.join(map(str, items)) or 'nothing'}"
            + (f" (too slow for {', '.join(missed[who])})" if missed.get(who) else "")
            for who, items in rec["claims"].items())
    if t == "revealed":
        return "  revealed together: " + ", ".join(f"{k}: {v}" for k, v in rec["choices"].items())
    if t in ("trigger", "check"):
        return None  # the rule's own steps say what happens; its name is the engine's
    if t == "say":
        to = rec.get("to")
        if to is not None and viewer is not None and viewer.name not in to:
            return None
        if to is None:
            return f"  {rec['text']}"
        # A person sees their own private lines as such; the whole table's narration (bots,
        # a log read afterwards) says whose they are.
        return f"  (private) {rec['text']}" if viewer is not None else \
            f"  (to {', '.join(map(str, to))}) {rec['text']}"
    if t == "transfer":
        return f"  {rec['source']} gives {rec['amount']} {rec['of']} to {rec['to']}"
    if t == "eliminated":
        because = rec.get("because")
        return f"  {rec['player']} is out" + (f": {because}" if because else "")
    if t == "timer":
        action = rec["action"]
        if action == "start":
            return f"  timer {rec['timer']} starts: {rec['seconds']} s"
        if action == "stop":
            return None if _hidden_timer(game, rec["timer"], viewer) else \
                f"  timer {rec['timer']} stopped with {rec['left']:.1f} s left"
        return f"  timer {rec['timer']} ran out!"
    if t == "raised":
        by = rec.get("by")
        who = "the table" if by == "table" else by
        return f"  ! {who} calls {readable_event(rec['event'])}" if who else \
            f"  ! {readable_event(rec['event'])} happens"  # by chance (a hazard), no one called
    if t in ("draw", "deal"):
        return f"  {t}s {len(rec['items'])} from {rec['source']}"
    if t == "move":
        unseen = _unseen(rec, viewer)  # which items went into a hidden hand is theirs to know
        items = listed(rec["items"]) if not unseen else (
            f"{len(rec['items'])} item{'s' if len(rec['items']) != 1 else ''}")
        return f"  moves {items} to {rec['to']}"
    if t == "shuffle":
        return f"  shuffles {rec['zone']}"
    if t == "end":
        return None  # the result table says it
    return None


def _sees(group: dict, viewer) -> bool:
    return viewer is None or getattr(viewer, "name", None) in group["to"]


def _unseen(rec: dict, viewer) -> set[int]:
    """The places of the record's items that lie in a zone hidden from `viewer`."""
    return {i for g in rec.get("private") or () if not _sees(g, viewer) for i in g["items"]}


def _roll(game, rec: dict, viewer) -> str:
    """A roll as each viewer may see it: dice in the open with their faces, by the current
    player; dice in a zone not everyone sees by its owner, with their faces only for those who
    see that zone ("Player 2 rolls 5 dice in their cup, out of sight")."""
    dice, faces = rec["dice"], rec["faces"]
    groups = rec.get("private") or []
    grouped = {i for g in groups for i in g["items"]}
    lines = []
    shown = [i for i in range(len(dice)) if i not in grouped]
    if shown:
        lines.append(f"{game.current.name} rolls " + dice_text(
            game.env, [dice[i] for i in shown], [faces[i] for i in shown]))
    for g in groups:
        who = g["owner"] or game.current.name
        owner, _, zone = g["zone"].rpartition(".")
        where = f"their {zone}" if owner and owner == who else g["zone"]
        k = len(g["items"])
        if not _sees(g, viewer):
            lines.append(f"{who} rolls {k} {'die' if k == 1 else 'dice'} in {where}, "
                         "out of sight")
            continue
        text = dice_text(game.env, [dice[i] for i in g["items"]], [faces[i] for i in g["items"]])
        mark = " (private)" if viewer is not None else (
            f" (seen by {', '.join(g['to'])})" if g["to"] else " (seen by nobody)")
        lines.append(f"{who} rolls {text} in {where}{mark}")
    return "\n".join("  " + line for line in lines)


def readable_event(name: str) -> str:
    """An event's name as people say it: `dice_knocked` -> "dice knocked"."""
    return name.replace("_", " ")


def listed(refs: list, most: int = 6) -> str:
    """Item references as a reader takes them in: each one while there are few, else counted
    by component ("50 chips", not fifty references)."""
    if len(refs) <= most:
        return ", ".join(map(str, refs))
    counts: dict[str, int] = {}
    for r in refs:
        name = str(r).partition("[")[0]
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def dice_text(env, dice: list, faces: list, most: int = 6) -> str:
    """The dice of one roll with their faces: each die while there are few, else how many of
    each component show each face ("30 red: ⚀ 1 ×9, ⚁ 2 ×5, ...")."""
    if len(dice) <= most:
        return "  ".join(f"{did} {die_face(face, _sides(env, did))}"
                         for did, face in zip(dice, faces, strict=True))
    groups: dict[str, list] = {}
    for did, face in zip(dice, faces, strict=True):
        groups.setdefault(str(did).partition("[")[0], []).append((did, face))
    parts = []
    for name, rolled in groups.items():
        sides = _sides(env, rolled[0][0])
        counts: dict = {}
        for _, face in rolled:
            counts[face] = counts.get(face, 0) + 1
        shown = ", ".join(f"{die_face(face, sides)} ×{k}"
                          for face, k in sorted(counts.items(), key=_face_order))
        parts.append(f"{len(rolled)} {name}: {shown}")
    return "; ".join(parts)


def _face_order(face_count: tuple) -> tuple:
    face = face_count[0]
    return (0, face, "") if isinstance(face, (int, float)) else (1, 0, str(face))


def _sides(env, did: str) -> int | None:
    name, _, idx = did.partition("[")
    v = env.get(name)
    try:
        die = v[int(idx[:-1])] if idx else v
        return die.sides
    except (TypeError, ValueError, IndexError, AttributeError):
        return None


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
                 f"{result.steps} steps" + (f", {result.seconds:.0f} s of play"
                                            if result.seconds else ""))
    return lines


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
    their own view and their private lines. Lines for bots are never shown.
    """

    def __init__(self, echo: Callable[[str], None], people: list,
                 confirm: Callable[[str], Any] | None = None,
                 clear: Callable[[], None] | None = None):
        self.echo = echo
        self.people = list(people)       # the players a person controls
        self.confirm = confirm           # reads the hand-over Enter (None: no hand-over)
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
        if self.confirm is not None and len(self.people) > 1:
            self.clear()
            self.echo(f"== Pass the screen to {player.name}: everyone else, "
                      "look away ==")
            self.confirm(f"{player.name}, press Enter when only you can see the screen: ")
        self.holder = player
        for line in self.pending[player.name]:
            self.echo(line)
        self.pending[player.name].clear()
