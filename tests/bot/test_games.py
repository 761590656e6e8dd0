"""Every registered game through Discord: clicks and selects from DMs and My hand, then /table end."""

from __future__ import annotations

import random

import pytest

from bot.rules import GAMES
from bot.store import tables as store
from bot.views.moves import SELECT_SIZE, Controls, layout
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import latest_dm_with_moves, play_once
from tests.discord_stub.tapis import TapisRun

MOVES = 25


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_game_plays_then_host_ends(game: str, stub: DiscordStub, tapis: TapisRun,
                                         players: list[User]) -> None:
    rules = GAMES[game]
    humans = players[: min(3, rules.max_seats)]
    ai = max(0, rules.min_seats - len(humans), 1 if rules.max_seats > len(humans) else 0)
    table_id, table_msg = await open_table(stub, humans[0], humans[1:], ai=ai, game=game)
    by_id = {u.id: u for u in humans}
    rng = random.Random(11)
    for n in range(MOVES):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        if table.status != "playing":
            break
        await play_once(stub, tapis, table_id, by_id[table.to_act_users()[0]], rng,
                        via="hand" if n % 3 == 2 else "dm")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    if table.status == "playing":  # the seated host's "now" waits for the end of the deal
        inter = await stub.slash("table end", humans[0], stub.channel, now=True)
        # (at the very start of a deal, a game's rules may close at once: nothing is voided then)
        assert inter.ephemeral and ("end of this deal" in inter.text or "closed" in inter.text), inter.text
        await tapis.settle()
    if table.status == "playing":  # a server admin who is not seated may end at once
        admin = stub.add_user("admin", stub.guild, admin=True)
        inter = await stub.slash("table end", admin, stub.channel, now=True)
        assert inter.ephemeral and "closed" in inter.text, inter.text
        await tapis.settle()
    assert table.status == "finished"
    assert [c["custom_id"].split(":")[3] for c in table_msg.items()] == ["again"]  # Play again only
    assert await tapis.ledger.accounts_total() == 0
    for user in humans:
        balance = await tapis.ledger.balance(stub.guild.id, user.id)
        assert balance == 1000 + table.results[table.seat_of(user.id)]


async def test_moves_by_select(stub: DiscordStub, tapis: TapisRun, players: list[User],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move offered in one select: choosing a value applies that legal action."""
    from bot.views import components

    def one_select(legal: list, label: object, rows: int = 5, **names: object) -> Controls:
        return Controls(selects=[("Move…", [(str(i), i) for i in range(len(legal))][:SELECT_SIZE])])

    monkeypatch.setattr(components, "layout", one_select)
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], game="michigan")
    by_id = {u.id: u for u in (alice, bob, carol)}
    for _ in range(6):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        user = by_id[table.to_act_users()[0]]
        seat, version = table.seat_of(user.id), table.version
        expected = table.state.legal_actions(seat)[-1]
        dm = latest_dm_with_moves(stub, user, table_id, version)
        [select] = dm.selects()
        inter = await stub.choose(dm, user, [select["options"][-1]["value"]])
        assert inter.callback_type == 7, inter.text
        actions = await tapis.db.run(store.load_actions, table_id)
        assert actions[version].action == expected and actions[version].seat == seat


def test_layout_buttons_then_selects() -> None:
    label = str
    few = [{"type": "play", "card": c} for c in "ABCD"]
    assert len(layout(few, label).buttons) == 4 and not layout(few, label).selects
    many = [{"type": "bid", "amount": i} for i in range(60)] + [{"type": "pass"}, {"type": "fold"}]
    controls = layout(many, label)
    assert len(controls) == 62 and controls.rows() <= 5
    assert sorted(i for _, i in controls.buttons) == [60, 61]
    assert all(len(opts) <= SELECT_SIZE for _, opts in controls.selects)
    flat = sorted([i for _, i in controls.buttons] + [i for _, opts in controls.selects for _, i in opts])
    assert flat == list(range(62))
    huge = [{"type": f"t{i % 9}", "x": i} for i in range(120)]
    controls = layout(huge, label)
    assert controls.rows() <= 5 and len(controls) == 120
