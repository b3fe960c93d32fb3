"""meeple's runtime: runs any checked ruleset. The command line (interpreter/cli.py) sits here,
on top of both the language (dsl/) and the runtime."""
