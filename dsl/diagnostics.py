"""Diagnostics: the one error type of every phase, its stable codes, and its rendering.

Input: findings from any phase (load, structure, parse, check). Output: `Diagnostic` values,
rendered compiler-style (`file:line:col: error: message [code]`, the source line, a caret) or as
JSON. The code registry `CODES` is the single list of codes; docs/errors.md is generated from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from dsl.safe_text import escape_controls
from dsl.source import SourceFile, Span


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Code:
    """A stable diagnostic code with the phase that emits it and its documentation."""

    name: str
    phase: str
    summary: str
    example: str
    fix: str


def _c(name: str, phase: str, summary: str, example: str, fix: str) -> Code:
    return Code(name, phase, summary, example, fix)


CODES: dict[str, Code] = {c.name: c for c in [
    # load
    _c("file-not-found", "load", "The file does not exist or cannot be read.",
       "meeple validate missing.yaml", "Check the path."),
    _c("bad-encoding", "load", "The file is not UTF-8 text.",
       "a ruleset saved as Latin-1 with an accented name", "Save the file as UTF-8."),
    _c("yaml-syntax", "load", "The file is not well-formed YAML.",
       "a: [1, 2", "Close the bracket, fix the indentation or quote the value."),
    _c("duplicate-key", "load", "A mapping has the same key twice; YAML would silently keep the last.",
       "parameters: {rounds: 3, rounds: 4}", "Remove or rename one of the keys."),
    _c("unsafe-yaml", "load", "The file uses a YAML tag that would construct objects.",
       "x: !!python/object:os.system", "Use plain YAML values only."),
    _c("too-large", "load", "The document is larger than the size limit.",
       "a 50 MB ruleset", "Split data into a smaller ruleset; the limit is in docs/errors.md."),
    _c("too-deep", "load", "The document nests deeper than the nesting limit.",
       "[[[[[[...]]]]]] 200 levels", "Flatten the structure."),
    _c("alias-limit", "load",
       "The document uses too many aliases, or an alias expands to too much (an alias bomb).",
       "a: &a [*b, *b, *b] repeated", "Write the values out, or use fewer aliases."),
    _c("not-a-mapping", "load", "The document's top level is not a mapping of sections.",
       "- just a list", "Start the file with sections such as `meeple: 1` and `metadata:`."),
    # structure
    _c("schema", "structure", "A value does not match the ruleset schema (wrong type, bad value).",
       "players: {min: two}", "Follow the hint; `meeple schema` prints the schema."),
    _c("missing-key", "structure", "A required key is missing.",
       "a ruleset without `flow:`", "Add the key."),
    _c("unknown-key", "structure", "A key is not part of this section.",
       "metadata: {nmae: Thirty}", "Fix the spelling; the message suggests the nearest key."),
    _c("unknown-effect", "structure", "A step names no known effect.",
       "- rol: die", "Use one of the effects listed in docs/language.md."),
    # parse
    _c("syntax", "parse", "An expression does not parse.",
       "when: 'score >= '", "Complete the expression; the message lists what could come next."),
    _c("syntax-operator", "parse",
       "An expression uses an operator from another language (&&, ||, !, =, ===).",
       "when: 'a && b'", "Use `and`, `or`, `not`, `==`."),
    # check
    _c("private-name", "parse",
       "A name or field starts with `_`: such names are the engine's own, never a ruleset's.",
       "when: 'current.__class__'", "Rename it without the leading `_`."),
    _c("unknown-name", "check", "A name is not declared anywhere in the ruleset.",
       "score: scroe + 1", "Fix the spelling or declare the name in `state:` or `parameters:`."),
    _c("unknown-field", "check", "A field does not exist on a value of this kind.",
       "current.gld", "Use a declared per-player state name or a built-in field."),
    _c("duplicate-name", "check", "The same name is declared twice in different sections.",
       "a parameter and a state variable both named `score`", "Rename one of them."),
    _c("reserved-name", "check", "A declared name is a keyword or built-in name.",
       "state: {global: {players: 0}}", "Choose another name."),
    _c("type-mismatch", "check", "A value has the wrong type for where it is used.",
       "when: 'score + 1'  (a number where a condition is needed)", "Compare or convert the value."),
    _c("arity", "check", "A built-in function got the wrong number of arguments.",
       "max()", "See the built-in's signature in docs/reference.md."),
    _c("not-callable", "check", "Something that is not a function is called.",
       "score(1)", "Remove the parentheses or call a built-in."),
    _c("not-assignable", "check", "The target of set/add is not a state variable or field.",
       "set: {rounds: 4}  (a parameter)", "Assign only to declared state."),
    _c("unknown-phase", "check", "A phase named by `next`, `start` or `goto` does not exist.",
       "next: plya", "Use a declared phase name or `end`."),
    _c("unknown-reference", "check",
       "A reference to another section (component, zone, procedure, event, timer...) does not resolve.",
       "on: rolld", "Use a declared name; the message suggests the nearest one."),
    _c("unknown-decision", "check", "A policy decides a decision that no `choose` step declares.",
       "policies: {p: {decide: {rol_or_hold: ...}}}", "Use the id of a `choose` step."),
    _c("unknown-option", "check", "A policy or default picks an option the decision does not offer.",
       "choose: hodl", "Use one of the decision's options."),
    _c("unknown-parameter", "check", "A variant or `set` names a parameter that does not exist.",
       "variants: {v: {set: {roudns: 5}}}", "Use a declared parameter."),
    _c("bad-parameter-value", "check", "A parameter value is outside its declared type, range or choices.",
       "rounds: {default: 0, min: 1}", "Use a value within the declared bounds."),
    _c("shadowed-name", "check", "A comprehension's item takes a name already in use there (a "
       "warning).", "any(c.x for c in cells if any(c == d for c in rows))",
       "Give the inner item its own name."),
    _c("policy-peeks", "check", "A bot policy reads what its player cannot see: hidden state, "
       "another player's cup or hand, a face-down deck, a hidden timer.",
       "best: wreck_region[option] with wreck_region hidden",
       "Decide on public state and the player's own fields and zones (`me.NAME`); "
       "a yardstick bot that sees everything says `sees: everything`."),
    _c("unreachable-phase", "check", "No path from the start phase reaches this phase.",
       "a phase no `next` names", "Link it with `next`, or remove it."),
    _c("no-end", "check", "The flow has no way to end the game.",
       "phases that loop forever with no `end`", "Add `next: end`, an `end_game` step or `end.when`."),
    _c("misplaced-effect", "check", "An effect is used where it cannot run.",
       "break outside a repeat", "Move the step inside the construct it needs."),
    _c("bad-players", "check", "The player counts are inconsistent, or a seat name cannot be "
       "used (empty, over 40 characters, a control character, two seats with one name).",
       "players: {min: 4, max: 2}", "Make min <= default <= max; give each seat its own "
       "short, plain name."),
    _c("empty-choice", "check", "A decision offers no options.",
       "choose: x, options: []", "Give at least one option."),
    _c("limit-exceeded", "check", "An expression or step list exceeds a language limit.",
       "an expression of 10,000 characters", "Simplify or split it."),
    # run
    _c("runtime-error", "run", "While a game ran, an expression met a value it cannot work with.",
       "total(hand) when hand holds a card", "Fix the rule the message points at."),
    _c("budget-exceeded", "run",
       "A game exceeded a budget (steps, turns, loop passes, trigger or check chain depth).",
       "a repeat whose `until` never holds", "Fix the rule named; or raise `limits` if the game "
       "really is that long."),
    _c("bad-input", "run", "A value given from outside (a `--set`, a script, a log) is not usable.",
       "--set rounds=many", "Give a value of the right type; the message says which."),
    _c("not-generated", "run", "A simulation's games are played by the reference interpreter, "
       "many times slower, because the code generator does not handle a rule the ruleset uses "
       "(a warning: the results are the same). `meeple simulate` says it before its games; "
       "`meeple validate --compile` says it for the ruleset and each variant.",
       "a set of an item of a list in a list, which the generator does not handle yet",
       "Nothing to fix in the ruleset; "
       "the warning names the rule, so a designer knows which feature costs the speed."),
    _c("people-not-generated", "run", "Games people play (at the terminal, `meeple run --seat "
       "K=human`, or refereeing at a table that counts, `--dice table`) are played by the "
       "reference interpreter, because the code generator does not handle a rule only those "
       "games use (a warning: the game is the same). `meeple validate --compile` says it.",
       "a race's count whose `face` is a text where the dice show numbers", "Nothing to fix "
       "in the ruleset; bot games of it still run on the generated code."),
    _c("no-legal-option", "run", "A decision came up with no legal option to choose.",
       "every option's `if` is false", "Give the decision an option that is always legal."),
    _c("internal-error", "run", "meeple itself failed: a bug of meeple's, not of the ruleset "
       "or of what was given. The command says so and stops (exit 1); a simulation counts a "
       "game its generated code failed to play as stopped, with its seed, and plays it by "
       "nothing else.", "the generated code met a rule error it does not locate",
       "Nothing to fix in the ruleset: please report it, with the command, the ruleset and "
       "the seed or the log."),
]}
# Codes that warn: the ruleset stays valid.
WARNINGS = frozenset({"shadowed-name", "not-generated", "people-not-generated"})


@dataclass(frozen=True)
class Diagnostic:
    """One finding of any phase: stable code, severity, message, location, data path, hint."""

    code: str
    message: str
    span: Span | None = None
    path: tuple[str | int, ...] = ()
    hint: str | None = None
    severity: Severity = Severity.ERROR
    related: tuple[tuple[str, Span], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.code not in CODES:  # pragma: no cover - a programming error, caught by tests
            raise ValueError(f"unregistered diagnostic code {self.code!r}")

    @property
    def sort_key(self) -> tuple:
        s = self.span
        return (s.file, s.line, s.column) if s else ("", 0, 0)

    def to_json(self) -> dict:
        s = self.span
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": s.file if s else None,
            "line": s.line if s else None,
            "column": s.column if s else None,
            "end_line": s.end_line if s else None,
            "end_column": s.end_column if s else None,
            "path": json_path(self.path),
            "hint": self.hint,
        }


def json_path(path: Iterable[str | int]) -> str:
    """Returns a JSONPath-like string for a data path, e.g. `$.flow.phases.play`."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Returns the closest candidate to a misspelt name, or None when nothing is close."""
    import difflib  # here: only a misspelling needs it, and every command's start-up pays it

    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return matches[0] if matches else None


def suggestion(name: str, candidates: Iterable[str]) -> str:
    """Returns " (did you mean 'x'?)" or ''."""
    best = did_you_mean(name, candidates)
    return f" (did you mean '{best}'?)" if best else ""


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorts by position and drops exact repeats, keeping the first of each."""
    seen: set[tuple] = set()
    out = []
    for d in sorted(diags, key=lambda d: d.sort_key):
        key = (d.code, d.message, d.sort_key)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


SHOWN_LINE = 160  # characters of a source line shown under a diagnostic


def render(diag: Diagnostic, source: SourceFile | None = None) -> str:
    """Renders one diagnostic compiler-style, with the source line and a caret."""
    s = diag.span
    where = f"{s.file}:{s.line}:{s.column}: " if s else ""
    lines = [f"{where}{diag.severity.value}: {diag.message} [{diag.code}]"]
    if s and source is not None:
        text = source.line_text(s.line)
        if text:
            gutter = f"{s.line:>4} | "
            column = s.column
            if len(text) > SHOWN_LINE:  # a window around the column, not a 60,000-char line
                start = max(0, column - 1 - SHOWN_LINE // 2)
                window = text[start:start + SHOWN_LINE]
                column -= start - (1 if start else 0)
                text = ("…" if start else "") + window + (
                    "…" if start + SHOWN_LINE < len(text) else "")
            width = 1
            if s.end_line == s.line and s.end_column and s.end_column > s.column:
                width = s.end_column - s.column
            width = max(1, min(width, len(text) - column + 1))
            # The quoted line is shown with its control characters escaped; the caret is
            # measured on what is shown, so it still points at the same characters.
            before = escape_controls(text[: column - 1])
            marked = escape_controls(text[column - 1: column - 1 + width])
            lines.append(gutter + before + marked + escape_controls(text[column - 1 + width:]))
            caret_pad = "".join("\t" if ch == "\t" else " " for ch in before)
            lines.append(" " * (len(gutter) - 2) + "| " + caret_pad + "^"
                         + "~" * (max(1, len(marked)) - 1))
    if diag.hint:
        lines.append(f"     = hint: {diag.hint}")
    return "\n".join(lines)
