"""The DM each entrant gets when an event ends because Tapis lost its channel (deleted, out of reach,
the bot removed from the server): nothing can be posted there any more, so without it the event
would end, or be cancelled and refunded, in silence.

One DM per member, in their language, once: each is recorded as told (``tournament_players.told``)
as soon as it is settled, so a restart tells only those not told yet. A member who never sat at a
table (a late entrant waiting for the next round) is refunded and removed at the end: told then
(with the refund), from memory only. A closed DM counts as told
(it is not an error); the DMs go under the bot's global REST budget (``Dms.notice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import N_, Translator, translator
from bot.tournaments.model import CANCELLED, Tournament
from bot.views.display import game_title

if TYPE_CHECKING:
    from bot.app import TapisBot

#: An event cancelled before its first round was seated.
CANCELLED_LOST = N_("Tournament #{id} ({game}) was cancelled: Tapis can no longer reach its channel.")
#: ... and what came back.
REFUNDED = N_("Your buy-in of {buy_in} is back in your wallet.")
#: An event that ended after the round under way.
ENDED_LOST = N_("Tournament #{id} ({game}) ended after round {round}: Tapis can no longer reach its "
                "channel, so no further round is played.")
#: The member's place in the final standings (shared places count as one).
PLACE = N_("Your place: {place} of {n}.")
PRIZE = N_("Your prize: {jetons}.")
NO_PRIZE = N_("You won no prize.")


def lost_text(t: Tournament, tr: Translator, user_id: int, prize: int,
              places: dict[int, tuple[int, int]], refunded: bool = False) -> str:
    """The DM to ``user_id`` about ``t``, ended or cancelled for its lost channel. ``places``: each
    member's (rank, entrants ranked) in the final standings; ``prize``: what the pool paid them;
    ``refunded``: a member never seated, whose buy-in came back at the end (no place, no prize)."""
    game = game_title(t.game, tr)
    cancelled = t.status == CANCELLED
    if cancelled:
        parts = [tr._(CANCELLED_LOST, id=t.id, game=game)]
    else:
        parts = [tr._(ENDED_LOST, id=t.id, game=game, round=t.round)]
    if cancelled or refunded:
        if t.buy_in:
            parts.append(tr._(REFUNDED, buy_in=tr.jetons(t.buy_in)))
        return " ".join(parts)
    if user_id in places:
        rank, n = places[user_id]
        parts.append(tr._(PLACE, place=tr.number(rank), n=tr.number(n)))
    if t.buy_in:
        parts.append(tr._(PRIZE, jetons=tr.jetons(prize)) if prize else tr._(NO_PRIZE))
    return " ".join(parts)


async def tell_lost(bot: TapisBot, t: Tournament) -> int:
    """DM every member of ``t`` not told yet that its channel was lost (see the module); the number
    of DMs settled."""
    service = bot.tournaments
    standings = service.standings(t) if t.status != CANCELLED else []
    by_id = {e.id: e for e in t.entrants}
    places = {m.user_id: (s.rank, len(standings)) for s in standings if s.entrant in by_id
              for m in by_id[s.entrant].members}
    told = 0
    for user_id in service.refunded_unseated(t):  # never seated, refunded at the end
        tr = translator(await bot.languages.reader(user_id, None, t.language))
        text = lost_text(t, tr, user_id, 0, places, refunded=True)
        if await bot.presenter.dms.notice(user_id, t.guild_id, text):
            told += 1
    for user_id, prize in await service.untold(t):
        tr = translator(await bot.languages.reader(user_id, None, t.language))
        if await bot.presenter.dms.notice(user_id, t.guild_id, lost_text(t, tr, user_id, prize, places)):
            await service.mark_told(t, user_id)
            told += 1
    return told
