"""What a click does: parse the id, check it against the live table, call the table service.

Every click on a Tapis message arrives here through one of two ``DynamicItem`` s (the shape of
discord.py's ``dynamic_counter.py`` example). ``TableItem`` matches any ``tapis:`` id and parses
it; its ``interaction_check`` refuses a forged one (``tapis:`` but not an id Tapis makes) before
anything is looked up, so a stale, forged or unknown id is still answered instead of dropped.
``ForeignItem`` matches every other id (an old message, another bot version) and answers "no
longer in use". discord.py runs every dynamic item whose template matches, so the two templates
are disjoint: a click is answered by exactly one of them. A ``discord.ui.View`` registered by other
code (``add_view``, or bound to its message) still answers its own components: ``ForeignItem``
stays silent for those. The components themselves are plain buttons and selects
(``bot.views.components``).

Nothing is applied here: the service re-checks version and seat under the table's lock, so a
stale, replayed or concurrent click is refused there too (``TableError``) and never applied twice.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.ai.levels import lobby_choice
from bot.i18n import N_, Translator, english
from bot.outbox.respond import answer_lost, refuse, run_soon, send, update
from bot.tables.errors import TableError, stale  # one wording for a stale click, service and handler alike
from bot.tables.reactions import emote_of
from bot.views import ids, texts
from bot.views.components import moves_view
from bot.views.display import refusal_text
from bot.views.labels import move_label
from bot.views.locale import at_table, reader
from bot.views.moves import move_groups, needs_groups
from bot.views.yardsticks import level_word

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables import Table

log = logging.getLogger(__name__)

NOT_A_MOVE = N_("That is not one of your moves now.")
INVALID = N_("This control is not valid.")
TEMPLATE = r"(?s)tapis:.*"
FOREIGN_TEMPLATE = r"(?s)(?!tapis:).*"
#: A select value Tapis sent: the index of a legal action (ASCII digits, so never ``²`` or 5,000 digits).
_INDEX = re.compile(r"[0-9]{1,4}")


def user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions whose message is meant for the player (imported lazily: other modules own them)."""
    from bot.store.ledger import InsufficientFunds

    return (TableError, InsufficientFunds)


class TableItem(discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]], template=TEMPLATE):
    """Any Tapis button or select (lobby, My hand, a move, history). One class, so one dispatch per
    click; ``cid`` is its parsed id (None for a forged one, refused by ``interaction_check``)."""

    def __init__(self, item: discord.ui.Item[discord.ui.View], cid: ids.ComponentId | None) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[discord.ui.View], match: re.Match[str]) -> TableItem:
        return cls(item, ids.parse(match.string))

    async def interaction_check(self, interaction: discord.Interaction[discord.Client]) -> bool:
        """A forged id is refused here (ephemerally), before any table is looked up."""
        if self.cid is not None:
            return True
        try:
            await refuse(ours(interaction), (await _reader(ours(interaction)))._(INVALID))
        except discord.HTTPException as exc:
            log.warning("could not refuse a forged component: %s", exc)
        return False

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        values = self.item.values if isinstance(self.item, discord.ui.Select) else None
        await handle_component(ours(interaction), self.custom_id, values, self.cid)


class ForeignItem(discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]], template=FOREIGN_TEMPLATE):
    """Any component whose id is not Tapis's: an ephemeral "no longer in use", never silence."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[discord.ui.View], match: re.Match[str]) -> ForeignItem:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        if not view_handles(interaction, self.custom_id):
            await no_longer_in_use(ours(interaction))


def ours(interaction: discord.Interaction[discord.Client]) -> discord.Interaction[TapisBot]:
    """The interaction typed with its real client: the dynamic items are registered by ``TapisBot``
    only (``setup_hook``), so the client of every interaction they receive is the ``TapisBot``."""
    return cast("discord.Interaction[TapisBot]", interaction)


def view_handles(interaction: discord.Interaction[discord.Client], custom_id: str) -> bool:
    """Whether a ``discord.ui.View`` registered with the client (``add_view``, or sent bound to
    its message) answers this component itself, so that ``ForeignItem`` must stay silent.

    discord.py offers no public lookup for this; it reads the view store of discord.py 2.7.1
    (pinned), and without it ``ForeignItem`` answers as if no view were there.
    """
    store = getattr(getattr(interaction.client, "_connection", None), "_view_store", None)
    views = getattr(store, "_views", None)
    if not isinstance(views, dict):
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    kind = data.get("component_type")
    message_id = interaction.message.id if interaction.message is not None else None
    return any((kind, custom_id) in views.get(key, {}) for key in (message_id, None))


async def handle_component(interaction: discord.Interaction[TapisBot], custom_id: str,
                           values: list[str] | None, cid: ids.ComponentId | None = None) -> None:
    """Entry point of every Tapis button and select (``cid``: the id already parsed, if it was).

    A forwarded click (``bot.outbox.forward``) comes here with its custom id only.
    """
    try:
        try:
            await _handle(interaction, custom_id, cid or ids.parse(custom_id), values)
        except user_errors() as exc:
            await refuse(interaction, refusal_text(exc, await _reader(interaction)))
    except Exception as exc:
        if answer_lost(exc):  # Discord's 3 s (or 15 min) were over: nobody is listening any more
            log.warning("the answer to component %s was lost (the interaction expired): %s",
                        custom_id[:100], exc)
            return
        log.exception("component %s failed (user %s)", custom_id[:100], interaction.user.id)
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, texts.GENERIC_ERROR.render(await _reader(interaction)))


async def _reader(interaction: discord.Interaction[TapisBot]) -> Translator:
    try:
        return await reader(interaction.client, interaction)
    except Exception:  # the language store must never hide the real answer
        log.warning("could not read the user's language", exc_info=True)
        return english()


async def no_longer_in_use(interaction: discord.Interaction[TapisBot]) -> None:
    """The answer to a component whose id is not Tapis's (an old message, another bot version)."""
    try:
        await refuse(interaction, (await _reader(interaction))._(texts.NO_LONGER_IN_USE))
    except discord.HTTPException as exc:
        log.warning("could not answer a foreign component: %s", exc)


async def _handle(interaction: discord.Interaction[TapisBot], custom_id: str, cid: ids.ComponentId | None,
                  values: list[str] | None) -> None:
    bot: TapisBot = interaction.client
    tr = await _reader(interaction)
    if cid is None:
        return await refuse(interaction, tr._(INVALID))
    if cid.verb in ids.HISTORY_VERBS:
        from bot.views.history import handle as history

        return await history(interaction, cid, values)
    if cid.verb == "again":  # the table may be finished long ago (read back from its row)
        from bot.views.seating import play_again

        return await play_again(interaction, cid, tr)
    table = await bot.tables.get(cid.table_id)
    in_dm = interaction.guild_id is None
    if table is None:
        forwarder = bot.forwarder  # shard processes: the owner may be another one
        if forwarder is not None and in_dm and cid.verb in ids.DM_VERBS and await forwarder.forward(
                interaction, custom_id, cid.table_id, values):
            return None
        return await refuse(interaction, tr._("Table #{id} does not exist any more.", id=cid.table_id))
    if (not in_dm or cid.verb not in ids.DM_VERBS) and interaction.guild_id != table.guild_id:
        return await refuse(interaction, tr._("This control belongs to a table of another server."))
    tr = await at_table(bot, tr, interaction.user.id, table)  # the cards as this player sees them
    if cid.verb in ("mv", "sel"):
        return await play(interaction, table, cid, values, tr)
    if cid.verb == "grp":
        return await choose_group(interaction, table, cid, values, tr)
    if cid.verb == "react":
        return await _react(interaction, table, values, tr)
    if cid.verb == "sena":
        return await _sena(interaction, table, cid, values, tr)
    if cid.verb in ("seat", "host"):
        from bot.views.seating import SELECT_VERBS

        if not values or len(values) != 1:
            return await refuse(interaction, tr._(INVALID))
        return await SELECT_VERBS[cid.verb](interaction, table, values[0], tr)
    if values is not None:
        return await refuse(interaction, tr._(INVALID))
    verb = TABLE_VERBS.get(cid.verb)
    if verb is None:
        return await refuse(interaction, tr._(INVALID))
    await verb(interaction, table, cid, tr)


#: A click on a lobby or table-message control: what it does, by the verb of its id.
Verb = Callable[["discord.Interaction[TapisBot]", "Table", ids.ComponentId, Translator], Awaitable[None]]


async def _join(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                tr: Translator) -> None:
    user = interaction.user
    await run_soon(interaction, interaction.client.tables.join(table.id, user.id, user.display_name))
    # acknowledged as an update: its token edits the lobby (in a table's thread, no other token can)
    text = texts.joined(table.id, table.buy_in, tr)
    await interaction.client.presenter.answer_on_table(interaction, table, text)


async def _leave(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                 tr: Translator) -> None:
    tables, user_id = interaction.client.tables, interaction.user.id
    in_lobby, hosted = table.status == "lobby", table.host_id == user_id  # before the leave changes them
    await run_soon(interaction, tables.leave(table.id, user_id))
    await send(interaction, texts.left(in_lobby, hosted, await tables.get(table.id), tr))


async def _add_ai(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                  tr: Translator) -> None:
    level, ai = lobby_choice(cid.arg)
    allowed = (await interaction.client.settings.for_guild(table.guild_id)).ai_levels  # /settings ai_levels
    if level not in allowed:  # the levels in the reader's words, as Play again's note names them
        return await refuse(interaction, tr._(
            "This server does not let {level} AI players sit (allowed: {allowed}).",
            level=level_word(level, tr), allowed=", ".join(level_word(x, tr) for x in allowed) or "—"))
    await run_soon(interaction, interaction.client.tables.add_ai(table.id, interaction.user.id, level))
    await interaction.client.presenter.answer_on_table(interaction, table, tr._(ai.sits))


async def _start(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                 tr: Translator) -> None:
    await run_soon(interaction, interaction.client.tables.start(table.id, interaction.user.id))
    await interaction.client.presenter.answer_on_table(interaction, table, texts.starts(table.id, tr))


async def _hand(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                tr: Translator) -> None:
    await interaction.client.presenter.show_hand(interaction, table, tr)


async def _back(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                tr: Translator) -> None:
    """Take back a seat the AI plays (the away hand's button, in a DM or **My hand**): as ``/table join``,
    at a session under way only (a DM click: never a way into a lobby of another server)."""
    user = interaction.user
    if table.status != "playing":
        return await refuse(interaction, stale().render(tr))
    await run_soon(interaction, interaction.client.tables.join(table.id, user.id, user.display_name))
    await send(interaction, texts.came_back(table.id, tr))


async def _react(interaction: discord.Interaction[TapisBot], table: Table, values: list[str] | None,
                 tr: Translator) -> None:
    """A quick reaction from the table message's select: seated players only, rate-limited."""
    emote = emote_of(values[0]) if values and len(values) == 1 else None
    if emote is None:
        return await refuse(interaction, tr._(INVALID))
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return await refuse(interaction, tr._("Only the players seated at this table may react."))
    if table.status != "playing":
        return await refuse(interaction, stale().render(tr))
    wait = interaction.client.presenter.reaction_gate.admit(interaction.user.id)
    if wait is not None:
        return await refuse(interaction, tr._("You are reacting too fast: try again in {seconds} s.",
                                              seconds=math.ceil(wait)))
    await interaction.client.presenter.react(interaction, table, table.name_of(seat), emote)


async def _sena(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                values: list[str] | None, tr: Translator) -> None:
    """A seña from the hand message's select (Mus, option ``senas``): the seat's own, truthful, made
    from the hand message of the table's current version, on the seat's turn (docs/rules/mus.md §10:
    the service checks the turn)."""
    if not values or len(values) != 1 or cid.arg is None or not cid.arg.isdigit():
        return await refuse(interaction, tr._(INVALID))
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return await refuse(interaction, texts.not_seated(table.id, tr))
    if seat != int(cid.arg):
        return await refuse(interaction, tr._("These moves belong to another player."))
    if cid.version != table.version:  # an earlier message's select: the table moved on since
        return await refuse(interaction, stale().render(tr))
    await interaction.client.presenter.make_sena(interaction, table, seat, values[0][:20], tr)


TABLE_VERBS: dict[str, Verb] = {"join": _join, "leave": _leave, "ai": _add_ai, "start": _start, "hand": _hand,
                                "back": _back}


async def play(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
               values: list[str] | None, tr: Translator | None = None) -> None:
    """A move button or select: resolve the index at that version, then ask the service."""
    tr = tr or await _reader(interaction)
    parsed = cid.seat_and_number()
    if parsed is None:
        return await refuse(interaction, tr._(INVALID))
    id_seat, number = parsed
    seat = await _mover(interaction, table, cid, id_seat, tr)
    if seat is None or table.state is None:
        return None
    legal = table.state.legal_actions(seat)
    if cid.verb == "sel":
        if not values or len(values) != 1 or not _INDEX.fullmatch(values[0]):
            return await refuse(interaction, tr._(NOT_A_MOVE))
        number = int(values[0])
    if not 0 <= number < len(legal):
        return await refuse(interaction, tr._(NOT_A_MOVE))
    await _act(interaction, table, seat, cid.version, legal[number], tr)


async def _mover(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId, id_seat: int,
                 tr: Translator) -> int | None:
    """The clicker's seat if these are its moves at the table's version; else refused, None."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        await refuse(interaction, texts.not_seated(table.id, tr))
        return None
    if seat != id_seat:
        await refuse(interaction, tr._("These moves belong to another player."))
        return None
    if cid.version != table.version or table.state is None or table.status != "playing":
        await refuse(interaction, stale().render(tr))
        return None
    return seat


async def _act(interaction: discord.Interaction[TapisBot], table: Table, seat: int, version: int,
               action: dict[str, Any], tr: Translator) -> None:
    label = move_label(table, seat, tr)(action)  # worded as it was offered (before the move)
    presenter = interaction.client.presenter
    with presenter.dms.answering_in_place(table.id, seat):  # this response shows the mover the new state
        await run_soon(interaction, interaction.client.tables.act(table.id, interaction.user.id,
                                                                  version, action), update=True)
    await presenter.answer_move(interaction, table, seat, tr._("You played **{move}**.", move=label), tr)


#: A group's button ``<seat>.<group>``, a select of groups ``<seat>.s<select>``, the way back ``<seat>``.
_GROUP_ARG = re.compile(r"([0-9]{1,4})(?:\.(s?)([0-9]{1,4}))?")


async def choose_group(interaction: discord.Interaction[TapisBot], table: Table, cid: ids.ComponentId,
                       values: list[str] | None, tr: Translator) -> None:
    """Moves chosen in two steps (``bot.views.moves``): a group shows its moves in the clicked message
    (a group of one move is played), the way back shows the groups again. Nothing is applied but
    through ``_act``, so a stale, forged or other player's click is refused as a move's would be."""
    m = _GROUP_ARG.fullmatch(cid.arg or "")
    if m is None:
        return await refuse(interaction, tr._(INVALID))
    seat = await _mover(interaction, table, cid, int(m.group(1)), tr)
    if seat is None or table.state is None:
        return None
    legal = table.state.legal_actions(seat)
    groups = move_groups(legal) if needs_groups(legal) else []
    if m.group(3) is None:  # the way back
        if values is not None or not groups:
            return await refuse(interaction, tr._(INVALID))
        return await update(interaction, view=moves_view(table, seat, tr))
    if m.group(2):  # a select of groups: its value is the group
        if not values or len(values) != 1 or not _INDEX.fullmatch(values[0]):
            return await refuse(interaction, tr._(NOT_A_MOVE))
        number = int(values[0])
    elif values is not None:
        return await refuse(interaction, tr._(INVALID))
    else:
        number = int(m.group(3))
    if not 0 <= number < len(groups):
        return await refuse(interaction, tr._(NOT_A_MOVE))
    if len(groups[number]) == 1:
        return await _act(interaction, table, seat, cid.version, legal[groups[number][0]], tr)
    await update(interaction, view=moves_view(table, seat, tr, group=number))
