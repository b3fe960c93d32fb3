"""Phase 5b, compile for simulation (specializer): grids and their cells, as code.

Input: the checked ruleset's `components.grids` (columns, rows, `id`, `default`,
`row_attributes`, `column_attributes`, `cells`), built once here exactly as the interpreter
builds them (interpreter/engine/building._grid). Output (as a mixin of
interpreter/compile/specialize._Gen): a cell is its id, a text (ids are unique over the
ruleset's grids, or the ruleset is refused), with constant tables keyed by id for everything
about it: its attributes, row and column labels, neighbours (the interpreter's order: north,
east, south, west), and the compass direction and the distance to every other cell. The
expressions `GRID[id]`, `GRID.cells`, `GRID.rows`, `GRID.columns`, a cell's `id`, `row`,
`column`, `neighbours` and attributes, and the built-ins `neighbours`, `direction`,
`distance`, `adjacent`, `row` and `column`.

Kinds: `grid` (a grid's name, known now) and `cell` (an id; none where a player's cell state
is none, so not `safe` there). `GRID[id]` looks the id up in the grid's table: an id it does
not hold stops the game, as the interpreter's lookup does (in the versions that locate their
errors, at the index, `_looked`; the fast version hands the seed to them); a cell found so is
never none (`some`). A field of none, or a cell lacking an attribute, stops the game the same
way, at the field. Cell attributes are constants: `set` and `add` never write a
cell's field here (such a target is refused), and `occupant` is not specialized.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from dsl.builtins import BUILTINS
from dsl.compiler import kind as value_kind
from dsl.compiler import no_field, no_item
from interpreter.compile.base import Ex, Unsupported
from interpreter.engine.building import _grid

# Past this many cells, direction and distance are worked out per call rather than tabled
# (a table holds one entry per pair of cells).
_TABLED = 400


class GridWriter:
    """Grids and cells as code (a mixin of _Gen: it uses `const`)."""

    consts: dict

    # -- declarations ----------------------------------------------------------------------------
    def _grid_setup(self, comps: dict) -> None:
        """Every grid's cells, built as the interpreter builds them, as tables keyed by id."""
        self.grids: dict[str, Any] = {}
        self.cell_attrs: dict[str, dict[str, Any]] = {}   # attribute -> {id: value}
        grids = comps.get("grids") or {}
        if not grids:
            return
        cells = []
        for name, spec in grids.items():
            try:
                grid = _grid(name, spec)
            except Exception as err:  # too many cells: the interpreter's own error
                raise Unsupported("a grid the interpreter refuses", ("components", "grids",
                                                                     name)) from err
            self.grids[name] = grid
            cells += grid.cells
        ids = [c.id for c in cells]
        if len(set(ids)) != len(ids) or not all(type(i) is str for i in ids):
            raise Unsupported("grids whose cells share an id")
        for c in cells:
            for key in c._settable:
                if key != "occupant":
                    self.cell_attrs.setdefault(key, {})[c.id] = getattr(c, key)
        self.cells_all = cells

    def _table(self, hint: str, value: Any) -> str:
        """A constant table about cells, made once per generator under a fixed name."""
        name = f"_G{hint}"
        self.consts.setdefault(name, value)
        return name

    # -- expressions -----------------------------------------------------------------------------
    def _grid_name(self, name: str) -> Ex | None:
        if name in getattr(self, "grids", {}):
            return Ex("", "grid", True, const=name)
        return None

    def _grid_index(self, grid: Ex, key: Ex, pos: tuple | None = None) -> Ex:
        """`GRID[id]` at `pos`: the cell with that id (Grid.__getitem__), else a failed
        lookup."""
        if key.kind != "str":
            raise Unsupported("a grid indexed by something not a text")
        g = self.grids[grid.const]
        if type(key.const) is str:
            if any(c.id == key.const for c in g.cells):
                return Ex(repr(key.const), "cell", True)
        table = self._table(f"K_{grid.const}", {c.id: c.id for c in g.cells})
        return self._looked(table, key.src, "cell", False, pos,
                            partial(no_item, shown=value_kind(g)), some=True)

    def _looked(self, table: str, x: str, kind: str, safe: bool, pos: tuple | None,
                said: Any, **kw: Any) -> Ex:
        """`table[x]`, moved before a comprehension's items where it can be (`_lifted`);
        where it may fail and the expression is located, it stops the game at `pos` in the
        words `said(x)` makes (base.looked), as the interpreter's read does."""
        site = None if safe else self.site(pos)
        if site is None:
            return self._lifted(f"{table}[{x}]", kind, safe, **kw)
        return self._lifted(f"_looked({table}, {x}, {site}, {self.const(said, 'NW')})", kind,
                            False, **kw)

    def _grid_field(self, grid: Ex, f: str) -> Ex:
        g = self.grids[grid.const]
        if f == "cells":
            return Ex(self._table(f"C_{grid.const}", [c.id for c in g.cells]), "list:cell", True)
        if f in ("rows", "columns"):
            labels = list(g.rows if f == "rows" else g.columns)
            kind = _kind_of(labels)
            if kind is None:
                raise Unsupported(f"a grid's {f} of mixed kinds")
            return Ex(self._table(f"{f[0].upper()}_{grid.const}", labels), "list:" + kind, True)
        raise Unsupported(f"field {f} of a grid")

    def _one_grid_key(self, cell: Ex) -> str | None:
        """The id looked up, when `cell` is `GRID[id]` on the ruleset's only grid: a table
        keyed by id then fails on an unknown id as that lookup would (one lookup, not two)."""
        if len(self.grids) != 1 or not cell.some:
            return None
        name = next(iter(self.grids))
        head = f"_GK_{name}["
        src = cell.src
        if src.startswith(head) and src.endswith("]") and _balanced(src[len(head):-1]):
            return src[len(head):-1]
        return None

    def _cell_field(self, cell: Ex, f: str, pos: tuple | None = None) -> Ex:
        """A field of a cell: id, row, column, neighbours or one of its attributes; `pos`:
        the field's place, where a read of none (or of an attribute the cell lacks) stops
        the game, as the interpreter's does."""
        if not self.grids:
            raise Unsupported(f"field {f} of a cell")
        key = self._one_grid_key(cell)
        x = key if key is not None else cell.src
        said = partial(_no_field_of, self.cells_all[0], f)  # the words of a read of none too
        if f == "id":
            if cell.safe:
                return Ex(cell.src, "str", True)
            table = self._table("ID", {c.id: c.id for c in self.cells_all})
            return self._looked(table, x, "str", False, pos, said)
        if f == "neighbours":
            return self._lifted(f"{self._neighbours()}[{x}]", "list:cell", cell.safe)
        if f in ("row", "column"):
            values = {c.id: getattr(c, f) for c in self.cells_all}
            kind = _kind_of(list(values.values()))
            if kind is None:
                raise Unsupported(f"a cell's {f} labels of mixed kinds")
            return self._lifted(f"{self._table(f[:3].upper(), values)}[{x}]", kind, cell.safe)
        values = self.cell_attrs.get(f)
        if values is None:
            raise Unsupported(f"field {f} of a cell")
        kind = _kind_of(list(values.values()))
        if kind is None:
            raise Unsupported(f"cell attribute {f} of mixed or unsupported kinds")
        every = len(values) == len(self.cells_all)
        return self._looked(self._table("A_" + f, values), x, kind, cell.safe and every, pos,
                            said, bound=max(abs(v) for v in values.values()) if kind == "int"
                            else None)

    def _neighbours(self) -> str:
        return self._table("NB", {c.id: [x.id for x in c.neighbours] for c in self.cells_all})

    def _pair_table(self, what: str) -> str:
        """direction or distance between two cells: a table of tables keyed by id, or (a
        large map) a function of the ids over the cells' row and column indexes."""
        cells = self.cells_all
        if f"_G{what}" in self.consts:  # made once (a large map's table is slow to make)
            return f"_G{what}"
        if len(cells) <= _TABLED:
            # The built-in itself, on the interpreter's own cells: the same answers.
            impl = BUILTINS["direction" if what == "DIR" else "distance"].impl
            value = {a.id: {b.id: impl(a, b) for b in cells} for a in cells}
            return self._table(what, value)
        raise Unsupported("direction or distance on a map of more than "
                          f"{_TABLED} cells")

    def _grid_call(self, f: str, args: list[Ex]) -> Ex | None:
        """The grid built-ins on cells, as dsl/builtins.py; None when `f` is none of them."""
        if f not in ("neighbours", "direction", "distance", "adjacent", "row", "column"):
            return None
        if not self.grids or any(a.kind != "cell" for a in args):
            raise Unsupported(f"{f} of something not a cell")
        if f in ("neighbours", "row", "column"):
            if len(args) != 1:
                raise Unsupported(f"built-in {f}")
            return self._cell_field(args[0], f)
        if len(args) != 2:
            raise Unsupported(f"built-in {f}")
        a, b = args
        ka, kb = self._one_grid_key(a), self._one_grid_key(b)
        xa = ka if ka is not None else a.src
        xb = kb if kb is not None else b.src
        # The row of the first cell is worked out once where the second one varies.
        table = f"{self._pair_table('DIR' if f == 'direction' else 'DIST')}[{xa}]"
        row = self._lift(table)
        safe = (a.safe or row != table) and b.safe
        if f == "direction":
            return self._lifted(f"{row}[{xb}]", "str", safe)
        dist = self._lifted(f"{row}[{xb}]", "int", safe)
        safe, dist = dist.safe, dist.src
        if f == "adjacent":
            return Ex(f"({dist} == 1)", "bool", safe)
        return Ex(dist, "int", safe, bound=len(self.cells_all) * 2)


def _kind_of(values: list) -> str | None:
    """The kind of a list of constants (whole numbers, numbers, texts, true/false), or None."""
    types = {type(v) for v in values}
    if types == {int}:
        return "int"
    if types and types <= {int, float}:
        return "num"
    if types == {str}:
        return "str"
    if types == {bool}:
        return "bool"
    return None


def _balanced(src: str) -> bool:
    """Whether `src` is one bracketed whole (no `][` joining two subscripts at its top)."""
    depth = 0
    for ch in src:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _no_field_of(some: Any, f: str, item: Any) -> str:
    """The words of the field `f` read on `item` (a cell's id or a card's number, or none)
    that lacks it: as dsl.compiler's `_field` words it on none or on such an item (`some`,
    one of its kind)."""
    return no_field(item if item is None else some, f)
