"""/review: a finished session's decisions graded by the expert's search, skill and luck (issue 31).

For the players of a finished session, and — where the server has made its sessions public
(``/settings public_reviews``) — for any member who can see the table's channel, naming the player
with ``user:``; a member who cannot see the channel is told the table does not exist (nothing
leaks). ``user:`` picks which player of the session is reviewed (default: the asker); every
decision is judged from that player's own view at the time (``bot.review``), so even now that every
card is public, nothing hidden then weighs in.

The analysis runs on the AI pool's worker processes at ``Priority.REVIEW``, one decision per
job, after every table's moves; its search budget per session is ``review_budget`` seconds (config)
shared by the decisions, at most ``review_cap`` rollouts each. The answer is deferred and shows
its progress ("deal 3 of 8 analysed", edits at most every ``EDIT_EVERY`` seconds); the review is
stored (``bot.store.reviews``), so asking again costs no search. One review in flight per member,
at most ``review_queue`` bot-wide (the same review asked by two players is computed once): see
``Reviews.admit``. A stored review's answer is still drawn (its pictures), so its answers pass
``Reviews.answers`` (``bot.gate.MemberGate``): one per member at a time, ``ANSWER_COOLDOWN``
seconds between a member's, at most ``ANSWER_CAPACITY`` drawn at once bot-wide. A decision's
search that hangs is given up at its deadline (``bot.tables.ai_pool.deadline_for``) and the review
fails, rather than holding a worker of the pool the tables need.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import guild_only
from bot.config import Config
from bot.gate import Busy, BusyWords, MemberGate
from bot.i18n import Translator, msg, nmsg
from bot.outbox.respond import NO_MENTIONS, refuse, send
from bot.replays.render import seat_names
from bot.review.analysis import Review, assemble, per_decision_ms, rng_for
from bot.review.estimate import Estimate, estimate
from bot.review.points import Plan, plan_for, view_at
from bot.review.text import decision_line, grade_name, progress_text, summary, unit_name, value
from bot.rules import GAMES
from bot.tables.ai_pool import Priority, deadline_for
from bot.views.alt import decision_alt, split_alt
from bot.views.display import safe_name
from bot.views.history import MAX_ID, game_title
from bot.views.labels import situated
from bot.views.locale import look_for, reader
from bot.views.scope import channel_visible

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.store.tables import ActionRow, TableRow

log = logging.getLogger(__name__)
TEXT = {
    "review": "Your decisions in a finished session graded by the expert AI, with skill and luck",
    "table": "Table number",
    "deal": "Only this deal (1 = the first deal)",
    "user": "Which player of the session (default: you)",
}
#: Seconds between two edits of the deferred reply's progress line.
EDIT_EVERY = 2.0
#: Costly decisions drawn (and listed) per answer.
SHOWN = 3
#: Seconds between a member's answers of stored reviews, and how many are drawn at once bot-wide.
ANSWER_COOLDOWN = 5.0
ANSWER_CAPACITY = 4

Key = tuple[int, int]  # (table, seat)


class Reviews(commands.Cog):
    """``/review``: finished sessions reviewed on the AI pool, stored once."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        config = getattr(bot, "config", None) or Config()  # (the catalogue extractor loads cogs bare)
        self.budget_ms = 1000.0 * config.review_budget
        self.cap = config.review_cap
        self.queue = config.review_queue
        self.members: dict[int, Key] = {}  # member -> the review they are waiting for
        self.jobs: dict[Key, asyncio.Future[Review]] = {}  # at most ``queue``, each with a waiter
        self.progress: dict[Key, dict[int, Any]] = {}  # review -> its waiting members' progress editors
        self.answers = MemberGate(ANSWER_COOLDOWN, ANSWER_CAPACITY)  # stored reviews' answers (drawn)

    @app_commands.command(name="review", description=TEXT["review"])
    @app_commands.describe(table=TEXT["table"], deal=TEXT["deal"], user=TEXT["user"])
    async def review(self, interaction: discord.Interaction[TapisBot], table: app_commands.Range[int, 1],
                     deal: app_commands.Range[int, 1] | None = None,
                     user: discord.User | None = None) -> None:
        """Refusals first (nothing deferred): another server's table or one of a channel the member
        cannot see (as if it did not exist), a session still running or never played, a member who
        did not play it, a ``user`` who did not, a review already running for the member, a full
        queue. A stored review is answered at once; otherwise it is computed (deferred)."""
        from bot.store import reviews
        from bot.store import tables as store

        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        missing = tr._("There is no table #{table} in this server.", table=table)
        if not isinstance(table, int) or not 1 <= table <= MAX_ID:
            return await refuse(interaction, missing)
        if deal is not None and not isinstance(deal, int):
            return await refuse(interaction, tr._("Invalid value {value}.", value=safe_name(str(deal))[:40]))
        row = await self.bot.db.run(store.load_table, table)
        if row is None or row.guild_id != guild_id or row.game not in GAMES:
            return await refuse(interaction, missing)
        asker = interaction.user.id
        if seat_of(row, asker) is None:
            if not channel_visible(interaction, row.channel_id):
                return await refuse(interaction, missing)  # as if it did not exist: nothing leaks
            if not (await self.bot.settings.for_guild(guild_id)).public_reviews:
                return await refuse(interaction, tr._(
                    "Reviews of table #{table} are for its players: you did not play there.", table=table))
            if user is None:  # a public session: the asker names whose decisions to review
                return await refuse(interaction, tr._(
                    "You did not play at table #{table}: name the player to review with user:.", table=table))
        if row.status in ("lobby", "playing"):
            return await refuse(interaction, tr._("Table #{table} is still being played: its review opens "
                                                  "when the session has ended.", table=table))
        if row.status != "finished" or row.seed is None:
            return await refuse(interaction, tr._("Table #{table} has no finished session to review.",
                                                  table=table))
        who = user or interaction.user
        seat = seat_of(row, who.id)
        if seat is None:
            return await refuse(interaction, tr._("{name} did not play at table #{table}.",
                                                  name=safe_name(who.display_name), table=table))
        key = (table, seat)
        stored = await reviews.load(self.bot.db, table, seat)
        if stored is not None:
            if not _deal_ok(stored, deal):
                return await refuse(interaction, deals_text(table, len(stored.deals), tr))
            try:
                self.answers.admit(asker)
            except Busy as busy:
                return await refuse(interaction, ANSWER_BUSY.message(busy).render(tr))
            try:
                await interaction.response.defer(ephemeral=True, thinking=True)
                return await self._answer(interaction, row, stored, who.display_name, deal, tr)
            finally:
                self.answers.release(asker)
        try:
            job = self.admit(asker, key, lambda: self._job(row, seat, who.id),
                             progress_editor(interaction, table, tr))
        except Busy as busy:
            if busy.reason == "running":
                return await refuse(interaction, tr._(
                    "Your previous review is still running: wait for it before asking for another."))
            return await refuse(interaction, tr._("Reviews are busy right now: try again in a few minutes."))
        try:  # from here on every path (an answer, a failure, a lost defer, cancellation) releases
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                result = await asyncio.shield(job)
            except Exception:
                log.warning("review of table %s seat %s failed", table, seat, exc_info=True)
                return await after_defer(interaction, tr._("The review of table #{table} failed: try again "
                                                           "later.", table=table))
        finally:
            self.release(asker, key)
        if not _deal_ok(result, deal):
            return await after_defer(interaction, deals_text(table, len(result.deals), tr))
        await self._answer(interaction, row, result, who.display_name, deal, tr)

    def admit(self, member: int, key: Key, start: Callable[[], Coroutine[Any, Any, Review]],
              editor: Any) -> asyncio.Future[Review]:
        """Reserve ``member``'s place waiting for review ``key`` and return the review's job (``key``'s
        computation if one is under way, else a new one started by ``start()``); raise
        ``Busy("running")`` if the member already waits for a review, ``Busy("full")`` if ``queue``
        reviews are being computed. ``editor``: the member's progress line (``progress_editor``).

        Synchronous, so nothing can slip between the checks and the reservation: a burst of
        commands arriving at once is admitted one by one (the first wins, the others are refused,
        and a second request for ``key`` finds the first's job and joins it: one computation). Every
        admission is undone by ``release`` in a ``finally``. Not ``bot.gate.MemberGate`` (``/hint``'s
        and ``/replay``'s gate): its capacity counts members, and here the queue counts computations
        (a member asking for a review already being computed joins it even when the queue is full),
        and a stored review makes a cooldown pointless (asking again costs nothing)."""
        if member in self.members:
            raise Busy("running")
        job = self.jobs.get(key)
        if job is None:
            if len(self.jobs) >= self.queue:
                raise Busy("full")
            job = self.jobs[key] = asyncio.ensure_future(start())
            job.add_done_callback(lambda done: self._done(key, done))
        self.members[member] = key
        self.progress.setdefault(key, {})[member] = editor
        return job

    def release(self, member: int, key: Key) -> None:
        """``member`` no longer waits for review ``key`` (answered, failed, their answer lost, or
        cancelled). The last member to leave a review still being computed stops it: no computation
        runs for nobody, so every job holds a member's place and the queue's."""
        self.members.pop(member, None)
        waiting = self.progress.get(key)
        if waiting is None:
            return
        waiting.pop(member, None)
        if waiting:
            return
        del self.progress[key]
        job = self.jobs.get(key)
        if job is not None and not job.done():
            del self.jobs[key]  # its place is free at once; nobody can join a job being cancelled
            job.cancel()

    def _done(self, key: Key, done: asyncio.Future[Review]) -> None:
        if self.jobs.get(key) is done:  # (a job cancelled by ``release`` has already left)
            del self.jobs[key]
        if not done.cancelled():
            done.exception()  # retrieved even if nobody waits any more

    async def _job(self, row: TableRow, seat: int, user_id: int) -> Review:
        """Plan, estimate every decision on the AI pool (``Priority.REVIEW``), assemble, store. A review
        stored since the command read the store (an identical job ended in between) is not computed
        again."""
        from bot.store import reviews
        from bot.store import tables as store

        stored = await reviews.load(self.bot.db, row.id, seat)
        if stored is not None:
            return stored
        actions = await self.bot.db.run(store.load_actions, row.id)
        game = GAMES[row.game]
        options = game.validate_options(row.options)
        pool = self.bot.tables.ai
        plan: Plan = await pool.run(plan_for, row.game, len(row.seats), options, row.seed, actions, seat,
                                    priority=Priority.REVIEW, key=row.guild_id)
        deals = len(plan.results)
        per_decision = per_decision_ms(plan, self.budget_ms)
        out: list[Estimate] = []
        for i, p in enumerate(plan.points):
            rng = rng_for(str(row.id), p, seat)
            if p.choices > 1:
                out.append(await pool.run(estimate, row.game, p.state, seat, p.played, rng, per_decision,
                                          self.cap, priority=Priority.REVIEW, key=row.guild_id,
                                          timeout=deadline_for(per_decision)))
            else:
                out.append(estimate(row.game, p.state, seat, p.played, rng, 0.0, 1))
            nxt = plan.points[i + 1].deal if i + 1 < len(plan.points) else deals + 1
            if nxt != p.deal:
                for edit in list(self.progress.get((row.id, seat), {}).values()):
                    await edit(min(nxt - 1, deals), deals)
        result = assemble(plan, out)
        await reviews.save(self.bot.db, table_id=row.id, guild_id=row.guild_id, user_id=user_id,
                           review=result, budget_ms=self.budget_ms, now=time.time())
        return result

    async def _answer(self, interaction: discord.Interaction[TapisBot], row: TableRow, review: Review,
                      who: str, deal: int | None, tr: Translator) -> None:
        """The review in words and pictures: the summary, the costliest decisions (each drawn as the
        player saw it), and the skill/luck chart of the session."""
        from bot.store import tables as store

        game = GAMES[row.game]
        # the cards in the asker's look at this table (/cards, else the table's pack): text and pictures agree
        options = game.validate_options(row.options)
        tr = tr.dressed(await look_for(self.bot, interaction.user.id, game, options))
        costly = review.costliest(SHOWN, deal)
        actions = await self.bot.db.run(store.load_actions, row.id)
        # each decision as the player saw it (replays: off the event loop), its moves worded as offered
        views = await asyncio.to_thread(decision_views, row, actions, review, costly)
        lines = summary(review, safe_name(who), row.id, game_title(row.game, tr), deal, tr)
        lines += [decision_line(d, situated(game, view, tr), review.unit, tr)
                  for d, view in zip(costly, views, strict=True)]
        if not costly:
            lines.append(tr._("No costly decision: every move was the best or close to it."))
        names = seat_names(row, tr)  # drawn, not sent: as typed (no Markdown escapes), AI seats in tr's words
        pictures = await asyncio.to_thread(draw, row, review, costly, views, names, tr)
        files = [discord.File(io.BytesIO(png), name, description=text) for name, png, text in pictures]
        content = "\n".join(lines)[:2000]
        if interaction.response.is_done():  # deferred: the answer replaces the progress line
            await interaction.edit_original_response(content=content, attachments=files,
                                                     allowed_mentions=NO_MENTIONS)
        else:
            await send(interaction, content, files=files)

    async def cog_unload(self) -> None:
        for job in list(self.jobs.values()):
            job.cancel()


def seat_of(row: TableRow, user_id: int) -> int | None:
    """The seat a member held at ``row`` (a human seat), or None."""
    for i, s in enumerate(row.seats):
        if s.get("user_id") == user_id and not s.get("ai"):
            return i
    return None


async def after_defer(interaction: discord.Interaction[TapisBot], reason: str) -> None:
    """A refusal once the answer was deferred: it replaces the progress line."""
    await interaction.edit_original_response(content=f"⚠️ {reason}",
                                             allowed_mentions=NO_MENTIONS)


def _deal_ok(review: Review, deal: int | None) -> bool:
    return deal is None or 1 <= deal <= len(review.deals)


#: Why a stored review's answer was refused before it was drawn (``Reviews.answers``).
ANSWER_BUSY = BusyWords(
    msg("Your previous review is still running: wait for it before asking for another."),
    lambda n: nmsg("Wait {n} second before your next review.",
                   "Wait {n} seconds before your next review.", n),
    msg("Reviews are busy right now: try again in a few minutes."))


def deals_text(table: int, n: int, tr: Translator) -> str:
    """A deal number out of range."""
    return tr.n_("Table #{table} has {n} deal: choose deal 1.",
                 "Table #{table} has {n} deals: choose a deal from 1 to {n}.", n, table=table)


def progress_editor(interaction: discord.Interaction[TapisBot], table: int, tr: Translator) -> Any:
    """``await edit(done, deals)``: the deferred reply's progress line, at most every ``EDIT_EVERY``
    seconds (the last deal always shown), never failing the review."""
    last = [0.0]

    async def edit(done: int, deals: int) -> None:
        if not interaction.response.is_done():  # (admitted, not yet deferred)
            return
        now = time.monotonic()
        if now - last[0] < EDIT_EVERY and done < deals:
            return
        last[0] = now
        try:
            await interaction.edit_original_response(content=progress_text(table, done, deals, tr))
        except discord.HTTPException:
            log.debug("review progress edit failed", exc_info=True)

    return edit


def decision_views(row: TableRow, actions: list[ActionRow], review: Review,
                   costly: list[Any]) -> list[dict[str, Any]]:
    """The reviewed seat's view at each costly decision, as the player saw it (replays: off the loop)."""
    game = GAMES[row.game]
    options = game.validate_options(row.options)
    seed = int(row.seed or 0)
    return [view_at(game, len(row.seats), options, seed, actions, d.version, review.seat) for d in costly]


def draw(row: TableRow, review: Review, costly: list[Any], views: list[dict[str, Any]], names: list[str],
         tr: Translator) -> list[tuple[str, bytes, str]]:
    """``(file name, png, alt text)`` of the chart and each costly decision, seen in ``views``
    (off the event loop)."""
    from bot.render.review import decision_image, split_image

    game = GAMES[row.game]
    out = []
    for i, (d, view) in enumerate(zip(costly, views, strict=True)):
        cards = (_card(d.played), _card(d.best))
        label = situated(game, view, tr)
        played, better = label(d.played), label(d.best)
        grade = grade_name(d.grade, tr)
        png = decision_image(row.game, view, names, played, better, grade, cards, tr)
        head = tr._("Deal {deal}: played {played}, better {better}", deal=d.deal, played=played,
                    better=better)
        out.append((f"decision-{i + 1}.png", png,
                    decision_alt(row.game, row.id, view, names, review.seat, f"{head} ({grade}).", tr)))
    split = [(d.deal, d.result, d.skill, d.luck) for d in review.deals]
    unit = unit_name(review.unit, tr)
    chart = split_image(split, unit, tr)
    figures = [(d, value(r, tr), value(s, tr), value(lk, tr)) for d, r, s, lk in split]
    out.append(("skill-luck.png", chart, split_alt(tr._("Skill and luck, deal by deal"), figures, unit, tr)))
    return out


def _card(action: dict[str, Any]) -> str | None:
    card = action.get("card")
    return card if isinstance(card, str) else None


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Reviews(bot))
