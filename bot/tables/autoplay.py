"""What plays a table without a player: the AI driver, the AI's choice, deadlines (a lobby's too).

Functions of one ``TableSession`` (``bot.tables.session``; it starts the driver, ``kick``). AI
moves are chosen with an rng seeded from ``(seed, version, seat)`` and committed through
``TableSession.commit`` like any other action; a strong AI searches outside the table's lock on the
AI pool (``bot.tables.ai_pool``), within a hard deadline (its budget plus
``bot.tables.ai_pool.SEARCH_GRACE``), at a priority read again while it waits (a human who comes
back hurries it). A transient store fault (``bot.tables.heal``) in the driver or a deadline is
retried with backoff; any other error of the driver is retried ``DRIVER_RETRIES`` times with
backoff, then the seat plays its timeout move (``drive``): an AI turn never stalls the table.
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
from bot.tables.ai_pool import SearchTimeout, deadline_for, search_move
from bot.tables.errors import TableError
from bot.tables.model import Table
from bot.tables.pace import table_pace
from bot.tables.senas import known_to

if TYPE_CHECKING:
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

#: Tries of an AI move again after an error that is not a transient store fault (with backoff,
#: ``bot.tables.heal.delay``), before the seat plays its timeout move instead.
DRIVER_RETRIES = 3


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

    A transient store fault is retried with backoff (one WARNING per run of failures). Any other
    error is retried ``DRIVER_RETRIES`` times with backoff (one ERROR with its traceback), then
    the seat plays its timeout move; if even that fails, the driver stops and the table's alarm
    wakes it again later (``retry_later``). All within this one task: never two drivers.
    """
    table = s.table
    failures = broken = 0
    while True:
        await asyncio.sleep(s.rt.config.ai_delay)
        try:
            more = await drive_once(s, fallback=broken > DRIVER_RETRIES)
        except Exception as exc:
            if heal.is_transient(exc):
                failures += 1
                if failures == 1:
                    log.warning("table %s: AI move hit %s: %s; retrying with backoff", table.id,
                                type(exc).__name__, exc)
                await asyncio.sleep(heal.delay(failures))
                continue
            broken += 1
            if broken > DRIVER_RETRIES + 1:  # the timeout move failed too
                log.error("table %s: the AI driver stops: even the timeout move failed; "
                          "retrying later", table.id, exc_info=True)
                retry_later(s)
                return
            if broken == 1:
                log.exception("table %s: AI move failed; retrying with backoff, then the timeout "
                              "move", table.id)
            await asyncio.sleep(heal.delay(broken))
            continue
        if failures or broken:
            log.info("table %s: the AI driver works again after %d failure(s)", table.id,
                     failures + broken)
            failures = broken = 0
        if not more:
            return


def retry_later(s: TableSession) -> None:
    """Wake the table through its alarm after the longest backoff (``on_deadline`` kicks the
    driver again), keeping an earlier deadline."""
    retry_at = s.rt.clock() + heal.MAX_DELAY
    s.rt.timers.set(s, retry_at if s.alarm is None else min(s.alarm, retry_at))


async def drive_once(s: TableSession, fallback: bool = False) -> bool:
    """Choose and commit one AI move; False once no AI-played seat is to act. ``fallback``: play
    the seat's timeout move without asking the AI (``drive``, after repeated errors)."""
    table = s.table
    async with s.lock:
        if s.behind:  # a commit failed unchecked: the log first (``TableSession.landed_anyway``)
            await s.reload_from_log()
        if table.status != "playing":
            return False
        seat = table.autoplay_seat()
        if seat is None:
            return False
        if fallback:
            assert table.state is not None
            log.warning("table %s: the AI failed repeatedly; playing the timeout move", table.id)
            events = await s.commit(seat, table.state.timeout_action(seat), "ai")
        else:
            version = table.version
            job = ai_job(table, seat)
    if fallback:
        await s.notify(events)
        return True
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
            # read while the search waits: a human coming back (or leaving) moves it in the queue
            def urgent() -> bool:
                return any(info.human and not info.away for info in table.seats)

            budget_ms = float(getattr(policy, "budget_ms", 0.0) or 0.0)
            return await s.rt.ai.run(search_move, table.game, level, view, legal, rng, clone, known,
                                     urgent=urgent, timeout=deadline_for(budget_ms), key=table.guild_id)
        return decide(policy, view, legal, rng)
    except SearchTimeout:
        log.warning("table %s: the AI search of seat %s hung; playing the timeout move", table.id, seat)
        return fallback
    except Exception:
        log.exception("table %s: AI policy failed; playing the timeout move", table.id)
        return fallback
