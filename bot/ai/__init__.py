"""Seat-fillers: ``policy_for(game, level)`` gives an object with ``choose(view, legal, rng)``.

This is the minimal version: level 0 plays the first legal action, any other level a random
legal one drawn from the ``rng`` it is given (so a table's replay stays deterministic).
The AI sees exactly the view a human in the same seat would.
"""

from __future__ import annotations

import random
from typing import Any, Protocol


class Policy(Protocol):
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        """One of ``legal``."""
        ...


class FirstLegal:
    """Always the first legal action (the spec's stable order)."""

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return legal[0]


class RandomLegal:
    """A uniformly random legal action."""

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return legal[rng.randrange(len(legal))]


def policy_for(game_name: str, level: int = 1) -> Policy:
    """The policy playing ``game_name`` at ``level`` (0 = first legal, else random legal)."""
    return FirstLegal() if level <= 0 else RandomLegal()
