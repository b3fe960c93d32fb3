"""`python -m interpreter.cli`: the `meeple` command."""

from interpreter.cli.main import main

main()
