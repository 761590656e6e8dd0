"""Admission per member: one job in flight each, a cooldown after it, and an optional capacity
(``MemberGate``); or a number of jobs in a sliding window (``MemberWindow``).

Shared by the expensive commands a member can repeat (``/replay``, ``/hint``; issue 26): admission
is synchronous (on the event loop, before any answer), so a refusal is immediate, and the memory it
keeps is bounded by the members running or still cooling down.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from bot.bounded import keep_latest
from bot.i18n.lazy import Msg


class Busy(Exception):
    """A job refused before any work: ``reason`` is "running", "cooldown" or "full"."""

    def __init__(self, reason: str, retry_after: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


@dataclass(frozen=True)
class BusyWords:
    """What a member refused by a gate reads, per ``Busy.reason``: ``running`` (their previous job is
    under way), ``wait(n)`` (the cooldown: ``n`` whole seconds, at least 1), ``full`` (the capacity;
    None for a gate without one)."""

    running: Msg
    wait: Callable[[int], Msg]
    full: Msg | None = None

    def message(self, busy: Busy) -> Msg:
        """The refusal of ``busy``, to render in the reader's language."""
        if busy.reason == "running":
            return self.running
        if busy.reason == "cooldown" or self.full is None:
            return self.wait(max(1, math.ceil(busy.retry_after)))
        return self.full


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

    def forgive(self, member: int) -> None:
        """``member``'s job was refused before it did anything: their place is free, no cooldown."""
        self.running.discard(member)


class MemberWindow:
    """At most ``limit`` admissions per member in any ``window`` seconds (``/table new``; a member is any
    hashable key: ``(host, invitee)`` for the invitations a host sends one member).

    ``wait`` (nothing kept) then ``note`` once the admitted job succeeded. The memory it keeps is
    bounded: only members noted within the window, and ``keep`` of them at most (the least recently
    noted forgotten first).
    """

    def __init__(self, limit: int, window: float, keep: int = 16_384,
                 clock: Callable[[], float] = time.time) -> None:
        self.limit = limit
        self.window = window
        self.keep = keep
        self.clock = clock
        self.times: OrderedDict[Hashable, deque[float]] = OrderedDict()  # member -> their latest admissions

    def _forget(self, now: float) -> None:
        while self.times and next(iter(self.times.values()))[-1] + self.window <= now:
            self.times.popitem(last=False)  # their latest admission left the window: all of them did

    def wait(self, member: Hashable) -> float | None:
        """None if ``member`` may be admitted now, else when (``clock`` time) they may be again."""
        now = self.clock()
        self._forget(now)
        times = self.times.get(member)
        if times is None:
            return None
        while times and times[0] + self.window <= now:
            times.popleft()
        if not times:  # (never after ``_forget``: kept for a clock that stepped)
            del self.times[member]
            return None
        return times[0] + self.window if len(times) >= self.limit else None

    def note(self, member: Hashable) -> None:
        """``member`` was admitted now."""
        now = self.clock()
        self._forget(now)
        times = self.times.pop(member, None) or deque()
        times.append(now)
        while len(times) > self.limit:
            times.popleft()
        keep_latest(self.times, member, times, self.keep)
