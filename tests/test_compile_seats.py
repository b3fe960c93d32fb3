"""interpreter/compile/seats.py: `opponents` and `next_player` on seat numbers, as the
language's built-ins give them on players (dsl/builtins.py), for every table of up to six
seats and every way players can be out."""

from __future__ import annotations

import itertools

import pytest

from dsl.builtins import _next_player, _opponents
from interpreter.compile.seats import next_player_of, opponents_of


def _players(out: tuple) -> list:
    """Players as the built-ins read them (maps: the language reads their keys), each with
    its others in turn order from it."""
    n = len(out)
    players = [{"seat": i, "eliminated": out[i]} for i in range(n)]
    for i, p in enumerate(players):
        p["others"] = [players[(i + k) % n] for k in range(1, n)]
    return players


@pytest.mark.parametrize("n", range(1, 7))
def test_opponents_and_next_player_on_seats_are_the_built_ins(n):
    opponents, next_player = opponents_of(n), next_player_of(n)
    for out in itertools.product((False, True), repeat=n):
        players = _players(out)
        for seat in range(n):
            assert opponents(seat, list(out)) == [p["seat"] for p in _opponents(players[seat])]
            assert next_player(seat, list(out)) == _next_player(players[seat])["seat"]
