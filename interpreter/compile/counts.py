"""Phase 5b, compile for play at the table: a race a referee's table reports by counts, as code.

Input: a `race` step with `counts` (kinds of item, each with a `where` and the `face` its
items show) and `counts_per`, in a logged game, and the generator of
interpreter/compile/specialize.py. Output: Python lines that take the race as
interpreter/engine/race.py `_counted` and interpreter/engine/counted.py do: the reporters
(a racer, or the racers `counts_per` groups, in the order of their first racer), a function
of the game that works out which items a reporter's counts take (counted.take: per kind, in
order, the items no earlier report took whose `where` holds for the reporter's first racer
and whose face is the kind's, or unknown; the refusals in its words), and the loop that asks
each reporter through the door (`_LV.counts`: its line of counts, checked by that function,
asked again until possible; an event called instead raised, the same reporter asked again;
an undo taking the report before back). A scripted entry of counts (a decisions file's, a
log's) is taken as counted.scripted takes it (`counts_script`). The items taken show the
faces their kinds say, from then on (`give`, `take_back`).

`CountsWriter` is a mixin of the generator (`_Gen`).
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import Ex, Unsupported, _Ctx, _node
from interpreter.compile.scripted import refused
from interpreter.compile.stops import reporter_site
from interpreter.engine.script_errors import (
    counts_not_a_map,
    counts_of_unknown_kinds,
    impossible_counts,
    other_race,
    unknown_reporter,
)


def give(faces: list, claims: list, rep: tuple, chosen: list, taken: set) -> list:
    """counted.give: the reporter's first racer holds the items `chosen` (item, face), each
    showing its face from now on where it was unknown; returns the dice whose face was told
    (for `take_back`)."""
    seen = []
    for x, face in chosen:
        if face is not None and faces[x] is None:
            faces[x] = face
            seen.append(x)
        taken.add(x)
    racers = rep[2]
    claims[racers[0]] = [x for x, _ in chosen]
    for j in racers[1:]:
        claims[j] = []
    return seen


def take_back(faces: list, claims: list, rep: tuple, seen: list, taken: set) -> None:
    """counted.take_back: `give` undone (the table took a report back)."""
    for x in claims[rep[2][0]]:
        taken.discard(x)
    for x in seen:
        faces[x] = None
    for j in rep[2]:
        claims[j] = []


def counts_script(queue: Any, rid: str, reps: list, kinds: tuple, take: Any, faces: list,
                  claims: list, site: tuple | None) -> tuple[float, dict]:
    """A race's scripted counts at the queue's head, as counted.scripted takes them: the
    counts checked (reporters and kinds this race has; possible together: else the
    interpreter's bad-input error, at `site`, the race's step), given in reporter order;
    returns the seconds the race took and the counts as the log keeps them."""
    entry = queue[0]
    counts = entry.get("counts")
    names = [rep[0] for rep in reps]
    if entry["race"] != rid:
        raise refused(site, lambda path: other_race(entry["race"], rid, path))
    if not isinstance(counts, dict):
        raise refused(site, lambda path: counts_not_a_map(rid, path))
    for name, per in counts.items():
        if name not in names:
            raise refused(site, lambda path, name=name: unknown_reporter(name, rid, names, path))
        if not isinstance(per, dict) or any(k not in kinds for k in per):
            raise refused(site, lambda path, name=name: counts_of_unknown_kinds(
                name, rid, kinds, path))
    taken: set = set()
    told = {}
    for i, rep in enumerate(reps):
        told[rep[0]] = {k: (counts.get(rep[0]) or {}).get(k, 0) for k in kinds}
        chosen, why = take(i, told[rep[0]], taken)
        if chosen is None:
            raise refused(site, lambda path, why=why: impossible_counts(rid, why, path))
        give(faces, claims, rep, chosen, taken)
    queue.popleft()
    return float(entry.get("seconds", 0.0)), told


class CountsWriter:
    """A race the table reports by counts (a mixin of _Gen)."""

    def count_setup(self, spec: dict, rs: str, pool: str, cap: str, d: int) -> tuple[str, str]:
        """The names of the race's reporters (`[(name, shown, [racer indices])]`, made by
        `count_reporters` where counts are given) and of the function that takes a
        reporter's counts (`take(i, counts, taken) -> (items with faces, why)`), written
        here."""
        reps, take = self.temp("rp"), self.temp("ct")
        self._take(spec, take, reps, rs, pool, cap, d)
        return reps, take

    def count_reporters(self, spec: dict, reps: str, rs: str, d: int) -> None:
        """The race's reporters (`reps`), as counted.reporters makes them: only where counts
        are given (a script's, a counting table's), as the interpreter works out
        `counts_per` only there."""
        e = self.emit
        j, r, k, keys = self.temp("j"), self.temp("r"), self.temp("k"), self.temp("ks")
        if "counts_per" in spec:
            key = self.value_at(spec["counts_per"], {"racer": Ex(r, "player", True)},
                                "counts_per")
        else:
            key = Ex(r, "player", True)
        if key.kind not in ("player", "team"):
            raise Unsupported("a race's counts_per that is not a player or a team")
        if key.kind == "team":
            names = self.const(tuple(self.team_names), "TN")
            shown = self.const(tuple(f"team {t}" for t in self.team_names), "TW")
        else:
            names = self.names_of()
            shown = self.const(tuple(
                n + (f" (team {self.team_names[self.seat_team[i]]})"
                     if self.team_names and self.seat_team[i] is not None else "")
                for i, n in enumerate(self.seat_names)), "SW")
        e(d, f"{reps} = []")
        e(d, f"{keys} = {{}}")
        e(d, f"for {j}, {r} in enumerate({rs}):")
        e(d + 1, f"{k} = {key.src}")
        if not key.safe:  # counts_per that gives none: the interpreter's error
            e(d + 1, f"if {k} is None:")
            e(d + 2, self.stop_at(reporter_site, k))
        e(d + 1, f"if {k} not in {keys}:")
        e(d + 2, f"{keys}[{k}] = len({reps})")
        e(d + 2, f"{reps}.append(({names}[{k}], {shown}[{k}], []))")
        e(d + 1, f"{reps}[{keys}[{k}]][2].append({j})")

    def _take(self, spec: dict, take: str, reps: str, rs: str, pool: str, cap: str,
              d: int) -> None:
        """counted.take, for this race's kinds, as a function of the game (`_ct...`)."""
        e = self.emit
        fr, ch, us, n, x, f, h, kn, uk, fit, p = (
            self.temp("fr"), self.temp("ch"), self.temp("us"), self.temp("n"), self.temp("x"),
            self.temp("f"), self.temp("h"), self.temp("kn"), self.temp("uk"),
            self.temp("fit"), self.temp("p"))
        faces = self.const(tuple(self.die_faces), "DF")
        rp, cp = self.temp("rp"), self.temp("cp")
        e(d, f"def {take}(_i, _cn, _tk):")  # its name `_ct...`: raised.shared_names
        e(d + 1, f"__NONLOCAL_{take}__")
        e(d + 1, f"{rp} = {reps}[_i]")
        e(d + 1, f"{fr} = {rs}[{rp}[2][0]]")
        e(d + 1, f"{ch} = []")
        e(d + 1, f"{us} = set(_tk)")
        scope = {"racer": Ex(fr, "player", True), "item": Ex(x, "dref", True)}
        for name, kind in (spec.get("counts") or {}).items():
            kind = kind or {}
            e(d + 1, f"{n} = _cn.get({name!r}, 0)")
            e(d + 1, f"if _bad_count({name!r}, {n}) is not None:")
            e(d + 2, f"return None, _bad_count({name!r}, {n})")
            e(d + 1, f"if {n}:")
            d2 = d + 2
            e(d2, f"{kn}, {uk} = [], []")
            e(d2, f"for {x} in {pool}:")
            e(d2 + 1, f"if {x} in {us}:")
            e(d2 + 2, "continue")
            if "where" in kind:
                e(d2 + 1, f"if not ({self.cond(kind['where'], scope).src}):")
                e(d2 + 2, "continue")
            face = "None"
            if "face" in kind:
                told = self.expr(_node(kind["face"]), scope)
                if told.kind not in (("int", "num") if self.face_kind == "int" else ("str",)):
                    raise Unsupported("a count's face of another kind than the dice's faces",
                                      (*(self.step_path or ()), "counts", name, "face"))
                face = told.src
            e(d2 + 1, f"{f} = {face}")
            e(d2 + 1, f"{h} = F[{x}]")
            e(d2 + 1, f"if {f} is None or {h} == {f}:")
            e(d2 + 2, f"{kn}.append(({x}, {f}))")
            e(d2 + 1, f"elif {h} is None and {f} in {faces}[{x}]:")
            e(d2 + 2, f"{uk}.append(({x}, {f}))")
            e(d2, f"{fit} = {kn} + {uk}")
            e(d2, f"if {n} > len({fit}):")
            what = str(kind.get("label") or name)
            e(d2 + 1, f"return None, _too_many({rp}[1], {n}, {what!r}, len({fit}))")
            e(d2, f"for {p} in {fit}[:{n}]:")
            e(d2 + 1, f"{ch}.append({p})")
            e(d2 + 1, f"{us}.add({p}[0])")
        e(d + 1, f"{cp} = [{cap}[_j] for _j in {rp}[2]]")
        e(d + 1, f"if None not in {cp} and len({ch}) > sum({cp}):")
        e(d + 2, f"return None, _over_capacity({rp}[1], sum({cp}))")
        e(d + 1, f"return {ch}, None")

    def count_reports(self, rid: str, spec: dict, reps: str, take: str, rs: str, pool: str,
                      cl: str, d: int, ctx: _Ctx) -> tuple[str, str]:
        """As race._counted: each reporter asked through the door in turn; returns the names
        of the seconds it took and of the counts as the log keeps them."""
        e = self.emit
        i, a, tk, sn, cs, t0, sec, cnt = (self.temp("i"), self.temp("a"), self.temp("tk"),
                                          self.temp("sn"), self.temp("cs"), self.temp("t0"),
                                          self.temp("sc"), self.temp("cn"))
        kinds = self.const(tuple((name, str((k or {}).get("label", "")))
                                 for name, k in (spec.get("counts") or {}).items()), "KD")
        e(d, f"{cl} = [[] for _ in {rs}]")
        e(d, f"{tk}, {sn}, {cs} = set(), [], [None] * len({reps})")
        if self.live:
            e(d, f"{t0} = _LV.now()")
        e(d, f"{i}, _hd = 0, True")
        e(d, f"while {i} < len({reps}):")
        d1 = d + 1
        e(d1, f"{a} = _LV.counts({rid!r}, {self.step_path!r}, {reps}[{i}], "
              f"{rs}[{reps}[{i}][2][0]], {i} == 0, _hd, {kinds}, {pool}, "
              f"lambda _c, _i={i}: {take}(_i, _c, {tk}))")
        if self.raises_here():  # (else a call is refused at the report: none comes)
            e(d1, f"if type({a}) is _Raised:")
            self.raised(d1 + 1, ctx, f"{a}.event", f"{a}.by", "False")
            e(d1 + 1, "continue")
        e(d1, "_hd = False")
        e(d1, f"if {a} is None:")  # the report before this one taken back
        e(d1 + 1, f"{i} -= 1")
        e(d1 + 1, f"_take_back(F, {cl}, {reps}[{i}], {sn}.pop(), {tk})")
        e(d1 + 1, "continue")
        e(d1, f"{sn}.append(_give(F, {cl}, {reps}[{i}], {a}[0], {tk}))")
        e(d1, f"{cs}[{i}] = {a}[1]")
        e(d1, f"{i} += 1")
        e(d, f"{cnt} = {{_r[0]: _c for _r, _c in zip({reps}, {cs})}}")
        e(d, f"{sec} = max(0.0, _LV.now() - {t0})" if self.live else f"{sec} = 0.0")
        return sec, cnt
