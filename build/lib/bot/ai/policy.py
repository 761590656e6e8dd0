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


def searches(policy: Any) -> bool:
    """True for a policy that searches over determinizations of the real state (``"strong"``)."""
    return bool(getattr(policy, "searches", False))


def decide(policy: Any, view: View, legal: list[Action], rng: random.Random, state: Any = None) -> Action:
    """Ask ``policy`` for a move; a searching policy also gets the state to determinize from.

    The state is only cloned and redealt by the search (every card hidden from the seat is
    reshuffled), so the policy still learns nothing a human in that seat could not know.
    """
    if state is not None and searches(policy):
        return policy.choose(view, legal, rng, state=state)
    return policy.choose(view, legal, rng)
