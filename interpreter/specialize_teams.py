"""Phase 5b, compile for simulation (specializer): teams as code.

Input: the checked ruleset's `teams` (names, `assign`, `leader: first`), its team-scope
state, and the seat count of the setup. Output (as a mixin of interpreter/specialize._Gen):
teams as numbers (the team's index in `teams.names`) with constant tables known when
generating (each seat's team, each team's name, members and leader), team state as lists
indexed by team (`T_name[team]`), the expressions `teams`, `p.team`, `tm.name`, `tm.leader`,
`tm.members` and `tm.<state>`, `set`/`add` targets `tm.<state>`, and the turn order of
`turns.by_team` (one turn per team, to its first member, as Game._run_round; rulesets that
eliminate are declined here).

How the interpreter does it (interpreter/engine.py, Game.__init__): with `assign: alternate`
seat i joins team i % k, with `blocks` team min(k - 1, i * k // n); a team's leader is its
first member (none for a team without members); every player has a team. Team state is
initialised once per team. Anything else about teams (team-owned zones, list state per team,
checks for each team) raises `Unsupported` elsewhere, so the interpreter keeps those rulesets.
"""

from __future__ import annotations

from interpreter.specialize_base import Ex, Unsupported, _lit


class TeamWriter:
    """Teams for interpreter/specialize._Gen (which provides expr, const, emit, vars...)."""

    n: int
    data: dict
    vars: dict
    elim: bool

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
        var = self.vars.get(f)
        if var is None or var[0] != "team" or var[2] == "list":
            raise Unsupported(f"team field {f}")
        return Ex(f"{var[1]}[{obj.src}]", var[2], obj.safe)

    def _team_target(self, obj: Ex, name: str) -> tuple[str, str, str]:
        """(python target, kind, name written) of a `set`/`add` target `team.<state>`."""
        var = self.vars.get(name)
        if obj.kind != "team" or var is None or var[0] != "team" or var[2] == "list":
            raise Unsupported("target")
        return f"{var[1]}[{obj.src}]", var[2], name

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
        if self.elim:  # the first member still in: not yet compared with the interpreter
            raise Unsupported("turns by team with eliminations")
        e(d, f"order = [{tm}[t][0] for t in seen]")

