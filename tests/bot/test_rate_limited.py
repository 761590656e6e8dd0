"""Under Discord's rate limits: whole sessions still end with every view showing the final state.

The stand-in enforces the global 50 requests/s as Discord does; the per-channel message buckets
keep Discord's shape (5 per window, headers, 429 bodies) with the window shortened from 5 s to
0.25 s so a session of a hundred moves takes seconds, not minutes.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.rules import GAMES
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import play_session
from tests.discord_stub.ratelimit import ROUTE_LIMITS, Limit, RateLimits
from tests.discord_stub.tapis import TapisRun

SHORT = {"maitre": "tours=1", "marias": "rounds=1", "michigan": "rotations=1"}  # whole sessions, but short
VERSION = re.compile(r"table (\d+) · version (\d+)")


def fast_windows() -> RateLimits:
    return RateLimits(routes={k: Limit(v.limit, 0.25, v.name) for k, v in ROUTE_LIMITS.items()})


def version_of(message: Message) -> int:
    found = VERSION.search(message.text)
    assert found, message.text
    return int(found.group(2))


@pytest.mark.parametrize("via", ["webhook", "channel"])
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_full_session_under_rate_limits(game: str, via: str, stub: DiscordStub, tapis: TapisRun,
                                              players: list[User]) -> None:
    """``via``: the table message is edited through the Start click's token (its first 14 minutes),
    or through the channel (after them: its per-channel bucket and the global limit)."""
    if via == "channel":
        tapis.bot.presenter.table_tokens.life = 0.0
    limits = stub.enforce_rate_limits(fast_windows())
    rules = GAMES[game]
    humans = players[:2]  # the other seats are AI: fewer clicks, the same traffic per move
    ai = max(0, rules.min_seats - len(humans))
    table_id, table_msg = await open_table(stub, humans[0], humans[1:], ai=ai, game=game,
                                           **({"options": SHORT[game]} if game in SHORT else {}))
    moves = await play_session(stub, tapis, table_id, {u.id: u for u in humans}, random.Random(5))
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.status == "finished" and moves > 0
    final = table.version
    assert "The session is over." in table_msg.text and version_of(table_msg) == final
    for user in humans:
        last = stub.dms(user)[-1]
        assert "The session is over." in last.text, (user.name, last.text)
        assert version_of(last) == final
        assert not last.components  # no stale buttons left
    presenter = tapis.bot.presenter
    assert table_id not in presenter.records  # let go: its clicks (and their interactions) with it
    assert not stub.repeated_429s()
    assert limits.refused == len(stub.rate_limited())
    in_channel = [c for c in stub.calls_to("PATCH", "/channels/{cid}/messages/{mid}")
                  if c.path.endswith(f"/{table_msg.id}")]
    assert (len(in_channel) > 0) == (via == "channel")
