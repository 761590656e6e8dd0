"""The policy interface every AI player follows, and the two trivial policies.

A policy sees only what a human in its seat sees: the seat's ``view`` and its legal actions.
It draws any randomness from the ``rng`` it is given, so a table replays deterministically.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

View = dict[str, Any]
Action = dict[str, Any]


@runtime_checkable
class Policy(Protocol):
    """Chooses one of ``legal`` from the seat's ``view``; never mutates either."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action: ...


class FirstLegalPolicy:
    """Always the first legal action (the spec's stable order)."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        return legal[0]


class RandomPolicy:
    """A uniformly random legal action."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]
