"""The effect vocabulary: every step a ruleset can take, declared once.

Input: nothing (a registry). Output: `EFFECTS`, a name -> `Effect` table. Each effect lists its
fields with a kind that says how the checker reads it (an expression, a condition, nested steps,
a reference to another section, a name it binds...). The JSON Schema (dsl/schema.py), the checker
(dsl/checker.py) and the reference in docs/ are all generated from this one table.

A step is a YAML mapping whose first key is the effect's name; that key's value is the effect's
primary field, and the other keys are its other fields:

    - roll: [white, red]        # primary field `dice`
      duration: seconds_per_roll
    - if: "die.face == 1"       # primary field `condition`
      then: [end_turn]
A step with no fields may be written as a bare word: `- end_turn`.
"""

from __future__ import annotations

from dataclasses import dataclass

# Field kinds, read by the checker and the schema builder.
EXPR = "expr"            # an expression (a string to parse, or a YAML number/boolean/list)
COND = "cond"            # an expression that must be a condition (true/false)
STEPS = "steps"          # a nested list of steps
TEMPLATE = "template"    # narration text with {expression} holes
ASSIGN = "assign"        # a mapping of target -> expression (set/add)
BINDER = "binder"        # a new local name
DECISION = "decision"    # declares a decision id (a name policies can decide)
OPTIONS = "options"      # the options of a decision
ARGS = "args"            # a mapping of name -> expression (arguments, event fields)
INT = "int"              # a literal integer
BOOL = "bool"            # a literal boolean
TEXT = "text"            # literal text
LIMIT = "limit"          # a usage limit: {times, per}
REF = "ref"              # a reference to a declared name of `ref` namespace
NAMES = "names"          # a list of values a person's view shows (state, zones, dice)
COUNTS = "counts"        # the kinds of item a referee's table counts (a race's `counts`)

# What a `skill` decision leaves to the player: spotting, hand speed, remembering, reacting.
SKILLS = ("perception", "dexterity", "memory", "speed")


@dataclass(frozen=True)
class FieldSpec:
    kind: str
    doc: str
    required: bool = False
    ref: str | None = None          # for REF: phase, zone, timer, procedure, event
    type: str | None = None          # for EXPR: the expected type, when it is fixed
    choices: tuple[str, ...] = ()    # for TEXT: allowed values
    binds: tuple[str, ...] = ()      # names bound inside this field only (e.g. racer, item)


@dataclass(frozen=True)
class Effect:
    name: str
    doc: str
    primary: str | None
    fields: dict[str, FieldSpec]
    example: str
    category: str
    loop: bool = False               # `break` may appear inside it

    @property
    def primary_spec(self) -> FieldSpec | None:
        return self.fields.get(self.primary) if self.primary else None


def _f(kind: str, doc: str, required: bool = False, **kw) -> FieldSpec:
    return FieldSpec(kind, doc, required, **kw)


_DURATION = _f(EXPR, "Modelled seconds this step takes in simulation (live play uses the real "
                     "clock).", type="number")

EFFECTS_LIST = [
    # -- state -------------------------------------------------------------------------------
    Effect("set", "Sets state values. Keys are targets (a state name, `current.gold`, "
           "`die.face`, `notes[key]`), values are expressions evaluated before any is assigned.",
           "values", {
               "values": _f(ASSIGN, "Targets and their new values.", True),
           }, "- set: {turn_total: 0, current.gold: current.gold + 1}", "state"),
    Effect("add", "Adds to numeric state values (use a negative amount to subtract); "
           "optional bounds clamp the result.", "values", {
               "values": _f(ASSIGN, "Targets and the amounts to add.", True),
               "min": _f(EXPR, "The lowest value the result may take.", type="number"),
               "max": _f(EXPR, "The highest value the result may take.", type="number"),
           }, "- add: {current.score: turn_total}", "state"),
    Effect("let", "Names a value for the rest of the enclosing step list.", "name", {
               "name": _f(BINDER, "The new local name.", True),
               "be": _f(EXPR, "Its value, evaluated once.", True),
           }, "- let: gain\n  be: total(white) - total(red)", "state"),
    Effect("transfer", "Moves an amount of a per-player quantity from one player to another, "
           "or to and from the bank. The giver never goes below zero: the receiver gets what "
           "the giver actually had.", "amount", {
               "amount": _f(EXPR, "How much to move.", True, type="number"),
               "of": _f(REF, "The per-player state it is counted in.", True, ref="player_state"),
               "from": _f(EXPR, "The giving player, or 'bank' (unlimited).", True),
               "to": _f(EXPR, "The receiving player, or 'bank'.", True),
           }, "- transfer: 1\n  of: points\n  from: opponent\n  to: current", "state"),
    Effect("eliminate", "Eliminates a player: they take no more turns and are skipped in turn "
           "order. The narration announces it once, with the reason when `because` gives one.",
           "player", {
               "player": _f(EXPR, "The player to eliminate.", True, type="player"),
               "because": _f(TEMPLATE, "Why, as the narration says it after \"is out: \" "
                             "(\"{player.name} has nothing left\")."),
           }, "- eliminate: player\n  because: \"{player.name} has nothing left\"", "state"),
    # -- chance and components ---------------------------------------------------------------
    Effect("roll", "Rolls dice: each gets a new random face from the chance source (seeded, "
           "typed in at the table, or scripted). Fires the `rolled` event. The narration and "
           "the log say who rolled: dice lying in a zone with an owner are rolled by that "
           "owner, other dice by the player whose turn it is, and outside a turn (setup, a "
           "phase's `on_begin`) by the table; `by` says it when the rules name someone else.",
           "dice", {
               "dice": _f(EXPR, "A die, a list of dice, or a dice component.", True),
               "duration": _DURATION,
               "by": _f(EXPR, "Who rolls these dice: a player, a team, or `none` for the "
                              "table. It names the roller in the narration and the log only; "
                              "what the game does is the same."),
           }, "- roll: [major, minor]\n  by: opponent", "chance"),
    Effect("draw", "Draws items at random from a zone (a bag, a deck), binding them to a "
           "name. Fires the `drawn` event.", "from", {
               "from": _f(EXPR, "The zone to draw from.", True, type="zone"),
               "as": _f(BINDER, "The name the drawn item (or list, with `count`) is bound to.",
                        True),
               "count": _f(EXPR, "How many to draw; the name then holds a list.", type="int"),
               "to": _f(EXPR, "Where the drawn items go (default: held, in no zone).",
                        type="zone"),
               "replace": _f(BOOL, "Draw with replacement: the item stays in the zone."),
               "duration": _DURATION,
               "by": _f(EXPR, "Who draws: a player, a team, or `none` for the table. It "
                              "names the drawer in the narration and the log only (without "
                              "it: the owner of the zone drawn into, else the player whose "
                              "turn it is, else the table); what the game does is the same."),
           }, "- draw: bag\n  as: die", "chance"),
    Effect("move", "Moves items (dice, cards) to a zone. Fires the `moved` event. A zone "
           "given as what to move moves what it holds, in order; the zone itself never moves.",
           "items", {
               "items": _f(EXPR, "An item, a list of items, or a zone (its items).", True),
               "to": _f(EXPR, "The destination zone, or 'out' to remove from the game.", True),
               "at": _f(TEXT, "Where in an ordered zone: end (default) or start.",
                        choices=("end", "start")),
           }, "- move: die\n  to: current.health", "chance"),
    Effect("shuffle", "Shuffles an ordered zone (a deck).", "zone", {
               "zone": _f(EXPR, "The zone to shuffle.", True, type="zone"),
           }, "- shuffle: deck", "chance"),
    Effect("deal", "Moves items from the top of one zone to another, one at a time.", "from", {
               "from": _f(EXPR, "The zone to deal from.", True, type="zone"),
               "to": _f(EXPR, "The zone that receives them.", True),
               "count": _f(EXPR, "How many (default 1).", type="int"),
           }, "- deal: locations\n  to: table\n  count: 12", "chance"),
    Effect("reveal", "Makes hidden items or values visible to some players (default: all).",
           "items", {
               "items": _f(EXPR, "What to reveal.", True),
               "to": _f(EXPR, "The players who see it (default all).", type="list"),
           }, "- reveal: card.value", "chance"),
    # -- decisions -----------------------------------------------------------------------------
    Effect("choose", "Asks a player (or several) to decide. The decision id names the result, "
           "which later expressions read; policies decide by id.", "id", {
               "id": _f(DECISION, "The decision's id.", True),
               "by": _f(EXPR, "Who decides: a player (default `current`) or a list of "
                              "players, each deciding.", ),
               "options": _f(OPTIONS, "A list of option names, a mapping of option name to "
                                      "{label, if, cost, limit, do}, or an expression giving a "
                                      "list of values (players, dice, cells...)."),
               "min": _f(EXPR, "For a number: the least allowed.", type="number"),
               "max": _f(EXPR, "For a number: the most allowed.", type="number"),
               "sealed": _f(BOOL, "With several deciders: each decides without seeing the "
                                  "others; all are revealed together."),
               "prompt": _f(TEMPLATE, "The question shown to a human."),
               "option_label": _f(TEMPLATE, "With options given by an expression: how a "
                                            "person sees each, text where `option` is the "
                                            "option (`{option.colour} {option.face}`).",
                                  binds=("option",)),
               "skill": _f(TEXT, "The answer is the player's to find at the table (a "
                                 "perception or dexterity race...): while it is asked, a "
                                 "person's view shows what the table shows, not the "
                                 "solution (see `hides`).", choices=SKILLS),
               "hides": _f(NAMES, "With `skill`: the values worked out by the rules that "
                                  "would give the answer away; a person's view leaves them "
                                  "out while the decision is asked."),
               "before": _f(TEXT, "What this choice commits to before chance resolves it "
                                  "(documentation for the rulebook)."),
               "duration": _DURATION,
           }, "- choose: roll_or_hold\n  options: [roll, hold]", "decisions"),
    Effect("actions", "An action-point loop: the player picks costed options until the "
           "points are spent, nothing legal is left, or they pass.", "id", {
               "id": _f(DECISION, "The decision id for each pick.", True),
               "points": _f(EXPR, "Action points to spend.", True, type="int"),
               "by": _f(EXPR, "Who acts (default `current`).", type="player"),
               "options": _f(OPTIONS, "A mapping of action name to {label, if, cost, limit, "
                                      "do}.", True),
               "pass": _f(BOOL, "Offer `pass` to end early (default true)."),
               "prompt": _f(TEMPLATE, "The question shown to a human."),
           }, "- actions: action\n  points: 2\n  options: {extra_point: {cost: 1, do: [...]}}",
           "decisions", loop=True),
    Effect("race", "A real-time race to claim items (grabbing dice). In live and referee play "
           "the table reports who claimed what; in simulation each racer claims at a modelled "
           "speed with a modelled error rate.", "id", {
               "id": _f(DECISION, "The race's id; its result maps each racer to the claimed "
                                  "items.", True),
               "items": _f(EXPR, "The items that can be claimed.", True, type="list"),
               "by": _f(EXPR, "The racers (players or teams).", True, type="list"),
               "wanted": _f(COND, "Whether `racer` wants `item` (in simulation).",
                            binds=("racer", "item")),
               "rate": _f(EXPR, "Modelled claims per second per racer.", type="number",
                          binds=("racer",)),
               "latency": _f(EXPR, "Modelled seconds before a racer starts.", type="number",
                             binds=("racer",)),
               "error_rate": _f(EXPR, "Modelled chance that a claim takes a wrong item.",
                                type="number", binds=("racer",)),
               "capacity": _f(EXPR, "The most items one racer can hold, by the rules (reports "
                                    "are held to it too).", type="int", binds=("racer",)),
               "model_capacity": _f(EXPR, "The most items a modelled racer holds: a physical "
                                          "limit the rules do not set, so the table's reports "
                                          "are not held to it.", type="int",
                                    binds=("racer",)),
               "skill": _f(TEXT, "The answer is the player's to find at the table (a "
                                 "perception or dexterity race...): while it is asked, a "
                                 "person's view shows what the table shows, not the "
                                 "solution (see `hides`).", choices=SKILLS),
               "hides": _f(NAMES, "With `skill`: the values worked out by the rules that "
                                  "would give the answer away; a person's view leaves them "
                                  "out while the decision is asked."),
               "counts": _f(COUNTS, "What a referee's table reports when it counts instead of "
                                    "naming every item (`--dice table`): a mapping of kind "
                                    "name to {label, where, face}; each racer (or each "
                                    "`counts_per` group) says how many of each kind it "
                                    "claimed, and meeple takes that many such items, checked "
                                    "against what is left. Ignored in simulation."),
               "counts_per": _f(EXPR, "With `counts`: who reports together (`racer.team`: "
                                      "one report per team, its claims given to its first "
                                      "racer; default: each racer).", binds=("racer",)),
           }, "- race: grab\n  items: pool\n  by: teams", "decisions"),
    # -- flow ----------------------------------------------------------------------------------
    Effect("if", "Runs `then` when the condition holds, else `else`.", "condition", {
               "condition": _f(COND, "The condition.", True),
               "then": _f(STEPS, "Steps when it holds.", True),
               "else": _f(STEPS, "Steps when it does not."),
           }, "- if: die.face == 1\n  then: [end_turn]", "flow"),
    Effect("repeat", "Repeats steps: a number of times, while a condition holds (checked "
           "before each pass), or until one holds (checked after each pass). A `max` bounds "
           "it; the ruleset's `limits.max_loop` bounds every loop.", "do", {
               "do": _f(STEPS, "The steps to repeat.", True),
               "times": _f(EXPR, "How many times (none stops the game).", type="int"),
               "while": _f(COND, "Repeat while this holds."),
               "until": _f(COND, "Stop once this holds."),
               "max": _f(EXPR, "The most passes (an error if exceeded; none stops the game).", type="int"),
           }, "- repeat:\n    - roll: die\n  until: die.face == 6", "flow", loop=True),
    Effect("for_each", "Runs steps once for each item of a list, binding it to a name.", "name",
           {
               "name": _f(BINDER, "The name each item is bound to.", True),
               "in": _f(EXPR, "The list.", True, type="list"),
               "do": _f(STEPS, "The steps.", True),
           }, "- for_each: p\n  in: players\n  do: [set: {p.ready: true}]", "flow", loop=True),
    Effect("call", "Runs a procedure with arguments.", "procedure", {
               "procedure": _f(REF, "The procedure's name.", True, ref="procedure"),
               "with": _f(ARGS, "Its arguments."),
           }, "- call: challenge\n  with: {target: opponent, stake: 2}", "flow"),
    Effect("emit", "Fires a custom event, with fields that triggers read as `event.NAME`.",
           "event", {
               "event": _f(REF, "The event's name.", True, ref="event"),
               "with": _f(ARGS, "Its fields."),
           }, "- emit: alarm", "flow"),
    Effect("break", "Leaves the innermost repeat, for_each or actions loop. In a procedure, "
           "outside the procedure's own loops, it leaves the loop around the call; `meeple "
           "validate` refuses it when no call of the procedure stands inside a loop, and a "
           "game that reaches it outside any loop stops, located at the break.", None, {},
           "- break", "flow"),
    Effect("end_turn", "Ends the current turn at once (an interrupt).", None, {},
           "- end_turn", "flow"),
    Effect("end_phase", "Ends the current phase at once; the flow goes to its `next`.", None,
           {}, "- end_phase", "flow"),
    Effect("end_game", "Ends the game at once; scoring decides the result unless `winners` "
           "is given.", None, {
               "winners": _f(EXPR, "The winning players (default: by scoring).", type="list"),
               "reason": _f(TEMPLATE, "Why the game ended, for the narration."),
           }, "- end_game:\n  reason: the last player standing", "flow"),
    Effect("goto", "Ends the current phase at once and continues with another.", "phase", {
               "phase": _f(REF, "The phase to go to, or `end`.", True, ref="phase"),
           }, "- goto: finals", "flow"),
    # -- time and narration ---------------------------------------------------------------------
    Effect("start_timer", "Starts a timer counting down from a number of seconds; at zero it "
           "fires `timer_expired`.", "timer", {
               "timer": _f(REF, "The timer.", True, ref="timer"),
               "seconds": _f(EXPR, "Its length in seconds.", True, type="number"),
           }, "- start_timer: countdown\n  seconds: time_allowed", "time"),
    Effect("stop_timer", "Stops a timer.", "timer", {
               "timer": _f(REF, "The timer.", True, ref="timer"),
           }, "- stop_timer: countdown", "time"),
    Effect("wait", "Lets modelled time pass (simulation), e.g. for an action with no dice.",
           "seconds", {
               "seconds": _f(EXPR, "How many seconds.", True, type="number"),
           }, "- wait: 2", "time"),
    Effect("say", "Narrates a line to the table (or privately to some players).", "text", {
               "text": _f(TEMPLATE, "The text, with {expression} holes.", True),
               "to": _f(EXPR, "The players who see it (default: all).", type="list"),
           }, "- say: \"{current.name} banks {turn_total}\"", "time"),
]

EFFECTS: dict[str, Effect] = {e.name: e for e in EFFECTS_LIST}

# Fields of a choice option written as a mapping (`options: {roll: {...}}`).
OPTION_FIELDS: dict[str, FieldSpec] = {
    "label": _f(TEMPLATE, "The text a human sees for this option."),
    "description": _f(TEXT, "What the option does, for the rulebook."),
    "if": _f(COND, "When the option is legal (default: always)."),
    "cost": _f(EXPR, "Action points it costs (in `actions`).", type="int"),
    "limit": _f(LIMIT, "How often it may be taken: {times, per: turn|round|phase|game}."),
    "do": _f(STEPS, "What happens when it is chosen."),
    "duration": _DURATION,
}

# The fields of one kind of a race's `counts`: what the table counts for it.
COUNT_FIELDS: dict[str, FieldSpec] = {
    "label": _f(TEXT, "How the table is asked for it (\"dice of its own colour showing the "
                      "called number\")."),
    "where": _f(COND, "Which items are of this kind, for `racer` (default: every item). It "
                      "should not read `item.face`: in a counted zone faces are unknown; say "
                      "the face with `face`.", binds=("racer", "item")),
    "face": _f(EXPR, "The face an item of this kind shows, for `racer` and `item` (the "
                     "number another die called, say): only items showing it, or whose face the table "
                     "does not track, are counted, and a counted die is then known to show "
                     "it.", binds=("racer", "item")),
}

LIMIT_PERIODS = ("turn", "round", "phase", "game")
