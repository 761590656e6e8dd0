"""What plays a table without a player: the AI driver, the AI's choice, deadlines (a lobby's too).

Functions of one ``TableSession`` (``bot.tables.session``; it starts the driver, ``kick``). AI
moves are chosen with an rng seeded from ``(seed, version, seat)`` and committed through
``TableSession.commit`` like any other action; a strong AI searches outside the table's lock on the
AI pool (``bot.tables.ai_pool``). A transient store fault (``bot.tables.heal``) in the driver or a
deadline is retried with backoff.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.ai.levels import FALLBACK, policy_for, stand_in
from bot.ai.policy import Policy, decide, searches
from bot.rules.base import Action, Event, State
from bot.tables import heal, reminders
from bot.tables.ai_pool import search_move
from bot.tables.errors import TableError
from bot.tables.model import Table
from bot.tables.pace import table_pace
from bot.tables.senas import known_to

if TYPE_CHECKING:
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)


class AiJob(NamedTuple):
    """What the AI needs to choose a seat's move, taken under the table's lock (``ai_job``)."""

    policy: Policy
    level: int | str
    view: dict[str, Any]
    legal: list[Action]
    rng: random.Random
    #: A clone of the state for a searching policy (None: the policy decides from the view).
    clone: State | None
    #: The timeout move, played if the policy fails.
    fallback: Action
    #: Mus señas the seat saw with its current hand (``bot.tables.senas.known_to``), for its search.
    known: dict[int, list[str]] | None = None


async def on_deadline(s: TableSession) -> None:
    """The scheduler's ``fire``: expire a lobby, send a reminder that is due (``bot.tables.reminders``),
    or play the timeout of every seat overdue (the AI takes a seat after the pace's ``away_after``
    missed deadlines in a row: ``bot.tables.pace``)."""
    table, rt = s.table, s.rt
    if table.status == "lobby":
        await expire_lobby(s)
        return
    if table.status != "playing":
        return
    batches: list[list[Event]] = []
    try:
        async with s.lock:
            if s.behind:  # a commit failed unchecked: the log first (``TableSession.landed_anyway``)
                await s.reload_from_log()
            if table.status != "playing" or table.deadline is None:
                return
            if table.deadline > rt.clock():  # early: a reminder is due (or the deadline moved)
                reminder = await reminders.remind_if_due(s)
                if reminder:
                    batches.append(reminder)
                rt.timers.set(s, table.deadline)
                return
            away_after = table_pace(rt.config, table.options).away_after
            for seat in sorted(table.waiting_seats()):
                if table.status != "playing" or seat not in table.waiting_seats():
                    continue
                assert table.state is not None
                seats = [replace(info) for info in table.seats]
                seats[seat].timeouts_in_row += 1
                pre: list[Event] = [{"type": "timeout", "seat": seat}]
                if seats[seat].timeouts_in_row >= away_after:
                    seats[seat].away = True
                    pre.append({"type": "away", "seat": seat, "reason": "timeout"})
                action = table.state.timeout_action(seat)
                batches.append(await s.commit(seat, action, "timeout", seats, pre))
            late = table.deadline is not None and table.deadline <= rt.clock()
            if table.status == "playing" and late:
                await s.save_seats(table.seats)  # nothing left to time out: re-arm afresh
    finally:  # what committed is delivered even if a later step failed (the timer retries it)
        for events in batches:
            await s.notify(events)
        s.kick()


async def expire_lobby(s: TableSession) -> None:
    """A lobby nobody started before its deadline: cancelled, every buy-in refunded."""
    table, rt = s.table, s.rt
    async with s.lock:
        if table.status != "lobby" or table.deadline is None:
            return
        if table.deadline > rt.clock():
            rt.timers.set(s, table.deadline)
            return
        await s.cancel_lobby()
    log.info("table %s: lobby expired unstarted; buy-ins refunded", table.id)
    await s.notify([{"type": "lobby", "what": "expire"}])


async def drive(s: TableSession) -> None:
    """Play every AI/away seat to act, one move per ``ai_delay``, through the same commit path.

    A transient store fault is retried with backoff (one WARNING per run of failures).
    """
    table = s.table
    failures = 0
    while True:
        await asyncio.sleep(s.rt.config.ai_delay)
        try:
            more = await drive_once(s)
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


async def drive_once(s: TableSession) -> bool:
    """Choose and commit one AI move; False once no AI-played seat is to act."""
    table = s.table
    async with s.lock:
        if s.behind:  # a commit failed unchecked: the log first (``TableSession.landed_anyway``)
            await s.reload_from_log()
        if table.status != "playing":
            return False
        seat = table.autoplay_seat()
        if seat is None:
            return False
        version = table.version
        job = ai_job(table, seat)
    action = await ai_choice(s, seat, job)  # outside the lock: a search takes time
    async with s.lock:
        if (table.status != "playing" or table.version != version or seat not in table.to_act()
                or not table.seats[seat].autoplayed):
            return True  # the table moved on meanwhile (a player came back, a close): look again
        try:
            events = await s.commit(seat, action, "ai")
        except TableError:
            if table.version != version or seat not in table.to_act():
                return True  # the table was rebuilt from its log meanwhile: look again
            # the kind of move only: the move and the refusal may name a card of the seat's hidden hand
            log.warning("table %s: AI move of kind %r refused; playing the timeout move", table.id,
                        str(action.get("type"))[:20] if isinstance(action, dict) else type(action).__name__)
            assert table.state is not None
            events = await s.commit(seat, table.state.timeout_action(seat), "ai")
    await s.notify(events)
    return True


def ai_job(table: Table, seat: int) -> AiJob:
    """What the AI needs to choose for ``seat`` now (taken under the lock; the state is cloned)."""
    assert table.state is not None
    state = table.state
    info = table.seats[seat]
    level = info.level if info.ai else stand_in(table.plan.ai_levels)  # an away human's stand-in
    try:
        policy = policy_for(table.game, level)
    except ValueError:  # no AI of that level for this game (yet)
        level, policy = FALLBACK, policy_for(table.game, FALLBACK)
    rng = random.Random(f"{table.seed}:{table.version}:{seat}")
    view, legal = state.view(seat), state.legal_actions(seat)
    clone = state.clone() if searches(policy) and len(legal) > 1 else None
    known = known_to(table, seat) if clone is not None else None
    return AiJob(policy, level, view, legal, rng, clone, state.timeout_action(seat), known)


async def ai_choice(s: TableSession, seat: int, job: AiJob) -> Action:
    """The AI's move for ``seat`` from ``ai_job``; the timeout move if the policy fails.

    A searching policy (a level with search limits) runs on the AI pool with the cloned state, behind the
    bot-wide budget (tables with a human present first), so the event loop, the default
    executor (image rendering) and other tables never wait behind it.
    """
    table = s.table
    policy, level, view, legal, rng, clone, fallback, known = job
    try:
        if clone is not None:
            urgent = any(info.human and not info.away for info in table.seats)
            return await s.rt.ai.run(search_move, table.game, level, view, legal, rng, clone, known,
                                      urgent=urgent)
        return decide(policy, view, legal, rng)
    except Exception:
        log.exception("table %s: AI policy failed; playing the timeout move", table.id)
        return fallback
