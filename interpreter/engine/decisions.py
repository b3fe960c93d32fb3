"""Phase 6, run (decisions): what a decision asks, and the controllers that answer it.

Input: a `Request` built by a `choose` or `actions` step (who decides, the legal options, or
a number range). Output: the chosen `Option` (or number). Controllers sit behind one interface
(`Controller.decide`) so the engine never knows who answers:

- `PolicyController`: a bot policy written as data in the ruleset (compiled here);
- `RandomController`: a legal option at random (from the game's decision generator);
- `HumanController` (interpreter/table/human.py): a person at the terminal.

Scripted decisions (tests, `--decisions FILE`, replays and resumes) are not a controller: the
engine takes them first, whatever controller the seat has, so a journal always wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dsl import nodes as n
from dsl.compiler import Env
from interpreter.engine import compile_expr as cx
from interpreter.engine.signals import RuleError
from interpreter.engine.values import Die, ref, show


@dataclass
class Option:
    """One legal option: its key (an option name, a player's name, a die's id, a number), the
    value a decision id then holds, and a label for people."""

    key: Any
    value: Any
    label: str = ""
    spec: Any = None  # the compiled option (for named options with `do`, `cost`...)
    render: Any = None  # renders the label when someone reads it (bots never do)

    def shown(self) -> str:
        """The label as people see it (an option given by a value, without a label of its
        own, is shown as that value)."""
        if self.render is not None:
            return self.render()
        return self.label or _value_label(self.value)


@dataclass
class Request:
    id: str
    player: Any
    options: list[Option] = field(default_factory=list)
    low: Any = None            # a number choice: the least and most allowed
    high: Any = None
    path: tuple = ()
    points: int | None = None  # actions: the points left
    render: Any = None         # renders the prompt when someone reads it (bots never do)
    sealed: bool = False       # others may not learn the answer until all are revealed

    @property
    def prompt(self) -> str:
        return self.render() if self.render is not None else ""

    @property
    def numeric(self) -> bool:
        return not self.options and self.low is not None

    def match(self, answer: Any) -> Option | int | None:
        """The legal option (or number) a scripted or typed answer names, or None."""
        if self.numeric:
            if isinstance(answer, str) and answer.strip().lstrip("-").isdigit():
                answer = int(answer)
            if isinstance(answer, (int, float)) and not isinstance(answer, bool) and (
                    self.low <= answer <= self.high):
                return answer
            return None
        for opt in self.options:
            if answer == opt.key or (isinstance(answer, str) and answer == str(opt.key)):
                return opt
        return None


class Controller:
    name = "controller"

    def decide(self, game, request: Request) -> Option | int:
        raise NotImplementedError


class RandomController(Controller):
    name = "random"

    def decide(self, game, request: Request) -> Option | int:
        return random_pick(game.decision_rng, request)


def random_pick(rng: random.Random, request: Request) -> Option | int:
    if request.numeric:
        return rng.randint(int(request.low), int(request.high))
    return request.options[int(rng.random() * len(request.options))]


@dataclass
class _Rule:
    when: Any            # compiled condition or None
    kind: str            # choose | best | random
    pick: Any = None     # for choose: an option name (constant) or a compiled expression
    constant: bool = False
    once: dict = field(default_factory=dict)  # `let` names: name -> compiled, once a decision
    each: dict = field(default_factory=dict)  # `let` names that use `option`: once an option


class LazyEnv(Env):
    """An Env whose `let` names are worked out when first read, then kept: a name no rule
    reads costs nothing, and one read by several rules is worked out once. Names read from
    the game are kept too: the game stands still while a bot decides, and a policy reads the
    same few names many times (in comprehensions, once an option)."""

    __slots__ = ("thunks",)

    def __init__(self, names: Any, parent: Any, thunks: dict):
        super().__init__(names, parent)
        self.thunks = thunks

    def __missing__(self, name: str) -> Any:
        thunk = self.thunks.get(name)
        if thunk is not None:
            value = self[name] = thunk(self)
            return value
        parent = self.parent
        if parent is None:
            raise KeyError(name)
        value = self[name] = parent[name]
        return value

    def __contains__(self, name: object) -> bool:
        return name in self.thunks or Env.__contains__(self, name)


def _lets(spec: dict, path: tuple, uses_option: set) -> tuple[dict, dict]:
    """`let` names, compiled, split into those worked out once per decision and those that use
    `option` (directly or through an earlier name, recorded in `uses_option`), once per option."""
    once, each = {}, {}
    for name, value in (spec.get("let") or {}).items():
        f = cx.expr(value, path + ("let", name))
        if n.mentions(cx.node_of(value), uses_option):
            uses_option.add(name)
            each[name] = f
        else:
            once[name] = f
    return once, each


class Policy:
    """A bot strategy written as data: for each decision id, rules tried in order."""

    def __init__(self, name: str, spec: dict, decision_options: dict[str, list | None]):
        self.name = name
        self.doc = spec.get("doc", "")
        self.sees_everything = spec.get("sees") == "everything"  # a yardstick: reads all
        self.rules: dict[str, list[_Rule]] = {}
        # The policy's own `let` names serve every rule of every decision.
        option_names = {"option"}
        self.once, self.each = _lets(spec, ("policies", name), option_names)
        for did, rules in (spec.get("decide") or {}).items():
            path = ("policies", name, "decide", did)
            names = decision_options.get(did) or []
            if not isinstance(rules, list):
                self.rules[did] = [self._choose(rules, names, path)]
                continue
            compiled = []
            for i, rule in enumerate(rules):
                rpath = path + (i,)
                when = cx.cond(rule["when"], rpath + ("when",)) if "when" in rule else None
                if "choose" in rule:
                    r = self._choose(rule["choose"], names, rpath + ("choose",))
                    r.when = when
                elif "best" in rule:
                    r = _Rule(when, "best", cx.expr(rule["best"], rpath + ("best",)))
                else:
                    r = _Rule(when, "random")
                r.once, r.each = _lets(rule, rpath, set(option_names))
                r.each = {**self.each, **r.each}
                compiled.append(r)
            self.rules[did] = compiled

    @staticmethod
    def _choose(value: Any, names: list, path: tuple) -> _Rule:
        # As the checker reads it: an option name written bare, else an expression.
        if value in names:
            return _Rule(None, "choose", value, constant=True)
        return _Rule(None, "choose", cx.expr(value, path))

    def decide(self, game, request: Request) -> Option | int | None:
        rules = self.rules.get(request.id)
        if rules is None:
            return None
        values = [o.value for o in request.options]
        names = {"me": request.player, "options": values}
        base = env = LazyEnv(names, game.env, self.once)
        for rule in rules:
            env = LazyEnv({}, base, rule.once) if rule.once else base
            if rule.when is not None and rule.when(env) is not True:
                continue
            if rule.kind == "random":
                return random_pick(game.decision_rng, request)
            if rule.kind == "best":
                if request.numeric:
                    raise RuleError("runtime-error", "`best` cannot weigh a number choice",
                                    ("policies", self.name, "decide", request.id))
                best, best_score = None, None
                for opt in request.options:
                    if rule.each:
                        score = rule.pick(LazyEnv({"option": opt.value}, env, rule.each))
                    else:
                        env["option"] = opt.value
                        score = rule.pick(env)
                    if best_score is None or score > best_score:
                        best, best_score = opt, score
                return best
            pick = rule.pick if rule.constant else rule.pick(env)
            chosen = request.match(pick) if request.numeric else _match_value(request, pick)
            if chosen is not None:
                return chosen
            # A rule whose pick is not legal now does not apply; the next rule is tried.
        return None


def _match_value(request: Request, pick: Any) -> Option | None:
    for opt in request.options:
        if opt.value is pick or opt.value == pick or opt.key == pick:
            return opt
    return None


class PolicyController(Controller):
    """A seat played by a policy. A decision the policy has no rule for (or whose rules pick
    nothing legal) is taken at random, and counted, so a designer sees the gap."""

    def __init__(self, policy: Policy):
        self.policy = policy
        # A seat whose bot reads what its player cannot see says so wherever it is named.
        self.name = f"policy:{policy.name}" + (" (sees everything)" if policy.sees_everything
                                               else "")

    def decide(self, game, request: Request) -> Option | int:
        chosen = self.policy.decide(game, request)
        if chosen is None:
            game.unruled[(self.policy.name, request.id)] = game.unruled.get(
                (self.policy.name, request.id), 0) + 1
            return random_pick(game.decision_rng, request)
        return chosen


def answer_key(chosen: Option | int) -> Any:
    """What a journal records for a choice: the option's key (or the number)."""
    return chosen.key if isinstance(chosen, Option) else chosen


def option_for_value(value: Any, render: Any = None) -> Option:
    """An option given by a value (a player, a die, a number...): its key is the value's
    reference; its label is worked out only when someone reads it (`render`, else the value
    as shown), so a bot's decision costs nothing per option for labels."""
    return Option(ref(value), value, render=render)


def _value_label(value: Any) -> str:
    # A die or card is named by its id; people also need what it shows to choose it.
    key, seen = str(ref(value)), show(value)
    return key if seen == key else (f"showing {seen}" if isinstance(value, Die) else seen)
