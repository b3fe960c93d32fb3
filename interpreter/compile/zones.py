"""Phase 5b, compile for simulation (specializer): zones and dice that move, as code.

Input: the checked ruleset's `components` (zones: global, one per player or per team; dice, some
placed `in` a zone) and the generator of interpreter/compile/specialize.py. Output: the state of the
generated game for them and the Python lines of the effects and expressions that use them:

- each die is a number (its index in the order components declare them); `F[i]` is the face
  it shows (None until rolled or set), `W[i]` the zone list it is in (None: in none);
  attributes, ids and faces are constant tables indexed by die;
- a zone is a Python list of dice in order (`Z_name`, `ZP_name[seat]` for one per player,
  `ZT_name[team]` for one per team);
- kinds: `dref` (a die, or none when not `safe`), `list:dref`, `zone` (read as the list of
  what it holds where the language reads it so);
- `move` and `draw` as Game.put and steps._draw (a blind draw is `rng.sample(items, 1)`:
  one `_randbelow(len(items))` on the game's generator, as random.Random.sample takes one
  item); `roll` of dice known only at run time; `let`; `set`/`add` of a die's face;
- the built-ins first, last, highest, lowest and faces on dice, and range with constant
  bounds; `reveal` (narration only).

A move of none, or of several items with one of them twice, stops the game at the move, as
the interpreter's does (a move of none: where located); zones with a capacity, decks, shuffles
and deals raise `Unsupported`. `ZoneWriter` is a mixin of the generator (`_Gen`): it uses its
`emit`, `expr`, `temp`, `const`, `fire` and `after_op`.
"""

from __future__ import annotations

import re
from typing import Any

from dsl import nodes as n
from dsl.builtins import MAX_RANGE
from dsl.compiler import UNCHARGED_ITEMS, no_field
from interpreter.compile.base import (
    _NO,
    _NONEABLE,
    FACES_BY,
    Ex,
    Unsupported,
    _Ctx,
    _Die,
    _lit,
    data_values,
    face_src,
    faces_src,
    stored,
)
from interpreter.compile.cuts import end_of
from interpreter.compile.numbers import extreme_die
from interpreter.compile.offsets import dice_total
from interpreter.compile.stops import count_site, full_site, twice_moved_site, unmovable_site

_DIE_FIELDS = frozenset({"face", "faces", "sides", "id", "zone", "kind"})


_ZONE_READ = re.compile(r"\.\s*zone\b")  # a `.zone` field read, spaces or lines apart


class ZoneWriter:
    """Zones, dice that move between them, and the effects on them (a mixin of _Gen)."""

    # -- declarations ----------------------------------------------------------------------------
    def _zone_setup(self, comps: dict) -> None:
        """Zones and dice as the generated game holds them (as Game._build_components)."""
        self.zones: dict[str, tuple[str, str]] = {}      # name -> (owner, kind)
        # Dice as numbers known at run time: with zones, or where the rules treat dice in
        # ways written only for numbers (`loose`, the second try of `specialize`).
        self.dyn = bool(comps.get("zones")) or self.loose
        self.item_kind = "dref"  # what zones hold: dice, or cards (interpreter/compile/cards.py)
        self.capacities: dict[str, int] = {}  # zone -> the most it holds (Game.put)
        # Whether a rule may read an item's `zone` (then `ZID` gives each zone's id by its
        # list's id()): looked for in the rules' text, so that a table no rule reads is not
        # built at every game. A field of that name on anything else counts too.
        self.zone_read = self.dyn and any(isinstance(v, str) and _ZONE_READ.search(v)
                                          for v in data_values(self.data))
        if not self.dyn:
            return
        for name, spec in (comps.get("zones") or {}).items():
            owner = spec.get("owner", "none")
            if spec.get("capacity") is not None and owner != "team":  # (a team's: none)
                try:
                    self.capacities[name] = self._const(spec["capacity"])
                except Unsupported:  # read per player, say: the interpreter's
                    raise Unsupported("a zone's capacity that is not a number known now") \
                        from None
            if owner not in ("none", "player", "team"):
                raise Unsupported(f"a zone owned by {owner}")
            if owner == "team" and (not self.team_names or name in (
                    "name", "leader", "members") or name in (
                    (self.data.get("state") or {}).get("team") or {})):
                # Team state is set after the zones (Game.__init__): a clash would hide one.
                raise Unsupported("a zone per team named as a team field")
            self.zones[name] = (owner, spec.get("kind", "pool"))
        self.die_ids: list[str] = []
        self.die_faces: list[tuple] = []
        self.die_attrs: list[dict] = []
        self.dyn_names: dict[str, Ex] = {}              # component name -> its dice
        self.placed: list[tuple[str, int, int]] = []    # (zone, first die, end)
        for name, spec in (comps.get("dice") or {}).items():
            faces = tuple(spec["faces"]) if "faces" in spec else tuple(
                range(1, self._const(spec.get("sides", 6)) + 1))
            attrs = spec.get("attributes") or {}
            if set(attrs) & _DIE_FIELDS:
                raise Unsupported("a die attribute named as a built-in field")
            start = len(self.die_ids)
            if "count" in spec:
                k = self._const(spec["count"])
                self.die_ids += [f"{name}[{i}]" for i in range(k)]
                self.dyn_names[name] = Ex(repr(list(range(start, start + k))), "list:dref",
                                          True, items=[Ex(str(start + i), "dref", True)
                                                       for i in range(k)])
            else:
                k = 1
                self.die_ids.append(name)
                self.dyn_names[name] = Ex(str(start), "dref", True)
            self.die_faces += [faces] * k
            self.die_attrs += [attrs] * k
            if "in" in spec:
                zone = spec["in"]
                if self.zones.get(zone, ("player",))[0] != "none":
                    raise Unsupported("dice in a zone that is not one zone")
                self.placed.append((zone, start, start + k))
        placed = [(z, b - a) for z, a, b in self.placed] + [
            (spec["in"], len(spec.get("cards") or ())) for spec in (comps.get("decks") or {}).values()
            if isinstance(spec, dict) and "in" in spec]
        for zone, cap in self.capacities.items():  # the setup's own stop: the interpreter's
            if sum(k for z, k in placed if z == zone) > cap:
                raise Unsupported("more pieces placed in a zone than its capacity")
        if comps.get("decks"):
            if self.die_faces:
                raise Unsupported("zones holding both dice and cards")
            self.item_kind, self.face_kind = "card", "int"
            return
        fs = {f for faces in self.die_faces for f in faces}
        if not self.die_faces or not all(f for f in self.die_faces) or not (
                all(type(f) is int for f in fs) or all(type(f) is str for f in fs)):
            raise Unsupported("faces")
        self.face_kind = "int" if all(type(f) is int for f in fs) else "str"

    def room_for(self, to: Ex, tz: str, n: str, d: int) -> None:
        """Before `n` items (a source) go into the zone list `tz`, the target `to` of the
        step being written: past the zone's capacity, the interpreter's stop at the step's
        `to` (Game.put, after the items left their zones), telling the zone by its id."""
        cap = self.capacities.get(to.zone)
        if cap is None:
            if self.capacities and not to.zone:
                raise Unsupported("items put into a zone not known by name")
            return
        shown = repr(to.zone) if self.zones[to.zone][0] == "none" else (
            f"{self.names_of()}[[id(_l) for _l in ZP_{to.zone}].index(id({tz}))] + "
            f"{'.' + to.zone!r}")
        self.emit(d, f"if len({tz}) + {n} > {cap}:")
        self.emit(d + 1, self.stop_at(full_site, shown, str(cap)))

    def _zone_init(self, d: int) -> None:
        """The zones, faces and places at the start of a game (the dice in their zones in the
        order components declare them)."""
        if not self.dyn:
            return
        e = self.emit
        e(d, f"F = [None] * {len(self.die_ids)}")
        e(d, f"{FACES_BY} = _getter(F)")  # dropped where nothing reads it (peephole.py)
        e(d, f"W = [None] * {len(self.die_ids) + len(self.card_ids)}")
        for name, (owner, _) in self.zones.items():
            if owner in ("player", "team"):  # a display makes a new list of each `[]`
                many = self.n if owner == "player" else len(self.team_names)
                e(d, f"Z{owner[0].upper()}_{name} = [{', '.join(['[]'] * many)}]")
            else:
                e(d, f"Z_{name} = []")
        # Each run of dice in one zone, as one range (components next to each other that start
        # in the same zone make one); each die's place is its zone's list.
        runs: list[list] = []
        for zone, a, b in self.placed:
            if runs and runs[-1][0] == zone and runs[-1][2] == a:
                runs[-1][2] = b
            else:
                runs.append([zone, a, b])
        for zone, a, b in runs:
            e(d, f"Z_{zone} += range({a}, {b})")
            e(d, f"W[{a}:{b}] = [Z_{zone}] * {b - a}")
        self.zone_tables(d)

    # -- expressions -----------------------------------------------------------------------------
    def _zone_name(self, name: str) -> Ex | None:
        """A game name that is a global zone or a dice component, or None."""
        if not self.dyn:
            return None
        if name in self.zones and self.zones[name][0] == "none":
            return Ex(f"Z_{name}", "zone", True, zone=name)
        return self.dyn_names.get(name)

    def _player_zone(self, obj: Ex, f: str) -> Ex | None:
        if self.dyn and self.zones.get(f, ("",))[0] == "player":
            return Ex(f"ZP_{f}[{obj.src}]", "zone", obj.safe, zone=f)
        return None

    def _team_zone(self, obj: Ex, f: str) -> Ex | None:
        """A team's own zone (as Game._build_components: one per team), or None."""
        if self.dyn and self.zones.get(f, ("",))[0] == "team":
            return Ex(f"ZT_{f}[{obj.src}]", "zone", obj.safe, zone=f)
        return None

    def _die_field(self, obj: Ex, f: str, pos: tuple | None = None) -> Ex:
        """A field of a die known at run time: its face, kind, sides or an attribute (`pos`:
        the field's place, where a die without that attribute stops the game)."""
        x = obj.src
        if f == "face":
            if obj.extreme is not None:  # the most (least) face itself: no key per die
                fn, t, listed = obj.extreme  # (an empty list: F[None] raises, as it did)
                return Ex(f"({fn}(map({FACES_BY}, {t})) if ({t} := {listed}) else F[None])",
                          self.face_kind)
            return Ex(f"F[{x}]", self.face_kind)  # none before its first roll
        if f == "zone":
            return Ex(self.zone_id_of(x), "str", obj.safe)
        if f == "kind":  # the component the die belongs to
            kinds = tuple(i[:i.index("[")] if "[" in i else i for i in self.die_ids)
            return Ex(f"{self.const(kinds, 'KD')}[{x}]", "str", obj.safe)
        if f == "sides":
            sides = {len(fs) for fs in self.die_faces}
            if len(sides) == 1:  # read where it may raise: a zone's item (`some`) or none
                return _lit(sides.pop()) if obj.safe and not obj.some else Ex(
                    f"(F[{x}], {sides.pop()})[1]", "int")
            return Ex(f"{self.const(tuple(len(fs) for fs in self.die_faces), 'SD')}[{x}]",
                      "int", obj.safe)
        has = [a for a in self.die_attrs if f in a]
        if f in _DIE_FIELDS or not has:
            raise Unsupported(f"field {f} of a die")
        types = {type(a[f]) for a in has}
        kind = {bool: "bool", int: "int", str: "str"}.get(types.pop()) if len(types) == 1 \
            else None
        if kind is None:
            raise Unsupported(f"attribute {f} of different kinds")
        if len(has) == len(self.die_attrs):
            table = self.const(tuple(a[f] for a in self.die_attrs), "AT")
            return Ex(f"{table}[{x}]", kind, obj.safe)
        # Dice without it: the lookup fails, the interpreter's error (located where the
        # expression is; elsewhere the checked version plays the seed again).
        table = self.const({i: a[f] for i, a in enumerate(self.die_attrs) if f in a}, "AT")
        site = self.site(pos, no_field(None, f, "a die"))
        if site is not None:
            return Ex(f"_looked({table}, {x}, {site}, None)", kind)
        return Ex(f"{table}[{x}]", kind)

    def zone_id_of(self, x: str) -> str:
        """The id of the zone the item `x` lies in, '' in none (as Die.zone, Card.zone): a
        player's zone is `Player 1.hand`. During a race's time a claimed item lies in a
        hand that has its zone's id (races.py `_race_time`)."""
        return f"ZID.get(id(W[{x}]), '')"

    def rolled(self, value: Any, ctx: _Ctx) -> Ex:
        """The dice a `roll` names. Dice known at run time written as a list of dice, sets of
        dice and zones (`roll: [gold, black]`) are one list of them, in order, as
        step_runtime.dice_in flattens it; each item worked out at its place."""
        if self.dyn and isinstance(value, list) and value:
            parts = [self._as_list(self.value_at(v, ctx.scope, "roll", i))
                     for i, v in enumerate(value)]
            if all(p.kind in ("dref", "list:dref") for p in parts):
                listed = ", ".join(p.src if p.kind == "dref" else f"*{p.src}" for p in parts)
                return Ex(f"[{listed}]", "list:dref", all(p.safe for p in parts))
        return self._as_list(self.value_at(value, ctx.scope, "roll"))

    def _as_list(self, e: Ex) -> Ex:
        """A zone read as the list of what it holds (the language's reading of a zone)."""
        if e.kind == "zone":
            return Ex(e.src, "list:" + self.item_kind, e.safe, distinct=True)
        return e

    def known_total(self, dice: tuple[_Die, ...], pos: tuple) -> Ex:
        """`total` of dice known now, called at `pos`: their indexes' sum (offsets.py);
        located, a die not rolled yet (none) stops the game in the built-in's words."""
        plain = dice_total(dice)
        tested = self.call_at(pos, "total", "sum", [Ex(faces_src(dice), "list:int")])
        return Ex(tested, "int", bound=plain.bound) if tested else plain

    def known_faces(self, dice: Ex) -> Ex:
        """`faces` of dice known now: the list of their faces, each none before its roll (of
        one die, the built-in's error, as of more than it reads uncharged: not written)."""
        kinds = {type(f) for d in dice.dice for f in d.faces}
        if dice.kind != "dice" or len(dice.dice) > UNCHARGED_ITEMS or len(kinds) != 1 or \
                kinds.pop() not in (int, str):
            raise Unsupported("faces of these dice")
        kind = "list:int" if type(dice.dice[0].faces[0]) is int else "list:str"
        return Ex("[" + ", ".join(face_src(d) for d in dice.dice) + "]", kind)  # items may be none

    def _dice_call(self, f: str, args: list[Ex], pos: tuple) -> Ex | None:
        """The built-ins on dice known at run time (called at `pos`), as dsl/builtins.py, or
        None."""
        if not self.dyn or len(args) != 1 and f != "range":
            return None
        if f == "range":
            if len(args) != 2 or any(type(a.const) is not int for a in args):
                return None
            lo, hi = args[0].const, args[1].const
            if hi - lo > MAX_RANGE:
                return None  # the built-in's error
            listed = repr(list(range(lo, hi)))
            if hi - lo > UNCHARGED_ITEMS:  # counted as the built-in counts the list it makes
                return Ex(self.charged_now(hi - lo, listed), "list:int", True, least=lo)
            return Ex(listed, "list:int", True, least=lo)
        a = self._as_list(args[0])
        if a.kind != "list:dref":
            return None
        t = self.temp()
        if f in ("first", "last"):
            return Ex(end_of(f, a.src, a.safe, t), "dref", False)
        shown = ("a zone",) if args[0].kind == "zone" else ()  # the interpreter's words
        if f in ("highest", "lowest"):
            # The first die of equal faces, as max/min with a key; none when empty. Located,
            # a die not rolled yet stops the game in the built-in's words.
            fn = "max" if f == "highest" else "min"
            tested = self.expr_path is not None and self.call_at(
                pos, f, self.const(extreme_die, "XD"), [Ex(t, "list:dref")],
                f", F, {f == 'highest'}", shown)
            return Ex(f"({tested or f'{fn}({t}, key={FACES_BY})'} if ({t} := {a.src}) "
                      "else None)", "dref", False, extreme=None if tested else (fn, t, a.src))
        if f == "faces":  # `map`: the list may bind the work meter (`:=`), which a
            # comprehension's iterable may not hold
            return Ex(f"list(map({FACES_BY}, {a.src}))", "list:" + self.face_kind, False)
        if f == "total" and self.face_kind == "int":  # the faces' sum (a die not rolled: none,
            # which stops a located expression in the built-in's words, telling a zone so)
            faces = f"map({FACES_BY}, {a.src})"
            if self.expr_path is not None:  # located: a list, as the interpreter's faces
                faces = f"list({faces})"
            return Ex(self.summed(Ex(faces, "list:int"), pos, f, shown), "int", False)
        if f == "doubles":  # two or more, every face the same
            return Ex(f"(len({t} := list(map({FACES_BY}, {a.src}))) >= 2 and "
                      f"len(set({t})) == 1)", "bool", a.safe)
        return None

    # -- effects ---------------------------------------------------------------------------------
    def _s_let(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._let: the value bound for the rest of the step list (no step counted)."""
        self._only(spec, "let", "be")
        v = self.value_at(spec.get("be"), ctx.scope, "be")
        if v.const is not _NO or v.kind in ("die", "dice", "timer"):
            ctx.scope[spec["let"]] = v
            return
        t = self.temp("l")
        self.emit(d, f"{t} = {stored(v)}")  # a value, as in set
        ctx.scope[spec["let"]] = Ex(t, v.kind, v.safe or v.some or v.kind not in _NONEABLE,
                                    bound=v.bound, zone=v.zone, distinct=v.distinct,
                                    fresh=v.fresh)

    def _items(self, what: Ex) -> tuple[str, bool]:
        """(Python source of the moved dice, whether it is one die rather than a list)."""
        if what.kind in ("dref", "card"):
            return what.src, True
        if what.kind in ("list:dref", "list:card", "zone"):  # a zone moves by its items
            return what.src, False
        raise Unsupported("move of something not dice or cards")

    def _s_move(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._move and Game.put: each item leaves the zone it is in, then all join
        the target at its end (or start), or leave play ('out')."""
        self._only(spec, "move", "to", "at")
        if not self.dyn:
            raise Unsupported("move without zones")
        what = self.value_at(spec["move"], ctx.scope, "move")
        src, one = self._items(what)
        to = self.value_at(spec["to"], ctx.scope, "to")
        if to.kind != "zone" and to.const != "out":
            raise Unsupported("move to something not a zone")
        at = spec.get("at", "end")
        if at not in ("start", "end"):
            raise Unsupported("at")
        x, z = self.temp("x"), self.temp("z")
        e = self.emit
        e(d, f"{x} = {src}")
        # As steps._move, before the target is worked out: none moved (where located: the
        # fast version meets it as Python's own error), an item listed twice.
        located = self.logged or self.wide
        if one and located and not what.safe:
            e(d, f"if {x} is None:")
            e(d + 1, self.stop_at(unmovable_site))
        if not one:
            if not what.fresh:  # a zone's own list changes as its items leave
                e(d, f"{x} = list({x})")
            if located and what.kind != "zone":
                e(d, f"if None in {x}:")
                e(d + 1, self.stop_at(unmovable_site))
            if not (what.kind == "zone" or what.distinct):  # else no item is listed twice
                e(d, f"if len({x}) > 1 and len(set({x})) != len({x}):")
                e(d + 1, self.stop_at(twice_moved_site, f"{self.item_ids()}[next(_i for _j, _i "
                                                        f"in enumerate({x}) if _i in {x}[:_j])]"))
        if to.kind == "zone":
            tz = to.src if to.src.isidentifier() else self.temp("tz")
            if tz != to.src:
                e(d, f"{tz} = {to.src}")
        us = self.temp("us") if self.logged else None
        if us is not None:  # the places out of sight before the move (Game.unseen)
            e(d, f"{us} = _unseen({f'[{x}]' if one else x}, W, ZH)")
        if one:
            e(d, f"{z} = W[{x}]")
            e(d, f"if {z} is not None:")
            e(d + 1, f"{z}.remove({x})")
            if to.kind != "zone":
                e(d, f"W[{x}] = None")
            else:
                self.room_for(to, tz, "1", d)
                e(d, f"{tz}.{'append' if at == 'end' else 'insert'}"
                     f"({'' if at == 'end' else '0, '}{x})")
                e(d, f"W[{x}] = {tz}")
        else:
            i = self.temp("i")
            e(d, f"for {i} in {x}:")
            e(d + 1, f"{z} = W[{i}]")
            e(d + 1, f"if {z} is not None:")
            e(d + 2, f"{z}.remove({i})")
            e(d + 1, f"W[{i}] = {tz if to.kind == 'zone' else 'None'}")
            if to.kind == "zone":
                self.room_for(to, tz, f"len({x})", d)
                e(d, f"{tz}.extend({x})" if at == "end" else f"{tz}[:0] = {x}")
        if us is not None:
            ids = self.item_ids()
            listed = f"[{x}]" if one else x
            self.rec_items(d, "move", listed, us, ("items", f"[{ids}[_i] for _i in {listed}]"),
                           ("to", f"ZID[id({tz})]" if to.kind == "zone" else "'out'"))
        # As steps._move fires it: the items moved (a list), where they went ('out' too).
        self.fire("moved", d, ctx, {
            "items": Ex(f"[{x}]" if one else x, "list:" + self.item_kind, True),
            "to": Ex(tz, "zone", True, zone=to.zone) if to.kind == "zone" else _lit("out")})
        self.after_op(d, None, ctx)

    def _s_draw(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._draw: from a bag (or pool) blind, as SeededChance.pick (`rng.sample`: of
        one item, one `_randbelow` on the game's generator); from a deck or row the first
        items. Without `replace` the items leave the zone (to `to`, if given). `as` is bound
        to the item (none when the zone is empty), or with `count` to the list drawn."""
        # `by` names the drawer in the log and the narration only: bots' games keep no log.
        self._only(spec, "draw", "as", "count", "to", "replace", "duration", "by")
        src = self.value_at(spec["draw"], ctx.scope, "draw")
        if src.kind != "zone":
            raise Unsupported("draw from something not a zone")
        replace = spec.get("replace", False)
        if type(replace) is not bool:
            raise Unsupported("replace")
        blind = self.zones[src.zone][1] not in ("deck", "row")
        z, x = self.temp("z"), self.temp("x")
        e = self.emit
        e(d, f"{z} = {src.src}")
        many = "count" in spec
        if many:
            count = self.value_at(spec["count"], ctx.scope, "count")
            k = count.src
            if type(count.const) is not int or count.const < 0:
                if count.kind not in ("int", "num"):
                    raise Unsupported("a draw's count that is not a number")
                # Not a whole number, or negative: the interpreter's own error or reading.
                k = self.temp("k")
                e(d, f"{k} = {count.src}")
                e(d, f"if type({k}) is not int or {k} < 0:")
                e(d + 1, self.stop_at(count_site, k))
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        to = None
        if "to" in spec and not replace:  # (with `replace` the items stay: `to` is not read)
            to = self.value_at(spec["to"], ctx.scope, "to")
            if to.kind != "zone" and to.const != "out":
                raise Unsupported("draw to something not a zone")
        target = to.src if to is not None and to.kind == "zone" else None
        us = self.temp("us") if self.logged else None
        if us is not None and target is not None and not target.isidentifier():
            t = self.temp("tz")  # the target's list, named for the record below
            e(d, f"{t} = {target}")
            target = t
        if not many:
            at = f"rbelow(len({z}))" if blind else "0"
            if blind and self.logged:  # the chance source's pick (SeededChance: the same draw)
                at = f"{z}.index(_CS.pick({z}, 1, {self.item_ids()})[0])"
            e(d, f"if {z}:")
            e(d + 1, f"{x} = {z}[{at}]" if replace else f"{x} = {z}.pop({at})")
            if us is not None:  # the places out of sight before the draw (Game.unseen)
                e(d + 1, f"{us} = _unseen([{x}], W, ZH)")
            if not replace:
                e(d + 1, f"W[{x}] = {target}")
                if target is not None:
                    self.room_for(to, target, "1", d + 1)
                    e(d + 1, f"{target}.append({x})")
            e(d, "else:")
            e(d + 1, f"{x} = None")
            if us is not None:
                e(d + 1, f"{us} = set()")
        elif blind:
            e(d, f"{x} = _CS.pick({z}, {k}, {self.item_ids()})" if self.logged
              else f"{x} = R.sample({z}, min({k}, len({z})))")
        else:
            e(d, f"{x} = {z}[:{k}]")
        if many and us is not None:
            e(d, f"{us} = _unseen({x}, W, ZH)")
        if many and not replace:
            i = self.temp("i")
            e(d, f"for {i} in {x}:")
            e(d + 1, f"{z}.remove({i})")
            e(d + 1, f"W[{i}] = {target}")
            if target is not None:
                self.room_for(to, target, f"len({x})", d)
                e(d, f"{target}.extend({x})")
        if us is not None:  # as steps._draw: the items drawn, from where, blind or not, by whom
            listed = x if many else f"([{x}] if {x} is not None else [])"
            by = (("by", self.named_doer(spec["by"], d, ctx)),) if "by" in spec else ()
            self.rec_items(d, "draw", listed, us, ("source", f"ZID[id({z})]"),
                           ("items", f"[{self.item_ids()}[_i] for _i in {listed}]"),
                           ("blind", repr(blind)), *by)
        item = self.item_kind
        ctx.scope[spec["as"]] = Ex(x, "list:" + item, True) if many else Ex(x, item)
        # As steps._draw fires it: the items drawn (a list) and the zone drawn from.
        self.fire("drawn", d, ctx, {
            "items": Ex(x if many else f"([{x}] if {x} is not None else [])", "list:" + item,
                        True),
            "zone": Ex(z, "zone", True, zone=src.zone)})
        self.after_op(d, None, ctx)

    def _s_reveal(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._reveal: narration only; what it shows (and to whom) is still worked out,
        for the error a value that is not there gives."""
        self._only(spec, "reveal", "to")
        if self.logged:
            self.rec_revealed(spec, d, ctx)
            self.after_op(d, None, ctx)
            return
        for key in ("reveal", "to"):
            if key in spec:
                x = self.value_at(spec[key], ctx.scope, key)
                if not x.safe:
                    self.emit(d, x.src)
        self.after_op(d, None, ctx)

    def _roll_dyn(self, dice: Ex, d: int, ctx: _Ctx) -> str | None:
        """The chance calls of a roll of dice known at run time (as SeededChance.roll; a
        logged game asks its chance source, and the name of the faces it gave is returned:
        the log's, which tell each draw of a die rolled twice, where the die keeps the
        last)."""
        faces = set(self.die_faces)
        e = self.emit
        if self.logged:
            x, f = self.temp("x"), self.temp("f")
            e(d, f"{x} = {f'[{dice.src}]' if dice.kind == 'dref' else dice.src}")
            self.table_roll(f"{f} = _CS.roll([{self.item_ids()}[_i] for _i in {x}])", d, ctx)
            e(d, f"for {x}_i, {f}_f in zip({x}, {f}):")
            e(d + 1, f"F[{x}_i] = {f}_f")
            return f
        if len(faces) == 1:
            fs = faces.pop()
            if fs == tuple(range(1, len(fs) + 1)):
                value = f"int(rnd() * {len(fs)}) + 1"
            else:
                value = f"{self.const(fs, 'FA')}[int(rnd() * {len(fs)})]"
        else:
            table = self.const(tuple(self.die_faces), "FT")
            value = None
        x = self.temp("x")
        if dice.kind == "dref":
            e(d, f"{x} = {dice.src}")
            if value is None:
                e(d, f"{x}_f = {table}[{x}]")
                e(d, f"F[{x}] = {x}_f[int(rnd() * len({x}_f))]")
            else:
                e(d, f"F[{x}] = {value}")
            return None
        if dice.kind != "list:dref":
            raise Unsupported("roll of something not dice")
        i = self.temp("i")
        e(d, f"for {i} in {dice.src}:")
        if value is None:
            e(d + 1, f"{x}_f = {table}[{i}]")
            e(d + 1, f"F[{i}] = {x}_f[int(rnd() * len({x}_f))]")
        else:
            e(d + 1, f"F[{i}] = {value}")
        return None

    def _face_target(self, node: n.Field, ctx: _Ctx, read: bool,
                     at: tuple | None) -> tuple[str, str, str] | None:
        """`die.face` as a set/add target (`read`: an add's, which reads it first) at `at`:
        (python target, kind, name written), or None. A die that is none stops the game
        where located (effects.py `target_owner`)."""
        if not self.dyn or node.name != "face":
            return None
        obj = self.target_owner(node, ctx, read, at)
        if obj.kind != "dref":
            return None
        return f"F[{obj.src}]", self.face_kind, "face"
