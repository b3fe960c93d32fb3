"""Phase 5b, compile for simulation (the log): the records a logged game writes.

Input: the writer's names (seat names, dice, decisions) and a record's kind with its fields
as Python source. Output: in a logged game (`_Gen.logged`), a line `_rec({...})` where the
interpreter's game calls `Game.record` (interpreter/engine/game.py), with the same fields in
the same order, so the generated game's log equals the interpreter's record for record
(tests/test_specialize_logs.py compares them). What a logged game cannot write yet is refused
(`Unsupported`), never written differently; an unlogged game writes nothing here. A mixin of
the specializer's writer (interpreter/compile/specialize.py)."""

from __future__ import annotations

from typing import Any

from dsl import nodes as n
from dsl.parser import parse_template
from interpreter.compile.base import Ex, Unsupported

# Effects whose records a logged game does not write yet: refused rather than left out.
UNLOGGED = frozenset({"move", "draw", "deal", "shuffle", "reveal", "transfer", "eliminate",
                      "race", "actions"})


class RecordWriter:
    """Writes the log's records; `self` is the specializer's writer."""

    def rec(self, d: int, kind: str, *fields: tuple[str, str]) -> None:
        """`_rec({'t': kind, name: source, ...})` in a logged game; nothing otherwise."""
        if not self.logged:
            return
        parts = [f"'t': {kind!r}", *(f"{name!r}: {src}" if name else src
                                     for name, src in fields if src)]
        self.emit(d, "_rec({" + ", ".join(parts) + "})")

    def unlogged(self, what: str) -> None:
        """Refuses, in a logged game, something whose records are not written yet."""
        if self.logged:
            raise Unsupported(f"{what} in a game that writes its log")

    def names_of(self) -> str:
        """The table of seat names, by seat index."""
        return self.const(tuple(self.seat_names), "NM")

    def who_src(self, player: Ex) -> str:
        """A player's name in a record (`by`, `player`)."""
        return f"{self.names_of()}[{player.src}]"

    def rec_decision(self, d: int, did: str, who: Ex, choice: str, only: str = "False",
                     label: str | None = None) -> None:
        """As GameAsking._took: the decision, by whom, the answer's key; `only` (source) when
        it was the one legal option, else the option's own `label` (source of a text or
        None) when it has one."""
        if not self.logged:
            return
        extra = f"{{'label': {label}}} if {label} is not None else {{}}" if label else "{}"
        rest = extra if only == "False" else f"{{'only': True}} if {only} else ({extra})"
        self.rec(d, "decision", ("id", repr(did)), ("by", self.who_src(who)),
                 ("choice", choice), ("", f"**({rest})") if rest != "{}" else ("", ""))

    def text_of(self, value: Any, scope: dict) -> str:
        """A template's text (`say`, a label), as compile_template renders it: its parts
        joined, each hole shown as the built-in `text` shows a value."""
        if not isinstance(value, str):
            return repr(str(value))
        parts = []
        for part in parse_template(value).parts:
            if isinstance(part, str):
                parts.append(repr(part))
                continue
            x = self.expr(part, scope)
            if x.kind == "player":  # a player is written by name (str of a Player)
                who = self.who_src(x)
                parts.append(who if x.safe else f"({who} if {x.src} is not None else 'none')")
                continue
            shown = self.expr(n.Call(part.pos, "text", (part,)), scope)
            if shown.kind != "str":
                raise Unsupported("a text hole")
            parts.append(shown.src)
        # Past the language's longest text the interpreter stops: so does `_within`.
        return f"_within({' + '.join(parts)})" if parts else "''"
