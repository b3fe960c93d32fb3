"""Phases 5-6 as a reference: the game model and the interpreter that runs any checked
ruleset (closures and per-expression generated code), and setting a game up."""
