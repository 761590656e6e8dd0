"""Who gets their buy-in back and what the prizes were: a late Mus half pair, a late entrant of an
event ended early, an entrant stored as half a pair by an older version; the "Prizes:" line is what
the store paid. Every jeton moved is a balanced ledger entry: the ledger sums to 0, the pool ends
empty, and the members' wallets hold what they started with."""

from __future__ import annotations

import pytest

from bot.tournaments.model import FINISHED, RUNNING, Tournament
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import create, join_all, ledger_total, people, play_round, pool_balance, quiet

MUS = {"game": "mus", "options": "best_of=1 target=30 matches=1"}


async def wallets(run: TapisRun, stub: DiscordStub, members: list[User]) -> list[int]:
    return [await run.ledger.balance(stub.guild.id, u.id) for u in members]


async def stored_prizes(run: TapisRun, tid: int) -> dict[str, int]:
    """``tournament_players.prize`` of every member paid, by name."""
    assert run.db is not None
    rows = await run.db.fetchall(
        "SELECT name, prize FROM tournament_players WHERE tournament_id = ? AND prize > 0", (tid,))
    return {str(r[0]): int(r[1]) for r in rows}


def announced_prizes(stub: DiscordStub, tid: int) -> dict[str, int]:
    """The prizes the final message names ("Prizes: p0 200, p1 200.")."""
    final = [m.text for m in stub.messages(stub.channel) if m.text.startswith(f"Tournament #{tid} is over.")]
    assert len(final) == 1, final
    listed = final[0].split("Prizes: ")[1].rstrip(".")
    return {name: int(amount) for name, amount in (item.rsplit(" ", 1) for item in listed.split(", "))}


async def start_two_pairs(stub: DiscordStub, run: TapisRun, m: list[User],
                          rounds: int) -> tuple[int, Tournament]:
    """A Mus event of two pairs (m0 & m1, m2 & m3), buy-in 100, started."""
    tid = await create(stub, m[0], rounds=rounds, buy_in=100, **MUS)
    for a, b in ((0, 1), (1, 0), (2, 3), (3, 2)):
        await stub.slash("tournament join", m[a], stub.channel, tournament=tid, partner=m[b])
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(run)
    t = run.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == RUNNING
    return tid, t


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_late_half_pair_is_refunded_when_the_next_round_is_seated(stub: DiscordStub,
                                                                          tapis: TapisRun) -> None:
    """m4 joins after the start naming m5, who never joins: when round 2 is seated m4 gets the buy-in
    back and is out; the winners share the two pairs' 400 jetons, as the final message says."""
    m = people(stub, 6)
    tid, t = await start_two_pairs(stub, tapis, m, rounds=2)
    inter = await stub.slash("tournament join", m[4], stub.channel, tournament=tid, partner=m[5])
    assert "your buy-in comes back" in inter.text, inter.text
    assert (await wallets(tapis, stub, m[4:5])) == [900]
    await play_round(tapis, tid)
    assert t.round == 2 and t.entrant_of(m[4].id) is None
    assert (await wallets(tapis, stub, m[4:5])) == [1000]
    inter = await stub.slash("tournament leave", m[4], stub.channel, tournament=tid)
    assert "not registered" in inter.text, inter.text
    await play_round(tapis, tid)
    assert t.status == FINISHED
    paid = await stored_prizes(tapis, tid)
    assert sum(paid.values()) == 400 and "p4" not in paid  # the two pairs' buy-ins, no more
    assert announced_prizes(stub, tid) == paid
    assert sum(await wallets(tapis, stub, m[:5])) == 5 * 1000
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


async def test_a_late_entrant_of_an_event_ended_early_is_refunded(stub: DiscordStub, tapis: TapisRun) -> None:
    """p3 joins in round 1 (to play from round 2); the host ends the event after round 1: p3 never sat
    at a table, so p3 is not ranked (a club night ranks by net: 0 would beat a loss) and gets the
    buy-in back; the three who played share their 150 jetons."""
    m = people(stub, 4)
    tid = await create(stub, m[0], game="marias", rounds=3, buy_in=50, options="rounds=1")
    await join_all(stub, tid, m[:3])
    await stub.slash("tournament start", m[0], stub.channel, tournament=tid)
    await quiet(tapis)
    await join_all(stub, tid, m[3:])
    inter = await stub.slash("tournament end", m[0], stub.channel, tournament=tid)
    assert "ends after this round" in inter.text, inter.text
    await play_round(tapis, tid)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == FINISHED
    assert t.entrant_of(m[3].id) is None
    assert "p3" not in [s.name for s in tapis.bot.tournaments.standings(t)]  # type: ignore[union-attr]
    assert (await wallets(tapis, stub, m[3:])) == [1000]
    paid = await stored_prizes(tapis, tid)
    assert sum(paid.values()) == 150 and "p3" not in paid
    assert announced_prizes(stub, tid) == paid
    assert sum(await wallets(tapis, stub, m)) == 4 * 1000
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


async def test_a_half_pair_left_by_an_older_version_may_leave_refunded(stub: DiscordStub,
                                                                      tapis: TapisRun) -> None:
    """An event stored by the older runner, which kept a late half pair past its first round (m4,
    from round 2, in round 2): after a restart, m4 leaves and gets the buy-in back, as an entrant
    who never sat at a table; and one such entrant left at the end is refunded before the prizes."""
    from bot.store import tournaments as store

    m = people(stub, 8)
    tid, t = await start_two_pairs(stub, tapis, m, rounds=2)
    await play_round(tapis, tid)
    assert t.round == 2
    grant = tapis.config.starting_grant

    def stored_half(conn: object, user: User, mate: User) -> None:  # what the older runner left
        eid = store.insert_entrant(conn, tid, 2, 0.0)  # type: ignore[arg-type]
        store.add_player(conn, t, eid, user.id, user.name, 0.0, grant, mate.id)  # type: ignore[arg-type]

    for user, mate in ((m[4], m[5]), (m[6], m[7])):
        await tapis.db.transaction(stored_half, user, mate)  # type: ignore[union-attr]
    await tapis.stop()
    await tapis.restart()
    await quiet(tapis)
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.round == 2 and t.entrant_of(m[4].id) is not None
    assert (await wallets(tapis, stub, [m[4], m[6]])) == [900, 900]
    inter = await stub.slash("tournament leave", m[4], stub.channel, tournament=tid)
    assert "your buy-in is back" in inter.text, inter.text
    await play_round(tapis, tid)
    assert t.status == FINISHED and t.entrant_of(m[6].id) is None
    assert (await wallets(tapis, stub, [m[4], m[6]])) == [1000, 1000]
    paid = await stored_prizes(tapis, tid)
    assert sum(paid.values()) == 400 and announced_prizes(stub, tid) == paid
    assert sum(await wallets(tapis, stub, m[:7])) == 7 * 1000
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0
