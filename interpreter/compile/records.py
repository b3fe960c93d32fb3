"""Phase 5b, compile for simulation (the log): the records a logged game writes.

Input: the writer's names (seat names, dice, decisions) and a record's kind with its fields
as Python source. Output: in a logged game (`_Gen.logged`), a line `_rec({...})` where the
interpreter's game calls `Game.record` (interpreter/engine/game.py), with the same fields in
the same order, so the generated game's log equals the interpreter's record for record
(tests/test_specialize_logs.py compares them); an unlogged game writes nothing here. A
mixin of the specializer's writer (interpreter/compile/specialize.py)."""

from __future__ import annotations

from typing import Any

from dsl import nodes as n
from dsl.builtins import MAX_TEXT
from dsl.parser import parse_template
from interpreter.compile.base import Ex, Unsupported, face_src, item_getter
from interpreter.compile.base import _node as n_node
from interpreter.engine.words import capital, items_words, zone_words


class RecordWriter:
    """Writes the log's records; `self` is the specializer's writer."""

    def rec(self, d: int, kind: str, *fields: tuple[str, str]) -> None:
        """`_rec({'t': kind, name: source, ...})` in a logged game; nothing otherwise."""
        if self.logged:
            self.emit(d, f"_rec({_record(kind, fields)})")

    def names_of(self) -> str:
        """The table of seat names, by seat index."""
        return self.const(tuple(self.seat_names), "NM")

    def name_getter(self) -> str:
        """The seat names' table as a function of the seat (`map` reads it at C speed)."""
        return self.const(item_getter(tuple(self.seat_names)), "NG")

    def who_src(self, player: Ex) -> str:
        """A player's name in a record (`by`, `player`)."""
        return f"{self.names_of()}[{player.src}]"

    def rec_decision(self, d: int, did: str, who: Ex, choice: str, only: str = "False",
                     label: str | None = None, sealed: bool = False) -> None:
        """As GameAsking._took: the decision, by whom, the answer's key; `only` (source) when
        it was the one legal option; `sealed` when the others see it only at the reveal;
        else the option's own `label` (source of a text or None) when it has one."""
        if not self.logged:
            return
        fields = [("id", repr(did)), ("by", self.who_src(who)), ("choice", choice),
                  *self.decision_times(only)]
        if sealed:
            fields.append(("sealed", "True"))
        if label:
            lone = "" if only == "False" else f"not ({only}) and "
            fields.append(("", f"**({{'label': {label}}} if {lone}{label} is not None else {{}})"))
        self.rec(d, "decision", *fields)

    def forced_src(self, did: str, values: Any, legal: tuple, who: Ex) -> str:
        """The next scripted answer to a decision asked of `who`, as the generated code holds
        the choice: an option's index, a value (a seat, a die's or card's number, a cell's id,
        a number or a text) or a number (scripted.py `forced_*`: Game._scripted and
        Request.match; an answer it refuses stops the game at the decision's step)."""
        at = f", {self.input_at()}, {self.who_src(who)}"
        if legal[0] == "number":
            return f"_forced_number(FQ, {did!r}, {legal[1]}, {legal[2]}{at})"
        if legal[0] in ("static", "dynamic"):
            lg = self.const(legal[1], "LG") if legal[0] == "static" else legal[1]
            return f"_forced_pick(FQ, {did!r}, {lg}, {self.const(tuple(values), 'VA')}{at})"
        keys = {"player": self.names_of(), "dref": self.const(tuple(self.die_ids), "DI")
                if values == "dref" else None, "card": self.const(tuple(self.card_ids), "CI")
                if values == "card" else None}.get(values)
        return f"_forced_value(FQ, {did!r}, {legal[1]}, {keys}{at})"

    def look(self, d: int) -> None:
        """In a logged game, once its locals are set up: `_look(f)`, where `f()` tells the
        game as it stands then (whose turn, in a turn or not, turn and round, the faces of
        dice, what each zone holds, the players' and the game's state of plain kinds): what
        narration reads of a game besides the records (interpreter/table/mirror.py)."""
        if not self.logged:
            return
        faces = ", ".join(f"{die.id!r}: {face_src(die)}" for ds in self.dice.values()
                          for die in ds)
        plain = ("int", "num", "str", "bool")
        players = ", ".join(f"{name!r}: {py}" for name, (sc, py, kind) in self.vars.items()
                            if sc == "player" and kind in plain)
        state = ", ".join(f"{name!r}: {py}" for name, (sc, py, kind) in self.vars.items()
                          if sc in ("global", "turn", "round") and kind in plain)
        dyn = getattr(self, "dyn", False)
        items = f"{self.item_ids()}, F if {self.item_kind == 'dref'} else None, ZL" if dyn \
            else "(), None, {}"
        self.emit(d, "if _look is not None:")
        self.emit(d + 1, f"_look(lambda: (cur, itn, turn_n, round_n, now, {{{faces}}}, "
                         f"{{{players}}}, {{{state}}}, {items}, {self._whole()}))")

    def _whole(self) -> str:
        """The rest of the game's state, for its final table (interpreter/table/mirror.py
        `sync_all`): every state variable, decision and race by scope with its kind, who is
        out, and the timers."""
        kinds: dict[str, str] = {}
        scopes: dict[str, list[str]] = {}
        for name, (sc, py, _) in self.vars.items():
            try:
                kinds[name] = self._state_kind(name)
            except Unsupported:
                kinds[name] = "?"
            scopes.setdefault(sc, []).append(f"{name!r}: {py}")
        for did, kind in self.decisions.items():
            kinds[did] = kind
        table = self.const(kinds, "KN")
        parts = [f"{sc!r}: {{{', '.join(v)}}}" for sc, v in scopes.items()]
        parts.append("'decisions': {" + ", ".join(f"{did!r}: D_{did}" for did in self.decisions)
                     + "}")
        parts.append("'races': {" + ", ".join(f"{rid!r}: R_{rid}" for rid in self.races) + "}")
        parts.append(f"'out': {'E' if self.elim else 'None'}")
        parts.append("'timers': {" + ", ".join(
            f"{t!r}: (TS_{t}, TA_{t}, TR_{t}, TP_{t}, TO_{t})" for t in self.timers) + "}")
        return f"({table}, {{{', '.join(parts)}}})"

    def zone_tables(self, d: int) -> None:
        """After the zones are made, in a logged game or where a rule reads an item's zone:
        `ZID`, each zone's id by the id() of its list; in a logged game also `ZH`, the zones
        not every player sees, with their id, owner and who sees them (as Zone.seen_by: fixed
        at setup, owners and teams never change); `ZO`, the owned zones' owners by name."""
        if not getattr(self, "dyn", False) or not (self.logged or self.zone_read):
            return
        comps = (self.data.get("components") or {}).get("zones") or {}
        ids, hidden, owned, lists = [], [], [], []
        for name, (owner, _) in self.zones.items():
            vis = comps[name].get("visibility", "public")
            if owner == "player":
                made = [(f"ZP_{name}[{i}]", f"{self.seat_names[i]}.{name}", self.seat_names[i],
                         {i}) for i in range(self.n)]
            elif owner == "team":
                made = [(f"ZT_{name}[{t}]", f"{tm}.{name}", tm, set(self.team_members[t]))
                        for t, tm in enumerate(self.team_names)]
            else:
                made = [(f"Z_{name}", name, None, None)]
            for src, zid, owner_name, owners in made:
                ids.append(f"id({src}): {zid!r}")
                lists.append(f"{zid!r}: {src}")
                if owner_name is not None:
                    owned.append(f"id({src}): {owner_name!r}")
                if vis == "public" or (vis == "others" and owners is None):
                    continue
                sees = [self.seat_names[i] for i in range(self.n)
                        if (vis == "owner" and owners is not None and i in owners)
                        or (vis == "others" and (owners is None or i not in owners))]
                hidden.append(f"id({src}): ({zid!r}, {owner_name!r}, {tuple(sees)!r})")
        self.emit(d, "ZID = {" + ", ".join(ids) + "}")  # also where a rule reads `.zone`
        if not self.logged:
            return
        self.emit(d, "ZH = {" + ", ".join(hidden) + "}")
        self.emit(d, "ZO = {" + ", ".join(owned) + "}")  # owners' names, who roll its dice
        self.emit(d, "ZL = {" + ", ".join(lists) + "}")  # each zone's list, by its id

    def item_ids(self) -> str:
        """The table of the items zones hold (dice or cards), their ids by number."""
        ids = self.die_ids if self.item_kind == "dref" else self.card_ids
        return self.const(tuple(ids), "IT")

    def rec_items(self, d: int, kind: str, items: str, before: str | None,
                  *fields: tuple[str, str]) -> None:
        """A record of items that moved or were rolled (Game.record_items), with `private`
        worked out from where they lie now (`before`: the local holding the places out of
        sight before the move, or None for a roll)."""
        if self.logged:
            self.emit(d, f"_rec(_private({_record(kind, fields)}, {items}, W, ZH, {before}))")

    def rec_revealed(self, spec: dict, d: int, ctx: Any) -> None:
        """As steps._reveal in a logged game: the line words.revealed says, to everyone or
        to the players of `to`; a zone by its owner and label with the items it holds and
        their faces, dice with their faces, anything else as the `text` built-in writes it.
        The words are worked out by interpreter/engine/words.py on a game set up for them
        (names, labels, components), with the faces the generated game has."""
        x = self.expr(n_node(spec["reveal"]), ctx.scope)
        words = self.const(_WordsGame(self.p, self.n), "WG")
        ids = self.item_ids() if getattr(self, "dyn", False) else None
        if x.kind == "zone":
            v = self.temp("rv")
            self.emit(d, f"{v} = {x.src}")
            text = (f"_revealed_zone({words}, ZID[id({v})], ZO.get(id({v})), "
                    f"[{ids}[_i] for _i in {v}], {self._faces_of(v)})")
        elif x.kind in ("dref", "list:dref"):
            v = self.temp("rv")
            self.emit(d, f"{v} = {f'[{x.src}]' if x.kind == 'dref' else f'list({x.src})'}")
            text = (f"'Revealed: ' + _items_words({words}, [{ids}[_i] for _i in {v}], "
                    f"{self._faces_of(v)})")
        elif x.kind in ("die", "dice"):
            text = (f"'Revealed: ' + _items_words({words}, {[die.id for die in x.dice]!r}, "
                    f"[{', '.join(face_src(die) for die in x.dice)}])")
        else:
            text = f"'Revealed: ' + {self.text_of('{' + spec['reveal'] + '}', ctx.scope)}"
        self.rec(d, "say", ("text", text), *self.to_whom(spec, ctx))

    def to_whom(self, spec: dict, ctx: Any) -> tuple:
        """A line's `to` (Game.narrate): the names of the player or players it is for."""
        if "to" not in spec:
            return ()
        who = self.expr(n_node(spec["to"]), ctx.scope)
        if who.kind == "player" and who.safe:
            return (("to", f"[{self.who_src(who)}]"),)
        if who.kind == "list:player" and who.safe:
            return (("to", f"list(map({self.name_getter()}, {who.src}))"),)
        raise Unsupported("a line's `to` in a game that writes its log")

    def _faces_of(self, items: str) -> str:
        """The faces of the dice among `items` (None for cards), as a roll records them."""
        return f"[F[_i] for _i in {items}]" if self.item_kind == "dref" else "None"

    def named_doer(self, by: Any, d: int, ctx: Any) -> str:
        """As step_runtime.named_doer: the name of the player a step's `by` names, for the
        log only (its work is not counted: the meter is put back), None when it names
        nobody or cannot be worked out. Returns a local holding it."""
        # Worked out for the log only, where a value it cannot give is no one: a list that
        # may hold none is written here, and any Python error it meets is no one too.
        self.loose = True
        try:
            x = self.expr(n_node(by), ctx.scope)
        finally:
            self.loose = False
        if x.kind not in ("player", "team"):  # none, a number, a text: nobody, the table
            return "None"
        names = self.names_of() if x.kind == "player" else self.const(self.team_names, "TN")
        t = self._for_log("dn", x.src, d)
        self.emit(d, f"{t} = {names}[{t}] if type({t}) is int else None")
        return t

    def _for_log(self, hint: str, src: str, d: int) -> str:
        """A value worked out for the log only, as the interpreter works it out (outside the
        work meter, a rule error giving None): a local holding `src`'s value or None, with
        the work meter put back."""
        t, w = self.temp(hint), self.temp("wk")
        self.emit(d, f"{w} = wk")
        self.emit(d, "try:")
        self.emit(d + 1, f"{t} = {src}")
        self.emit(d, "except (_Stop, *_RULE_ERRORS):")
        self.emit(d + 1, f"{t} = None")
        self.emit(d, f"wk = {w}")
        return t

    def label_of(self, template: Any, scope: dict, key: str, d: int) -> str:
        """As asking._label for a label made from a template (`option_label`): worked out for
        the log only (no work counted), None when it cannot be made or says no more than the
        key (`key`: source of its text). Returns a local holding it."""
        t = self._for_log("lb", self.text_of(template, scope), d)
        self.emit(d, f"{t} = {t} if {t} and {t} != {key} else None")
        return t

    def text_of(self, value: Any, scope: dict, key: str | None = None) -> str:
        """A template's text (`say`, a label), as compile_template renders it: its parts
        joined, each hole shown as the built-in `text` shows a value; `key`: the template's
        key in the step being written, where a rule error met in a hole stops the game
        (located at the hole's offsets in the template, as the interpreter locates it)."""
        if not isinstance(value, str):
            return repr(str(value))
        with self.located(None if key is None or self.step_path is None else
                          (*self.step_path, key)):
            return self._text_of(value, scope)

    def _text_of(self, value: str, scope: dict) -> str:
        parts = []
        template = parse_template(value)
        for part in template.parts:
            if isinstance(part, str):
                parts.append(repr(part))
                continue
            x = self.expr(part, scope)
            if x.kind == "player":  # a player is written by name (str of a Player)
                who = self.who_src(x)
                # One that may be none is read once (its work counted once, as there).
                parts.append(who if x.safe else f"_name_or_none({self.names_of()}, {x.src})")
                continue
            if x.kind in ("die", "dice"):  # a die as its repr, `b[0]=4`, joined by commas
                parts.append(" + ', ' + ".join(f"{die.id + '='!r} + str({face_src(die)})"
                                               for die in x.dice) or "'none'")
                continue
            if x.kind in ("list:player", "list:dref") and x.safe:  # `map`: no `:=` limits
                one = (self.name_getter() if x.kind == "list:player" else
                       f"lambda _i: {self.item_ids()}[_i] + '=' + str(F[_i])")
                parts.append(f"(', '.join(map({one}, {x.src})) or 'none')")
                continue
            # No place of its own: the template's text past the longest is the template's
            # error (compile_template), not the built-in's at the hole.
            shown = self.expr(n.Call(None, "text", (part,)), scope)
            if shown.kind != "str":
                raise Unsupported("a text hole")
            parts.append(shown.src)
        return self.template_text(template, parts)

    def template_text(self, template: n.Template, parts: list[str]) -> str:
        """A template's text as source, its parts (sources) joined: past the language's
        longest text the interpreter stops at the whole template (compile_template), and so
        does `_within` (located where the version locates it; elsewhere the checked version
        finds the place). A text without holes is tested now."""
        if not parts:
            return "''"
        if all(isinstance(p, str) for p in template.parts) and len(
                "".join(template.parts)) <= MAX_TEXT:
            return " + ".join(parts)
        return f"_within({' + '.join(parts)}{self.site_arg(template.pos)})"


def _record(kind: str, fields: tuple) -> str:
    """A record's dict display: its kind, then each field (`name: source`; a name left
    empty puts the source in as it is, a `**` of optional fields; an empty source is left
    out)."""
    parts = [f"'t': {kind!r}", *(f"{name!r}: {src}" if name else src
                                 for name, src in fields if src)]
    return "{" + ", ".join(parts) + "}"


class _WordsGame:
    """What interpreter/engine/words.py reads of a game to name things (players, teams,
    labels, components), set up once for a logged game's reveals: never played."""

    def __init__(self, program: Any, players: int):
        from interpreter.engine.setup import new_game
        game = new_game(program, players)
        self.program, self.players, self.teams, self.env = (
            game.program, game.players, game.teams, game.env)


def revealed_zone(game: Any, zone_id: str, owner: str | None, ids: list, faces: list | None
                  ) -> str:
    """words.revealed of a zone, from its id, its owner's name and what it holds."""
    shown = items_words(game, ids, faces) if ids else "nothing"
    if owner is None:
        return f"Revealed, {zone_words(game, zone_id)}: {shown}"
    spoken = owner if any(p.name == owner for p in game.players) else f"team {owner}"
    return f"{capital(spoken)} reveals {zone_words(game, zone_id, spoken)}: {shown}"


def name_or_none(names: tuple, seat: int | None) -> str:
    """A player that may be none, written in a text: its name, or `none`."""
    return "none" if seat is None else names[seat]
