"""Phase 5b, compile for simulation (the work meter): the items the interpreter charges to a
game's step budget, charged by the generated code where it charges them, item for item.

Input: an expression node (dsl/nodes.py) and the `Ex` written for it or for its parts. Output:
Python source that counts those items into the generated function's local `wk` as the
interpreter's `Game.charge` counts them (dsl/compiler.py): a comprehension its items (not one
that `flat_over_few` lets go), a built-in over lists the items of its lists and of the list it
makes, when more than UNCHARGED_ITEMS. Where the items and the steps counted so far pass the
step budget together, the count stops the game (`_over()` raises `Stop`, the interpreter's
budget error), at the charge where the interpreter's stops: the steps are exact there (the
peephole moves no step count past a line that reads `steps`). A mixin of the specializer's
writer (interpreter/compile/specialize.py).
"""

from __future__ import annotations

from dsl import nodes as n
from dsl.builtins import BUILTINS
from dsl.compiler import UNCHARGED_ITEMS, flat_over_few
from interpreter.compile.base import Ex, Unsupported

# The built-ins that make a list as long as the one they read: their call counts it twice.
_SAME_LENGTH = ("sort", "sort_by", "faces")


class MeterWriter:
    """The work meter in generated expressions; `self` is the specializer's writer."""

    def charge(self, name: str, src: str, least: int = 0, times: int = 1,
               pos: tuple | None = None) -> str:
        """A test that binds the list `src` to `name` and counts its items (`times` over) in
        the work meter `wk`; with `least`, only when they count more than that. True unless
        the meter passes the step budget, where `_over()` stops the game (`pos`: the node
        that counts them, where the stop is located: `StopWriter.over`)."""
        k = "" if times == 1 else f"{times} * "
        over = self.over(pos)
        count = f"(wk := wk + {k}len({name})) + steps <= {self.max_steps} or {over}"
        if least:
            return f"({k}len({name} := {src}) <= {least} or {count})"
        # The list first, then the meter: working out `src` may count work of its own.
        return f"((wk := {k}len({name} := {src}) + wk) + steps <= {self.max_steps} or {over})"

    def charged_now(self, items: int, src: str, pos: tuple | None = None) -> str:
        """`src` with `items` counted first (a number known when generating)."""
        if items <= 0:
            return src
        return (f"({src} if (wk := wk + {items}) + steps <= {self.max_steps} or "
                f"{self.over(pos)} else None)")

    @staticmethod
    def comprehension_least(node: n.Comprehension) -> int:
        """How many items a comprehension goes through uncounted: UNCHARGED_ITEMS for one
        that `flat_over_few` lets go, else none."""
        return UNCHARGED_ITEMS if flat_over_few(node) else 0

    def unrolled(self, node: n.Comprehension, items: int, src: str) -> str | None:
        """A comprehension written out item by item (`src`, over `items` known now) counted as
        the interpreter counts it; None when it counts nothing."""
        if items <= self.comprehension_least(node):
            return None
        return self.charged_now(items, src, node.iterable.pos)

    def _charged_args(self, node: n.Call, args: list[Ex]) -> list[Ex]:
        """The arguments of a built-in call, the list among them counted as the interpreter
        counts a call over lists (dsl.compiler.charged: not a call whose arguments are all
        comprehensions; the items of its lists and of the list it makes, when more than
        UNCHARGED_ITEMS): before the call, which cannot change how long they are. `unique`
        counts the list it makes, which only the call knows: written where it is made
        (interpreter/compile/kinds.py). A list known now drops its items, so that what reads
        it reads the source that counts them."""
        fn = BUILTINS.get(node.func)
        if fn is None or not fn.counted or node.func == "unique" or all(
                isinstance(a, n.Comprehension) for a in node.args):
            return args
        times = 2 if node.func in _SAME_LENGTH else 1
        for x in args:  # a group of dice is a list to the interpreter: a long one counts
            if x.kind == "dice" and times * len(x.dice) > UNCHARGED_ITEMS:
                raise Unsupported(f"{node.func} over more than {UNCHARGED_ITEMS} dice")
        lists = [i for i, x in enumerate(args) if x.kind.startswith("list:")]
        if len(lists) > 1:
            raise Unsupported(f"{node.func} over two lists")
        if not lists:
            return args
        i = lists[0]
        x, out = args[i], list(args)
        if x.items is not None:
            many = times * len(x.items)
            if many > UNCHARGED_ITEMS:
                out[i] = Ex(self.charged_now(many, x.src, node.pos), x.kind, x.safe,
                            bound=x.bound)
            return out
        t = self.temp()
        test = self.charge(t, x.src, UNCHARGED_ITEMS, times, node.pos)
        out[i] = Ex(f"({t} if {test} else None)", x.kind, x.safe, bound=x.bound)
        return out

    def past_few(self, items: str, src: str | None = None) -> str:
        """A test that counts `items` in the work meter when more than UNCHARGED_ITEMS, as a
        built-in's call counts them: `items` is a name (bound to `src` first, if given) or a
        sum of lengths (read twice)."""
        first = f"({items} := {src})" if src is not None else items
        return (f"({first} <= {UNCHARGED_ITEMS} or (wk := wk + {items}) + steps <= {self.max_steps} "
                "or _over())")

    def made_list(self, read: str, made: str) -> str:
        """`made`, a list a built-in makes from the list it binds to `read`, counted as the
        call counts both (`unique` of a list that no comprehension made)."""
        r = self.temp()
        return (f"({r} if {self.past_few(self.temp('w'), f'len({r} := {made}) + len({read})')}"
                " else None)")
