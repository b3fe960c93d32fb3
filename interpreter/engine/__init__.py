"""Phases 5-6 as a reference: the game model and the interpreter that runs any checked
ruleset (closures: the reference interpreter), and setting a game up."""
