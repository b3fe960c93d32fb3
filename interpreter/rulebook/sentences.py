"""The rulebook's sentences: one sentence for each effect of the registry.

Phase: docs. Input: a step's fields by their registry names (dsl/effects.py) and the
`StepWriter` writing the step (interpreter/rulebook/steps.py). Output: `SENTENCES`, for each
effect with a sentence of its own the function that puts a step into words: its sentence
(inline text) and any blocks under it (the steps of an `if` or a loop, the options of a
choice). A sentence pops the fields it puts into words; whatever it leaves is listed after it,
so a field added to an effect later still shows. An effect without a sentence here is written
from its fields by their kinds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.rulebook.document import (
    Block,
    Inlines,
    ListBlock,
    Para,
    code,
    joined,
    lower,
    prose,
    strong,
    text,
)
from interpreter.rulebook.phrases import parse_step, plain

# A sentence takes the step writer and the step's fields. The writer is
# rulebook_steps.StepWriter, which looks its sentences up here: it is named, not imported.
StepWriter = Any
Sentence = Callable[[StepWriter, dict[str, Any]], tuple[Inlines, list[Block]]]
SENTENCES: dict[str, Sentence] = {}


def sentence(name: str) -> Callable[[Sentence], Sentence]:
    """Registers the sentence of an effect. It takes the step's fields by registry name and
    pops those it puts into words; whatever it leaves is listed after it."""
    def register(fn: Sentence) -> Sentence:
        SENTENCES[name] = fn
        return fn
    return register


@sentence("set")
def _set(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    values = f.pop("values", {}) or {}
    parts = [[code(str(k)), text(" to ")] + b.x(v) for k, v in values.items()]
    return [text("set ")] + joined(parts) + [text(".")], []


@sentence("add")
def _add(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    parts = []
    for k, v in (f.pop("values", {}) or {}).items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v < 0:
            parts.append([text("subtract "), code(plain(-v)), text(" from "), code(str(k))])
        elif isinstance(v, str) and re.fullmatch(r"-\s*[A-Za-z_][\w.]*", v.strip()):
            parts.append([text("subtract ")] + b.x(v.strip()[1:].strip())
                         + [text(" from "), code(str(k))])
        else:
            parts.append([text("add ")] + b.x(v) + [text(" to "), code(str(k))])
    inl = joined(parts)
    bounds = []
    if "min" in f:
        bounds.append([text("at least ")] + b.x(f.pop("min")))
    if "max" in f:
        bounds.append([text("at most ")] + b.x(f.pop("max")))
    if bounds:
        inl += [text(" (the result is ")] + joined(bounds) + [text(")")]
    return inl + [text(".")], []


@sentence("let")
def _let(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("let "), code(plain(f.pop("name", None))), text(" be ")] + b.x(f.pop("be", None)) \
        + [text(".")], []


@sentence("transfer")
def _transfer(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("move ")] + b.x(f.pop("amount", None)) + [text(" of "), code(str(f.pop("of", "")))]
    inl += [text(" from ")] + b.party(f.pop("from", None)) + [text(" to ")] + b.party(f.pop("to", None))
    return inl + [text(" (never more than the giver has).")], []


@sentence("eliminate")
def _eliminate(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    because = f.pop("because", None)
    reason = [text(f" ({because})")] if isinstance(because, str) and "{" not in because else []
    return b.x(f.pop("player", None)) + [text(" is eliminated and takes no more turns")] \
        + reason + [text(".")], []


@sentence("roll")
def _roll(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("roll ")] + b.things(f.pop("dice", None))
    if "duration" in f:
        inl += b.duration(f.pop("duration"))
    return inl + [text(".")], []


@sentence("draw")
def _draw(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    zone = f.pop("from", None)
    kind = (b.zones.get(zone) or {}).get("kind") if isinstance(zone, str) else None
    inl: Inlines = [text("draw ")]
    if "count" in f:
        inl += b.x(f.pop("count"))
    else:
        inl.append(text("one"))
    inl.append(text(" from the top of " if kind in ("deck", "row") else " at random from "))
    inl += b.thing(zone) + [text(", called ")] + [code(plain(f.pop("as", None)))]
    if "to" in f:
        inl += [text(", into ")] + b.thing(f.pop("to"))
    if f.pop("replace", False):
        inl.append(text(" (with replacement: what is drawn stays in the zone)"))
    if "duration" in f:
        inl += b.duration(f.pop("duration"))
    return inl + [text(".")], []


@sentence("move")
def _move(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    items = b.x(f.pop("items", None))
    if b.place(f.get("to")) == [text("out of the game")]:
        f.pop("to")
        return [text("remove ")] + items + [text(" from the game.")], []
    inl = [text("move ")] + items
    at = f.pop("at", None)
    inl.append(text(" to the start of " if at == "start" else " to "))
    return inl + b.place(f.pop("to", None)) + [text(".")], []


@sentence("shuffle")
def _shuffle(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("shuffle ")] + b.thing(f.pop("zone", None)) + [text(".")], []


@sentence("deal")
def _deal(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("deal ")] + (b.x(f.pop("count")) if "count" in f else [text("one")])
    inl += [text(" from the top of ")] + b.thing(f.pop("from", None)) + [text(" to ")]
    return inl + b.thing(f.pop("to", None)) + [text(", one at a time.")], []


@sentence("reveal")
def _reveal(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("reveal ")] + b.x(f.pop("items", None))
    if "to" in f:
        return inl + [text(" to ")] + b.x(f.pop("to")) + [text(".")], []
    return inl + [text(" to everyone.")], []


@sentence("choose")
def _choose(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    did = plain(f.pop("id", None))
    by = f.pop("by", None)
    sealed = f.pop("sealed", False)
    if sealed and by not in (None, "current", "players"):
        inl = [text("each of ")] + b.x(by) + [text(" chooses")]
    else:
        inl = b.who(by) + [text(" chooses")]
    if sealed:
        inl.append(text(", in secret (the choices are revealed together),"))
    options = f.pop("options", None)
    children: list[Block] = []
    lo, hi = f.pop("min", None), f.pop("max", None)
    if options is None:
        inl.append(text(" a number"))
        if lo is not None and hi is not None:
            inl += [text(" from ")] + b.x(lo) + [text(" to ")] + b.x(hi)
        elif lo is not None:
            inl += [text(", at least ")] + b.x(lo)
        elif hi is not None:
            inl += [text(", at most ")] + b.x(hi)
    else:
        opts = b.options(options)
        if isinstance(opts, ListBlock):
            inl.append(text(" one of the options below"))
            children.append(opts)
        else:
            inl += [text(" ")] + opts
    inl += [text(" ("), code(did)]
    if "prompt" in f:
        inl += [text("; asked ")] + b.quote(f.pop("prompt"))
    inl.append(text(")"))
    if f.get("before"):
        inl += [text(", before ")] + prose(f.pop("before"))
    if "duration" in f:
        inl += b.duration(f.pop("duration"))
    inl += _skill(f)
    return inl + [text(":" if children else ".")], children


@sentence("actions")
def _actions(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    did = plain(f.pop("id", None))
    inl = b.who(f.pop("by", None)) + [text(" spends ")] + b.x(f.pop("points", None))
    inl.append(text(" action points on the actions below, one at a time ("))
    inl += [code(did)]
    if "prompt" in f:
        inl += [text("; asked ")] + b.quote(f.pop("prompt"))
    allow_pass = f.pop("pass", True)
    inl.append(text("), until the points are spent or no action is possible"
                    + (", or they pass" if allow_pass is not False else "")))
    opts = b.options(f.pop("options", {}))
    children: list[Block] = [opts] if isinstance(opts, ListBlock) else []
    return inl + [text(":")], children


@sentence("race")
def _race(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    did = plain(f.pop("id", None))
    by = f.pop("by", None)
    racers = [text("all players")] if by == "players" else b.x(by)
    inl = [text("a race ("), code(did), text(") among ")] + racers
    inl += [text(": they grab at once from ")] + b.thing(f.pop("items", None))
    if "wanted" in f:
        inl += [text(", each going for what they want (")] + b.x(f.pop("wanted")) + [text(")")]
    if "capacity" in f:
        inl += [text(", holding at most ")] + b.x(f.pop("capacity")) + [text(" each")]
    inl += [text(". Afterwards "), code(did), text(" tells what each racer claimed")]
    model = []
    if "latency" in f:
        model.append([text("starts after ")] + b.x(f.pop("latency")) + [text(" seconds")])
    if "rate" in f:
        model.append([text("makes ")] + b.x(f.pop("rate")) + [text(" claims per second")])
    if "error_rate" in f:
        model.append([text("takes a wrong item with chance ")] + b.x(f.pop("error_rate")))
    if "model_capacity" in f:
        model.append([text("holds at most ")] + b.x(f.pop("model_capacity")) + [text(" items")])
    if model:
        inl += [text(". In simulation a racer ")] + joined(model)
    inl += _counted(b, f)
    inl += _skill(f)
    return inl + [text(".")], []


def _counted(b: StepWriter, f: dict) -> Inlines:
    """What a referee's table reports for a race when it counts: how many of each kind."""
    kinds = f.pop("counts", None)
    per = f.pop("counts_per", None)
    if not isinstance(kinds, dict) or not kinds:
        return []
    who = [text("each racer")] if per is None else [text("each ")] + b.x(per)
    parts = []
    for name, spec in kinds.items():
        spec = spec if isinstance(spec, dict) else {}
        part: Inlines = [strong(str(name))]
        if spec.get("label"):
            part += [text(f" ({plain(spec['label'])})")]
        if "where" in spec:
            part += [text(", items where ")] + b.x(spec["where"])
        if "face" in spec:
            part += [text(", showing ")] + b.x(spec["face"])
        parts.append(part)
    return ([text(". At a referee's table ")] + who
            + [text(" says how many it claimed of ")] + joined(parts))


def _skill(f: dict) -> Inlines:
    """A decision whose answer is the player's to find: said, with what the view leaves out."""
    skill = f.pop("skill", None)
    hides = f.pop("hides", None)
    if skill is None:
        return []
    inl: Inlines = [text(f". Finding the answer is the players' own {plain(skill)}")]
    if isinstance(hides, list) and hides:
        inl += [text(": while they answer, a person's view does not show ")]
        inl += joined([[code(str(h))] for h in hides])
    return inl


def _if_branches(b: StepWriter, f: dict) -> list[Block]:
    """The steps of `then`, and `else` as “Otherwise” (an `else` holding a single `if` reads as
    “Otherwise, if …”, so chains of conditions stay flat)."""
    blocks: list[Block] = [b.steps(f.pop("then", None))]
    rest = f.pop("else", None)
    while rest:
        name, inner = parse_step(rest[0]) if isinstance(rest, list) and len(rest) == 1 else (None, {})
        if name == "if" and set(inner) <= {"condition", "then", "else"}:
            blocks += [Para([text("Otherwise, if ")] + b.x(inner.get("condition")) + [text(":")]),
                       b.steps(inner.get("then"))]
            rest = inner.get("else")
        else:
            blocks += [Para([text("Otherwise:")]), b.steps(rest)]
            rest = None
    return blocks


@sentence("if")
def _if(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("if ")] + b.x(f.pop("condition", None))
    then = f.get("then")
    if isinstance(then, list) and len(then) == 1 and not f.get("else"):
        one = b.step(then[0])
        if not one.children:  # a single plain step reads on one line
            f.pop("then")
            return inl + [text(": ")] + lower(one.inlines), []
    return inl + [text(":")], _if_branches(b, f)


@sentence("repeat")
def _repeat(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    if "times" in f:
        inl = [text("repeat ")] + b.x(f.pop("times")) + [text(" times")]
    elif "while" in f:
        inl = [text("while ")] + b.x(f.pop("while")) + [text(" holds, repeat")]
    else:
        inl = [text("repeat")]
    if "until" in f:
        inl += [text(" until ")] + b.x(f.pop("until"), "checked after each pass")
    if "max" in f:
        inl += [text(", at most ")] + b.x(f.pop("max")) + [text(" times")]
    return inl + [text(":")], [b.steps(f.pop("do", None))]


@sentence("for_each")
def _for_each(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("for each "), code(plain(f.pop("name", None))), text(" in ")] + b.thing(f.pop("in", None))
    return inl + [text(":")], [b.steps(f.pop("do", None))]


@sentence("call")
def _call(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("carry out ")] + b.ref("procedure", f.pop("procedure", None))
    args = f.pop("with", None) or {}
    if args:
        inl += [text(" with ")] + joined([[code(str(k)), text(" = ")] + b.x(v)
                                          for k, v in args.items()])
    return inl + [text(".")], []


@sentence("emit")
def _emit(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("the event ")] + b.ref("event", f.pop("event", None)) + [text(" happens")]
    args = f.pop("with", None) or {}
    if args:
        inl += [text(" with ")] + joined([[code(str(k)), text(" = ")] + b.x(v)
                                          for k, v in args.items()])
    return inl + [text(".")], []


@sentence("break")
def _break(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("stop repeating (leave the innermost loop).")], []


@sentence("end_turn")
def _end_turn(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("the turn ends at once.")], []


@sentence("end_phase")
def _end_phase(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("the phase ends at once.")], []


@sentence("end_game")
def _end_game(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("the game ends at once")]
    if "reason" in f:
        inl += [text(": ")] + b.quote(f.pop("reason"))
    if "winners" in f:
        inl += [text("; the winners are ")] + b.x(f.pop("winners"))
    return inl + [text(".")], []


@sentence("goto")
def _goto(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    phase = f.pop("phase", None)
    if phase == "end":
        return [text("the game ends at once.")], []
    return [text("the phase ends; go to ")] + b.ref("phase", phase) + [text(".")], []


@sentence("start_timer")
def _start_timer(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("start the timer ")] + b.thing(f.pop("timer", None)) + [text(" at ")]
    return inl + b.x(f.pop("seconds", None)) + [text(" seconds.")], []


@sentence("stop_timer")
def _stop_timer(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("stop the timer ")] + b.thing(f.pop("timer", None)) + [text(".")], []


@sentence("wait")
def _wait(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("wait ")] + b.x(f.pop("seconds", None)) + [text(" seconds.")], []


@sentence("say")
def _say(b: StepWriter, f: dict) -> tuple[Inlines, list[Block]]:
    line = b.quote(f.pop("text", ""))
    if "to" in f:
        return [text("tell ")] + b.x(f.pop("to")) + [text(" privately: ")] + line, []
    return [text("announce: ")] + line, []
