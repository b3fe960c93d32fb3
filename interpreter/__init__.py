"""meeple's runtime: runs any checked ruleset, on top of the language (dsl/).

Subpackages, each importing only those below it: engine/ (the game model and the reference
interpreter), compile/ (a whole game as one generated function), table/ (people, logs and
files), simulate/ (many games and their statistics), rulebook/ (a ruleset as a book), and cli/
(the `meeple` command). docs/architecture.md draws them.
"""
