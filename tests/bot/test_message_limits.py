"""Texts at Discord's limits in the longest languages and the largest game states: what is cut, and
that what matters is kept (the stand-in refuses what passes a limit: tests/discord_stub/schema.py)."""

from __future__ import annotations

import random
from collections import deque

from bot.i18n import translator
from bot.rules import GAMES
from bot.tables.model import SeatInfo, Table
from bot.views.display import safe_name, table_embed
from tests.discord_stub import DiscordStub
from tests.discord_stub.schema import EMBED_TOTAL_MAX, embed_length
from tests.discord_stub.tapis import TapisRun

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


async def test_an_eight_seat_table_in_basque_with_the_longest_names_passes_every_limit(
        stub: DiscordStub, tapis: TapisRun) -> None:
    """Michigan's 8 seats, each a member whose 32-character name is all markup, every DM closed (a
    notice per seat), the table in Basque: the lobby, the table message as play goes on, and each My
    hand answer are accepted by the stand-in, which refuses what Discord would (the fixture fails
    the test on any refused body)."""
    members = [stub.add_user(LONG_NAME[:30] + f"{i:02d}", stub.guild) for i in range(8)]
    for member in members:
        stub.close_dms(member)
    host = members[0]
    await stub.slash("table new", host, stub.channel, game="michigan", players=8, language="eu")
    lobby = stub.messages(stub.channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    for guest in members[1:]:
        await stub.click(lobby, guest, custom_id=join)
    assert len(lobby.embeds[0]["fields"][0]["value"].splitlines()) == 8
    start = next(c for c in lobby.custom_ids() if c.endswith(":start"))
    await stub.click(lobby, host, custom_id=start)
    await tapis.settle()
    rng = random.Random(5)
    for _ in range(60):
        table = await tapis.tables.get(table_id)
        assert table is not None and table.state is not None
        if table.status != "playing":
            break
        seat = table.state.to_act()[0]
        user_id = table.seats[seat].user_id
        assert user_id is not None
        await tapis.tables.act(table_id, user_id, table.version,
                               rng.choice(table.state.legal_actions(seat)))
        await tapis.settle()
    message = stub.messages(stub.channel)[-1]
    embed = message.embeds[0]
    assert embed_length(embed) <= EMBED_TOTAL_MAX
    names = [f["name"] for f in embed["fields"]]
    assert translator("eu")._("Notice") in names  # a closed-DM line per seat, cut to 1,024
    assert embed["fields"][-1]["name"] == translator("eu")._("Last moves")
    hand = next(c for c in message.custom_ids() if c.endswith(":hand"))
    answer = await stub.click(message, members[1], custom_id=hand)
    assert answer.ephemeral and answer.last is not None and answer.last.embeds
    assert not stub.invalid


def test_a_history_line_cut_says_so() -> None:
    """/history's list of deals: an 8-seat deal's results with the longest names pass the 300
    characters a line keeps; the cut is marked with "…" (it was silent: the last seats' results
    simply missing)."""
    from types import SimpleNamespace

    from bot.views.history import session_message

    names = [safe_name(LONG_NAME)] * 8
    deals = [SimpleNamespace(number=n, contract=None, end=None, deltas=[n, -n, 0, 0, 0, 0, 0, 0], lines=[])
             for n in range(1, 4)]
    row = SimpleNamespace(id=7, game="michigan", version=99)
    embed = session_message(row, names, deals, "1.any.1", 0, translator("eu"))["embed"].to_dict()
    lines = embed["description"].splitlines()
    assert len(lines) == 3 and all(len(line) == 300 and line.endswith("…") for line in lines)
    assert embed_length(embed) <= EMBED_TOTAL_MAX
