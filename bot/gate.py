"""Admission per member: one job in flight each, a cooldown after it, and an optional capacity.

Shared by the expensive commands a member can repeat (``/replay``, ``/hint``; issue 26): admission
is synchronous (on the event loop, before any answer), so a refusal is immediate, and the memory it
keeps is bounded by the members running or still cooling down.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class Busy(Exception):
    """A job refused before any work: ``reason`` is "running", "cooldown" or "full"."""

    def __init__(self, reason: str, retry_after: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class MemberGate:
    """One job per member, ``cooldown`` seconds between a member's jobs, at most ``capacity`` at once."""

    def __init__(self, cooldown: float, capacity: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cooldown = cooldown
        self.capacity = capacity
        self.clock = clock
        self.running: set[int] = set()  # members with a job admitted (waiting or running)
        self.ended: OrderedDict[int, float] = OrderedDict()  # member -> when their last job ended

    def admit(self, member: int) -> None:
        """Reserve a place for ``member``'s job, or raise ``Busy``; ``release`` gives it back."""
        now = self.clock()
        while self.ended and next(iter(self.ended.values())) + self.cooldown <= now:
            self.ended.popitem(last=False)  # bounded: only members still cooling down are kept
        if member in self.running:
            raise Busy("running")
        if member in self.ended:
            raise Busy("cooldown", self.ended[member] + self.cooldown - now)
        if self.capacity is not None and len(self.running) >= self.capacity:
            raise Busy("full")
        self.running.add(member)

    def release(self, member: int) -> None:
        """``member``'s job has ended (answered, failed or cancelled): their cooldown starts."""
        self.running.discard(member)
        self.ended.pop(member, None)
        self.ended[member] = self.clock()
