"""/tournament create|join|leave|start|standings|end: club nights and Swiss events (issue 33).

The events run in ``bot.tournaments.runner``; this cog turns commands into its calls and its
events into messages: the round's table messages, the standings (image and text) after each
round, the winners at the end, a cancellation.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import GAME_CHOICES, game_or_error, guild_only, is_admin
from bot.cogs.errors import UserError
from bot.cogs.options import MAX_BUY_IN, parse_options
from bot.cogs.settings import opening
from bot.cogs.tournament_lost import tell_lost
from bot.gate import Busy, BusyWords, MemberGate, MemberWindow
from bot.i18n import Amount, Translator, msg, nmsg, table_language, translator
from bot.i18n.commands import command
from bot.i18n.lazy import Msg
from bot.outbox.respond import refuse, run_soon, send
from bot.render.standings import standings_image
from bot.tournaments.model import CANCELLED, CLUB, FINISHED, OPEN, SWISS, Tournament
from bot.tournaments.standings import Standing
from bot.views.alt import clip
from bot.views.direction import without_direction
from bot.views.display import safe_name, signed, timestamp
from bot.views.locale import reader
from bot.views.texts import fit

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tournaments.runner import TournamentService

log = logging.getLogger(__name__)
EVENT_ARG = "Tournament number (default: the one you host or play in, else the latest open one)"
#: Discord's codes for a channel the bot can no longer post in: deleted, access taken away, a
#: permission taken away (the presenter's ``OUT_OF_REACH``, which a cog may not import).
OUT_OF_REACH = frozenset({10003, 50001, 50013})


def format_name(fmt: str, tr: Translator) -> str:
    """A format's name in the reader's words."""
    return tr._("Swiss") if fmt == SWISS else tr._("club night")


#: Tournaments a member may create in any ``CREATES_WINDOW`` seconds (cancelled ones count): each
#: posts a public announcement, and the per-server cap counts open events only, so creating and
#: ending one in a loop was free. Per bot process, as ``/table new``'s ``OPENS_PER_MEMBER``.
CREATES_PER_MEMBER = 3
CREATES_WINDOW = 3600.0
#: ``/tournament standings``: seconds between a member's standings pictures, and how many are drawn at
#: once bot-wide (each draws every entrant's line in a thread: a member's burst queued picture after
#: picture behind everyone else's).
STANDINGS_COOLDOWN = 3.0
STANDINGS_CAPACITY = 4
#: Lines the standings' text lists (the image has its own ``MAX_ROWS``).
TEXT_ROWS = 25


def standings_text(t: Tournament, rows: list[Standing], tr: Translator, markdown: bool = True,
                   me: int | None = None) -> str:
    """The standings as text lines (the embed's text; ``markdown=False``: plain, for the alt text);
    ``me``: the reader's entrant, whose line follows the listed ones when it is not among them."""
    lines = [standing_line(t, s, tr, markdown) for s in rows[:TEXT_ROWS]]
    mine = next((s for s in rows[TEXT_ROWS:] if s.entrant == me), None)
    if mine is not None:
        lines += ["…", standing_line(t, mine, tr, markdown)]
    return "\n".join(lines) or tr._("Nobody has played yet")


#: Why ``/tournament standings`` was refused before any drawing (``Tournaments.drawings``).
STANDINGS_BUSY = BusyWords(
    msg("Your previous standings are still being drawn: wait for them before asking again."),
    lambda n: nmsg("Wait {n} second before asking for the standings again.",
                   "Wait {n} seconds before asking for the standings again.", n),
    msg("Standings are being drawn for many members right now: try again in a few seconds."))


def standing_line(t: Tournament, s: Standing, tr: Translator, markdown: bool = True) -> str:
    """One entrant's line: rank, name, points, tie-break, sessions, net."""
    second = (
        tr._("Buchholz {n}", n=s.buchholz)
        if t.format == SWISS
        else tr.n_("{n} table won", "{n} tables won", s.wins)
    )
    gone = tr._(" (withdrawn)") if s.withdrawn else ""
    return tr._(
        "{rank}. {name}{gone}: {points} pts, {second}, {sessions}, net {net}",
        rank=s.rank,
        name=safe_name(s.name) if markdown else without_direction(s.name),
        gone=gone,
        points=s.points,
        second=second,
        sessions=tr.n_("{n} session", "{n} sessions", s.sessions),
        net=signed(s.net, tr),  # the reader's digits: "+1 500" in French
    )


#: Characters of the winners, and of the prizes, the final message lists (a first place shared by many
#: entrants, e.g. every table of a round forfeited, would pass Discord's 2,000 for a message).
LISTED = 900


def listed(items: list[str], size: int) -> str:
    """``items`` joined by commas, as many whole ones as ``size`` characters hold, then ``…``."""
    out = ""
    for i, item in enumerate(items):
        joined = item if not out else f"{out}, {item}"
        if len(joined) > size - 3 and i < len(items) - 1 or len(joined) > size:
            return f"{out}, …" if out else fit(item, size)
        out = joined
    return out


def winners_line(t: Tournament, names: list[str], tr: Translator) -> str:
    """"Tournament #n is over. Winner: …" (Winners, when the first place is shared)."""
    return tr.n_("Tournament #{id} is over. Winner: {names}.", "Tournament #{id} is over. Winners: {names}.",
                 len(names), id=t.id, names=listed(names, LISTED) or "—")


def standings_title(t: Tournament, tr: Translator, final: bool) -> str:
    """The standings' title: final, after the last round played, or before the round being played
    (its tables still open: the standings do not count it yet), or an event not started."""
    if final:
        return tr._("Tournament #{id}: final standings", id=t.id)
    if t.status == CANCELLED:
        return tr._("Tournament #{id}: cancelled", id=t.id)
    if t.round == 0:
        return tr._("Tournament #{id}: not started yet", id=t.id)
    if any(rt.status == OPEN for rt in t.round_tables(t.round)):
        return tr._("Tournament #{id}: standings before round {round} of {rounds}, being played",
                    id=t.id, round=t.round, rounds=t.rounds)
    return tr._("Tournament #{id}: standings after round {round} of {rounds}", id=t.id, round=t.round,
                rounds=t.rounds)


def leave_text(t: Tournament, pair: bool, refunded: bool, tr: Translator) -> str:
    """The answer to ``/tournament leave``: who left (a Mus pair leaves together), and whether the
    buy-ins came back (before one's first table) or the later rounds are forfeited."""
    if not refunded:
        if pair:
            return tr._("You and your partner left tournament #{id}: your pair forfeits its later rounds.",
                        id=t.id)
        return tr._("You left tournament #{id}: you forfeit its later rounds.", id=t.id)
    if not t.buy_in:
        if pair:
            return tr._("You and your partner left tournament #{id}.", id=t.id)
        return tr._("You left tournament #{id}.", id=t.id)
    if pair:
        return tr._("You and your partner left tournament #{id}; both buy-ins are back.", id=t.id)
    return tr._("You left tournament #{id}; your buy-in is back.", id=t.id)


def cancel_reason(why: str, tr: Translator) -> str:
    """Why an event was cancelled, in the reader's words (the runner's ``cancelled`` event)."""
    if why == "too_few":
        return tr._("too few players at its start time")
    if why == "expired":
        return tr._("nobody started it in time")
    if why == "round_failed":
        return tr._("its first round could not be seated")
    return tr._("the host cancelled it")


class Tournaments(commands.Cog):
    """Club nights and Swiss tournaments."""

    tournament = app_commands.Group(
        name="tournament", description="Club nights and tournaments", guild_only=True
    )

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self.creates = MemberWindow(CREATES_PER_MEMBER, CREATES_WINDOW)  # /tournament create, per member
        self.drawings = MemberGate(STANDINGS_COOLDOWN, STANDINGS_CAPACITY)  # /tournament standings
        self.telling: set[int] = set()  # events whose members are being DMed their end (at most those)
        service = getattr(bot, "tournaments", None)  # None when the catalogue extractor loads the cog
        if service is not None:
            service.listeners.append(self.on_event)

    @property
    def service(self) -> TournamentService:
        return self.bot.tournaments

    async def _resolve(self, interaction: discord.Interaction[TapisBot], number: int | None,
                       mine: Callable[[Tournament], bool] | None = None, pick: bool = True) -> Tournament:
        """The event ``number``, else the open one ``mine`` says is the member's (the one they host, or
        take part in), else the newest open one; ``pick=False``: when several are open and none is
        the member's, refuse with their numbers (a join pays, a start or an end acts: no guessing)."""
        guild_id = guild_only(interaction)
        if number is not None:
            t = await self.service.load(number)
            if t is None or t.guild_id != guild_id:
                raise UserError(msg("There is no tournament #{id}.", id=number))
            return t
        open_now = self.service.open_in(guild_id)
        if not open_now:
            raise UserError(
                msg("There is no open tournament in this server. Create one with {tournament_create}.",
                    tournament_create=command("tournament create"))
            )
        own = [t for t in open_now if mine is not None and mine(t)]
        if own:
            return own[0]
        if len(open_now) > 1 and not pick:
            raise UserError(msg("Several tournaments are open in this server ({numbers}): name one with "
                                "the tournament option.", numbers=", ".join(f"#{t.id}" for t in open_now)))
        return open_now[0]

    @staticmethod
    def _entrant(user_id: int) -> Callable[[Tournament], bool]:
        return lambda t: t.entrant_of(user_id) is not None

    @staticmethod
    def _host(user_id: int) -> Callable[[Tournament], bool]:
        return lambda t: t.host_id == user_id

    @tournament.command(name="create", description="Open a tournament: a game, a format, rounds, a buy-in")
    @app_commands.describe(
        game="The game",
        format="club night (tables rotate) or Swiss (paired by standing)",
        rounds="Number of rounds",
        buy_in="Jetons each player puts in the prize pool (0: free)",
        options="The tables' options as key=value (see /rules)",
        starts_in="Start automatically in this many minutes (default: by hand)",
        round_minutes="Time limit of a round in minutes",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        format=[
            app_commands.Choice(name="club night", value=CLUB),
            app_commands.Choice(name="Swiss", value=SWISS),
        ],
    )
    async def create(
        self,
        interaction: discord.Interaction[TapisBot],
        game: str,
        format: str = CLUB,
        rounds: app_commands.Range[int, 1, 12] = 3,
        buy_in: app_commands.Range[int, 0, MAX_BUY_IN] = 0,
        options: str | None = None,
        starts_in: app_commands.Range[int, 1, 7 * 24 * 60] | None = None,
        round_minutes: app_commands.Range[int, 5, 24 * 60] = 90,
    ) -> None:
        guild_id = guild_only(interaction)
        again = self.creates.wait(interaction.user.id)
        if again is not None:
            raise UserError(nmsg(
                "You may create at most {n} tournament in {minutes} minutes: you can create another {when}.",
                "You may create at most {n} tournaments in {minutes} minutes: you can create another {when}.",
                self.creates.limit, minutes=Amount(round(self.creates.window / 60)), when=timestamp(again)))
        rules = game_or_error(game)
        raw = parse_options(options, rules)
        # The server's /settings (issue 29): who may open tables and where, its defaults and hints rule.
        raw, server_language, _ = await opening(self.bot, interaction, rules, raw, None)
        starts_at = None if starts_in is None else self.service.clock() + starts_in * 60
        language = table_language(server_language, interaction.guild_locale)
        t = await run_soon(
            interaction,
            self.service.create(
                guild_id,
                interaction.channel_id or 0,
                interaction.user.id,
                rules.name,
                raw,
                format,
                rounds,
                buy_in,
                round_minutes,
                starts_at,
                language,
            ),
            ephemeral=False,
        )
        self.creates.note(interaction.user.id)
        tr = translator(t.language)
        when = (
            tr._("It starts <t:{at}:R> (<t:{at}:f>).", at=int(t.starts_at))
            if t.starts_at is not None
            else tr._("The host starts it with {tournament_start}.",
                      tournament_start=command("tournament start"))
        )
        fee = (
            tr._("Buy-in: {jetons} into the prize pool.", jetons=tr.jetons(t.buy_in))
            if t.buy_in
            else tr._("Free to enter.")
        )
        await send(
            interaction,
            tr._(
                "Tournament #{id}: {game}, {format}, {rounds}. {fee} {when} "
                "Join with {tournament_join}.",
                id=t.id,
                tournament_join=command("tournament join"),
                game=tr._(rules.title),
                format=format_name(t.format, tr),
                rounds=tr.n_("{n} round", "{n} rounds", t.rounds),
                fee=fee,
                when=when,
            ),
            ephemeral=False,
        )

    @tournament.command(name="join", description="Register for a tournament (pays the buy-in)")
    @app_commands.describe(tournament=EVENT_ARG, partner="Your partner, in a game of pairs (Mus)")
    async def join(
        self,
        interaction: discord.Interaction[TapisBot],
        tournament: int | None = None,
        partner: discord.User | None = None,
    ) -> None:
        t = await self._resolve(interaction, tournament, pick=False)
        if partner is not None and partner.bot:
            raise UserError(msg("Your partner must be a member, not a bot."))
        user = interaction.user
        entrant = await run_soon(
            interaction,
            self.service.join(t.id, user.id, user.display_name, None if partner is None else partner.id),
        )
        tr = await reader(self.bot, interaction)
        text = tr._("You are registered in tournament #{id}.", id=t.id)
        if partner is not None and len(entrant.members) < 2:
            text += " " + tr._("Your pair is complete once your partner joins naming you.")
            if t.buy_in:
                text += " " + tr._("If they have not joined when the next round is seated, your buy-in "
                                   "comes back.")
        if t.status == "running":
            text += " " + tr._("You play from the next round.")
        await send(interaction, text)

    @tournament.command(name="leave", description="Leave a tournament (refunded before the start)")
    @app_commands.describe(tournament=EVENT_ARG)
    async def leave(self, interaction: discord.Interaction[TapisBot], tournament: int | None = None) -> None:
        t = await self._resolve(interaction, tournament, self._entrant(interaction.user.id))
        mine = t.entrant_of(interaction.user.id)
        pair = mine is not None and len(mine.members) > 1  # the pair leaves with them
        refunded = await run_soon(interaction, self.service.leave(t.id, interaction.user.id))
        tr = await reader(self.bot, interaction)
        await send(interaction, leave_text(t, pair, refunded, tr))

    @tournament.command(name="start", description="Start a tournament now (host or admin)")
    @app_commands.describe(tournament=EVENT_ARG)
    async def start(self, interaction: discord.Interaction[TapisBot], tournament: int | None = None) -> None:
        t = await self._resolve(interaction, tournament, self._host(interaction.user.id), pick=False)
        t = await run_soon(interaction, self.service.start(t.id, interaction.user.id, is_admin(interaction)))
        tr = await reader(self.bot, interaction)
        await send(
            interaction,
            tr._("Tournament #{id} starts.", id=t.id)
            if t.status != CANCELLED
            else tr._(
                "Tournament #{id} could not seat its first round: it is cancelled, every buy-in is back.",
                id=t.id,
            ),
        )

    @tournament.command(name="end", description="Cancel a tournament not started, or end it after this round")
    @app_commands.describe(tournament=EVENT_ARG)
    async def end(self, interaction: discord.Interaction[TapisBot], tournament: int | None = None) -> None:
        t = await self._resolve(interaction, tournament, self._host(interaction.user.id), pick=False)
        ending = self.service.end(t.id, interaction.user.id, is_admin(interaction))
        cancelled = await run_soon(interaction, ending)  # what happened, decided under the event's lock
        tr = await reader(self.bot, interaction)
        await send(
            interaction,
            (tr._("Tournament #{id} is cancelled; every buy-in is back.", id=t.id) if t.buy_in
             else tr._("Tournament #{id} is cancelled.", id=t.id))
            if cancelled
            else tr._("Tournament #{id} ends after this round.", id=t.id),
        )

    @tournament.command(name="standings", description="The standings of a tournament")
    @app_commands.describe(tournament=EVENT_ARG)
    async def standings(
        self, interaction: discord.Interaction[TapisBot], tournament: int | None = None
    ) -> None:
        t = await self._resolve(interaction, tournament, self._entrant(interaction.user.id))
        tr = await reader(self.bot, interaction)
        mine = t.entrant_of(interaction.user.id)
        try:
            self.drawings.admit(interaction.user.id)
        except Busy as busy:
            return await refuse(interaction, STANDINGS_BUSY.message(busy).render(tr))
        try:
            drawn = self._standings(t, tr, final=t.status == FINISHED, me=None if mine is None else mine.id)
            embed, file = await run_soon(interaction, drawn)  # the image may outlast Discord's 3 s
            await send(interaction, embed=embed, file=file)
        finally:
            self.drawings.release(interaction.user.id)

    # ------------------------------------------------------------------ what the runner tells

    async def _standings(
        self, t: Tournament, tr: Translator, final: bool, me: int | None = None
    ) -> tuple[discord.Embed, discord.File]:
        rows = self.service.standings(t)
        title = standings_title(t, tr, final)
        png = await asyncio.to_thread(functools.partial(standings_image, rows, title, t.format == SWISS, tr))
        embed = discord.Embed(title=title, description=standings_text(t, rows, tr, me=me)[:4000],
                              colour=0xD4A017)
        embed.set_image(url="attachment://standings.png")
        alt = clip(tr._("{title}. {rows}", title=title, rows=standings_text(t, rows, tr, markdown=False)
                        .replace("\n", "; ")))
        return embed, discord.File(io.BytesIO(png), "standings.png", description=alt)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.service.channel_lost(channel_id=channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.service.channel_lost(channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.service.channel_lost(guild_id=guild.id)

    async def on_event(self, t: Tournament, event: dict[str, Any]) -> None:
        """Post what the runner says in the event's channel (its language); a channel Tapis can no
        longer reach is lost for the event (``TournamentService.channel_lost``) and its tables."""
        if t.channel_lost:  # nothing can be posted there: its entrants are told its end by DM
            if event.get("type") == "cancelled" or (event.get("type") == "standings" and event.get("final")):
                self.service.spawn(self._tell_lost(t))  # DMs under the budget: not in this step
            return
        try:
            await self._tell(t, event)
        except discord.HTTPException as exc:
            if exc.code not in OUT_OF_REACH:
                raise
            log.warning("tournament %s: channel %s is out of reach (%s %s); the event ends after this round",
                        t.id, t.channel_id, exc.status, exc.code)
            await self._lost(t.channel_id)  # before the runner goes on to seat a round there

    async def _tell_lost(self, t: Tournament) -> None:
        """DM the members of ``t`` its end for its lost channel (``tell_lost``), one pass at a time per
        event: a second pass while one runs would read the same members as not told yet."""
        if t.id in self.telling:
            return
        self.telling.add(t.id)
        try:
            await tell_lost(self.bot, t)
        finally:
            self.telling.discard(t.id)

    async def _lost(self, channel_id: int) -> None:
        """The event's channel refused a message as out of reach: its tables and its events are lost."""
        await self.bot.presenter.channel_deleted(channel_id)
        await self.service.channel_lost(channel_id=channel_id)

    async def _tell(self, t: Tournament, event: dict[str, Any]) -> None:
        """Post one runner event in the event's channel."""
        tr = translator(t.language)
        channel = self.bot.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        kind = event.get("type")
        if kind == "round":
            await self._post_tables(t)
        elif kind == "started":
            await channel.send(
                tr._("Tournament #{id} starts: round 1 of {rounds}.", id=t.id, rounds=t.rounds)
            )
        elif kind == "cancelled":
            refusal = event.get("refusal")
            if isinstance(refusal, Msg):  # it could not start at its start time: the reason in full
                text = tr._("Tournament #{id} is cancelled at its start time; every buy-in is back. {reason}",
                            id=t.id, reason=refusal.render(tr))
            else:
                why = cancel_reason(str(event.get("why")), tr)
                text = (tr._("Tournament #{id} is cancelled ({why}); every buy-in is back.", id=t.id, why=why)
                        if t.buy_in else tr._("Tournament #{id} is cancelled ({why}).", id=t.id, why=why))
            await channel.send(text)
        elif kind == "standings":
            final = bool(event.get("final"))
            if event.get("why") == "round_failed":
                await channel.send(
                    tr._(
                        "Tournament #{id}: round {round} could not be seated, so the tournament ends "
                        "here; the standings after round {done} decide the prizes.",
                        id=t.id,
                        round=t.round + 1,
                        done=t.round,
                    )
                )
            embed, file = await self._standings(t, tr, final)
            await channel.send(embed=embed, file=file)
            if final:
                await channel.send(await self._winners(t, tr))

    async def _winners(self, t: Tournament, tr: Translator) -> str:
        """The final message: the winners, and the prizes as the store recorded them."""
        rows = [s for s in self.service.standings(t) if s.rank == 1]
        paid = await self.service.prizes_paid(t)
        text = winners_line(t, [safe_name(s.name) for s in rows], tr)
        if paid:
            text += " " + tr._(
                "Prizes: {list}.",
                list=listed([f"{safe_name(name)} {tr.number(amount)}"
                             for name, amount in paid], LISTED),
            )
        return fit(text)  # the standings embed names everyone; this message stays within 2,000

    async def _post_tables(self, t: Tournament) -> None:
        """Post the table message of each table of the round not posted yet."""
        for rt in t.round_tables(t.round):
            if rt.table_id is None:
                continue
            table = await self.bot.tables.get(rt.table_id)
            if table is None or table.message_id is not None or not table.is_open:
                continue
            await self.bot.languages.set_table(table.id, t.language)
            tr = translator(t.language)
            presenter = self.bot.presenter
            shown = presenter.shown_key(table)
            payload = presenter.table_payload(table, tr)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            title = tr._("Tournament #{id}, round {round}: table {n}.",
                         id=t.id, round=rt.round, n=rt.index + 1)
            try:
                message = await channel.send(content=title, **payload)
            except discord.HTTPException as exc:
                if exc.code in OUT_OF_REACH:
                    raise
                log.warning("tournament %s: table %s could not be posted: %s", t.id, table.id, exc)
                continue
            await self.bot.tables.set_message(table.id, message.id)
            presenter.posted(table, shown)
            # its own thread where the server has threads on (the posted message becomes its line)
            await presenter.threads.open_unasked(table, title.rstrip("."))
            presenter.mark_dirty(table.id)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Tournaments(bot))
