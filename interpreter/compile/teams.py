"""Phase 5b, compile for simulation (specializer): teams as code.

Input: the checked ruleset's `teams` (names, `assign`, `leader: first`), its team-scope
state, and the seat count of the setup. Output (as a mixin of interpreter/compile/specialize._Gen):
teams as numbers (the team's index in `teams.names`) with constant tables known when
generating (each seat's team, each team's name, members and leader), team state as lists
indexed by team (`V_name[team]`), the expressions `teams`, `p.team`, `tm.name`, `tm.leader`,
`tm.members`, `tm.<state>`, `tm.<zone>` and `tm.<list state>[k]`, `set`/`add` targets
`tm.<state>` and `tm.<list state>[k]`, and the turn order of
`turns.by_team` (one turn per team, to its first member still in, else its first member, as
Game._run_round).

How the interpreter does it (interpreter/engine/game.py, Game.__init__): with `assign: alternate`
seat i joins team i % k, with `blocks` team min(k - 1, i * k // n); a team's leader is its
first member (none for a team without members); every player has a team. Team state is
initialised once per team. A zone owned by a team (Game._build_components: one per team, no
capacity) is `ZT_name[team]` (interpreter/compile/zones.py). A team's list state is a Python
list per team: read at an index as dsl/compiler._index (a whole number from 0 to the length less
one, else the interpreter's error, located where the expression is), set at an index as
steps._setter's `container[k] = v` (Python's meaning, negative keys too; a key past the ends
stops the game at the target), added to at an index after that read. Anything else about
teams (checks for each team, lists of a kind not known, indexes that are not whole numbers)
raises `Unsupported`, so the generator refuses the ruleset, said by `meeple validate
--compile`.
"""

from __future__ import annotations

from dsl import nodes as n
from interpreter.compile.base import Ex, ItemSet, Unsupported, _lit


class TeamWriter:
    """Teams for interpreter/compile/specialize._Gen (which provides expr, const, emit, vars...)."""

    n: int
    data: dict
    vars: dict
    elim: bool
    list_kinds: dict

    def _team_setup(self) -> None:
        """The constant tables of teams for this seat count (none when there are no teams)."""
        spec = self.data.get("teams") or {}
        self.team_names: tuple[str, ...] = tuple(spec.get("names") or ())
        k = len(self.team_names)
        self.seat_team: tuple[int, ...] = ()
        self.team_members: tuple[tuple[int, ...], ...] = ()
        if not k:
            return
        if set(spec) - {"names", "assign", "leader", "doc", "description"} or spec.get(
                "leader", "first") != "first":
            raise Unsupported("teams")
        alternate = spec.get("assign", "alternate") == "alternate"
        self.seat_team = tuple(i % k if alternate else min(k - 1, i * k // self.n)
                               for i in range(self.n))
        self.team_members = tuple(tuple(i for i in range(self.n) if self.seat_team[i] == t)
                                  for t in range(k))

    def _teams_list(self) -> Ex:
        k = len(self.team_names)
        return Ex(repr(list(range(k))), "list:team", True,
                  items=[Ex(str(t), "team", True, t) for t in range(k)])

    def _player_team(self, obj: Ex) -> Ex:
        """`p.team`: every player has one when the ruleset has teams."""
        if not self.team_names:
            raise Unsupported("player field team")
        return Ex(f"{self.const(self.seat_team, 'TS')}[{obj.src}]", "team", obj.safe)

    def _team_field(self, obj: Ex, f: str) -> Ex:
        """A field of a team: name, leader, members, or its team-scope state."""
        if f == "name":
            if obj.const is not None and type(obj.const) is int:
                return _lit(self.team_names[obj.const])
            return Ex(f"{self.const(self.team_names, 'TN')}[{obj.src}]", "str", obj.safe)
        if f == "leader":
            leaders = tuple(m[0] if m else None for m in self.team_members)
            # A team without members has no leader (none): not `safe` then.
            return Ex(f"{self.const(leaders, 'TL')}[{obj.src}]", "player",
                      obj.safe and None not in leaders)
        if f == "members":
            return Ex(f"list({self.const(self.team_members, 'TM')}[{obj.src}])", "list:player",
                      obj.safe)
        zone = self._team_zone(obj, f)
        if zone is not None:
            return zone
        var = self.vars.get(f)
        if var is None or var[0] != "team":
            raise Unsupported(f"team field {f}")
        return Ex(f"{var[1]}[{obj.src}]", self._team_kind(f, var[2]), obj.safe)

    def _team_kind(self, name: str, kind: str) -> str:
        """The kind of team state `name`: a list's is the kind of its items when known."""
        if kind != "list":
            return kind
        lk = self.list_kinds.get(name)
        if lk is None or lk == "list:?":
            raise Unsupported(f"the items of list {name}")
        return lk

    def _team_target(self, obj: Ex, name: str) -> tuple[str, str, str]:
        """(python target, kind, name written) of a `set`/`add` target `team.<state>`."""
        var = self.vars.get(name)
        if obj.kind != "team" or var is None or var[0] != "team":
            raise Unsupported("target")
        return f"{var[1]}[{obj.src}]", self._team_kind(name, var[2]), name

    def _team_list(self, node: n.Node, scope: dict) -> Ex | None:
        """`tm.<list state>` (a Python list of the team's), or None for anything else."""
        if not isinstance(node, n.Field):
            return None
        var = self.vars.get(node.name)
        if var is None or var[0] != "team" or var[2] != "list":
            return None
        obj = self.expr(node.obj, scope)
        if obj.kind != "team":
            return None
        return self._team_field(obj, node.name)

    def _team_index_target(self, node: n.Index, ctx_scope: dict, read: bool,
                           at: tuple | None) -> tuple[ItemSet, str, str]:
        """`tm.<list state>[k]` as a `set`/`add` target (steps._setter's write_index:
        `container[k] = v`, Python's meaning, negative keys included), written as a new list
        with the item changed (base.ItemSet). `add` reads it first (dsl/compiler._index: a
        negative key is the interpreter's error, raised here too). Located at the target `at`
        (an `add`'s read, a key the write cannot set: `set_in`'s site), where the version
        locates it."""
        with self.located(at):
            if self._team_list(node.obj, ctx_scope) is None:
                raise Unsupported("target")
            # The list and the item read as an expression reads them (kinds.py: a team that
            # is none, a key past the ends stop the game where located).
            lst = self.expr(node.obj, ctx_scope)
            key = self.expr(node.key, ctx_scope)
            if key.kind != "int" or not lst.kind.startswith("list:"):
                raise Unsupported("an index that is not a whole number")
            got = self.expr(node, ctx_scope).src if read else ""
        return ItemSet(lst.src, key.src, got, self.target_site(at, None)), \
            lst.kind[len("list:"):], node.obj.name

    def _team_state_init(self, d: int) -> None:
        """Team state, once per team, each initial value read with `team` bound to it."""
        for name, (sc, py, kind) in self.vars.items():
            if sc == "team":
                per = [self._initial(name, kind, {"team": Ex(str(t), "team", True, t)})
                       for t in range(len(self.team_names))]
                self.emit(d, f"{py} = [{', '.join(per)}]")

    def _team_order(self, d: int) -> None:
        """As Game._run_round with `by_team`: the teams in the order their seats come in
        `order`, each played by its first member still in (else its first member)."""
        e = self.emit
        ts = self.const(self.seat_team, "TS")
        tm = self.const(self.team_members, "TM")
        e(d, "seen = []")
        e(d, "for pc in order:")
        e(d + 1, f"if {ts}[pc] not in seen:")
        e(d + 2, f"seen.append({ts}[pc])")
        if self.elim:  # the first member still in, else the first member
            e(d, f"order = [next((m for m in {tm}[t] if not E[m]), {tm}[t][0]) for t in seen]")
            return
        e(d, f"order = [{tm}[t][0] for t in seen]")

