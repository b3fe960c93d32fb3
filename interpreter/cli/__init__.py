"""The `meeple` command line; `python -m interpreter.cli` runs it.

`cli` is the command as installed: `main` (the click group, which tests invoke) with a last
net under it, so that even a bug of meeple's own shows a clear message, never a Python
traceback (DESIGN.md, "Errors are data"): it says so, asks for a report, and exits 1.
MEEPLE_TRACEBACK=1 lets the traceback through, for meeple's developers.
"""

from __future__ import annotations

import os
import sys

from dsl.safe_text import shown
from interpreter.cli.main import main

INTERNAL = ("error: meeple failed inside ({what}). This is a bug in meeple, not in what you "
            "gave it: please report it, with the command and the files it read "
            "(MEEPLE_TRACEBACK=1 shows where it failed). [internal-error]")


def cli() -> None:
    """`meeple`: `main`, any exception it lets out said in one line (exit 1)."""
    try:
        main()
    except Exception as e:  # noqa: BLE001 - the last net: click has handled all it knows
        if os.environ.get("MEEPLE_TRACEBACK") == "1":
            raise
        what = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        print(INTERNAL.format(what=shown(what, 300)), file=sys.stderr)
        sys.exit(1)


__all__ = ["cli", "main"]
