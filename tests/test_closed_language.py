"""The language is closed (issue 14): an expression reaches only what the ruleset declares and
the documented built-ins, never an attribute of a host object, and `set`/`add` write only
declared state. Held by the parser and checker, again by the engine as it runs (a bypassed
check), and by both implementations (the closures, the code generator)."""

from __future__ import annotations

import ast
import builtins
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl import nodes as n
from dsl.builtins import EvalError, get, put
from dsl.compiler import ExprEvalError, compile_expression
from dsl.loader import load_text
from dsl.parser import ExprSyntaxError, parse_expression
from dsl.symbols import collect_symbols
from interpreter.compile import specialize as specialize_module
from interpreter.compile.specialize import specialize
from interpreter.engine.chance import SeededChance
from interpreter.engine.program import compile_program
from interpreter.engine.setup import SetupError, load, new_game
from interpreter.engine.signals import RuleError
from interpreter.engine.values import Die, Player, Zone
from tests.conftest import ROOT, shipped_setups

EXPLOIT = Path(__file__).parent / "errors" / "60_dunder_field_reaches_host.yaml"

HEAD = """\
meeple: 1
metadata: {name: Closed}
players: {min: 1, max: 2, default: 1}
"""

# Field names a ruleset chooses start with `zz`, so generated code can be searched for them.
RULESET = HEAD + textwrap.dedent("""\
    components:
      dice:
        d: {sides: 6, attributes: {zzcolour: red}}
    state:
      global:
        zztotal: 0
      player:
        zzscore: 0
    flow:
      phases:
        play:
          do:
            - roll: d
            - add: {zztotal: d.face}
            - add: {current.zzscore: "d.face + (if true then current else 0).zzscore"}
            - if: "d.zzcolour == 'red' and (if true then d else 0).zzcolour == 'red'"
              then: [say: "{current.name} has {current.zzscore}"]
          next: end
    scoring: {score: current.zzscore, order: highest}
    """)

DUNDERS = ["__class__", "__init__", "__globals__", "__dict__", "__builtins__", "_all",
           "__subclasses__", "_clock", "_spoken", "__reduce__"]


def test_the_exploit_of_issue_14_is_refused_by_validate_located():
    from click.testing import CliRunner

    from interpreter.cli.main import main
    result = CliRunner().invoke(main, ["validate", str(EXPLOIT)])
    assert result.exit_code == 1
    assert "60_dunder_field_reaches_host.yaml:15:44: error:" in result.output
    assert "[private-name]" in result.output and "Traceback" not in result.output


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(DUNDERS) | st.from_regex(r"_[A-Za-z0-9_]{0,12}", fullmatch=True),
       where=st.sampled_from(["{x}", "current.{x}", "a.b.{x}", "f({x}: 1)", "{x}(1)",
                              "[1 for {x} in y]", "count(p for {x} in players)"]))
def test_no_name_or_field_that_starts_with_an_underscore_parses(name, where):
    with pytest.raises(ExprSyntaxError) as err:
        parse_expression(where.format(x=name))
    assert err.value.code == "private-name"


@pytest.mark.parametrize("section", [
    "state: {global: {_secret: 0}}",
    "state: {player: {__dict__: 0}}",
    "components: {dice: {d: {sides: 6, attributes: {__class__: red}}}}",
    "parameters: {_p: {type: int, default: 1}}",
])
def test_no_declared_name_that_starts_with_an_underscore_validates(section, tmp_path):
    text = HEAD + section + "\nflow: {phases: {play: {do: [say: hi], next: end}}}\n"
    with pytest.raises(SetupError) as err:
        load(str(tmp_path / "r.yaml"), text=text)
    assert "private-name" in {d.code for d in err.value.diagnostics}


@pytest.mark.parametrize("section, code", [
    ("state: {player: {others: 0}}", "reserved-name"),
    ("state: {player: {team: 0}}", "reserved-name"),
    ("components: {zones: {seat: {owner: player}}}", "reserved-name"),
    ("components: {dice: {d: {sides: 6, attributes: {faces: 3}}}}", "reserved-name"),
    ("components: {decks: {k: {cards: [{id: 1}]}}}", "reserved-name"),
])
def test_names_that_clash_with_the_engines_fields_are_refused_with_a_hint(section, code,
                                                                          tmp_path):
    text = HEAD + section + "\nflow: {phases: {play: {do: [say: hi], next: end}}}\n"
    with pytest.raises(SetupError) as err:
        load(str(tmp_path / "r.yaml"), text=text)
    found = [d for d in err.value.diagnostics if d.code == code]
    assert found and found[0].hint and found[0].span is not None


def _host_values():
    players: list = []
    p = Player(1, "Ann", players)
    players.append(p)
    return [p, Die("d", "d", [1, 2], {}), Zone("z", "pool"), 3, "text", 1.5, [1], None]


@pytest.mark.parametrize("field", DUNDERS + ["real", "upper", "append", "faces", "items",
                                             "owner", "capacity", "id"])
def test_a_field_node_built_by_hand_reaches_no_host_attribute(field):
    """Defence in depth: even a field the parser would refuse, put into a tree by hand, is read
    through the object's list of fields (the generated code's reads are held by
    test_the_code_generator_reads_ruleset_fields_only_through_the_objects_lists)."""
    node = n.Field((0, 1), n.Name((0, 1), "x"), field, (0, 1))
    closure = compile_expression(node)
    for value in _host_values():
        with pytest.raises((ExprEvalError, EvalError)):
            closure({"x": value})


def test_set_and_add_write_only_what_an_object_lets_the_ruleset_change():
    players: list = []
    p = Player(1, "Ann", players)
    players.append(p)
    for target, field in ((p, "seat"), (p, "name"), (p, "others"), (p, "__class__"),
                          (Die("d", "d", [1], {}), "sides"), (Zone("z", "pool"), "items")):
        before = getattr(target, field)
        with pytest.raises(EvalError, match="cannot be set"):
            put(target, field, 9)
        assert getattr(target, field) == before
    d = Die("d", "d", [1, 2], {"colour": "red"})
    put(d, "face", 2)
    assert get(d, "face") == 2 and get(d, "colour") == "red"


def _program_bypassing_the_checker(body: str):
    """Compiles a ruleset the checker would refuse: loads and collects symbols only."""
    doc, _ = load_text(HEAD + textwrap.dedent(body), "bypass.yaml")
    symbols, _ = collect_symbols(doc)
    return compile_program(doc.data, symbols, {})


def test_a_bypassed_check_is_caught_again_when_the_game_runs():
    body = """\
        state:
          player:
            gold: 0
        flow:
          phases:
            play:
              do:
                - set: {current.seat: 7}
              next: end
        scoring: {score: current.gold, order: highest}
        """
    program = _program_bypassing_the_checker(body)
    result = new_game(program, 1, None, SeededChance(0), 0).run()
    assert result.error is not None and result.error.path
    assert "'seat' of a player cannot be set" in result.error.message


def test_setting_an_undeclared_name_is_refused_when_the_game_is_compiled():
    body = """\
        flow:
          phases:
            play:
              do:
                - set: {current: 7}
              next: end
        """
    with pytest.raises(RuleError, match="not declared state"):
        _program_bypassing_the_checker(body)


def test_an_any_typed_field_is_checked_against_the_declared_fields_as_it_runs(tmp_path):
    """`faces` is an attribute the engine keeps on a die, not a field of the language: through
    a value of type any the checker cannot tell, so the engine refuses it, located."""
    text = HEAD + textwrap.dedent("""\
        components:
          dice:
            d: {sides: 6}
        flow:
          phases:
            play:
              do:
                - roll: d
                - say: "{(if true then d else 0).faces}"
              next: end
        """)
    program = load(str(tmp_path / "r.yaml"), text=text).program
    result = new_game(program, 1, None, SeededChance(0), 0).run()
    assert result.error is not None and "has no field 'faces'" in result.error.message
    assert result.error.path and result.error.pos is not None


class _Sources:
    """Records every source text a code generator hands to Python's `compile`."""

    def __init__(self):
        self.texts: list[str] = []

    def __call__(self, source, *args, **kwargs):
        self.texts.append(source)
        return builtins.compile(source, *args, **kwargs)


def _guarded(node: ast.AST) -> set[int]:
    """Attribute reads of the form `t.NAME if 'NAME' in t._readable else ...`: the only way
    generated code may read a ruleset's field as a Python attribute."""
    out = set()
    for x in ast.walk(node):
        if not (isinstance(x, ast.IfExp) and isinstance(x.body, ast.Attribute)):
            continue
        body, test = x.body, x.test
        if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Constant)
                and test.left.value == body.attr and isinstance(test.ops[0], ast.In)
                and isinstance(test.comparators[0], ast.Attribute)
                and test.comparators[0].attr == "_readable"
                and ast.dump(test.comparators[0].value) == ast.dump(body.value)):
            out.add(id(body))
    return out


def _reaches_only_engine_attributes(source: str) -> None:
    tree = ast.parse(source)
    guarded = _guarded(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert not node.attr.startswith("__"), f"dunder in generated code: .{node.attr}"
            if node.attr.startswith("zz"):
                assert isinstance(node.ctx, ast.Load), f"ruleset field written: .{node.attr}"
                assert id(node) in guarded, f"ruleset field read unchecked: .{node.attr}"
        if isinstance(node, ast.Name):
            assert node.id not in ("getattr", "setattr", "eval", "exec", "__import__", "open")


def test_the_code_generator_reads_ruleset_fields_only_through_the_objects_lists(tmp_path,
                                                                               monkeypatch):
    """A ruleset's field names reach the generated Python as quoted constants, or as an
    attribute read only after the object listed it among its fields; nothing is written by
    attribute, no host attribute is named."""
    spy = _Sources()
    monkeypatch.setattr(specialize_module, "compile", spy, raising=False)
    program = load(str(tmp_path / "r.yaml"), text=RULESET).program
    game = new_game(program, 1, None, SeededChance(3), 3)
    game.result = game.run()
    assert game.result.error is None and game.players[0].zzscore > 0
    fast = specialize(program, 1)
    assert fast is not None and spy.texts
    assert [s.score for s in fast.play(3).result.seats] == [s.score for s in game.result.seats]
    for source in spy.texts:
        _reaches_only_engine_attributes(source)


@pytest.mark.parametrize("stem, variant", shipped_setups())
def test_the_generated_code_of_every_shipped_ruleset_names_no_dunder_nor_host_function(
        stem, variant, monkeypatch):
    """Every version the generator writes of every shipped ruleset and variant (fast, checked,
    logged) holds no dunder attribute and names no host function: a list's items read as a
    function (`map`) through a getter given to the code by name (interpreter/compile/base.py
    `item_getter`), not as `F.__getitem__`."""
    spy = _Sources()
    monkeypatch.setattr(specialize_module, "compile", spy, raising=False)
    program = load(str(ROOT / "rulesets" / f"{stem}.yaml"), variant).program
    for options in ({}, {"wide": True}, {"logged": True}):
        assert specialize(program, **options) is not None
    assert len(spy.texts) >= 3
    for source in spy.texts:
        _reaches_only_engine_attributes(source)
