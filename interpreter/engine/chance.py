"""Phase 6, run (chance): the one door every random result comes through.

Input: requests from the engine (faces for these dice, an order for this zone, whether a
hazard happens in this stretch of time, a number for a modelled skill). Output: the results.
Three interchangeable sources:

- `SeededChance`: a seeded generator, for simulation; the same seed gives the same results.
- `ScriptedChance`: results written in advance (tests, and replays of a logged game).
- `TableChance`: asks the people at the table for the real dice (referee mode), refusing
  impossible entries such as a 7 on a d6. A counting table does not ask the faces of dice in
  a zone the ruleset marks `counted`: their faces are unknown (none). At its prompt `!NAME`
  raises an event people may raise now.

The engine never knows which one it has.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from typing import Any

from interpreter.engine.signals import Undo
from interpreter.engine.values import ref
from interpreter.engine.words import label, lower_first, readable, zone_words


class ChanceError(Exception):
    """A chance source cannot answer (a script ran out, the table stopped)."""


class ChanceSource:
    """The interface. `roll` returns one face per die, taken from each die's `faces`."""

    live = False  # True when people at the table supply the results

    def roll(self, dice: list) -> list:
        raise NotImplementedError

    def order(self, items: list) -> list:
        """A random order of items (a shuffle; a draw takes from the front)."""
        raise NotImplementedError

    def pick(self, items: list, count: int) -> list:
        """Items drawn blind from a bag, without replacement within the draw."""
        raise NotImplementedError

    def hazard(self, name: str, per_second: float, seconds: float) -> float | None:
        """Whether an event with a chance per second happens within `seconds`: the offset at
        which it happens, or None."""
        raise NotImplementedError

    def uniform(self) -> float:
        """A number in [0, 1), for modelled skills (grab speed, misgrabs)."""
        raise NotImplementedError


class SeededChance(ChanceSource):
    def __init__(self, seed: int | str | None):
        self.rng = random.Random(seed)

    def roll(self, dice: list) -> list:
        rnd = self.rng.random
        return [d.faces[int(rnd() * d.sides)] for d in dice]

    def order(self, items: list) -> list:
        out = list(items)
        self.rng.shuffle(out)
        return out

    def pick(self, items: list, count: int) -> list:
        return self.rng.sample(list(items), min(count, len(items)))

    def hazard(self, name: str, per_second: float, seconds: float) -> float | None:
        if per_second <= 0 or seconds <= 0:
            return None
        u = self.rng.random()
        if per_second >= 1:
            return 0.0
        # The time to the first occurrence when each second carries the same chance.
        at = math.log1p(-u) / math.log1p(-per_second)
        return at if at < seconds else None

    def uniform(self) -> float:
        return self.rng.random()


class ScriptedChance(ChanceSource):
    """Results from a script: a list of faces for rolls (one per die, in order), and optional
    queues for shuffles, picks, hazards and uniform numbers. Hazards default to 'never' and
    uniform numbers to 0.5 when their queues are empty, so a test scripts only the dice."""

    def __init__(self, faces: Iterable[Any] = (), orders: Iterable[list] = (),
                 picks: Iterable[list] = (), hazards: Iterable[float | None] = (),
                 uniforms: Iterable[float] = ()):
        self.faces = list(faces)
        self.orders = list(orders)
        self.picks = list(picks)
        self.hazards = list(hazards)
        self.uniforms = list(uniforms)
        self.used = 0

    def roll(self, dice: list) -> list:
        if len(self.faces) < len(dice):
            names = ", ".join(d.id for d in dice)
            raise ChanceError(f"the dice script ran out (after {self.used} faces) rolling {names}")
        out = []
        for d in dice:
            face = self.faces.pop(0)
            # None: a face the table did not track (a counted zone), as a log says it.
            if face is not None and face not in d.faces:
                raise ChanceError(f"the script gives {face!r} to {d.id}, which has faces "
                                  f"{_faces(d)}")
            out.append(face)
        self.used += len(dice)
        return out

    def order(self, items: list) -> list:
        if not self.orders:
            return list(items)
        return _by_refs(items, self.orders.pop(0))

    def pick(self, items: list, count: int) -> list:
        if not self.picks:
            return list(items)[:count]
        wanted = self.picks.pop(0)
        there = {ref(x) for x in items}
        missing = [r for r in wanted if r not in there]
        if missing:
            raise ChanceError(f"the script draws {', '.join(map(str, missing))}, which "
                              f"{'is' if len(missing) == 1 else 'are'} not there to draw")
        return _by_refs(items, wanted)[:count]

    def hazard(self, name: str, per_second: float, seconds: float) -> float | None:
        return self.hazards.pop(0) if self.hazards else None

    def uniform(self) -> float:
        return self.uniforms.pop(0) if self.uniforms else 0.5


class ThenChance(ChanceSource):
    """Answers from a script while it lasts, then from another source: a restored snapshot
    goes on with its saved generator, a resumed referee game with the table. The first
    `hazards_left` hazard queries are the script's (most said "not now")."""

    def __init__(self, scripted: ScriptedChance, after: ChanceSource, hazards_left: int):
        self.scripted, self.after = scripted, after
        self.hazards_left = hazards_left
        self.live = after.live
        self.counting = getattr(after, "counting", False)

    def watch(self, game) -> None:
        watch = getattr(self.after, "watch", None)
        if watch is not None:
            watch(game)

    def roll(self, dice):
        return (self.scripted if self.scripted.faces else self.after).roll(dice)

    def order(self, items):
        return (self.scripted if self.scripted.orders else self.after).order(items)

    def pick(self, items, count):
        return (self.scripted if self.scripted.picks else self.after).pick(items, count)

    def hazard(self, name, per_second, seconds):
        if self.hazards_left > 0:
            self.hazards_left -= 1
            return self.scripted.hazard(name, per_second, seconds)
        return self.after.hazard(name, per_second, seconds)

    def uniform(self):
        return self.after.uniform()

    def report(self, prompt, parse):
        return self.after.report(prompt, parse)


def asks_for(items: list, count: int) -> bool:
    """Whether a blind draw at the table asks people what came out: not when nothing is drawn,
    when it takes everything left (the last draw from a bag), or when every item
    is alike."""
    return 0 < count < len(items) and len({_kind(x) for x in items}) > 1


def _kind(x: Any) -> str:
    """What people at a table call an item they drew: a die by its component (its colour,
    say), a card by its `known_by` fields."""
    spoken = getattr(x, "_spoken", None)
    if spoken is not None:
        return spoken
    return str(getattr(x, "kind", None) or type(x).__name__)


def _short(kind: str, kinds: set[str]) -> str:
    """The shortest word people may type for a kind among those in the bag: `blue` for
    `blue_dice` while no other kind starts so (what `_drawn` takes)."""
    parts = kind.split("_")
    for i in range(1, len(parts)):
        head = "_".join(parts[:i])
        if sum(k.startswith(head) for k in kinds) == 1:
            return head
    return kind


def _drawn(text: str, items: list, want: int) -> tuple[list | None, str | None]:
    """The items a typed draw names (ids, kinds, or KIND=FACE for a die of that kind showing
    that face: a die people see on the table is named by the face it shows), or (None, why
    it is refused)."""
    tokens = text.replace(",", " ").split()
    if len(tokens) != want:
        return None, f"expected {want} item{'s' if want != 1 else ''}, got {len(tokens)}"
    left = list(items)
    kinds = {_kind(x) for x in items}
    out = []
    for t in tokens:
        name, _, face = t.partition("=")
        starts = [k for k in kinds if k.startswith(name)]  # "green" for green_dice
        kind = name if name in kinds else (starts[0] if len(starts) == 1 else None)
        item = next((x for x in left if str(ref(x)) == t), None) or next(
            (x for x in left if _kind(x) == kind
             and (not face or str(getattr(x, "face", None)) == face)), None)
        if item is None:
            return None, (f"no {kind or name} showing {face} is left to draw" if face
                          else f"no '{t}' is left to draw")
        left.remove(item)
        out.append(item)
    return out, None


def _by_refs(items: list, refs: list) -> list:

    by = {ref(x): x for x in items}
    chosen = [by[r] for r in refs if r in by]
    return chosen + [x for x in items if x not in chosen]


def _faces(die) -> str:
    fs = die.faces
    if fs == list(range(1, len(fs) + 1)):
        return f"1..{len(fs)}"
    return ", ".join(map(str, fs))


def parse_faces(text: str, dice: list) -> tuple[list | None, str | None]:
    """Reads typed-in faces for these dice ("3 5", "3,5", "35" for single digits, "7x1" for
    seven 1s: a table that rolled thirty dice counts them by face). Returns (faces, None) or
    (None, why it was refused)."""
    raw = _repeats(text.replace(",", " ").replace("×", "x").split(), dice)
    if len(raw) == 1 and len(dice) > 1 and raw[0].isdigit() and len(raw[0]) == len(dice) and all(
            d.sides <= 9 for d in dice):
        raw = list(raw[0])
    if len(raw) != len(dice):
        return None, f"expected {len(dice)} face{'s' if len(dice) != 1 else ''}, got {len(raw)}"
    out = []
    for token, die in zip(raw, dice, strict=True):
        value: Any = int(token) if token.lstrip("-").isdigit() else token
        if value not in die.faces:
            return None, f"{die.id} cannot show {token} (faces {_faces(die)})"
        out.append(value)
    return out, None


def _repeats(tokens: list[str], dice: list) -> list[str]:
    """Expands COUNTxFACE into COUNT tokens of FACE (a face that itself reads so is kept)."""
    faces = {str(f) for d in dice for f in d.faces}
    out: list[str] = []
    for token in tokens:
        count, x, face = token.partition("x")
        if x and count.isdigit() and face and token not in faces and int(count) <= len(dice):
            out += [face] * int(count)
        else:
            out.append(token)
    return out


def _dice_names(game, dice: list) -> str:
    """The dice to roll as a referee reads them, by their labels, in the order their faces are
    entered: "white dice (2 × d6), then red dice (2 × d6)"."""
    def kind(d) -> str:
        return f"d{d.sides}" if d.faces == list(range(1, d.sides + 1)) else \
            f"faces {_faces(d)}"
    runs: list[list] = []
    for d in dice:
        what = kind(d)
        if runs and runs[-1][0] == d.kind and runs[-1][2] == what:
            runs[-1][1] += 1
        else:
            runs.append([d.kind, 1, what])
    said = []
    for name, k, what in runs:
        words = _kind_words(game, name)
        if what in words:  # the label says the die already: "Big die (d20)"
            said.append(f"{k} × {words}" if k > 1 else words)
        else:
            said.append(f"{words} ({f'{k} × ' if k > 1 else ''}{what})")
    return ", then ".join(said)


def _entered(game, dice: list, faces: list) -> str:
    """The faces typed, said back by the dice's labels: "white dice 3 4, red dice 1 2"."""
    runs: list[list] = []
    for d, f in zip(dice, faces, strict=True):
        if runs and runs[-1][0] == d.kind:
            runs[-1][1].append(f)
        else:
            runs.append([d.kind, [f]])
    return ", ".join(f"{_kind_words(game, name)} " + " ".join(map(str, fs)) for name, fs in runs)


def _kind_words(game, kind: str) -> str:
    """A dice component as the referee reads it: its label inside a sentence."""
    return lower_first(label(game, kind) if game is not None else readable(kind))


def raise_request(text: str, events: list[str], players: list[str],
                  later: dict[str, Any] | None = None) -> tuple[str, str | None, str | None]:
    """A typed `!NAME` (or `!NAME by WHO`, WHO one of `players`): (event, who or None, None),
    or ("", None, why it cannot be raised now). `later`: the events people may raise at other
    moments, with their `during` (said in the refusal)."""
    name, _, who = text.strip()[1:].partition(" by ")
    name, who = name.strip(), who.strip()
    if name not in events:
        if later and later.get(name) is not None:
            return "", None, f"'{name}' can be raised only while {later[name]}"
        return "", None, (f"no event '{name}' can be raised now"
                          + (f"; events: {', '.join(events)}" if events else ""))
    if who and who not in players and who != "table":
        return "", None, (f"'{who}' does not play this game" if players else
                          "only the table names who raised an event")
    return name, who or None, None


def raised_later(game) -> dict[str, Any]:
    """The events people may raise, each with the `during` that says when."""
    return {name: spec.get("during") for name, spec in
            (game.program.data.get("events") or {}).items()
            if spec.get("raised_by", "rules") != "rules"}


class TableChance(SeededChance):
    """Referee mode: the real dice and blind draws are typed in. Shuffles stay with the seeded
    generator: a deck's order is meeple's to keep (face-down cards whose contents meeple answers
    for), and a ruleset whose table deals at random draws blind instead. `ask(prompt) -> str`
    reads one line (input(), or a test's queue).

    `counting` (the default): dice lying in a zone the ruleset marks `counted` are not asked
    for; their faces are unknown (None), and a race's `counts` are asked instead of its items
    (interpreter/engine/race.py). False: every face is typed and every item named."""

    live = True

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None], seed=None,
                 counting: bool = True):
        super().__init__(seed)
        self.ask = ask
        self.say = say
        self.counting = counting
        self.game = None

    def watch(self, game) -> None:
        """The game being refereed: which dice lie in a zone not everyone sees (`private`), or
        in a zone the table counts (`counted_dice`), and the events people may raise now."""
        self.game = game

    def roll(self, dice: list) -> list:
        game = self.game
        unknown = game.counted_dice(dice) if self.counting and game is not None else []
        if not any(unknown):
            return self._typed(dice)
        typed = iter(self._typed([d for d, u in zip(dice, unknown, strict=True) if not u])
                     if not all(unknown) else [])
        return [None if u else next(typed) for u in unknown]

    def _typed(self, dice: list) -> list:
        """The faces of `dice`, asked until possible; `!NAME` raises an event meanwhile."""
        game = self.game
        groups = game.private(dice) if game is not None else None
        many = len(dice) > 1
        task = (f"{_dice_names(game, dice)} and enter "
                + (f"the {len(dice)} faces in that order" if many else "its face")
                + (" (7x1 stands for seven 1s)" if len(dice) > 6 else "") + " (or undo")
        ask = f"Roll {task}"
        if groups:  # a roll behind a cup or a screen is typed by those who may see it
            seers = sorted({name for g in groups for name in g["to"]})
            who = ", ".join(seers) + ": " if seers else ""
            ask = f"{who}privately (everyone else, look away), roll {task}"
        while True:
            events = game.raisable() if game is not None else []
            hint = f"; !{' or !'.join(events)} raises an event" if events else ""
            try:
                text = self.ask(f"{ask}{hint}): ")
            except EOFError:
                raise ChanceError("the table stopped entering dice") from None
            if text.strip() == "undo":
                raise Undo()
            if text.strip().startswith("!") and game is not None:
                # The event happens now (its rules may end the turn, and the roll with it);
                # else the faces are asked again.
                name, by, why = raise_request(text, events, [p.name for p in game.players],
                                              raised_later(game))
                if why is not None:
                    self.say(f"  refused: {why}; enter the faces")
                    continue
                game.raise_event(name, by or "table", at_roll=True)
                continue
            faces, why = parse_faces(text, dice)
            if faces is not None:
                self.say("  entered: " + (_entered(game, dice, faces)
                                          if len(dice) <= 6 and not groups
                                          else f"{len(dice)} face"
                                          + ("s" if len(dice) != 1 else "")))
                return faces
            self.say(f"  refused: {why}; enter them again")

    def hazard(self, name: str, per_second: float, seconds: float) -> float | None:
        return None  # at the table, people raise such events themselves

    def pick(self, items: list, count: int) -> list:
        """A blind draw at the table: people draw from their own bag and say what came out, by
        item id or by what they see (a die's component, such as its colour; a card's
        `known_by` fields, such as a chip's value)."""
        want = min(count, len(items))
        every = {_kind(x) for x in items}

        def said(chosen: list) -> str:
            return ", ".join(_short(_kind(x), every) for x in chosen)
        if not asks_for(items, count):  # nothing, all, or all alike: known without asking
            chosen = list(items)[:want]
            if chosen:
                self.say("  drawn: " + said(chosen))
            return chosen
        kinds: dict[str, int] = {}
        for x in items:
            kinds[_short(_kind(x), every)] = kinds.get(_short(_kind(x), every), 0) + 1
        listing = ", ".join(f"{k} ({n})" for k, n in kinds.items())
        if all(getattr(x, "face", None) is not None for x in items):
            listing += "; KIND=FACE names a die by the face it shows"  # rolled dice in view
        zone = getattr(items[0], "zone", "")
        if zone and self.game is not None:
            where = zone_words(self.game, zone)
        else:
            where = zone or "the bag"
        while True:
            try:
                text = self.ask(f"Draw {want} blind from {where} and enter what came out "
                                f"({listing}; or undo): ")
            except EOFError:
                raise ChanceError("the table stopped entering draws") from None
            if text.strip() == "undo":
                raise Undo()
            chosen, why = _drawn(text, items, want)
            if chosen is not None:
                self.say("  drawn: " + said(chosen))
                return chosen
            self.say(f"  refused: {why}; enter them again")

    def report(self, prompt: str, parse: Callable) -> list:
        """What the table says a racer claimed in a race, asked until it is possible."""
        def read(question: str) -> str:
            try:
                return self.ask(question)
            except EOFError:
                raise ChanceError("the table stopped entering results") from None
        return ask_report(read, self.say, prompt, parse)


def ask_report(read: Callable[[str], str | None], echo: Callable[[str], None], prompt: str,
               parse: Callable, view: Callable[[], None] | None = None) -> list:
    """Asks one line until `parse` accepts it; says why a line was refused. With `view`, `?`
    shows the person's whole view and asks again."""
    *head, question = prompt.split("\n")
    for line in head:
        echo(line)
    while True:
        text = read(question)
        if text is None:
            continue
        if text.strip() == "undo":
            raise Undo()
        if text.strip() == "?" and view is not None:
            view()
            continue
        items, why = parse(text)
        if items is not None:
            return items
        echo(f"  refused: {why}; enter them again")
