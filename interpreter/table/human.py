"""Phase 6, run (people): a person at the terminal answers a seat's decisions.

Input: a decision `Request` and the game. Output: the chosen option (or number), `TIMEOUT`
when a running timer ran out before an answer came, or `Raised` when the person raised a
table event (such as "someone spoke") instead of answering.

Before asking, it shows the player's own view: the state their visibility allows, with the
time left on visible timers. The options are numbered with their labels (and costs); an answer
is a number, an option's name, or a unique first letter. `?` shows the view again, `!NAME`
raises an event that people may raise, and a bad answer is refused and asked again.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable

from interpreter.engine.asking import TIMEOUT, Raised
from interpreter.engine.chance import ask_report
from interpreter.engine.decisions import Controller, Option, Request
from interpreter.engine.signals import Undo
from interpreter.engine.values import Card, Die
from interpreter.engine.words import items_words, lower_first, readable
from interpreter.table.terminal import ask, control
from interpreter.table.view_model import skill_hides, view_of
from interpreter.table.view_text import entries, lines
from interpreter.table.views import state_of


def _read_line(prompt: str, timeout: float | None, status: Callable[[], str] | None = None,
               single: dict[str, str] | None = None) -> str | None:
    """One line from stdin; None when `timeout` seconds passed first (only on a terminal or
    pipe that select() supports). At a terminal, `status()` (say, a countdown) is redrawn
    before the prompt every second, and a key of `single` is an answer by itself, without
    Enter (`single` maps the key to the whole answer it stands for)."""
    global _swallow
    if (status is not None or single is not None) and _is_terminal():
        return _read_keys(prompt, timeout, status or (lambda: ""), single or {})
    line = _read_whole_line(prompt, timeout)
    left, _swallow = _swallow, ""
    # The first line after a key that answered alone may be the rest of that answer: the
    # Enter (or the rest of the word) typed after the key. It answered already: read on, under
    # the prompt already shown.
    if left and line is not None and line.strip().lower() in ("", left.strip()):
        line = _read_whole_line("", timeout)
    return line


def _read_whole_line(prompt: str, timeout: float | None) -> str | None:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    if timeout is not None:
        try:
            ready, _, _ = select.select([sys.stdin], [], [], max(0.0, timeout))
        except (OSError, ValueError):
            ready = [sys.stdin]
        if not ready:
            sys.stdout.write("\n")
            return None
    line = sys.stdin.readline()
    if line == "":
        raise EOFError
    return line.rstrip("\n")


def hand_over(prompt: str) -> str:
    """The hot-seat hand-over: waits for the next person's Enter. Whatever was typed until
    half a second after the question (the Enter after a key that answered alone, typed by the
    last person out of habit) is thrown away: only an Enter pressed by the next person may show
    their view."""
    global _swallow
    _swallow = ""
    if _is_terminal():
        import termios
        import time
        sys.stdout.write(prompt)
        sys.stdout.flush()
        time.sleep(0.5)
        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
        return ask("")
    return ask(prompt)


def _is_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


_swallow = ""  # the rest of a word whose first key already answered (typed on, or ahead)


def _read_keys(prompt: str, timeout: float | None, status: Callable[[], str],
               single: dict[str, str]) -> str | None:
    """Reads key by key (the terminal in cbreak mode, restored after), redrawing the status
    and what was typed so far at least once a second."""
    global _swallow
    import termios
    import time
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    end = None if timeout is None else time.monotonic() + timeout
    typed = ""

    shown = None

    def draw() -> None:
        nonlocal shown
        st = status()
        line = (f"[{st}] " if st else "") + prompt + typed
        if line != shown:  # only what changed: a quiet terminal stays quiet
            if shown is not None:
                control("\r\x1b[K")  # back to the start of the line, and clear it
            sys.stdout.write(line)
            sys.stdout.flush()
            shown = line
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keep what was typed ahead
        while True:
            draw()
            wait = 1.0 if end is None else min(1.0, end - time.monotonic())
            if end is not None and wait <= 0:
                sys.stdout.write("\n")
                return None
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            ch = os.read(fd, 1).decode(errors="replace")
            if _swallow and not typed and ch.lower() == _swallow[0]:
                _swallow = _swallow[1:]  # someone typed the whole word: its key answered
                continue
            _swallow = ""
            if ch in ("\n", "\r"):
                if typed:
                    sys.stdout.write("\n")
                    return typed
                continue  # an Enter left over from a key that answered alone
            if ch == "\x04" and not typed:
                raise EOFError
            if ch in ("\x7f", "\b"):
                typed = typed[:-1]
            elif ch.isprintable():
                if not typed and ch.lower() in single:
                    answer = single[ch.lower()]
                    sys.stdout.write(answer + "\n")
                    _swallow = answer[1:].lower() + "\n" if answer[:1].lower() == ch.lower() \
                        else "\n"
                    return ch
                typed += ch
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


class HumanController(Controller):
    name = "human"

    def __init__(self, read: Callable[[str, float | None], str | None] = _read_line,
                 echo: Callable[[str], None] = print):
        self.read = read
        self.echo = echo
        self.screen = None  # the shared terminal (narrate.Screen): handed over before asking
        self.seen: dict[str, dict[str, str]] = {}  # per person: their view when last shown

    def decide(self, game, request: Request):
        player = request.player
        if self.screen is not None:
            self.screen.take(player)
        self.show(game, player, path=request.path)
        events = game.raisable()
        self.echo(f"{player.name}: {request.prompt or lower_first(readable(request.id)) + '?'}")
        if request.numeric:
            self.echo(f"  a number{_bounds(request)}")
        else:
            for i, opt in enumerate(request.options, 1):
                cost = ""
                if request.points is not None and opt.spec is not None:
                    c = opt.spec.cost(game.env) if opt.spec.cost is not None else 1
                    cost = f" (costs {c} of {request.points})"
                if isinstance(opt.value, (Die, Card)):
                    # A die or card by what people see (its label, its face), never its id;
                    # the number answers.
                    seen = opt.shown() if opt.render is not None or opt.label else \
                        items_words(game, [opt.value.id])
                    self.echo(f"  {i}. {seen}{cost}")
                    continue
                label = opt.shown()
                label = label if label != str(opt.key) else ""
                self.echo(f"  {i}. {opt.key}{': ' + label if label else ''}{cost}")
        if events:
            self.echo("  (" + ", ".join(f"!{e}" for e in events) + " raises an event; ? shows "
                      "your view)")
        keys = _single_keys(request)
        while True:
            deadline = game.next_deadline() if game.clock.real else None
            timeout = None if deadline is None else deadline - game.clock.now()
            if self.read is _read_line:
                text = _read_line("> ", timeout, lambda: _countdown(game, player), keys)
            else:
                text = self.read("> ", timeout)
            if text is None:
                return TIMEOUT
            text = text.strip()
            if text == "undo":
                raise Undo()
            if text == "?":
                self.show(game, player, whole=True, path=request.path)
                continue
            if text.startswith("!"):
                name = text[1:].strip()
                if name in events:
                    return Raised(name, player.name)
                self.echo(f"  no event '{name}' can be raised now"
                          + (f"; events: {', '.join(events)}" if events else ""))
                continue
            chosen = pick(request, text)
            if chosen is not None:
                return chosen
            self.echo("  not a legal answer; " + (f"enter a whole number{_bounds(request)}"
                                                  if request.numeric else
                                                  "enter its number or name"))

    def report(self, game, prompt: str, parse: Callable, player=None, path: tuple = ()) -> list:
        """What a person claimed in a race (interpreter/engine/race.py) at `path`: asked
        until it is possible."""
        if self.screen is not None and player is not None:
            self.screen.take(player)
        view = None
        if player is not None:
            self.show(game, player, path=path)

            def view() -> None:
                self.show(game, player, whole=True, path=path)
        return ask_report(lambda q: self.read(q, None), self.echo, prompt, parse, view)

    def show(self, game, player, whole: bool = False, path: tuple = ()) -> None:
        """The person's view of the game (interpreter/table/view_model.py, drawn by
        view_text.py): all of it the first time (and on `?`), then only what changed since
        they last saw it, so that a long game stays readable. `path` is the decision being
        answered: a skill it leaves to the player hides the values that would answer it."""
        view = view_of(game, player, skill_hides(game, path) if path else frozenset())
        now = entries(view)
        before = self.seen.get(player.name)
        self.seen[player.name] = now
        if whole or before is None:
            for line in lines(view):
                self.echo("  " + line)
            return
        running = [f"{label}: {text}" for (_, label), text in now.items()
                   if text.endswith(" s left")]
        changed: dict[str, list[str]] = {}
        for (whose, what), v in now.items():
            old = before.get((whose, what), "-")
            if old != v and not v.endswith(" s left"):
                changed.setdefault(whose, []).append(_change(what, old, v))
        if running:
            self.echo("  [" + "; ".join(running) + "]")
        if changed:
            self.echo("  since you last looked (? shows everything): " + "; ".join(
                (f"{whose}: " if whose else "") + ", ".join(items)
                for whose, items in changed.items()))


def _bounds(request: Request) -> str:
    # A bound of a billion or more stands for "no limit" in a ruleset: not worth saying.
    return (f" from {request.low} to {request.high}" if request.high < 10**9
            else f", {request.low} or more")


def _change(what: str, old: str, new: str, most: int = 120) -> str:
    """One changed value: old and new while they are short; a long one (a list of notes,
    say) only as it is now, cut short, so that one value does not fill the screen."""
    if len(old) + len(new) <= most:
        return f"{what} {old} -> {new}"
    return f"{what} now {new[:most]}{'... (? shows it all)' if len(new) > most else ''}"


def _single_keys(request: Request) -> dict[str, str]:
    """Keys that answer alone, with the answer each stands for: an option's number (up to 9
    options) or an option's first letter when no other option and no command (`u`ndo, `?`,
    `!`) starts with it."""
    if request.numeric:
        return {}
    keys = {str(i): str(o.key) for i, o in enumerate(request.options, 1)} \
        if len(request.options) <= 9 else {}
    firsts = [str(o.key)[:1].lower() for o in request.options]
    for o, f in zip(request.options, firsts, strict=True):
        if f and firsts.count(f) == 1 and f.isalpha() and f != "u":
            keys[f] = str(o.key)
    return keys


def _countdown(game, player) -> str:
    """The running timers this player may see, as a countdown."""
    view = state_of(game, player)
    return "  ".join(f"{name} {t['remaining']:.0f} s" for name, t in
                     (view.get("timers") or {}).items()
                     if t["running"] and t["remaining"] != "hidden")


def pick(request: Request, text: str) -> Option | int | None:
    """The option (or number) an answer names: its number, its key, or a unique prefix."""
    if request.numeric:
        return request.match(text)
    if text.isdigit() and 1 <= int(text) <= len(request.options):
        return request.options[int(text) - 1]
    exact = request.match(text)
    if exact is not None:
        return exact
    low = text.lower()
    starts = [o for o in request.options if low and str(o.key).lower().startswith(low)]
    return starts[0] if len(starts) == 1 else None
