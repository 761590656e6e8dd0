"""Texts at Discord's limits in the longest languages and the largest game states: what is cut, and
that what matters is kept (the stand-in refuses what passes a limit: tests/discord_stub/schema.py)."""

from __future__ import annotations

import random
from collections import deque

from bot.i18n import translator
from bot.rules import GAMES
from bot.tables.model import SeatInfo, Table
from bot.views.display import safe_name, table_embed
from tests.discord_stub.schema import EMBED_TOTAL_MAX, embed_length

#: A 32-character member name (Discord's longest) that is all markup: escaped, it takes 62.
LONG_NAME = "_*~`|" * 6 + "ab"


def test_last_moves_keep_the_newest_move_at_an_eight_seat_table_in_basque() -> None:
    """Eight Michigan seats with the longest names, narrated in Basque: the "Last moves" lines pass a
    field's 1,024 characters. The oldest are left out (a "…" line says so), never the move just
    played; the whole embed stays within 6,000."""
    game = GAMES["michigan"]
    options = game.validate_options({"players": 8})
    state = game.new_table(seats=8, options=options, seed=3)
    seats = [SeatInfo(user_id=i + 1, name=LONG_NAME, dm_closed=True) for i in range(8)]
    table = Table(id=123456, guild_id=1, channel_id=2, message_id=3, host_id=1, game="michigan", rules=game,
                  options=options, seed=3, seats=seats, status="playing", state=state)
    tr = translator("eu")
    log: deque[str] = deque(maxlen=12)
    rng = random.Random(3)
    cut = 0
    for _ in range(400):
        if state.is_over():
            break
        seat = state.to_act()[0]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            line = game.narrate(event, lambda s: safe_name(LONG_NAME), tr)
            if line:
                log.append(line)
        table.version += 1
        embed = table_embed(table, log, [], tr).to_dict()
        moves = embed["fields"][-1]
        assert moves["name"] == tr._("Last moves")
        assert len(moves["value"]) <= 1024 and embed_length(embed) <= EMBED_TOTAL_MAX
        assert moves["value"].endswith(log[-1])  # the latest move, whole
        cut += moves["value"].startswith("…\n")
    assert cut  # the longest narration did pass 1,024 characters
