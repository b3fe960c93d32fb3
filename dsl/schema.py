"""The ruleset's JSON Schema (2020-12), built from the language's registries.

Input: the effect registry (dsl/effects.py) and the section definitions below. Output: the
schema as a dict (`ruleset_schema()`); `meeple schema` prints it and schema/ruleset.schema.json
holds a copy for editors (a test keeps the two identical). Every property has a description, so
editors can autocomplete and explain.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from dsl import effects as fx
from dsl.limits import LIMIT_CEILINGS, MAX_VARIANTS

SCHEMA_ID = "https://meeple.dev/schema/ruleset.schema.json"

NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$"
VISIBILITY = ["public", "owner", "hidden", "others"]


def _d(description: str, **kw) -> dict:
    return {"description": description, **kw}


def _obj(description: str, props: dict, required: list[str] | None = None, **kw) -> dict:
    out = {"type": "object", "description": description, "properties": props,
           "additionalProperties": False}
    if required:
        out["required"] = required
    out.update(kw)
    return out


def _named(description: str, item: dict) -> dict:
    """A mapping from declared names to definitions."""
    return {"type": "object", "description": description,
            "propertyNames": {"pattern": NAME_PATTERN}, "additionalProperties": item}


EXPR = {"$ref": "#/$defs/expression"}
COND = {"$ref": "#/$defs/condition"}
STEPS = {"$ref": "#/$defs/steps"}
TEMPLATE = {"$ref": "#/$defs/template"}


def _field_schema(spec: fx.FieldSpec) -> dict:
    kind = spec.kind
    if kind == fx.EXPR:
        base = dict(EXPR)
    elif kind == fx.COND:
        base = dict(COND)
    elif kind == fx.STEPS:
        base = dict(STEPS)
    elif kind == fx.TEMPLATE:
        base = dict(TEMPLATE)
    elif kind == fx.ASSIGN:
        base = {"type": "object", "minProperties": 1, "additionalProperties": EXPR}
    elif kind in (fx.BINDER, fx.DECISION, fx.REF):
        base = {"type": "string", "pattern": NAME_PATTERN}
    elif kind == fx.OPTIONS:
        base = {"$ref": "#/$defs/options"}
    elif kind == fx.ARGS:
        base = {"type": "object", "propertyNames": {"pattern": NAME_PATTERN},
                "additionalProperties": EXPR}
    elif kind == fx.INT:
        base = {"type": "integer"}
    elif kind == fx.BOOL:
        base = {"type": "boolean"}
    elif kind == fx.TEXT:
        base = {"type": "string"}
        if spec.choices:
            base["enum"] = list(spec.choices)
    elif kind == fx.LIMIT:
        base = {"$ref": "#/$defs/limit"}
    elif kind == fx.NAMES:
        base = {"type": "array", "items": {"type": "string", "pattern": NAME_PATTERN}}
    elif kind == fx.COUNTS:
        base = {"$ref": "#/$defs/counts"}
    else:  # pragma: no cover
        raise ValueError(kind)
    return {**base, "description": spec.doc}


def _effect_schema(effect: fx.Effect) -> dict:
    props: dict[str, Any] = {}
    if effect.primary:
        props[effect.name] = {**_field_schema(effect.fields[effect.primary]),
                              "description": f"{effect.doc} (Its value: "
                                             f"{effect.fields[effect.primary].doc})"}
    else:
        props[effect.name] = {"type": ["null", "boolean"], "description": effect.doc}
    for name, spec in effect.fields.items():
        if name != effect.primary:
            props[name] = _field_schema(spec)
    required = [effect.name] + [n for n, s in effect.fields.items()
                                if s.required and n != effect.primary]
    return _obj(effect.doc, props, required)


def _option_schema() -> dict:
    props = {name: _field_schema(spec) for name, spec in fx.OPTION_FIELDS.items()}
    return _obj("One option of a decision.", props)


def _state_var() -> dict:
    return {
        "description": "A state variable: its initial value (short form) or a definition.",
        "anyOf": [
            {"type": ["number", "boolean", "string", "array", "null"],
             "description": "The initial value (the type follows from it)."},
            _obj("A state variable definition.", {
                "type": _d("Its type.", enum=["int", "number", "bool", "string", "list", "map",
                                              "player", "team", "die", "card", "cell", "any"]),
                "initial": _d("Its initial value, an expression (default 0, false, '', "
                              "[] or {} by type).",
                              type=["string", "number", "boolean", "array", "object", "null"]),
                "visibility": _d("Who sees it: public, owner (its player), hidden (nobody "
                                 "until revealed), others (everyone but its player).",
                                 enum=VISIBILITY),
                "label": _d("How a person's view names it (default: from the name, "
                            "`turn_total` -> \"Turn total\").", type="string"),
                "bookkeeping": _d("Working state the rules keep for themselves (a list being "
                                  "built, a flag for this step): rules and bots read it as "
                                  "usual, but a person's view at the table leaves it out.",
                                  type="boolean"),
                "doc": _d("What it means.", type="string"),
            }),
        ],
    }


def _phase() -> dict:
    next_rule = _obj("A conditional transition.", {
        "if": {**COND, "description": "Take this transition when it holds."},
        "to": _d("The phase to go to, or `end`.", type="string"),
    }, ["to"])
    return _obj("A phase of the game's flow.", {
        "description": _d("What happens in this phase, for the rulebook.", type="string"),
        "turns": _obj("Run `do` as one turn for each player, in turn order (one pass is a "
                      "round).", {
            "order": _d("clockwise (seat order, default), counterclockwise, or by (sorted by "
                        "the `by` key).", enum=["clockwise", "counterclockwise", "by"]),
            "by": {**EXPR, "description": "With order: by, the sort key of `player` (lowest "
                                          "first)."},
            "first": {**EXPR, "description": "The player who takes the first turn (default: "
                                             "the first seat, or who went first last round)."},
            "skip": {**COND, "description": "Skip `player`'s turn when this holds "
                                            "(eliminated players are always skipped)."},
            "by_team": _d("Turns go to teams, not players: `current` is the team's leader.",
                          type="boolean"),
        }),
        "repeat": _obj("Run the phase again and again (rounds).", {
            "times": {**EXPR, "description": "How many times (none stops the game)."},
            "until": {**COND, "description": "Stop after a pass in which this became true; "
                                             "also checked after every turn."},
            "while": {**COND, "description": "Run a pass only while this holds."},
            "max": {**EXPR, "description": "The most passes (an error if exceeded; none stops the game)."},
        }),
        "do": {**STEPS, "description": "The steps of the phase (of each turn, with `turns`)."},
        "on_begin": {**STEPS, "description": "Steps run once when the phase begins."},
        "on_end": {**STEPS, "description": "Steps run once when the phase ends."},
        "next": {"description": "The phase that follows: a name, `end`, or a list of "
                                "{if, to} tried in order.",
                 "anyOf": [{"type": "string"}, {"type": "array", "items": next_rule}]},
    }, ["do"])


@lru_cache(maxsize=1)
def ruleset_schema() -> dict:
    """Returns the JSON Schema of a ruleset file."""
    effect_defs = {f"effect_{e.name}": _effect_schema(e) for e in fx.EFFECTS_LIST}
    step = {
        "description": "One step: a mapping whose first key names the effect, or the bare "
                       "name of an effect that takes no fields.",
        "type": ["object", "string"],
        # dependentSchemas applies an effect's schema when its key is present: the meaning of
        # if/then, without evaluating (and building errors for) every effect on every step.
        "dependentSchemas": {e.name: {"$ref": f"#/$defs/effect_{e.name}"}
                             for e in fx.EFFECTS_LIST},
    }
    defs = {
        "expression": {
            "description": "An expression (docs/language.md): a string to parse, a number, a "
                           "boolean, or a list of expressions.",
            "type": ["string", "number", "boolean", "array", "null"],
            "items": {"$ref": "#/$defs/expression"},
        },
        "condition": {"description": "An expression that is true or false.",
                      "type": ["string", "boolean"]},
        "template": {"description": "Text shown to players; {expression} holes are filled in.",
                     "type": "string"},
        "steps": {"description": "A list of steps, run in order.", "type": "array",
                  "items": {"$ref": "#/$defs/step"}},
        "step": step,
        "options": {
            "description": "Options: a list of names, a mapping of name to option, or an "
                           "expression giving a list.",
            "type": ["array", "object", "string"],
            "items": {"type": ["string", "number", "boolean"]},
            "additionalProperties": {"anyOf": [{"$ref": "#/$defs/option"}, {"type": "null"}]},
        },
        "option": _option_schema(),
        "counts": {"type": "object", "minProperties": 1,
                   "description": "The kinds of item a referee's table counts, by name, in "
                                  "the order it is asked for them.",
                   "propertyNames": {"pattern": NAME_PATTERN},
                   "additionalProperties": {"$ref": "#/$defs/count_kind"}},
        "count_kind": _obj("One kind of item the table counts.",
                           {name: _field_schema(spec)
                            for name, spec in fx.COUNT_FIELDS.items()}),
        "limit": _obj("A usage limit.", {
            "times": {**EXPR, "description": "How many times."},
            "per": _d("The period the count resets on.", enum=list(fx.LIMIT_PERIODS)),
        }, ["times", "per"]),
        "state_var": _state_var(),
        "phase": _phase(),
        **effect_defs,
    }
    die = _obj("A die, or a group of identical dice with `count`.", {
        "sides": {**EXPR, "description": "Number of sides, faces 1..sides (default 6)."},
        "faces": _d("Custom faces, in order (instead of sides).", type="array",
                    items={"type": ["number", "string"]}),
        "count": {**EXPR, "description": "How many such dice; the name then is a list."},
        "in": _d("The zone the dice start in (default: none, held by the game).",
                 type="string"),
        "attributes": _d("Fixed attributes every die of this kind has (colour, role...), read "
                         "as die.NAME.", type="object",
                         propertyNames={"pattern": NAME_PATTERN}),
        "label": _d("How a person's view names them (default: from the name).",
                    type="string"),
        "doc": _d("What these dice are for.", type="string"),
    })
    zone = _obj("A place that holds dice or cards.", {
        "kind": _d("bag (drawn at random), deck (ordered, drawn from the top), row (ordered, "
                   "left to right), pool (an open area), hand (a player's held items).",
                   enum=["bag", "deck", "row", "pool", "hand"]),
        "owner": _d("none (one shared zone), player (one per player, read as player.NAME), "
                    "team (one per team).", enum=["none", "player", "team"]),
        "visibility": _d("Who sees its contents.", enum=VISIBILITY),
        "label": _d("How a person's view names it (default: from the name, "
                    "`turn_total` -> \"Turn total\").", type="string"),
        "bookkeeping": _d("A place the rules keep for themselves (the box of components not "
                          "in play, say): a person's view at the table leaves it out.",
                          type="boolean"),
        "capacity": {**EXPR, "description": "The most items it may hold."},
        "counted": _d("At a referee's table (`--dice table`), the dice in it are counted, "
                      "not tracked one by one: rolling them asks for no faces, and their "
                      "faces are unknown (none) until a race's `counts` says what some "
                      "show.", type="boolean"),
        "doc": _d("What it is.", type="string"),
    })
    deck = _obj("A set of cards with data fields.", {
        "cards": _d("The cards: each a mapping of field to value.", type="array",
                    items={"type": "object"}),
        "in": _d("The zone the cards start in.", type="string"),
        "known_by": _d("The fields people read on a card to tell it from the others: a card "
                       "drawn blind at the table is typed in as these fields' values joined "
                       "by '-' (default: all its fields). Cards that agree on them are "
                       "interchangeable.", type="array", items={"type": "string"},
                       minItems=1),
        "doc": _d("What the cards are.", type="string"),
        "source": _d("Where the content comes from: the rule text, or invented by the ruleset "
                     "author.", enum=["text", "invented", "analysis"]),
    }, ["cards"])
    grid = _obj("A map of cells in rows and columns.", {
        "columns": _d("Column labels, west to east.", type="array",
                      items={"type": ["string", "integer"]}),
        "rows": _d("Row labels, north to south.", type="array",
                   items={"type": ["string", "integer"]}),
        "id": _d("How a cell's id is written, from {column} and {row} (default "
                 "'{column}{row}').", type="string"),
        "default": _d("Attributes every cell has unless it says otherwise.", type="object"),
        "row_attributes": _d("Attributes of every cell of a row, by row label (e.g. depth by "
                             "row); they override `default`.", type="object",
                             additionalProperties={"type": "object"}),
        "column_attributes": _d("Attributes of every cell of a column, by column label; they "
                                "override `row_attributes`.", type="object",
                                additionalProperties={"type": "object"}),
        "cells": _d("Attributes of particular cells, by id; they override all the others.",
                    type="object",
                    additionalProperties={"type": "object"}),
        "doc": _d("What the map is.", type="string"),
        "source": _d("Where the content comes from.", enum=["text", "invented", "analysis"]),
    }, ["columns", "rows"])
    timer = _obj("A countdown timer.", {
        "visibility": _d("Who sees the time left: public, or others (hidden from the player "
                         "who started it).", enum=VISIBILITY),
        "label": _d("How a person's view names it (default: from the name).",
                    type="string"),
        "doc": _d("What it times.", type="string"),
    })
    parameter = _obj("A parameter a table may set (`--set NAME=VALUE`, variants).", {
        "type": _d("int, number, bool, string or choice.",
                   enum=["int", "number", "bool", "string", "choice"]),
        "default": _d("The value when not set.",
                      type=["number", "boolean", "string"]),
        "min": _d("The least allowed value.", type="number"),
        "max": _d("The most allowed value.", type="number"),
        "choices": _d("The allowed values (type choice).", type="array",
                      items={"type": ["string", "number", "boolean"]}),
        "doc": _d("What it changes, for the rulebook and `--help`.", type="string"),
        "source": _d("text (the rules say so), analysis or invented.",
                     enum=["text", "invented", "analysis"]),
    }, ["default", "doc"])
    event = _obj("A custom event.", {
        "doc": _d("When it happens.", type="string"),
        "raised_by": _d("Who may raise it from outside the rules at any time: nobody (only "
                        "`emit`), any player, the table (referee), or the current player.",
                        enum=["rules", "any", "table", "current", "others"]),
        "fields": _d("The names of its fields.", type="array",
                     items={"type": "string", "pattern": NAME_PATTERN}),
        "hazard": {**EXPR, "description": "In simulation, the chance per modelled second that "
                                          "it is raised (for events raised by people)."},
        "during": {**COND, "description": "When it may be raised."},
    })
    trigger = _obj("Steps run when an event fires and a condition holds.", {
        "on": _d("The event: a built-in one (rolled, drawn, moved, changed, decided, "
                 "turn_start, turn_end, round_start, round_end, phase_start, phase_end, "
                 "game_start, timer_expired) or a declared one.", type="string"),
        "if": {**COND, "description": "Fire only when this holds."},
        "priority": _d("Higher fires first (default 0); equal priorities fire in the order "
                       "written.", type="integer"),
        "group": _d("At most one trigger of a group fires per event: the first by priority "
                    "whose condition holds.", type="string"),
        "do": {**STEPS, "description": "What happens."},
        "doc": _d("The rule in words.", type="string"),
    }, ["on", "do"])
    check = _obj("A condition checked after every operation; when it holds, its steps run.", {
        "when": {**COND, "description": "The condition."},
        "for_each": _d("Check it for every player still in the game, as `player`.",
                       enum=["player", "team"]),
        "do": {**STEPS, "description": "What happens."},
        "doc": _d("The rule in words.", type="string"),
    }, ["when", "do"])
    procedure = _obj("A named, reusable list of steps.", {
        "params": _d("Its parameters, by name, with a description each.", type="object",
                     propertyNames={"pattern": NAME_PATTERN},
                     additionalProperties={"type": ["string", "null"]}),
        "do": {**STEPS, "description": "Its steps."},
        "doc": _d("What it does.", type="string"),
    }, ["do"])
    policy_rule = _obj("One rule of a policy: when the condition holds, choose.", {
        "let": _d("Names for values the rule's expressions use (later ones may use earlier "
                  "ones), each worked out when first needed, once a decision. In a `best` "
                  "rule a name whose value uses `option` is worked out once an option, and "
                  "`when` cannot use it.", type="object", propertyNames={"pattern": NAME_PATTERN},
                  additionalProperties=EXPR),
        "when": {**COND, "description": "When this rule applies (default: always)."},
        "choose": {**EXPR, "description": "The option to choose (an option name, or an "
                                          "expression giving a value)."},
        "best": {**EXPR, "description": "Choose the option (as `option`) that makes this "
                                        "highest."},
        "random": _d("Choose at random among the legal options.", type="boolean"),
    })
    policy = _obj("A bot strategy written as data.", {
        "doc": _d("What the bot does, in words.", type="string"),
        "let": _d("Names for values any rule of the policy may use, like a rule's `let`.",
                  type="object", propertyNames={"pattern": NAME_PATTERN},
                  additionalProperties=EXPR),
        "default": _d("Seats use this policy unless told otherwise.", type="boolean"),
        "sees": _d("everything: an all-seeing yardstick bot, allowed to read what its player "
                   "cannot see (hidden state, other players' cups and hands, hidden timers); "
                   "`meeple simulate` marks its seats. Without it a policy reads only what its "
                   "player may see (inherited by the policies that extend it).",
                   enum=["everything"]),
        "extends": _d("Start from another policy: its `let` names and its rules for every "
                      "decision; this policy's own `let` names and `decide` entries replace "
                      "them by name (`doc` and `default` are not inherited).", type="string"),
        "decide": _named("For each decision id, the rules tried in order (or one "
                         "expression).", {"anyOf": [
                             {"type": "array", "items": policy_rule},
                             {"type": ["string", "number", "boolean"]}]}),
    }, anyOf=[{"required": ["decide"]}, {"required": ["extends"]}])
    variant = _obj("A variant: parameter values and an overlay merged onto the base ruleset.", {
        "doc": _d("What the variant changes.", type="string"),
        "set": _d("Parameter values.", type="object"),
        "merge": _d("A partial ruleset merged onto the base: mappings merge key by key, "
                    "everything else replaces.", type="object"),
    })
    assumption = _obj("A gap or ambiguity in the rule text and how this ruleset resolves it.", {
        "id": _d("A short id, e.g. WD-A4.", type="string"),
        "text": _d("The question and the resolution.", type="string"),
        "parameter": _d("The parameter that lets a table choose otherwise.", type="string"),
        "source": _d("text, analysis or invented.", enum=["text", "invented", "analysis"]),
    }, ["text"])
    view_entries = {
        "type": "array",
        "description": "Rows in order: a declared name (shown with its label), or {label, "
                       "text} where text fills {name} holes with shown values.",
        "items": {"anyOf": [
            {"type": "string", "pattern": NAME_PATTERN,
             "description": "A state variable, zone, dice or timer of this scope."},
            _obj("A designed row: a text, or how many items a value holds.", {
                "label": _d("The row's label.", type="string"),
                "text": _d("Its value as text: each {name} hole is the shown value of a "
                           "value of this scope, of the table, or a parameter (a hidden "
                           "value shows as hidden).", type="string"),
                "count": _d("A zone or list of this scope: the row shows how many items "
                            "it holds (also when what they are is hidden).", type="string",
                            pattern=NAME_PATTERN),
            }, ["label"], oneOf=[{"required": ["text"]}, {"required": ["count"]}])]},
    }
    view = _obj("How a person's view of the table is laid out (docs/language.md, \"Views\"). "
                "Without it (or without one of its parts), the view shows every value that "
                "is not `bookkeeping`, in declaration order.", {
        "sections": _d("The shared part of the table, as titled sections in order; what "
                       "no section names is not shown.", type="array",
                       items=_obj("A section of the table.", {
                           "title": _d("Its title (may be empty).", type="string"),
                           "show": view_entries,
                       }, ["show"])),
        "player": {**view_entries, "description": "Each player's rows, in order (per-player "
                                                  "state and zones)."},
        "team": {**view_entries, "description": "Each team's rows, in order (per-team state "
                                                "and zones)."},
    })
    props = {
        "meeple": _d("The language version this ruleset is written in (1).", const=1),
        "metadata": _obj("About the game.", {
            "name": _d("The game's name.", type="string"),
            "summary": _d("One paragraph about the game.", type="string"),
            "version": _d("The version of the rules encoded.", type=["string", "number"]),
            "authors": _d("The game's designers.", type="array", items={"type": "string"}),
            "encoded_by": _d("Who wrote this ruleset.", type="string"),
            "source": _d("Where the rule text comes from.", type="string"),
            "license": _d("The rules' license.", type="string"),
            "tags": _d("Keywords.", type="array", items={"type": "string"}),
        }, ["name"]),
        "players": _obj("How many players.", {
            "min": _d("The fewest players.", type="integer", minimum=1),
            "max": _d("The most players.", type="integer", minimum=1),
            "default": _d("The number when not given (default: min).", type="integer",
                          minimum=1),
            "seat_names": _d("Names for seats, in order: each plain text of at most 40 "
                             "characters, no two alike.", type="array",
                             items={"type": "string"}),
        }, ["min", "max"]),
        "teams": _obj("Teams of players.", {
            "names": _d("The team names.", type="array", items={"type": "string"},
                        minItems=2),
            "assign": _d("How seats join teams: alternate (1st seat to the first team, 2nd "
                         "to the second...) or blocks.", enum=["alternate", "blocks"]),
            "leader": _d("Who decides for a team: its first seat.", enum=["first"]),
        }, ["names"]),
        "parameters": _named("Parameters with defaults and documentation.", parameter),
        "components": _obj("The physical pieces.", {
            "dice": _named("Dice, by name.", die),
            "zones": _named("Zones (bags, rows, decks, pools, hands), by name.", zone),
            "decks": _named("Cards, by deck name.", deck),
            "grids": _named("Maps, by name.", grid),
            "timers": _named("Timers, by name.", timer),
        }),
        "state": _obj("The game's changing values.", {
            "global": _named("One value for the whole game.", {"$ref": "#/$defs/state_var"}),
            "player": _named("One value per player, read as player.NAME.",
                             {"$ref": "#/$defs/state_var"}),
            "team": _named("One value per team, read as team.NAME.",
                           {"$ref": "#/$defs/state_var"}),
            "turn": _named("Values reset at the start of every turn.",
                           {"$ref": "#/$defs/state_var"}),
            "round": _named("Values reset at the start of every round.",
                            {"$ref": "#/$defs/state_var"}),
        }),
        "events": _named("Custom events.", event),
        "flow": _obj("Phases, rounds and turns.", {
            "start": _d("The first phase (default: the first one written).", type="string"),
            "phases": _named("The phases, by name.", {"$ref": "#/$defs/phase"}),
        }, ["phases"]),
        "procedures": _named("Reusable step lists.", procedure),
        "triggers": _named("Event triggers.", trigger),
        "checks": _named("State-based checks after every operation.", check),
        "end": _obj("When the game ends, besides `next: end` and `end_game`.", {
            "when": {**COND, "description": "Checked after every operation; the game ends "
                                            "when it holds."},
            "doc": _d("The end condition in words.", type="string"),
        }),
        "scoring": _obj("Who wins.", {
            "score": {**EXPR, "description": "Each `player`'s score."},
            "order": _d("highest (default) or lowest score wins.",
                        enum=["highest", "lowest"]),
            "tie_break": _d("Expressions of `player` compared in turn when scores tie "
                            "(higher is better unless order is lowest).", type="array",
                            items=EXPR),
            "eligible": {**COND, "description": "Only players for whom this holds can win "
                                                "(if none does, all can)."},
            "ties": _d("When still tied: shared (all tied players win) or draw (nobody).",
                       enum=["shared", "draw"]),
            "winners": {**EXPR, "description": "Who wins, overriding the score ranking (e.g. "
                                               "the last player standing)."},
            "doc": _d("The scoring in words.", type="string"),
        }),
        "variants": {**_named("Variants of the rules.", variant),
                     "maxProperties": MAX_VARIANTS},
        "view": view,
        "policies": _named("Bot strategies.", policy),
        "limits": _obj("Budgets that stop a runaway game with a clear error.", {
            "max_steps": _d("Most steps in one game (items that comprehensions and built-ins "
                            "go through count too).", type="integer", minimum=1,
                            maximum=LIMIT_CEILINGS["max_steps"]),
            "max_turns": _d("Most turns in one game.", type="integer", minimum=1,
                            maximum=LIMIT_CEILINGS["max_turns"]),
            "max_loop": _d("Most passes of one loop.", type="integer", minimum=1,
                           maximum=LIMIT_CEILINGS["max_loop"]),
            "max_chain_depth": _d("Most nested trigger firings.", type="integer", minimum=1,
                                  maximum=LIMIT_CEILINGS["max_chain_depth"]),
        }),
        "assumptions": _d("How this ruleset resolves the rule text's gaps.", type="array",
                          items=assumption),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "meeple ruleset",
        "description": "A tabletop game written as data for meeple.",
        "type": "object",
        "properties": props,
        "required": ["meeple", "metadata", "players", "flow"],
        "additionalProperties": False,
        "$defs": defs,
    }


def schema_json() -> str:
    """Returns the schema as the JSON text written to schema/ruleset.schema.json."""
    return json.dumps(ruleset_schema(), indent=2, sort_keys=False) + "\n"
