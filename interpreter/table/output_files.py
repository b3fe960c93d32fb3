"""The files meeple writes (a log, a rulebook, a CSV, a chart): never over an existing file
unless the person asks (`--force`), never half written.

Input: a path, what writes the file's contents, and whether replacing an existing file was
asked for. Output: the file, whole, or `OutputError` (the file is left as it was). Every
writer goes through `write_file`: it writes to a temporary file in the same folder, flushes
it to disk, then moves it into place in one step (`os.replace`), so an interrupted write (a
full disk, Ctrl-C, a killed process) leaves the old file or none, never a part. Without
`force` the new file is linked into place, which fails if a file of that name appeared
meanwhile, so nothing is overwritten even in a race.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


class OutputError(Exception):
    """A file meeple may not or cannot write; the message names it and says why."""


def exists_message(path: str | Path, flag: str = "--force") -> str:
    return (f"{path} already exists; meeple does not write over a file unless asked "
            f"(pass {flag} to replace it)")


def check_free(path: str | Path, force: bool = False, flag: str = "--force",
               what: str = "") -> None:
    """Refuses early (before a long simulation, say) a path that `write_file` would refuse.
    `what` names the file in messages ("the log")."""
    p = Path(path)
    if p.is_dir():
        raise OutputError(f"cannot write {_named(path, what)}: it is a folder")
    if not force and (p.exists() or p.is_symlink()):
        raise OutputError(exists_message(path, flag))
    if not p.resolve().parent.is_dir():
        raise OutputError(f"cannot write {_named(path, what)}: the folder {p.parent} does "
                          "not exist")


def _named(path: str | Path, what: str) -> str:
    return f"{what} {path}" if what else str(path)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_file(path: str | Path, write: Callable[[str], None], force: bool = False,
               flag: str = "--force", what: str = "") -> None:
    """Writes a whole file: `write(tmp)` fills a temporary file (named with the same suffix,
    for writers that go by it), which then takes the place of `path`. Without `force`, an
    existing `path` is an `OutputError`, and so is any file that cannot be written."""
    target = Path(path)
    check_free(target, force, flag, what)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.resolve().parent, prefix=f".{target.name}.",
                                   suffix=".part" + target.suffix)
    except OSError as e:
        raise OutputError(f"cannot write {_named(path, what)} ({e.strerror or e})") from None
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # as a file opened for writing would be
        if force:
            os.replace(tmp, target)
        else:
            _place_new(tmp, target, flag)
    except OSError as e:
        raise OutputError(f"cannot write {_named(path, what)} ({e.strerror or e})") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _place_new(tmp: str, target: Path, flag: str) -> None:
    """Puts `tmp` at `target` only if nothing is there (a hard link fails on an existing
    name); on a file system without hard links, checks and replaces."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise OutputError(exists_message(target, flag)) from None
    except OSError:
        if target.exists() or target.is_symlink():
            raise OutputError(exists_message(target, flag)) from None
        os.replace(tmp, target)


def write_text(path: str | Path, text: str, force: bool = False, flag: str = "--force",
               what: str = "") -> None:
    """Writes `text` (UTF-8) as a whole file, as `write_file` does."""
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    write_file(path, write, force, flag, what)
