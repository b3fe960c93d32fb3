"""Phase 5b, compile for simulation (specializer): a modelled race, as code.

Input: a `race` step of the checked ruleset (racers, items, and per racer what it wants, its
rate, latency, error rate, capacity and modelled capacity) and the generator of
interpreter/compile/specialize.py. Output: Python lines that run the race as
interpreter/engine/race.py's model does in a seeded game: competing exponential clocks on the
game's generator, each racer starting after its latency and claiming one item at a time (a
misgrab with chance `error_rate`, else the item its seat's policy ranks best for the race's
id, or the one it wants when there is one), until it holds its modelled capacity or nothing it
wants is left. Then the race's seconds pass on the modelled clock with the claimed items out of
their zone (in hands), the race id holds each racer's claims, `decided` fires.

In generated code the race id is `R_<id>`: a list indexed by seat (by team, for a race of
teams, each team claiming with its leader's policy) holding each racer's claims (None for one
that did not race), kind `race`; `grab[p]` (`grab[tm]`) reads it. In a logged game a
scripted race (a decisions file's, a log's) gives the claims instead of the model, as
race._scripted does (scripted.py `race_script`), and the racers people or the referee's table report
for are asked through the door (`_LV.report`), the others racing them on the model's clocks
(race._reported, race._model); a race a counting table reports by counts, and scripted
counts, are written by interpreter/compile/counts.py. A race of teams that people or the
table report is not specialized yet.
`RaceWriter` is a mixin of the generator (`_Gen`): it uses its `emit`, `expr`, `cond`, `temp`,
`advance`, `fire`, `after_op` and `_controllers`.
"""

from __future__ import annotations

import math
import re
from functools import partial
from typing import Any

from dsl import nodes as n
from dsl.compiler import no_key
from interpreter.compile.base import _NO, _NUMS, Ex, Stop, Unsupported, _Ctx, _node
from interpreter.compile.kinds import HASHED
from interpreter.compile.maps import Named
from interpreter.compile.people import Person
from interpreter.compile.rule_data import all_step_lists, walk_steps
from interpreter.compile.stops import race_number_site, racer_site


def _claims_of(names: tuple, claims: list, seat: int | None, site: tuple) -> list:
    """`grab[p]` where the rule errors are located: the seat's claims; none (a seat that did
    not race), or a seat that is none, stops the game at `site` in the words of the
    interpreter's map of claims (`repr` of a Player is its name)."""
    if claims is None:  # no race of that id has run yet: the id holds none
        raise Stop(site, "none cannot be indexed with [...]")  # dsl/compiler.py's words
    got = None if seat is None else claims[seat]
    if got is None:
        raise Stop(site, no_key(None if seat is None else Named(names[seat])))
    return got


class RaceWriter:
    """The `race` step (a mixin of _Gen)."""

    def race_claims(self, race: Ex, seat: Ex, pos: tuple | None) -> Ex:
        """`grab[p]` (or `grab[tm]`, a race of teams): the racer's claims, none where it did
        not race, which the interpreter's map stops at: so do the versions that locate their
        errors, in its words. A racer claims a die once (`_taken` takes every copy out of
        what is left; scripts and reports naming one twice fail): the claims are all
        different, and a list of their own."""
        if seat.kind != (self.racers_kind(race.src[len("R_"):]) or "player"):
            raise Unsupported("a race's claims read at a key of another kind than its racers")
        names = self.seat_names if seat.kind == "player" else self.team_names
        site = self.site(pos)
        src = f"{race.src}[{seat.src}]" if site is None else \
            f"{self.const(partial(_claims_of, tuple(names)), 'CL')}({race.src}, " \
            f"{seat.src}, {site})"
        return Ex(src, "list:dref", distinct=True, fresh=True)

    def racer_names(self) -> str:
        """The table of the racers' names by racer (seat or team), for the race being written."""
        return self.names_of() if self.race_kind == "player" else self.const(
            tuple(self.team_names), "TNM")

    def racers_kind(self, rid: str) -> str | None:
        """`player` or `team`: who races in the race `rid` (every step of that id alike); None
        where a `by` reads a step's own names (`_s_race` refuses such a race of teams)."""
        busy = self.__dict__.setdefault("racers_asked", set())
        if rid in busy:  # a `by` that reads the race's own claims: not known while reading it
            return None
        busy.add(rid)
        try:
            return self._racers_kind(rid)
        finally:
            busy.discard(rid)

    def _racers_kind(self, rid: str) -> str | None:
        kinds = set()
        for steps in all_step_lists(self.data):
            for s in walk_steps(steps):
                if isinstance(s, dict) and s.get("race") == rid and "by" in s:
                    try:
                        by = self.expr(_node(s["by"]), {})
                    except Unsupported:
                        kinds.add(None)
                        continue
                    kinds.add("team" if by.kind in ("team", "list:team") else "player")
        if len(kinds - {None}) > 1:
            raise Unsupported("a race id raced by players and by teams")
        return None if None in kinds or not kinds else kinds.pop()

    def _s_race(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "race", "by", "items", "wanted", "rate", "latency", "error_rate",
                   "capacity", "model_capacity")
        rid = spec["race"]
        # Who reports their claims (engine/race.py `reporter`): a person's seat, and at the
        # referee's table every seat; the others' claims are modelled.
        reported = tuple(isinstance(c, Person) or bool(self.table) for c in self.controllers) \
            if self.logged and not self.script_only and (self.table or self.live) else ()
        # A counting table reports the race by counts (engine/race.py `_counted`: counts.py).
        counting = self.table == "counting" and "counts" in spec and any(reported)
        if not self.dyn:
            raise Unsupported("a race without zones")
        racers = self.value_at(spec["by"], ctx.scope, "by")
        items = self.value_at(spec["items"], ctx.scope, "items")
        if racers.kind in ("player", "team"):
            racers = Ex(f"[{racers.src}]", "list:" + racers.kind, racers.safe)
        if racers.kind not in ("list:player", "list:team"):
            raise Unsupported("racers that are not players or teams")
        rk = self.race_kind = racers.kind[len("list:"):]  # a team: its leader's policy
        if rk == "team" and (any(reported) or counting):
            raise Unsupported("a race of teams that people or the table report")
        if rk == "team" and not all(self.team_members):
            raise Unsupported("a race of a team without players")
        if rk == "team" and self.racers_kind(rid) != "team":
            raise Unsupported("a race of teams named in a scope of its own")
        names = self.racer_names()
        if items.kind not in ("zone", "list:dref"):
            raise Unsupported("a race for items that are not dice")
        e = self.emit
        # A list of items that may name a die twice: a claim takes every copy of it out of
        # what is left, as race._model does (a zone's items are all different: one copy).
        self.race_repeats = not (items.kind == "zone" or items.distinct)
        rs, pool, cl, nx = self.temp("rs"), self.temp("po"), self.temp("cl"), self.temp("nx")
        e(d, f"{rs} = list({racers.src})")
        e(d, f"{pool} = list({items.src})")
        # Each racer in turn, as _racer: not none, then its numbers in the order _racer works
        # them out, each a number of 0 or more (none too, where located: the fast version
        # meets it as Python's own error).
        r = self.temp("r")
        scope = {**ctx.scope, "racer": Ex(r, rk, True)}
        fields = {}
        for key in ("capacity", "model_capacity", "rate", "latency", "error_rate"):
            if key not in spec:
                continue
            x = self.value_at(spec[key], scope, key)
            if x.kind not in _NUMS:
                raise Unsupported(f"a race's {key} that is not a number")
            fields[key] = x
        cap, held = self.temp("cp"), self.temp("hd")
        rate, lat, err = self.temp("rt"), self.temp("lt"), self.temp("er")
        # The racers' lists are made after the loop's tests are written (`at`): only those
        # the race reads, a number known now being read in place (`fixed`).
        at = len(self.lines)
        e(d, f"for {r} in {rs}:")
        if not racers.safe:
            e(d + 1, f"if {r} is None:")
            e(d + 2, self.stop_at(racer_site, r))
        located = self.logged or self.wide
        values = {}
        known = {}  # the numbers known when generating, worked out now as _racer works them
        for key, x in fields.items():
            if x.const is not _NO and x.const >= 0:
                values[key], known[key] = x.src, x.const
                continue
            v = self.temp("v")
            e(d + 1, f"{v} = {x.src}")
            e(d + 1, f"if {f'type({v}) not in (int, float) or ' if located else ''}{v} < 0:")
            e(d + 2, self.stop_at(lambda step, key=key: race_number_site(step, key), v))
            values[key] = v
        # A number known when generating (a parameter) is worked out now, as _racer works it
        # out: the same for every racer, the model reads it in place of the racer's item of
        # its list and decides its tests now (`fixed`: held, rate and error rate).
        def whole(key: str) -> int | None:  # `int` of a finite number known now
            k = known.get(key)
            return int(k) if k is not None and math.isfinite(k) else None
        caps = [whole(key) for key in ("capacity", "model_capacity") if key in values]
        fixed: dict[str, Any] = {}
        if None not in caps:  # none given: no capacity (None); else the least of them
            fixed[held] = min(caps) if caps else None
        if "rate" not in values or ("rate" in known and math.isfinite(known["rate"])):
            fixed[rate] = known.get("rate", 1.0)
        if "error_rate" not in values or "error_rate" in known:
            fixed[err] = min(1.0, known.get("error_rate", 0.0))
        def written(key: str) -> str:  # a capacity's `int`, worked out now where it can be
            k = whole(key)
            return f"int({values[key]})" if k is None else repr(k)
        c = written("capacity") if "capacity" in values else "None"
        if held in fixed:
            h = repr(fixed[held])
        elif "model_capacity" in values:
            m = written("model_capacity")
            h = m if c == "None" else f"min({c}, {m})"
        else:
            h = c
        er = repr(fixed[err]) if err in fixed else f"min(1.0, {values['error_rate']})"
        if "latency" not in values or "latency" in known:  # read as it is written
            fixed[lat] = values.get("latency", "0.0")
        # A logged game's scripts and reports read the capacities; the model reads the rest.
        made = {cap: c} if self.logged else {}
        made.update({name: v for name, v in ((held, h), (rate, values.get("rate", "1.0")),
                                             (lat, values.get("latency", "0.0")), (err, er))
                     if name not in fixed})
        for name, v in made.items():
            e(d + 1, f"{name}.append({v})")
        if len(self.lines) == at + 1:  # the loop tests nothing and makes no list
            del self.lines[at:]
        self.lines[at:at] = ["    " * d + f"{name} = []" for name in made]
        per, mi, cnt = (held, rate, lat, err, fixed), None, None
        if self.logged:  # the claims a decisions file or a log gives, else the model's
            last, mi = self.temp("ls"), self.temp("mi")
            counted = self._race_script(spec, rid, rs, pool, cl, cap, last, mi, d, ctx)
            cnt = counted[2] if counted else None
            e(d, "else:")
            if counting:
                self.count_reporters(spec, counted[0], rs, d + 1)
                sec, told = self.count_reports(rid, spec, counted[0], counted[1], rs, pool, cl,
                                               d + 1, ctx)
                e(d + 1, f"{last}, un, {cnt} = {sec}, 0, {told}")
            elif any(reported):
                rp = self.const(reported, "RP")
                sec = self._race_reports(rid, rs, pool, cl, cap, d + 1, ctx, rp)
                e(d + 1, f"if all({rp}[_r] for _r in {rs}):")
                e(d + 2, f"{last}, un = {sec}, 0")
                e(d + 1, "else:")  # the others race them on the model's clocks
                self._race_model(spec, rid, rs, pool, cl, nx, per, d + 2, ctx, last, (rp, mi))
                e(d + 2, f"{last} = max({sec}, {last})")
            else:
                self._race_model(spec, rid, rs, pool, cl, nx, per, d + 1, ctx, last)
        else:
            last = self._race_model(spec, rid, rs, pool, cl, nx, per, d, ctx)
        self._race_time(items, cl, last, d, ctx)
        res = self.temp("rr")
        e(d, f"{res} = [None] * {self.n if rk == 'player' else len(self.team_names)}")
        e(d, f"for {r}, {cl}_i in zip({rs}, {cl}):")
        e(d + 1, f"{res}[{r}] = {cl}_i")
        e(d, f"R_{rid} = {res}")
        if self.logged:  # as race.run_race: each racer's claims, the seconds, the draws
            claims = (f"{{{names}[_r]: [{self.item_ids()}[_x] for _x in _c] "
                      f"for _r, _c in zip({rs}, {cl})}}")
            self.rec(d, "race", ("id", repr(rid)), ("claims", claims),
                     ("seconds", f"round({last}, 3)"),
                     ("", "**({'uniforms': un} if un else {})"),
                     ("", f"**({{'missed': {mi}}} if {mi} else {{}})"),
                     *((("", f"**({{'counts': {cnt}}} if {cnt} is not None else {{}})"),)
                       if cnt else ()))
        self.fire("decided", d, ctx)
        if cnt:  # counts tell the faces of the dice they took: a face was written
            e(d, f"if {cnt} is not None:")
            self.after_op(d + 1, frozenset({rid, "face"}), ctx)
            e(d + 1, "pass")
            e(d, "else:")
            self.after_op(d + 1, frozenset({rid}), ctx)
            e(d + 1, "pass")
        else:
            self.after_op(d, frozenset({rid}), ctx)

    def _race_script(self, spec: dict, rid: str, rs: str, pool: str, cl: str, cap: str,
                     last: str, mi: str, d: int, ctx: _Ctx) -> tuple[str, str, str] | None:
        """As race._scripted, in a logged game: the events raised before the race's entry
        (raised while the claims were reported) raised again, then the entry's claims,
        seconds, draws and misses (scripted.py `race_script`), or its counts for a race with `counts`
        (counts.py: its reporters and their `take` are written first; returned with the name
        of the counts given, None when none were); `else:` follows, for the model."""
        e = self.emit
        e(d, f"{mi} = None")
        e(d, "while FQ and type(FQ[0]) is dict and 'raise' in FQ[0]:")
        if self.raises_here():
            self.scripted_raise(d + 1, ctx)
        else:  # none may be raised: the interpreter's bad-input error
            e(d + 1, f"_raise_entry(FQ, (), {self.names_of()}, {self.input_at()})")
        counted = None
        if "counts" in spec:
            reps, take = self.count_setup(spec, rs, pool, cap, d)
            counted = (reps, take, self.temp("cn"))
            e(d, f"{counted[2]} = None")
        e(d, "if FQ and type(FQ[0]) is dict and 'race' in FQ[0]:")
        if counted:
            kinds = tuple((spec.get("counts") or {}).keys())
            e(d + 1, "if 'counts' in FQ[0]:")
            e(d + 2, f"{cl} = [[] for _ in {rs}]")
            # reporters only for an entry of this race with counts (race._scripted, then
            # counted.scripted: the entry's own errors come first)
            e(d + 2, f"{reps} = []")
            e(d + 2, f"if FQ[0]['race'] == {rid!r} and type(FQ[0]['counts']) is dict:")
            self.count_reporters(spec, reps, rs, d + 3)
            e(d + 2, f"{last}, {counted[2]} = _counts_script(FQ, {rid!r}, {reps}, {kinds!r}, "
                     f"{take}, F, {cl}, {self.input_at()})")
            e(d + 2, "un = 0")
            e(d + 1, "else:")
            d += 1
        e(d + 1, f"{cl}, {last}, un, {mi} = _race_script(FQ, {rid!r}, {rs}, {pool}, {cap}, "
                 f"{self.racer_names()}, {self.item_ids()}, _CS.uniform, {self.input_at()})")
        return counted

    def _race_reports(self, rid: str, rs: str, pool: str, cl: str, cap: str, d: int,
                      ctx: _Ctx, rp: str) -> str:
        """As race._reported: each reported racer's claims, in order, asked through the
        door (`_LV.report`: a person, or the referee's table); an event raised instead is
        raised, and the same racer asked again. Returns the name of the seconds the reports
        took (real time in a live game, else none)."""
        e = self.emit
        k, a, t0, sec = self.temp("k"), self.temp("a"), self.temp("t0"), self.temp("sc")
        e(d, f"{cl} = [[] for _ in {rs}]")
        if self.live:
            e(d, f"{t0} = _LV.now()")
        e(d, f"for {k} in range(len({rs})):")
        e(d + 1, f"if {rp}[{rs}[{k}]]:")
        e(d + 2, "while True:")
        e(d + 3, f"{a} = _LV.report({rid!r}, {self.step_path!r}, {rs}, {k}, {cl}, {cap}, "
                 f"{pool})")
        e(d + 3, f"if type({a}) is not _Raised:")
        e(d + 4, "break")
        # (a call is refused where no event may be raised: then none comes)
        self.raised(d + 3, ctx, f"{a}.event", f"{a}.by", "False")
        e(d + 2, f"{cl}[{k}] = {a}")
        e(d, f"{sec} = max(0.0, _LV.now() - {t0})" if self.live else f"{sec} = 0.0")
        return sec

    def _race_model(self, spec: dict, rid: str, rs: str, pool: str, cl: str, nx: str,
                    per: tuple, d: int, ctx: _Ctx, last: str | None = None,
                    reported: tuple[str, str] | None = None) -> str:
        """As race._model: the claims of every racer; returns the name of the moment of the
        last claim (the race's seconds), `last` when given. With `reported` (the table of
        seats whose claims were reported, and the name for what they missed), a reported
        racer reaches for what it reported, in order, on its clock like the others, and
        misses what another racer reached first."""
        held, rate, lat, err, fixed = per
        e = self.emit
        # race._Uniforms: a logged game asks its chance source (seeded: the same draws)
        u = "_CS.uniform()" if self.logged else "rnd()"
        i, rem, wn, it = (self.temp("i"), self.temp("rm"), self.temp("wn"), self.temp("it"))
        last = last or self.temp("ls")
        ac = self.temp("ac")
        intents = missed = None
        if reported is not None:
            intents, missed = self.temp("in"), self.temp("ms")
            e(d, f"{intents} = [_c if {reported[0]}[_r] else None for _r, _c in "
                 f"zip({rs}, {cl})]")
            e(d, f"{missed} = [[] for _ in {rs}]")

        def gap(depth: int, target: str, base: str) -> None:
            # As _Uniforms.gap: no draw at a rate of 0 or less (never claims).
            if rate in fixed:  # every racer's rate, known now
                if fixed[rate] > 0:
                    e(depth, f"{target} = {base} - _log(1.0 - {u}) / {fixed[rate]!r}")
                    if self.logged:
                        e(depth, "un += 1")
                else:
                    e(depth, f"{target} = _inf")
                return
            e(depth, f"if {rate}[{i}] > 0:")
            e(depth + 1, f"{target} = {base} - _log(1.0 - {u}) / {rate}[{i}]")
            if self.logged:
                e(depth + 1, "un += 1")  # the model's draws, which the race's record counts
            e(depth, "else:")
            e(depth + 1, f"{target} = _inf")
        e(d, f"{cl} = [[] for _ in {rs}]")
        e(d, f"{nx} = [0.0] * len({rs})")
        if self.logged:
            e(d, "un = 0")
        e(d, f"for {i} in range(len({rs})):")
        gap(d + 1, f"{nx}[{i}]", fixed[lat] if lat in fixed else f"{lat}[{i}]")
        # The racers whose clocks run, in order: a loop, not a comprehension (a function and
        # a frame of its own in Python 3.11, at every race).
        e(d, f"{ac} = []")
        e(d, f"for {i} in range(len({rs})):")
        e(d + 1, f"if {nx}[{i}] < _inf:")
        e(d + 2, f"{ac}.append({i})")
        e(d, f"{rem} = list({pool})")
        e(d, f"{last} = 0.0")
        r, x = self.temp("r"), self.temp("x")
        want = None
        if "wanted" in spec:
            want = self.cond_at(spec["wanted"], {**ctx.scope, "racer": Ex(r, self.race_kind, True),
                                                 "item": Ex(x, "dref", True)}, "wanted")
        # Nothing changes the game while the claims are modelled, so what each racer wants
        # is known once: its wanted items, in the pool's order, lose each item claimed. Only
        # where the test counts no work (the interpreter tests it again at every claim, and
        # work counted once would not be the work it counts) and cannot fail (tested ahead,
        # it would stop games at items the interpreter never tests).
        wl = self.temp("wl") if want is not None and want.safe and "wk" not in want.src \
            else None
        shared = None  # the one wanted list of every racer, when the test does not read it
        if wl is not None:
            want, among = self._wanted_among(spec["wanted"], want, r, x, d, ctx)
            if intents is None and not re.search(rf"\b{r}\b", want.src):
                # Every racer wants the same items, and each claim leaves all their lists
                # alike: one list, made once, stands for all of them.
                shared = self.temp("sw")
                if among is not None and not self.race_repeats:
                    self._wanted_in_order(shared, among, rem, d)
                    e(d, f"if {shared} is None:")
                    e(d + 1, f"{shared} = [{x} for {x} in {rem} if {want.src}]")
                else:
                    e(d, f"{shared} = [{x} for {x} in {rem} if {want.src}]")
                e(d, f"{wl} = [{shared}] * len({rs})")
            elif intents is None:
                e(d, f"{wl} = []")
                e(d, f"for {r} in {rs}:")
                e(d + 1, f"{wl}.append([{x} for {x} in {rem} if {want.src}])")
            else:  # what a reported racer wants is never asked
                q = self.temp("q")
                e(d, f"{wl} = []")
                e(d, f"for {r}, {q} in zip({rs}, {intents}):")
                e(d + 1, f"{wl}.append([{x} for {x} in {rem} if {want.src}] if {q} is None "
                         "else [])")
        e(d, f"while {ac}:")
        d1 = d + 1
        # The soonest clock; among equals the first racer (ac keeps racers in order), as
        # `min(ac, key=nx.__getitem__)` picks it: a loop, which costs a few racers less than
        # that call of a key per racer (a two-team grab race: its game 1.07 times as fast).
        soon, j = self.temp("sn"), self.temp("j")
        e(d1, f"{i} = {ac}[0]")
        e(d1, f"{soon} = {nx}[{i}]")
        e(d1, f"for {j} in {ac}:")
        e(d1 + 1, f"if {nx}[{j}] < {soon}:")
        e(d1 + 2, f"{i} = {j}")
        e(d1 + 2, f"{soon} = {nx}[{j}]")
        if intents is not None:
            self._reached(intents, missed, i, rem, ac, cl, it, wl, last, nx, gap, d1)
        full = (f"{held}[{i}] is not None and len({cl}[{i}]) >= {held}[{i}]" if held not in fixed
                else None if fixed[held] is None else f"len({cl}[{i}]) >= {fixed[held]!r}")
        if full is not None:  # (no capacity: a racer stops only when nothing is left)
            e(d1, f"if {full}:")
            e(d1 + 1, f"{ac}.remove({i})")
            e(d1 + 1, "continue")
        e(d1, f"{r} = {rs}[{i}]")
        if wl is not None:
            e(d1, f"{wn} = {wl}[{i}]")
        elif want is not None:
            e(d1, f"{wn} = [{x} for {x} in {rem} if {want.src}]")
        else:
            e(d1, f"{wn} = list({rem})")
        e(d1, f"if not {wn}:")
        e(d1 + 1, f"{ac}.remove({i})")  # nothing it wants is left: it stops
        e(d1 + 1, "continue")
        e(d1, f"{it} = None")
        uw = self.temp("uw")
        # A misgrab: a draw at an error rate above 0 (none at 0 or less, as race._model).
        if err not in fixed:
            if self.logged:  # the same draws, counted
                e(d1, f"if {err}[{i}] > 0:")
                e(d1 + 1, "un += 1")
            misgrab = f"{err}[{i}] > 0 and {u} < {err}[{i}]"
        elif fixed[err] > 0:
            if self.logged:
                e(d1, "un += 1")
            misgrab = f"{u} < {fixed[err]!r}"
        else:
            misgrab = None
        if misgrab is not None:
            e(d1, f"if {misgrab}:")
            e(d1 + 1, f"{uw} = [{x} for {x} in {rem} if {x} not in {wn}]")  # dice: numbers
            e(d1 + 1, f"if {uw}:")
            e(d1 + 2, f"{it} = {uw}[min(len({uw}) - 1, int({u} * len({uw})))]")
            if self.logged:
                e(d1 + 2, "un += 1")
        e(d1, f"if {it} is None:")
        e(d1 + 1, f"if len({wn}) == 1:")
        e(d1 + 2, f"{it} = {wn}[0]")
        e(d1 + 1, "else:")
        # The racer's seat decides as for the decision named by the race's id (no count of
        # the choice: the interpreter asks the controller directly).
        leads = Ex(r, "player", True) if self.race_kind == "player" else Ex(
            f"{self.const(tuple(m[0] for m in self.team_members), 'LD')}[{r}]", "player", True)
        self._controllers(rid, "dref", ("values", wn), it, d1 + 2, leads)
        e(d1, f"{cl}[{i}].append({it})")
        e(d1, self._taken(rem, it))
        if shared is not None:
            e(d1, f"if {it} in {shared}:")
            e(d1 + 1, self._taken(shared, it))
        elif wl is not None:
            w = self.temp("w")
            e(d1, f"for {w} in {wl}:")
            e(d1 + 1, f"if {it} in {w}:")
            e(d1 + 2, self._taken(w, it))
        e(d1, f"{last} = {nx}[{i}]")
        gap(d1, f"{nx}[{i}]", last)
        if intents is not None:  # what a reported racer did not reach, it missed
            e(d, f"for {i} in range(len({rs})):")
            e(d + 1, f"if {intents}[{i}] is not None:")
            e(d + 2, f"{missed}[{i}] += {intents}[{i}]")
            e(d, f"{reported[1]} = {{{self.names_of()}[{rs}[_k]]: [{self.item_ids()}[_x] "
                 f"for _x in {missed}[_k]] for _k in range(len({rs})) if {missed}[_k]}}")
        return last

    def _taken(self, listed: str, it: str) -> str:
        """The line that takes a claimed item out of a list (what is left, what a racer wants),
        in place (a wanted list may be every racer's): every copy of it where the race's
        items may name a die twice (dice are numbers: `!=` is `is not`)."""
        if self.race_repeats:  # set by `_s_race`, which alone writes the model
            return f"{listed}[:] = [_y for _y in {listed} if _y != {it}]"
        return f"{listed}.remove({it})"

    def _wanted_among(self, text: str, want: Ex, r: str, x: str, d: int,
                      ctx: _Ctx) -> tuple[Ex, str | None]:
        """`item in X` (or `not in`), X the same for every racer and item: X's items made a
        set once, before the racers' wanted lists, so that each item's test is one look-up
        (items of kinds.HASHED, and dice, numbers in generated code: the same test as the
        list's); with `in`, the name X is bound to. Any other test as it is, and None."""
        node = _node(text)
        if not (isinstance(node, n.Binary) and node.op in ("in", "not in")
                and isinstance(node.left, n.Name) and node.left.id == "item"):
            return want, None
        among = self._as_list(self.expr(node.right, {**ctx.scope, "racer": Ex(r, self.race_kind,
                                                                                True),
                                                      "item": Ex(x, "dref", True)}))
        item = among.kind[5:] if among.kind.startswith("list:") else None
        if not among.safe or item not in (*HASHED, "dref") or "wk" in among.src:
            return want, None
        if re.search(rf"\b({re.escape(r)}|{re.escape(x)})\b", among.src):
            return want, None  # it depends on the racer or the item
        h, listed = self.temp("hs"), self.temp("al")
        self.emit(d, f"{listed} = {among.src}")
        self.emit(d, f"{h} = set({listed})")
        return Ex(f"({x} {node.op} {h})", "bool", True), listed if node.op == "in" else None

    def _wanted_in_order(self, shared: str, among: str, rem: str, d: int) -> None:
        """The pool's items in `among`, in the pool's order: `among` itself where it lists
        pool items in the pool's order (a filter of the race's zone), else `shared` stays
        None. `y in o` on an iterator looks on from the last find: the pool's order, and
        (the pool listing each item once) each item once."""
        e = self.emit
        o, y = self.temp("o"), self.temp("y")
        e(d, f"{shared} = None")
        e(d, f"{o} = iter({rem})")
        e(d, f"for {y} in {among}:")
        e(d + 1, f"if {y} not in {o}:")
        e(d + 2, "break")
        e(d, "else:")
        e(d + 1, f"{shared} = list({among})")

    def _reached(self, intents: str, missed: str, i: str, rem: str, ac: str, cl: str,
                 it: str, wl: str | None, last: str, nx: str, gap: Any, d: int) -> None:
        """A reported racer's claim on its clock: the next item it reported that is still
        there (those another racer took first are missed); none left: it stops."""
        e = self.emit
        q = self.temp("q")
        e(d, f"{q} = {intents}[{i}]")
        e(d, f"if {q} is not None:")
        e(d + 1, f"while {q} and {q}[0] not in {rem}:")
        e(d + 2, f"{missed}[{i}].append({q}.pop(0))")
        e(d + 1, f"if not {q}:")
        e(d + 2, f"{ac}.remove({i})")
        e(d + 2, "continue")
        e(d + 1, f"{it} = {q}.pop(0)")
        e(d + 1, f"{cl}[{i}].append({it})")
        e(d + 1, self._taken(rem, it))
        if wl is not None:
            w = self.temp("w")
            e(d + 1, f"for {w} in {wl}:")
            e(d + 2, f"if {it} in {w}:")
            e(d + 3, self._taken(w, it))
        e(d + 1, f"{last} = {nx}[{i}]")
        gap(d + 1, f"{nx}[{i}]", last)
        e(d + 1, "continue")

    def _race_time(self, items: Ex, cl: str, last: str, d: int, ctx: _Ctx) -> None:
        """As race._in_hand: the race's seconds pass with the claimed items out of their zone,
        in a hand (the list `ca`, where their places say they are), which then gets them back
        in its old order (what a trigger added in that time last); one an effect moved
        meanwhile (by name) left the hand, and stays where it went."""
        secs = Ex(last, "num", True)
        # Where nothing can happen meanwhile, nothing reads the zone while the claimed items
        # are out of it, and it gets them back in its old order: it need not lose them.
        if items.kind != "zone" or self.quiet():
            self.advance(secs, d, ctx)
            return
        e = self.emit
        z, ca, hs, bf = self.temp("z"), self.temp("ca"), self.temp("hs"), self.temp("bf")
        e(d, f"{z} = {items.src}")
        e(d, f"{ca} = [x for c in {cl} for x in c]")
        e(d, f"{hs} = set({ca}) if {ca} and {last} > 0 else None")
        e(d, f"if {hs} is not None:")
        e(d + 1, f"{bf} = list({z})")
        e(d + 1, f"{z}[:] = [x for x in {bf} if x not in {hs}]")
        i = self.temp("i")
        e(d + 1, f"for {i} in {ca}:")
        e(d + 2, f"W[{i}] = {ca}")
        if self.zone_read:  # in the hand, an item still says it lies in its zone
            e(d + 1, f"ZID[id({ca})] = ZID[id({z})]")
        e(d, "try:")
        self.advance(secs, d + 1, ctx)
        e(d + 1, "pass")
        e(d, "finally:")
        e(d + 1, f"if {hs} is not None:")
        now, kept = self.temp("nw"), self.temp("kp")
        e(d + 2, f"{now} = set({z})")
        e(d + 2, f"{kept} = set({bf})")
        e(d + 2, f"{hs} = set({ca})")  # what is still in the hand
        e(d + 2, f"{z}[:] = [x for x in {bf} if x in {hs} or x in {now}] + "
                 f"[x for x in {z} if x not in {kept}]")
        e(d + 2, f"for {i} in {ca}:")
        e(d + 3, f"W[{i}] = {z}")
        if self.zone_read:
            e(d + 2, f"del ZID[id({ca})]")
