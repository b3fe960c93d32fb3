"""Phase 5b, compile for simulation (specializer): decks and their cards, as code.

Input: the checked ruleset's `components.decks` (each card's data fields, the zone a deck
starts `in`) and the generator of interpreter/compile/specialize.py. Output (as a mixin of
its `_Gen`): every card is a number (its index over the decks in the order components declare
them, as Game._build_components makes them), its fields constant tables indexed by card (a
tuple when every card has the field, else a table of the cards that have it, so reading a
field a card lacks, or of none, stops the game as the interpreter's `get` does: located
where the expression is, grids.py `_looked`); a deck's
name is the list of its cards; the zones of interpreter/compile/zones.py hold cards as they
hold dice (`W[card]` the zone a card lies in). The effects `shuffle` (the game generator's
`shuffle` of the zone in place, as SeededChance.order shuffles a copy and puts it back: the
same calls) and `deal` (the first `count` cards, to a zone or out, as steps._deal).

Kinds: `card` (a number; none where a blind draw found an empty zone or `first` an empty
list, so not `safe` there) and `list:card`. A field holding a map of texts or numbers has a
map kind (`map:str=int`, interpreter/compile/maps.py), one holding a list a list kind. Card
fields are constants: `set` and `add` never write one here (such a target is refused), and a
card's `zone` field is not specialized. A ruleset whose zones would hold both dice and cards
is refused.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from interpreter.compile.base import Ex, Unsupported, _Ctx
from interpreter.compile.grids import _kind_of, _no_field_of
from interpreter.compile.stops import count_site
from interpreter.engine.values import Card


class CardWriter:
    """Decks, cards, `shuffle` and `deal` (a mixin of _Gen)."""

    # -- declarations ----------------------------------------------------------------------------
    def _card_setup(self, comps: dict) -> None:
        """Cards numbered in the order decks declare them; decks placed `in` a zone."""
        self.card_ids: list[str] = []
        self.card_data: list[dict] = []
        self.card_deck: list[str] = []
        self.decks: dict[str, Ex] = {}
        for name, spec in (comps.get("decks") or {}).items():
            start = len(self.card_ids)
            for i, card in enumerate(spec.get("cards") or []):
                if not isinstance(card, dict):
                    raise Unsupported("a card that is not a mapping of fields")
                self.card_ids.append(f"{name}[{i}]")
                self.card_data.append(card)
                self.card_deck.append(name)
            end = len(self.card_ids)
            self.decks[name] = Ex(repr(list(range(start, end))), "list:card", True)
            if "in" in spec:
                zone = spec["in"]
                if self.zones.get(zone, ("player",))[0] != "none":
                    raise Unsupported("cards in a zone that is not one zone")
                self.placed.append((zone, start, end))

    # -- expressions -----------------------------------------------------------------------------
    def _deck_name(self, name: str) -> Ex | None:
        decks = getattr(self, "decks", None)
        return decks.get(name) if decks else None

    def _card_field(self, card: Ex, f: str, pos: tuple | None = None) -> Ex:
        """A field of a card: its deck, or one of its data fields; `pos`: the field's place,
        where a read of none (or of a field the card lacks) stops the game, as the
        interpreter's does (grids.py `_looked`)."""
        x = card.src
        said = partial(_no_field_of, Card("", "", {}), f)  # a card's words, or none's
        if f == "deck":
            return self._looked(self.const(tuple(self.card_deck), "CDK"), x, "str", card.safe,
                                pos, said)
        if f == "zone":
            return Ex(self.zone_id_of(x), "str", card.safe)
        has = [(i, c[f]) for i, c in enumerate(self.card_data) if f in c]
        if not has:
            raise Unsupported(f"field {f} of a card")
        values = [v for _, v in has]
        kind = _value_kind(values)
        if kind is None:
            raise Unsupported(f"card field {f} of mixed or unsupported kinds")
        bound = max(abs(v) for v in values) if kind == "int" else None
        if len(has) == len(self.card_data):
            table = self.const(tuple(values), "CF")
            return self._looked(table, x, kind, card.safe, pos, said, bound=bound)
        # Cards without it: the lookup fails, the interpreter's error.
        table = self.const(dict(has), "CF")
        return self._looked(table, x, kind, False, pos, said, bound=bound)

    # -- effects ---------------------------------------------------------------------------------
    def _order_zone(self, spec: dict, key: str, ctx: _Ctx) -> Ex:
        if not getattr(self, "dyn", False):
            raise Unsupported(f"{key} without zones")
        zone = self.value_at(spec[key], ctx.scope, key)
        if zone.kind != "zone":
            raise Unsupported(f"{key} of something not a zone")
        return zone

    def _s_shuffle(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._shuffle: the zone in a new random order (random.shuffle on the game's
        generator: a shuffled copy put back, or the list shuffled in place, draw the same)."""
        self._only(spec, "shuffle")
        zone = self._order_zone(spec, "shuffle", ctx)
        if self.logged:  # as steps._shuffle: the zone and its new order
            z = self.temp("z")
            self.emit(d, f"{z} = {zone.src}")
            zone = Ex(z, "zone", True)
        self.emit(d, f"{zone.src}[:] = _CS.order({zone.src}, {self.item_ids()})" if self.logged
                  else f"R.shuffle({zone.src})")
        self.rec(d, "shuffle", ("zone", f"ZID[id({zone.src})]"),
                 ("order", f"[{self.item_ids() if self.logged else ''}[_i] for _i in {zone.src}]"))
        self.after_op(d, None, ctx)

    def _s_deal(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._deal and Game.put: the first `count` items (a whole number of 0 or more)
        leave the zone and join the target's end, or leave play ('out')."""
        self._only(spec, "deal", "to", "count")
        zone = self._order_zone(spec, "deal", ctx)
        count = self.value_at(spec["count"], ctx.scope, "count") if "count" in spec else None
        if count is not None and count.kind != "int":
            raise Unsupported("a deal's count that is not a whole number")
        to = self.value_at(spec["to"], ctx.scope, "to")
        if to.kind != "zone" and to.const != "out":
            raise Unsupported("deal to something not a zone")
        e = self.emit
        z, x, i = self.temp("z"), self.temp("x"), self.temp("i")
        e(d, f"{z} = {zone.src}")
        k = count.src if count is not None else "1"
        if count is not None and not (type(count.const) is int and count.const >= 0):
            k = self.temp("k")
            e(d, f"{k} = {count.src}")
            # The interpreter's error (a slice reads -1 otherwise); none where located (the
            # fast version meets it as Python's own).
            located = self.logged or self.wide
            e(d, f"if {f'type({k}) is not int or ' if located else ''}{k} < 0:")
            e(d + 1, self.stop_at(count_site, k) if located else "raise _Stop()")
        e(d, f"{x} = {z}[:{k}]")
        us = self.temp("us") if self.logged else None
        if us is not None:  # dealt face down: the places out of sight before (Game.unseen)
            e(d, f"{us} = _unseen({x}, W, ZH)")
        e(d, f"del {z}[:{k}]")
        if to.kind == "zone":
            t = self.temp("tz")
            e(d, f"{t} = {to.src}")
        e(d, f"for {i} in {x}:")
        e(d + 1, f"W[{i}] = {t if to.kind == 'zone' else 'None'}")
        if to.kind == "zone":
            self.room_for(to, t, f"len({x})", d)  # interpreter/compile/zones.py
            e(d, f"{t}.extend({x})")
        if us is not None:
            self.rec_items(d, "deal", x, us, ("source", f"ZID[id({z})]"),
                           ("items", f"[{self.item_ids()}[_i] for _i in {x}]"))
        self.after_op(d, None, ctx)


def _value_kind(values: list[Any]) -> str | None:
    """The kind of a card field's values: a constant's, a list of constants', or a map's
    from texts to constants (`map:str=int`)."""
    kind = _kind_of(values)
    if kind is not None:
        return kind
    if all(type(v) is list for v in values):
        inner = _kind_of([x for v in values for x in v])
        return None if inner is None else "list:" + inner
    if all(type(v) is dict for v in values):
        keys = _kind_of([k for v in values for k in v])
        items = _kind_of([x for v in values for x in v.values()])
        if keys in ("str", "int") and items is not None:
            return f"map:{keys}={items}"
    return None
