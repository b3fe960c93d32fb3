"""Phase 6, run (words): the game's things named as the people at the table name them.

Input: a running `Game` and the references its records hold (die and card ids, zone ids,
player and team names, declared names). Output: text in the ruleset's own words: dice by
their component's label with their faces ("Red dice ⚁ 2, ⚂ 3"), a card by its name, a zone
as "the pool" or "Player 1's cup", a declared name by its label or, without one, a readable
form of the name (`round_score` -> "Round score", dsl/view_layout.py's one labeller), and who
did something ("the table" when no player did). The narration (interpreter/table/narrate.py)
and the lines the engine writes itself (a `reveal`) both use it, so a thing is called the
same everywhere, and never by an id the engine made up (`red[0]`, `Player 1.hand`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dsl.builtins import BUILTINS
from dsl.view_layout import derived_label, label_of, viewable
from interpreter.engine.values import Card, Die, Team, Zone

_PIPS = "⚀⚁⚂⚃⚄⚅"
MANY = 6  # more items of one kind than this are counted, not listed one by one


@dataclass
class Labels:
    """The labels of one ruleset's declared names, by kind, worked out once per program."""

    data: Any
    things: dict[str, str] = field(default_factory=dict)   # dice, zones, timers, state
    decks: dict[str, str] = field(default_factory=dict)
    phases: dict[str, str] = field(default_factory=dict)


_LABELS: dict[int, Labels] = {}


def labels(program) -> Labels:
    data = program.data
    got = _LABELS.get(id(program))
    if got is None or got.data is not data:
        got = Labels(data)
        for scope in viewable(data).values():
            got.things.update((name, v.label) for name, v in scope.items())
        comps = data.get("components") if isinstance(data.get("components"), dict) else {}
        got.decks = {name: label_of(name, spec) for name, spec in (comps.get("decks") or {})
                     .items()}
        phases = ((data.get("flow") or {}).get("phases") or {})
        got.phases = {name: label_of(name, spec) for name, spec in phases.items()}
        _LABELS.clear()  # one program at a time is played; keep no stale ones alive
        _LABELS[id(program)] = got
    return got


def readable(name: Any) -> str:
    """A name the ruleset declared, as words: `pass_the_turn` -> "Pass the turn"."""
    return derived_label(str(name))


def lower_first(text: str) -> str:
    """A label inside a sentence: "Spare dice" -> "spare dice" (an acronym or a
    name such as "HQ office" is left as it is)."""
    if len(text) > 1 and text[0].isupper() and (text[1].islower() or text[1] == " "):
        return text[0].lower() + text[1:]
    return text


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def label(game, name: str) -> str:
    """A declared die, zone, timer or state name by its label."""
    return labels(game.program).things.get(name) or readable(name)


def phase_label(game, name: str) -> str:
    return labels(game.program).phases.get(name) or readable(name)


def who(game, name: Any) -> str:
    """Who did something, from a record: a player by name, a team as "team NAME", nobody as
    "the table"."""
    if name is None or name == "table":
        return "the table"
    if any(p.name == name for p in game.players):
        return str(name)
    if any(t.name == name for t in game.teams):
        return f"team {name}"
    return str(name)


def owner_words(owner: Any) -> str:
    return f"team {owner.name}" if isinstance(owner, Team) else str(owner.name)


def zone_words(game, zone_id: Any, who_says: str | None = None) -> str:
    """A zone as people call it: "the pool", "Player 1's cup" ("their cup" when `who_says`
    is its owner), "team red's dice kept"; `out` is out of the game."""
    if zone_id == "out":
        return "out of the game"
    owner, _, name = str(zone_id).rpartition(".")
    words = lower_first(label(game, name))
    if not owner:
        return f"the {words}"
    if who_says is not None and who_says in (owner, f"team {owner}"):
        return f"their {words}"
    return f"{who(game, owner)}'s {words}"


def number(n: Any) -> str:
    """A number as people write it: 3, 2.5 (never 3.0)."""
    if isinstance(n, float):
        return str(int(n)) if n == int(n) else f"{n:.1f}"
    return str(n)


def die_face(face: Any, sides: int | None = None) -> str:
    if isinstance(face, int) and 1 <= face <= 6 and (sides is None or sides == 6):
        return f"{_PIPS[face - 1]} {face}"
    return "not rolled" if face is None else str(face)


def item(game, item_id: Any) -> Die | Card | None:
    """The die or card a record names by its id (None for an id no component has)."""
    name, _, index = str(item_id).partition("[")
    value = game.env.get(name) if name else None
    try:
        thing = value[int(index[:-1])] if index else value
    except (TypeError, ValueError, IndexError, KeyError):
        return None
    return thing if isinstance(thing, (Die, Card)) and thing.id == item_id else None


def card_name(card: Card) -> str:
    """A card as people name it: its `name` field, else the fields people tell it by."""
    name = getattr(card, "name", None)
    if isinstance(name, str) and name:
        return name
    spoken = getattr(card, "_spoken", "")
    return spoken.replace("-", " ") if spoken else readable(card.deck)


def kind_of(game, thing: Die | Card | None, item_id: Any) -> str:
    """The label of the component an item belongs to."""
    if isinstance(thing, Die):
        return label(game, thing.kind)
    if isinstance(thing, Card):
        return labels(game.program).decks.get(thing.deck) or readable(thing.deck)
    return readable(str(item_id).partition("[")[0])


def items_words(game, ids: list, faces: list | None = None, most: int = MANY) -> str:
    """Dice and cards as people read them: grouped by component, each die with its face
    (from `faces` when given, as a roll records them, else the face it shows now), each card
    by its name; more than `most` of one kind are counted by face ("30 red dice (⚀ 1 ×7,
    ...)") or in all ("12 ships")."""
    groups: dict[str, list] = {}
    loose = []  # what no component holds (a race for numbers, names): as it is
    for i, item_id in enumerate(ids):
        thing = item(game, item_id)
        if thing is None:
            loose.append(str(BUILTINS["text"].impl(item_id)))
            continue
        face = faces[i] if faces is not None else getattr(thing, "face", None)
        groups.setdefault(kind_of(game, thing, item_id), []).append((thing, face))
    parts = [", ".join(loose)] if loose else []
    for kind, members in groups.items():
        dice = [(t, f) for t, f in members if isinstance(t, Die)]
        if len(dice) == len(members):
            sides = dice[0][0].sides
            alike = len(members) > 2 and len({f for _, f in members}) == 1
            if all(f is None for _, f in members):  # never rolled: no face to tell
                parts.append(lower_first(kind) if len(members) == 1 else
                             f"{len(members)} {lower_first(kind)}")
            elif len(members) > most or alike:
                counts: dict = {}
                for _, f in members:
                    counts[f] = counts.get(f, 0) + 1
                shown = ", ".join(f"{die_face(f, sides)} ×{k}"
                                  for f, k in sorted(counts.items(), key=_face_order))
                parts.append(f"{len(members)} {lower_first(kind)} ({shown})")
            else:
                parts.append(f"{lower_first(kind)} " + ", ".join(die_face(f, sides)
                                                             for _, f in members))
        elif len(members) > most:
            parts.append(f"{len(members)} {lower_first(kind)}")
        elif all(isinstance(getattr(t, "name", None), str) for t, _ in members):
            parts.append(", ".join(card_name(t) for t, _ in members))  # cards with names
        else:
            parts.append(f"{lower_first(kind)} " + ", ".join(card_name(t) for t, _ in members))
    return "; ".join(parts) or "nothing"


def counted(n: int, one: str = "item", many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _face_order(face_count: tuple) -> tuple:
    face = face_count[0]
    return (0, face, "") if isinstance(face, (int, float)) else (1, 0, str(face))


def shown_value(game, value: Any) -> str:
    """A value the rules reveal, in words: a zone as what it holds, dice with their faces,
    cards by name; anything else as the `text` built-in writes it."""
    if isinstance(value, Zone):
        return items_words(game, [x.id for x in value.items])
    if isinstance(value, (Die, Card)):
        return items_words(game, [value.id])
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(x, (Die, Card)) for x in value):
        return items_words(game, [x.id for x in value])
    return str(BUILTINS["text"].impl(value))  # the language's own spelling of values


def revealed(game, value: Any) -> str:
    """The line a `reveal` says: a zone by its owner and label with what it holds ("Player 1
    reveals their cup: Die ⚂ 3, ⚄ 5"), anything else as what it shows."""
    if isinstance(value, Zone):
        shown = shown_value(game, value) if value.items else "nothing"
        if value.owner is None:
            return f"Revealed, {zone_words(game, value.id)}: {shown}"
        owner = owner_words(value.owner)
        return f"{capital(owner)} reveals {zone_words(game, value.id, owner)}: {shown}"
    return f"Revealed: {shown_value(game, value)}"
