"""Phase 5b, compile for play from a position: a game that begins where a position puts it,
written as code.

Input: the generator of interpreter/compile/specialize.py, asked with `positioned=True` (a
logged game, `meeple run --from` and its replay, resume and undo). Output: Python lines of
the game's function that take the game as the interpreter's `Game` stands once the position
is applied (interpreter/table/position.py `apply`): `_POS`, the caller's view of that game
(interpreter/table/mirror.py `Placed`), gives every state value, what each zone holds, the
dice's faces, who is out, the round, the turn and whose turn, each turned into the generated
code's own values by its kind. The flow then begins as Game._play does: at the position's
phase without `game_start` (or as usual when it names none), and with `current` inside a
phase with turns at the start of that player's turn: the phase's beginning and the round's
start behind it, the players before them in this round's order passed over, that turn not
counted again, and the round and turn state the position gives kept (Game._run_round,
Game._run_turn).
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import Unsupported


class PositionWriter:
    """A game from a position (a mixin of _Gen)."""

    def load_position(self, d: int) -> None:
        """In a game from a position, after the game's names are set up: each set as the
        position left it (the caller's `Game`, read through `_POS`)."""
        if not self.positioned:
            return
        e = self.emit
        e(d, "rs = None")  # the seat whose turn the game resumes at, inside its phase
        if getattr(self, "learning", False):
            # A pass that learns the kinds of lists and maps (maps.py) writes no loader: it
            # is not the game's code (`lenient`), and each kind is known once it ends.
            self.lenient = True
            return
        e(d, "if _POS is not None:")
        d1 = d + 1
        if getattr(self, "dyn", False):
            e(d1, f"_POS.bind({self.item_ids()})")
        e(d1, "round_n, turn_n, cur, rs = _POS.round, _POS.turn, _POS.cur, _POS.resume")
        for name, (sc, py, _) in self.vars.items():
            kind = self._position_kind(name)
            if sc == "player":
                e(d1, f"{py} = [_POS.value(v, {kind!r}) for v in _POS.players({name!r})]")
            elif sc == "team":
                e(d1, f"{py} = [_POS.value(v, {kind!r}) for v in _POS.teams({name!r})]")
            else:
                e(d1, f"{py} = _POS.value(_POS.state({name!r}), {kind!r})")
        if self.elim:  # (someone out at the position is written so: specialize's `out`)
            e(d1, "E[:] = _POS.out")
        for ds in self.dice.values():
            for die in ds:
                e(d1, f"{die.var} = _POS.face({die.id!r})")
        if getattr(self, "dyn", False):
            if self.item_kind == "dref":
                e(d1, "F[:] = _POS.faces(len(F))")
            e(d1, "for _i in range(len(W)):")
            e(d1 + 1, "W[_i] = None")
            e(d1, "for _zid, _zl in ZL.items():")
            e(d1 + 1, "_zl[:] = _POS.zone(_zid)")
            e(d1 + 1, "for _i in _zl:")
            e(d1 + 2, "W[_i] = _zl")

    def _position_kind(self, name: str) -> str:
        """The kind a state value is turned into the generated code's by: "?" for a list or
        map whose items no rule writes (the generated code never reads it either), which
        keeps the game's own value, as the mirror gives it back."""
        try:
            return self._state_kind(name)
        except Unsupported:
            return "?"

    def unless_placed(self, test: str, d: int, write: Any) -> None:
        """What `write(depth)` writes, in a game from a position only where `test` (source)
        holds: a beginning the position has behind it is skipped."""
        if not self.positioned:
            write(d)
            return
        self.emit(d, f"if {test}:")
        write(d + 1)
        self.emit(d + 1, "pass")

    def kept(self, resumed: str, scopes: tuple[str, ...], d: int) -> None:
        """Where a game from a position resumes (`resumed`, source of a truth value): the
        round and turn state the position gives, set again after the reset (the position's
        `kept`)."""
        names = [(name, py) for name, (sc, py, _) in self.vars.items() if sc in scopes]
        if not self.positioned or not names:
            return
        e = self.emit
        e(d, f"if {resumed}:")
        for name, py in names:
            e(d + 1, f"if {name!r} in _POS.kept:")
            e(d + 2, f"{py} = _POS.value(_POS.kept[{name!r}], "
                     f"{self._position_kind(name)!r})")

    def start_phase(self, phases: list[str]) -> str:
        """The source of the index of the phase the game begins at (-1: the end)."""
        first = phases.index(self.p.start)
        if not self.positioned:
            return str(first)
        table = self.const({name: i for i, name in enumerate(phases)} | {"end": -1}, "PH")
        return f"({table}[_POS.begin] if _POS is not None and _POS.begin is not None " \
               f"else {first})"
