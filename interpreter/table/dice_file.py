"""Phase 6, run (a --dice file): the faces, shuffles and blind draws a game is to take.

Input: the path of a `--dice` file, read like every data file (interpreter/table/data_files.py:
the ruleset loader's limits, each entry checked, the first bad one located), then the game
it plays (`FileChance.bind`), against whose pieces its names are checked. Output: a
`FileChance`, the chance source of that game: a `ScriptedChance` whose faces are the file's,
whose shuffles put a zone in the order the file gives, and whose blind draws take what the
file says came out.

The file is a list of faces, or a mapping:

    faces: [3, 5, 1]               # one per die, in roll order
    shuffles:                      # in the order the game shuffles
      - [Kestrel, Amber Gull]      # the top of the shuffled zone; the rest follow as they were
      - {zone: value_pile, order: [V03, V01]}   # naming the zone: checked when it is shuffled
    draws:                         # blind draws (bags, pools), in the order the game makes them
      - [chips=10, chips=5]        # what came out, first first
      - {zone: bag, items: [chips[12]]}

Pieces are named as in a position (interpreter/table/naming.py): a card by its name or id, a
die by its id, or `COMPONENT=WORD`, which here takes a piece of that component people call
WORD (a die showing that face, a card by its `known_by` fields) from the zone being shuffled
or drawn from. Once a list runs out, shuffles leave the order as it is and draws take from
the front (as with a list of faces alone); once the faces run out the game stops.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from dsl.diagnostics import Diagnostic, suggestion
from dsl.safe_text import shown
from interpreter.engine.chance import ChanceError, ScriptedChance
from interpreter.engine.values import Card, Die
from interpreter.table.data_files import DataFile, DataFileError, is_scalar, kind_of
from interpreter.table.naming import Names

DICE_FORM = ("a list of faces, such as [3, 5, 1], or a mapping of faces, shuffles and draws: "
             "{faces: [3, 5, 1], shuffles: [[TOP, ...], ...], draws: [[ITEM, ...], ...]}")
_LISTS = {"shuffles": ("order", "a shuffle"), "draws": ("items", "a blind draw")}


@dataclass
class Entry:
    """One shuffle or draw of the file: the zone it must be of (or None), the pieces named
    (top or first first), and where it stands in the file."""

    zone: str | None
    words: list
    where: tuple
    line: int
    pieces: list = field(default_factory=list)  # exact pieces, or (component, word) to match


@dataclass
class DiceFile:
    faces: list
    shuffles: list[Entry]
    draws: list[Entry]
    file: Any  # the read file, to locate problems found when its names are checked


def read_dice(path: str) -> DiceFile:
    """The entries of a `--dice` file, each checked for its form (names are checked against
    the game by `FileChance.bind`)."""
    f = DataFile(path, "--dice")
    data, where = f.doc.data, ()
    lists: dict[str, list[Entry]] = {"shuffles": [], "draws": []}
    if isinstance(data, dict):
        known = ["faces", *_LISTS]
        extra = [k for k in data if k not in known]
        if extra:
            f.refuse((extra[0],), f"unknown key '{shown(str(extra[0]))}'"
                     f"{suggestion(str(extra[0]), known)}", f"a dice file is {DICE_FORM}",
                     key=True)
        if not data:
            f.refuse((), "no 'faces', 'shuffles' or 'draws'", f"a dice file is {DICE_FORM}")
        for key in _LISTS:
            if key in data:
                lists[key] = _entries(f, key, data[key])
        data, where = data.get("faces", []), ("faces",)
    if not isinstance(data, list):
        f.refuse(where, f"holds {kind_of(data)}, not a list of faces", f"a dice file is {DICE_FORM}")
    for i, face in enumerate(data):
        if not is_scalar(face):
            f.refuse(where + (i,), f"face {i + 1} is {kind_of(face)}, not a face",
                     "a face is a number or a text, as the die's faces are written")
    return DiceFile(list(data), lists["shuffles"], lists["draws"], f)


def _entries(f: DataFile, key: str, value: Any) -> list[Entry]:
    inner, what = _LISTS[key]
    form = f"each of '{key}' is a list of pieces, or {{zone: ZONE, {inner}: [...]}}"
    if not isinstance(value, list):
        f.refuse((key,), f"'{key}' is {kind_of(value)}, not a list", form)
    out = []
    for i, entry in enumerate(value):
        at = (key, i)
        zone = None
        words, words_at = entry, at
        if isinstance(entry, dict):
            extra = [k for k in entry if k not in ("zone", inner)]
            if extra:
                f.refuse(at + (extra[0],), f"{what} {i + 1}: unknown key "
                         f"'{shown(str(extra[0]))}'{suggestion(str(extra[0]), ['zone', inner])}",
                         form, key=True)
            if inner not in entry:
                f.refuse(at, f"{what} {i + 1} has no '{inner}' list", form)
            zone, words, words_at = entry.get("zone"), entry[inner], at + (inner,)
            if zone is not None and not (isinstance(zone, str) and is_scalar(zone)):
                f.refuse(at + ("zone",), f"{what} {i + 1}: 'zone' is {kind_of(zone)}, not a "
                         "zone's name", form)
        if not isinstance(words, list):
            f.refuse(words_at, f"{what} {i + 1} is {kind_of(words)}, not a list of pieces", form)
        for j, w in enumerate(words):
            if not (isinstance(w, str) and is_scalar(w)):
                f.refuse(words_at + (j,), f"{what} {i + 1}: piece {j + 1} is {kind_of(w)}, not "
                         "a name", "a card by its name or id, a die by its id, or "
                         "COMPONENT=WORD")
        out.append(Entry(zone, list(words), words_at, f.doc.positions.value(at).line))
    return out


class FileChance(ScriptedChance):
    """The chance source of a `--dice` file: its faces, then its shuffles and blind draws,
    each matched against the zone the game shuffles or draws from when it comes."""

    def __init__(self, script: DiceFile):
        super().__init__(script.faces)
        self.script = script
        self.shuffles: deque[Entry] = deque(script.shuffles)
        self.draws: deque[Entry] = deque(script.draws)
        self.shuffled = self.drawn = 0

    def bind(self, game) -> None:
        """Checks every name of the file against `game`'s pieces and zones; the first that
        names nothing is a DataFileError located in the file."""
        names = Names(game)
        for entry, what in [*((e, "a shuffle") for e in self.script.shuffles),
                            *((e, "a blind draw") for e in self.script.draws)]:
            if entry.zone is not None and entry.zone not in names.zones:
                self._refuse(entry.where[:-1] + ("zone",), f"{what} of '{shown(entry.zone)}': "
                             f"no zone is called so{suggestion(entry.zone, list(names.zones))}",
                             "zones: " + ", ".join(names.zones))
            for j, w in enumerate(entry.words):
                item = names.item(w)
                if item is not None:
                    entry.pieces.append(item)
                    continue
                comp, eq, said = w.partition("=")
                if eq and (comp in names.dice or comp in names.decks):
                    entry.pieces.append((comp, said))
                    continue
                self._refuse(entry.where + (j,), f"no card or die is called '{shown(w, 40)}'"
                             f"{suggestion(w, names.known_words())}",
                             "a card by its name or id, a die by its id, or COMPONENT=WORD: "
                             "a die of that component showing WORD, a card of that deck "
                             "people call WORD")

    def _refuse(self, where: tuple, message: str, hint: str) -> None:
        f = self.script.file
        raise DataFileError(Diagnostic("bad-input", f"--dice: {message}",
                                       f.doc.positions.value(where), where, hint),
                            f.doc.source)

    def order(self, items: list) -> list:
        if not self.shuffles:
            return list(items)
        entry = self.shuffles.popleft()
        self.shuffled += 1
        chosen = self._take(entry, items, f"shuffle {self.shuffled}")
        return chosen + [x for x in items if x not in chosen]

    def pick(self, items: list, count: int) -> list:
        if not self.draws:
            return list(items)[:count]
        entry = self.draws.popleft()
        self.drawn += 1
        want = min(count, len(items))
        chosen = self._take(entry, items, f"blind draw {self.drawn}")
        if len(chosen) > want:
            raise ChanceError(f"the --dice file's blind draw {self.drawn} (line {entry.line}) "
                              f"names {len(chosen)} pieces, but the game draws {want}")
        return chosen + [x for x in items if x not in chosen][:want - len(chosen)]

    def _take(self, entry: Entry, items: list, what: str) -> list:
        """The pieces `entry` names, taken from `items` (the zone shuffled or drawn from)."""
        here = items[0].zone if items else None
        said = f"the --dice file's {what} (line {entry.line})"
        if entry.zone is not None and here is not None and here != entry.zone:
            raise ChanceError(f"{said} is of {entry.zone}, but the game takes it from {here}")
        chosen: list = []
        for piece, word in zip(entry.pieces, entry.words, strict=True):
            if isinstance(piece, tuple):
                found = next((x for x in items if x not in chosen and _fits(x, *piece)), None)
            else:
                found = piece if piece in items and piece not in chosen else None
            if found is None:
                raise ChanceError(f"{said} names {word}, which is not in "
                                  f"{here or 'the zone'} (or is named twice)")
            chosen.append(found)
        return chosen


def _fits(x: Any, component: str, word: str) -> bool:
    """Whether `x` is a piece of `component` that people call `word`: a die showing that
    face, a card whose `known_by` fields read so."""
    if isinstance(x, Die):
        return x.kind == component and str(x.face) == word
    return isinstance(x, Card) and x.deck == component and x._spoken == word

