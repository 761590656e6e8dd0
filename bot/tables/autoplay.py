"""What plays a table without a player: the AI driver, the AI's choice, deadlines, auto-close.

A mixin of ``TableService`` (``bot.tables.service``). AI moves are chosen with an rng seeded from
``(seed, version, seat)`` and committed through ``_commit_action`` like any other action; a
strong AI searches outside the table's lock on the AI pool (``bot.tables.ai_pool``). A transient
store fault (``bot.tables.heal``) in the driver or a deadline is retried with backoff.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from dataclasses import replace
from typing import Any, NamedTuple

from bot.ai import policy_for
from bot.ai.policy import Policy, decide, searches
from bot.rules.base import Action, Event, State
from bot.tables import heal, limits
from bot.tables.ai_pool import search_move
from bot.tables.errors import TableError
from bot.tables.model import SeatInfo, Table
from bot.tables.parts import ServiceParts
from bot.tables.replay import close_action
from bot.tables.session import TableSession

log = logging.getLogger(__name__)


class AiJob(NamedTuple):
    """What the AI needs to choose a seat's move, taken under the table's lock (``_ai_job``)."""

    policy: Policy
    level: int | str
    view: dict[str, Any]
    legal: list[Action]
    rng: random.Random
    #: A clone of the state for a searching policy (None: the policy decides from the view).
    clone: State | None
    #: The timeout move, played if the policy fails.
    fallback: Action


class AutoplayMixin(ServiceParts):
    """Deadlines, the AI driver of each table and the automatic close of ``TableService``."""

    async def fire_due_timers(self) -> int:
        """Play the timeout of every table whose deadline has passed (by the injected clock)."""
        return await self.timers.fire_due()

    async def _on_deadline(self, s: TableSession) -> None:
        """The scheduler's ``fire``: expire a lobby, or play the timeout of every seat overdue."""
        table = s.table
        if table.status == "lobby":
            await self._expire_lobby(s)
            return
        if table.status != "playing":
            return
        batches: list[list[Event]] = []
        try:
            async with s.lock:
                if s.behind:  # a commit failed unchecked: the log first (``TableService._landed_anyway``)
                    await self._reload_from_log(s)
                if table.status != "playing" or table.deadline is None:
                    return
                if table.deadline > self.clock():
                    self.timers.set(s, table.deadline)
                    return
                for seat in sorted(table.waiting_seats()):
                    if table.status != "playing" or seat not in table.waiting_seats():
                        continue
                    assert table.state is not None
                    seats = [replace(info) for info in table.seats]
                    seats[seat].timeouts_in_row += 1
                    pre: list[Event] = [{"type": "timeout", "seat": seat}]
                    if seats[seat].timeouts_in_row >= 2:
                        seats[seat].away = True
                        pre.append({"type": "away", "seat": seat, "reason": "timeout"})
                    action = table.state.timeout_action(seat)
                    batches.append(await self._commit_action(s, seat, action, "timeout", seats, pre))
                late = table.deadline is not None and table.deadline <= self.clock()
                if table.status == "playing" and late:
                    await self._save_seats(s, table.seats)  # nothing left to time out: re-arm afresh
        finally:  # what committed is delivered even if a later step failed (the timer retries it)
            for events in batches:
                await self._notify(s, events)
            self._kick(s)

    def _kick(self, s: TableSession) -> None:
        """Start the AI driver of a table if an AI-played seat is to act."""
        table = s.table
        if self._closed or table.status != "playing" or table.autoplay_seat() is None or s.driving:
            return
        task = asyncio.get_running_loop().create_task(self._drive(s), name=f"tapis-ai-{table.id}")
        s.driver = task
        task.add_done_callback(functools.partial(self._driver_done, s))

    @staticmethod
    def _driver_done(s: TableSession, task: asyncio.Task[None]) -> None:
        if s.driver is task:
            s.driver = None  # a finished driver is not kept (memory stays flat)
        if not task.cancelled() and task.exception() is not None:
            log.error("AI driver failed", exc_info=task.exception())

    async def _drive(self, s: TableSession) -> None:
        """Play every AI/away seat to act, one move per ``ai_delay``, through the same commit path.

        A transient store fault is retried with backoff (one WARNING per run of failures).
        """
        table = s.table
        failures = 0
        while True:
            await asyncio.sleep(self.config.ai_delay)
            try:
                more = await self._drive_once(s)
            except Exception as exc:
                if not heal.is_transient(exc):
                    raise
                failures += 1
                if failures == 1:
                    log.warning("table %s: AI move hit %s: %s; retrying with backoff", table.id,
                                type(exc).__name__, exc)
                await asyncio.sleep(heal.delay(failures))
                continue
            if failures:
                log.info("table %s: the AI driver works again after %d failure(s)", table.id, failures)
                failures = 0
            if not more:
                return

    async def _drive_once(self, s: TableSession) -> bool:
        """Choose and commit one AI move; False once no AI-played seat is to act."""
        table = s.table
        async with s.lock:
            if s.behind:  # a commit failed unchecked: the log first (``TableService._landed_anyway``)
                await self._reload_from_log(s)
            if table.status != "playing":
                return False
            seat = table.autoplay_seat()
            if seat is None:
                return False
            version = table.version
            job = self._ai_job(table, seat)
        action = await self._ai_choice(table, seat, job)  # outside the lock: a search takes time
        async with s.lock:
            if (table.status != "playing" or table.version != version or seat not in table.to_act()
                    or not table.seats[seat].autoplayed):
                return True  # the table moved on meanwhile (a player came back, a close): look again
            try:
                events = await self._commit_action(s, seat, action, "ai")
            except TableError as exc:
                if table.version != version or seat not in table.to_act():
                    return True  # the table was rebuilt from its log meanwhile: look again
                log.warning("table %s: AI move %r refused (%s); playing the timeout move", table.id,
                            action, exc)
                assert table.state is not None
                events = await self._commit_action(s, seat, table.state.timeout_action(seat), "ai")
        await self._notify(s, events)
        return True

    def _ai_job(self, table: Table, seat: int) -> AiJob:
        """What the AI needs to choose for ``seat`` now (taken under the lock; the state is cloned)."""
        assert table.state is not None
        state = table.state
        level = table.seats[seat].level
        try:
            policy = policy_for(table.game, level)
        except ValueError:  # no AI of that level for this game (yet)
            level, policy = "random", policy_for(table.game, "random")
        rng = random.Random(f"{table.seed}:{table.version}:{seat}")
        view, legal = state.view(seat), state.legal_actions(seat)
        clone = state.clone() if searches(policy) and len(legal) > 1 else None
        return AiJob(policy, level, view, legal, rng, clone, state.timeout_action(seat))

    async def _ai_choice(self, table: Table, seat: int, job: AiJob) -> Action:
        """The AI's move for ``seat`` from ``_ai_job``; the timeout move if the policy fails.

        A searching policy (level "strong") runs on the AI pool with the cloned state, behind the
        bot-wide budget (tables with a human present first), so the event loop, the default
        executor (image rendering) and other tables never wait behind it.
        """
        policy, level, view, legal, rng, clone, fallback = job
        try:
            if clone is not None:
                urgent = any(info.human and not info.away for info in table.seats)
                return await self.ai.run(search_move, table.game, level, view, legal, rng, clone,
                                         urgent=urgent)
            return decide(policy, view, legal, rng)
        except Exception:
            log.exception("table %s: AI policy failed; playing the timeout move", table.id)
            return fallback

    async def _auto_close(self, s: TableSession) -> list[Event]:
        """Close at the end of the deal a session nobody attends, or an open-ended one past the cap.

        Logged as the host's close is (a system action, actor ``system``), so a replay agrees.
        The caller holds the lock.
        """
        table = s.table
        if table.status != "playing" or table.closing or table.state is None:
            return []
        reason = None
        if not any(info.human and not info.away for info in table.seats):
            reason = "unattended"
        elif (limits.open_ended(table.game, table.options)
              and limits.deals_played(table.state.view(None)) >= self.config.deal_cap):
            reason = "deal_cap"
        if reason is None:
            return []
        # the reason is logged too: a deal-capped session is complete, an unattended one is not
        return await self._commit_action(s, None, {**close_action(False), "reason": reason}, "system",
                                         pre_events=[{"type": "auto_close", "reason": reason}])

    def _next_deadline(
        self, table: Table, to_act: tuple[int, ...], seats: list[SeatInfo], acted: int | None, now: float
    ) -> float | None:
        """Keep the running deadline while the same humans are still to act; else start a new one."""
        waiting = {s for s in to_act if not seats[s].autoplayed}
        if not waiting:
            return None
        if table.deadline is None or acted in waiting or not waiting <= table.waiting_seats():
            return now + self.config.turn_timeout
        return table.deadline
