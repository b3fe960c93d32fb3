"""Phase 5b, compile for simulation (specializer): the seats around the table, as the
generated code reads them.

Input: the number of seats. Output: each seat's others in turn order (`seats_after`, the
table behind `opponents` while nobody is out), and the functions the generated code calls
for `opponents` and `next_player` once someone is out: builtins._opponents and
_next_player on seat numbers, with the game's list of who is out (`E`).
"""

from __future__ import annotations

from collections.abc import Callable


def seats_after(n: int) -> tuple:
    """For each seat, the other seats in turn order from it (Player.others)."""
    return tuple(tuple(list(range(i + 1, n)) + list(range(i))) for i in range(n))


def opponents_of(n: int) -> Callable:
    """builtins._opponents on seats: the others still in, in turn order."""
    others = seats_after(n)

    def opponents(seat: int, eliminated: list) -> list:
        # A loop: a comprehension makes a function and a frame of its own at each call in
        # Python 3.11 (a game of four seats with eliminations: 1.05 times as fast).
        out = []
        for q in others[seat]:
            if not eliminated[q]:
                out.append(q)
        return out
    return opponents


def next_player_of(n: int) -> Callable:
    """builtins._next_player on seats: the first opponent still in, else the seat itself."""
    others = seats_after(n)

    def next_player(seat: int, eliminated: list) -> int:
        for q in others[seat]:
            if not eliminated[q]:
                return q
        return seat
    return next_player
