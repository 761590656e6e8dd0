"""Issue 28.1: seats chosen in the lobby, the host's seat controls, invitations, invitation-only."""

from __future__ import annotations

import random

from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun

SHORT_MUS = "target=30"


def select(message: Message, verb: str) -> dict:
    """The lobby select whose custom id ends with ``verb`` (``seat`` or ``host``)."""
    return next(s for s in message.selects() if s["custom_id"].endswith(":" + verb))


def values(message: Message, verb: str) -> dict[str, str]:
    """label -> value of a lobby select."""
    return {o["label"]: o["value"] for o in select(message, verb)["options"]}


async def choose(stub: DiscordStub, lobby: Message, user: User, verb: str, value: str):
    return await stub.choose(lobby, user, [value], custom_id=select(lobby, verb)["custom_id"])


async def host_move(stub: DiscordStub, lobby: Message, host: User, name: str, to: int):
    """The host moves ``name`` to seat ``to`` (1-based) in two steps: the player in the lobby's
    select, then the seat in the select sent to the host alone. Returns the second answer."""
    picked = await choose(stub, lobby, host, "host", values(lobby, "host")[f"Move {name}…"])
    assert picked.ephemeral and f"Where should {name} sit?" in picked.text, picked.text
    seats = picked.last
    return await choose(stub, seats, host, "host", values(seats, "host")[f"Move {name} to seat {to}"])


async def test_a_full_mus_session_whose_pairs_were_chosen_in_the_lobby(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    await stub.slash("table new", alice, stub.channel, game="mus", options=SHORT_MUS)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    # carol takes seat 3 (alice's partner), bob seat 2: not click order
    sat = await choose(stub, lobby, carol, "seat", values(lobby, "seat")["Seat 3"])
    assert sat.ephemeral and "joined" in sat.text, sat.text
    await tapis.settle()
    assert "Seat 3" not in values(lobby, "seat")
    # a stale select: bob picks seat 3 from the list he saw before carol took it
    taken = await choose(stub, lobby, bob, "seat", "2")
    assert taken.ephemeral and "Seat 3 is taken" in taken.text, taken.text
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == tapis.config.starting_grant  # nothing paid
    await choose(stub, lobby, bob, "seat", "1")
    await stub.click(lobby, dave, "Join")
    await tapis.settle()
    assert [s.name for s in table.seats] == ["alice", "bob", "carol", "dave"]
    assert table.plan.places == [0, 1, 2, 3]
    # the host swaps bob and dave: pairs alice & carol, dave & bob
    moved = await host_move(stub, lobby, alice, "bob", 4)
    assert moved.ephemeral and "moved to seat 4" in moved.text, moved.text
    await tapis.settle()
    assert [s.name for s in table.seats] == ["alice", "dave", "carol", "bob"]
    assert "`4.` **bob**" in lobby.text and "`2.` **dave**" in lobby.text
    started = await stub.click(lobby, alice, "Start")
    assert "starts" in started.text, started.text
    table = await tapis.tables.get(table.id)
    assert [s.name for s in table.seats] == ["alice", "dave", "carol", "bob"]
    users = {u.id: u for u in (alice, bob, carol, dave)}
    await play_session(stub, tapis, table.id, users, random.Random(3))
    await tapis.settle()
    table = await tapis.tables.get(table.id)
    assert table.status == "finished"
    # partners (seats 0 & 2, 1 & 3) end with the same result
    assert table.results[0] == table.results[2] and table.results[1] == table.results[3]
    assert table.results[0] != 0


async def test_the_host_moves_removes_and_hands_over(stub: DiscordStub, tapis: TapisRun,
                                                     players: list[User]) -> None:
    alice, bob, carol, _ = players
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    await stub.click(lobby, bob, "Join")
    await stub.click(lobby, carol, "Join")
    await tapis.settle()
    choices = values(lobby, "host")
    assert "Remove alice" not in choices  # never themselves
    refused = await choose(stub, lobby, bob, "host", choices["Remove carol"])
    assert refused.ephemeral and "Only the host" in refused.text
    forged = await choose(stub, lobby, alice, "host", f"r.0.{alice.id}")
    assert forged.ephemeral and "cannot remove themselves" in forged.text, forged.text
    before = await tapis.ledger.balance(stub.guild.id, carol.id)
    removed = await choose(stub, lobby, alice, "host", choices["Remove carol"])
    assert removed.ephemeral and "removed" in removed.text, removed.text
    assert await tapis.ledger.balance(stub.guild.id, carol.id) == before + table.buy_in
    again = await choose(stub, lobby, alice, "host", choices["Remove carol"])  # applied once
    assert again.ephemeral and "changed meanwhile" in again.text, again.text
    assert await tapis.ledger.balance(stub.guild.id, carol.id) == before + table.buy_in
    await tapis.settle()
    handed = await choose(stub, lobby, alice, "host", values(lobby, "host")["Make bob the host"])
    assert handed.ephemeral and "host now" in handed.text
    assert table.host_id == bob.id
    late = await choose(stub, lobby, alice, "host", values(lobby, "host")["Remove alice"])
    assert late.ephemeral and "Only the host" in late.text
    await stub.click(lobby, bob, "Add AI")
    await stub.click(lobby, bob, "Start")
    after = await choose(stub, lobby, bob, "host", f"r.0.{alice.id}")  # never after the start
    assert after.ephemeral and "no longer in its lobby" in after.text, after.text
    assert table.seat_of(alice.id) == 0


async def test_invitations_and_an_invitation_only_table(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    alice, bob, carol, dave = players
    opened = await stub.slash("table new", alice, stub.channel, game="mus", invite=bob, invite2=dave,
                              invite_only=True)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert table.plan.invited == {bob.id: 1, dave.id: 2} and table.plan.invite_only
    invitations = [m for m in stub.messages(stub.channel) if "invites you" in m.text]
    assert sorted(m.text.split(":")[0] for m in invitations) == [f"<@{bob.id}>", f"<@{dave.id}>"]
    bodies = [c.json for c in stub.calls
              if isinstance(c.json, dict) and "invites you" in str(c.json.get("content"))]
    assert sorted((b["allowed_mentions"]["parse"], b["allowed_mentions"]["users"]) for b in bodies) == [
        ([], [bob.id]), ([], [dave.id])], bodies
    # no other message of Tapis may mention anyone
    others = [c.json for c in stub.calls if isinstance(c.json, dict) and c.json not in bodies
              and "allowed_mentions" in c.json]
    assert all(not b["allowed_mentions"].get("users") and not b["allowed_mentions"].get("parse")
               for b in others), others
    lobby = stub.message(table.message_id)
    assert f"kept for <@{bob.id}>" in lobby.text and "invitation only" in lobby.text
    assert values(lobby, "seat") == {"Seat 4": "3"}
    refused = await stub.click(lobby, carol, "Join")
    assert refused.ephemeral and "invitation only" in refused.text, refused.text
    refused = await choose(stub, lobby, carol, "seat", "3")
    assert refused.ephemeral and "invitation only" in refused.text
    assert await tapis.ledger.balance(stub.guild.id, carol.id) in (None, tapis.config.starting_grant)
    joined = await stub.click(lobby, bob, "Join")
    assert "joined" in joined.text
    assert table.seat_of(bob.id) == 1 and bob.id not in table.plan.invited
    assert opened.callback_type in (4, 5)


async def test_bad_invitations(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    robot = stub.add_user("robot", stub.guild)
    robot.bot = True
    stranger = stub.add_user("stranger")  # not a member of the server
    for kwargs, words in (({"invite": robot}, "is a bot"), ({"invite": alice}, "cannot invite yourself"),
                          ({"invite": bob, "invite2": bob}, "invited twice"),
                          ({"invite": stranger}, "not a member of this server"),
                          ({"invite_only": True}, "needs at least one")):
        inter = await stub.slash("table new", alice, stub.channel, game="mus", **kwargs)
        assert inter.ephemeral and words in inter.text, (kwargs, inter.text)
    assert not await tapis.tables.tables_in_channel(stub.channel.id)
    full = await stub.slash("table new", alice, stub.channel, game="motz", players=3, invite=bob,
                            invite2=players[2], invite3=players[3])
    assert full.ephemeral and "full" in full.text, full.text


async def test_an_unanswered_invitation_lapses_with_the_lobby_and_survives_a_restart(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="mus", invite=bob, invite_only=True)
    await tapis.settle()
    await tapis.stop()
    await tapis.restart()
    [again] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert again.plan.invited == {bob.id: 1} and again.plan.invite_only
    await tapis.tables.end(again.id, alice.id, False)
    assert again.status == "cancelled"
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == tapis.config.starting_grant
    assert await tapis.ledger.balance(stub.guild.id, bob.id) in (None, tapis.config.starting_grant)


async def test_the_host_reaches_every_seat_of_a_full_michigan_lobby(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Eight seats: 56 moves, which one select of 25 options cut to the moves of seats 1 and 2. The
    host picks the player, then the seat; another member's or a stale pick is refused."""
    alice, bob, carol, *_ = players
    others = [*players[1:], *(stub.add_user(name, stub.guild) for name in ("erin", "finn", "gail", "hugo"))]
    await stub.slash("table new", alice, stub.channel, game="michigan", players=8)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    for user in others:
        assert "joined" in (await stub.click(lobby, user, "Join")).text
    await tapis.settle()
    assert [s.name for s in table.seats] == ["alice", "bob", "carol", "dave", "erin", "finn", "gail", "hugo"]
    assert table.seat_of(others[-1].id) == 7
    pick = values(lobby, "host")["Move hugo…"]
    refused = await choose(stub, lobby, bob, "host", pick)  # not the host
    assert refused.ephemeral and "Only the host" in refused.text, refused.text
    moved = await host_move(stub, lobby, alice, "hugo", 3)  # seat 8 to 3: carol takes seat 8
    assert moved.ephemeral and "moved to seat 3" in moved.text, moved.text
    await tapis.settle()
    assert [s.name for s in table.seats] == ["alice", "bob", "hugo", "dave", "erin", "finn", "gail", "carol"]
    stale = await choose(stub, lobby, alice, "host", pick)  # hugo no longer sits at seat 8
    assert stale.ephemeral and "changed meanwhile" in stale.text, stale.text
    seats = (await choose(stub, lobby, alice, "host", values(lobby, "host")["Move carol…"])).last
    forged = await choose(stub, seats, bob, "host", values(seats, "host")["Move carol to seat 1"])
    assert forged.ephemeral and "Only the host" in forged.text, forged.text
    assert table.seat_of(carol.id) == 7 and table.seat_of(alice.id) == 0


async def test_the_host_fills_a_seat_kept_for_an_invitee_who_never_answers_with_an_ai(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Mus needs its four seats: bob, invited, never comes; once every other seat is taken, Add AI
    sits the AI in the seat kept for him (his invitation lapses) and the game can start."""
    alice, bob, carol, dave = players
    await stub.slash("table new", alice, stub.channel, game="mus", invite=bob)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    lobby = stub.message(table.message_id)
    await stub.click(lobby, carol, "Join")
    await stub.click(lobby, dave, "Join")
    await tapis.settle()
    assert table.plan.places == [0, 2, 3] and table.plan.invited == {bob.id: 1}
    [invitation] = [m for m in stub.messages(stub.channel) if "invites you" in m.text]
    assert "unless the host gives it to an AI player" in invitation.text, invitation.text  # he was told
    added = await stub.click(lobby, alice, "Add AI")
    assert "AI player" in added.text, added.text
    assert [(s.name, s.ai) for s in table.seats] == [("alice", False), ("AI 1", True), ("carol", False),
                                                      ("dave", False)]
    assert table.plan.places == [0, 1, 2, 3] and table.plan.invited == {}
    late = await stub.click(lobby, bob, "Join")
    assert late.ephemeral and "full" in late.text, late.text
    started = await stub.click(lobby, alice, "Start")
    assert "starts" in started.text, started.text
    assert table.status == "playing"


async def test_an_invitee_who_leaves_an_invitation_only_lobby_may_sit_again(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Bob, invited to an invitation-only lobby, sits, leaves (a slip, or to think it over) and comes
    back: his seat is kept for him again, not refused as if he had never been invited (the host
    cannot invite anyone once the lobby is open). A player the host removes is not invited back."""
    alice, bob, carol, _ = players
    await stub.slash("table new", alice, stub.channel, game="mus", invite=bob, invite2=carol,
                     invite_only=True)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    lobby = stub.message(table.message_id)
    await stub.click(lobby, bob, "Join")
    await stub.click(lobby, carol, "Join")
    left = await stub.click(lobby, bob, "Leave")
    assert left.ephemeral, left.text
    assert table.plan.invited == {bob.id: 1}
    await tapis.settle()
    assert f"kept for <@{bob.id}>" in lobby.text
    back = await stub.click(lobby, bob, "Join")
    assert "joined" in back.text, back.text
    assert table.seat_of(bob.id) == 1
    await tapis.settle()
    removed = await choose(stub, lobby, alice, "host", values(lobby, "host")["Remove carol"])
    assert removed.ephemeral and "removed" in removed.text, removed.text
    assert table.plan.invited == {}
    refused = await stub.click(lobby, carol, "Join")
    assert refused.ephemeral and "invitation only" in refused.text, refused.text


async def test_an_ai_level_the_server_no_longer_allows_is_refused_in_the_readers_words(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The server lets only strong AI players sit once the lobby is open: the host's click on the
    lobby's "Add AI" (easy) is refused with the levels in the host's language, not their identifiers."""
    alice = players[0]
    alice.locale = "fr"
    boss = stub.add_user("boss", stub.guild, admin=True)
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    lobby = stub.message(table.message_id)
    await stub.slash("settings set", boss, stub.channel, key="ai_levels", value="strong")
    refused = await stub.click(lobby, alice, custom_id=f"tapis:{table.id}:0:ai")
    assert refused.ephemeral and "facile" in refused.text and "forte" in refused.text, refused.text
    assert "easy" not in refused.text and "strong" not in refused.text, refused.text
    assert len(table.seats) == 1


async def test_the_host_picking_a_player_to_move_reads_their_name_as_the_lobby_shows_it(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The host's "Where should … sit?" names an AI seat in the host's language ("IA 1" in French, as
    the select they picked it from) and a member's name as typed, never as markup."""
    alice, bob = players[:2]
    alice.locale = "fr"
    bob.name = "*bob*"
    await stub.slash("table new", alice, stub.channel, game="motz", players=4)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    lobby = stub.message(table.message_id)
    await stub.click(lobby, alice, custom_id=f"tapis:{table.id}:0:ai")
    await stub.click(lobby, bob, custom_id=f"tapis:{table.id}:0:join")
    await tapis.settle()
    assert [s.name for s in table.seats] == ["alice", "AI 1", "*bob*"]
    ai = await choose(stub, lobby, alice, "host", "p.1.ai")
    assert ai.ephemeral and ai.text.startswith("Où placer IA 1 ?"), ai.text
    human = await choose(stub, lobby, alice, "host", f"p.2.{bob.id}")
    assert human.ephemeral and human.text.startswith("Où placer \\*bob\\* ?"), human.text


async def test_a_stranger_refused_at_an_invitation_only_lobby_is_not_sent_to_the_host(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Nobody can be invited once a lobby is open: the refusal does not tell a stranger to ask the host
    for an invitation the host could not send; it says who may sit, in the stranger's language."""
    alice, bob, carol, _ = players
    carol.locale = "fr"
    await stub.slash("table new", alice, stub.channel, game="mus", invite=bob, invite_only=True)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    refused = await stub.click(stub.message(table.message_id), carol, custom_id=f"tapis:{table.id}:0:join")
    assert refused.ephemeral and "sur invitation seulement" in refused.text, refused.text
    assert "inviter" not in refused.text and "hôte" not in refused.text, refused.text
    assert "seuls les membres invités" in refused.text, refused.text
