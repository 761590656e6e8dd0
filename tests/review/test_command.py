"""/review through the stand-in: refusals, a review computed on the AI pool with its progress,
stored (asking again costs nothing), and the accuracy in /stats and /history."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import reviews
from bot.tables.ai_pool import Priority
from tests.backends import BACKENDS
from tests.bot.test_history import finish_by_ai
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def small(tapis: TapisRun) -> object:
    """The review cog with a tiny search (a few rollouts per decision, no clock), and no cooldown
    between a member's answers of stored reviews (``tests/review/test_bursts.py`` tests it)."""
    cog = tapis.bot.get_cog("Reviews")
    cog.cap = 6  # type: ignore[union-attr]
    cog.budget_ms = 1e9  # type: ignore[union-attr]
    cog.answers.cooldown = 0.0  # type: ignore[union-attr]
    return cog


async def play_first_moves(tapis: TapisRun, table_id: int, moves: int) -> None:
    """The first ``moves`` moves of the humans at ``table_id``, each their first legal move, as a
    player's click plays it (the AI's seats play between them)."""
    for _ in range(moves):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        users = table.to_act_users()
        if table.status != "playing" or not users:
            return
        await tapis.tables.act(table_id, users[0], table.version,
                               table.state.legal_actions(table.seat_of(users[0]))[0])


async def review(stub: DiscordStub, asker: User, channel, **options):
    """/review, waiting for its answer (deferred while the pool works)."""
    inter = await stub.slash("review", asker, channel, **options)
    await stub.wait_for(lambda: inter.callback_type == 4 or inter.followups or (
        inter.original is not None and inter.original.edits > 0 and "Reviewing" not in inter.original.text),
        timeout=120, what="the review")
    return inter


@pytest.mark.parametrize("backend", BACKENDS)
async def test_review_of_a_finished_session(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    cog = small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await tapis.settle()

    running = await stub.slash("review", alice, stub.channel, table=table_id)
    assert running.ephemeral and "still being played" in running.text
    await play_first_moves(tapis, table_id, 12)  # alice's and bob's own decisions (the review's)
    await finish_by_ai(stub, tapis, [alice, bob], table_id)
    table = await tapis.tables.get(table_id)

    stranger = await stub.slash("review", carol, stub.channel, table=table_id)
    assert stranger.ephemeral and "for its players" in stranger.text
    nobody = await stub.slash("review", alice, stub.channel, table=table_id, user=carol)
    assert nobody.ephemeral and "did not play at table" in nobody.text

    pool = tapis.tables.ai
    calls: list[dict] = []
    real_run = pool.run

    async def recording(fn, *args, **kwargs):
        calls.append(kwargs)
        return await real_run(fn, *args, **kwargs)

    pool.run = recording  # type: ignore[method-assign]
    inter = await review(stub, alice, stub.channel, table=table_id)
    pool.run = real_run  # type: ignore[method-assign]
    assert calls and all(c.get("priority") is Priority.REVIEW and not c.get("urgent") for c in calls)
    text = inter.text
    assert inter.ephemeral and inter.callback_type == 5  # deferred: computed on the pool
    # the deferred reply showed "deal k of n analysed" (at least the last deal's), then the answer
    assert inter.original is not None and inter.original.edits >= 2 and not inter.followups
    assert f"Review of {alice.name} · table #{table_id}" in text and "Accuracy " in text
    assert "Result " in text and " = skill " in text and " + luck " in text
    names = {a.filename for a in inter.last.attachments}
    assert "skill-luck.png" in names and all(n.endswith(".png") for n in names)
    seat = table.seat_of(alice.id)
    stored = await reviews.load(tapis.db, table_id, seat)
    assert stored is not None and stored.seat == seat
    assert stored.skill + stored.luck == pytest.approx(stored.result)
    assert len(stored.deals) >= 1 and not cog.jobs and not cog.members  # type: ignore[attr-defined]

    async def never(*args, **kwargs):
        raise AssertionError("a stored review is not computed again")

    cog._job = never  # type: ignore[attr-defined]
    again = await review(stub, alice, stub.channel, table=table_id)
    assert again.text == text
    theirs = await review(stub, bob, stub.channel, table=table_id, user=alice)  # a fellow player may look
    assert theirs.text == text
    first = await review(stub, alice, stub.channel, table=table_id, deal=1)
    assert "· deal 1**" in first.text and "Accuracy" not in first.text
    beyond = await stub.slash("review", alice, stub.channel, table=table_id, deal=len(stored.deals) + 1)
    n = len(stored.deals)
    assert beyond.ephemeral and (f"choose a deal from 1 to {n}" if n > 1 else "choose deal 1") in beyond.text

    # the profile and the history show the accuracy now
    # (a session its players left early is not counted in the profile: count one for alice)
    await tapis.db.transaction(lambda conn: conn.execute(
        "INSERT INTO stats (guild_id, user_id, game, sessions, wins, net) VALUES (?, ?, 'marias', 1, 0, 0)",
        (stub.guild.id, alice.id)))
    stats = await stub.slash("stats", alice, stub.channel)
    await stub.wait_for(lambda: stats.callback_type == 4 or stats.followups, what="the profile")
    [field] = stats.last.embeds[0]["fields"]
    assert field["value"].splitlines()[-1].startswith("accuracy ")
    assert "over 1 reviewed session" in field["value"]
    listed = await stub.slash("history", alice, stub.channel)
    assert f"**#{table_id}**" in listed.text and "accuracy " in listed.text
    bobs = await stub.slash("history", bob, stub.channel)
    assert "accuracy " not in bobs.text  # bob's own seat has not been reviewed


async def test_refusals_before_any_work(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    cog = small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await finish_by_ai(stub, tapis, [alice, bob], table_id)

    missing = await stub.slash("review", alice, stub.channel, table=table_id + 1000)
    assert missing.ephemeral and f"There is no table #{table_id + 1000} in this server." in missing.text
    other = stub.add_guild("Elsewhere")
    for who in (stub.add_user("eve", other), alice):  # a stranger there, and alice, who played it here
        elsewhere = await stub.slash("review", who, other.channels[0], table=table_id)
        assert elsewhere.ephemeral and f"There is no table #{table_id} in this server." in elsewhere.text

    # one review in flight per member; a bounded queue
    cog.members[alice.id] = (table_id, 0)  # type: ignore[attr-defined]
    busy = await stub.slash("review", alice, stub.channel, table=table_id)
    assert busy.ephemeral and "previous review is still running" in busy.text
    cog.members.clear()  # type: ignore[attr-defined]
    cog.queue = 1  # type: ignore[attr-defined]
    cog.jobs[(table_id, 99)] = asyncio.get_running_loop().create_future()  # type: ignore[attr-defined]
    full = await stub.slash("review", bob, stub.channel, table=table_id)
    assert full.ephemeral and "Reviews are busy right now" in full.text
    cog.jobs.clear()  # type: ignore[attr-defined]


async def test_a_staff_only_table_is_refused_as_missing(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    """A member who cannot see the table's channel is told it does not exist (nothing leaks); one
    who can see it but did not play is told reviews are for its players."""
    from tests.bot.test_replay_scope import staff_tables

    alice, bob, carol, _ = players
    small(tapis)
    _, done, live = await staff_tables(stub, tapis, alice, carol)
    hidden = await stub.slash("review", bob, stub.channel, table=done)
    assert hidden.ephemeral and f"There is no table #{done} in this server." in hidden.text
    seen = await stub.slash("review", carol, stub.channel, table=done)
    assert seen.ephemeral and "for its players" in seen.text
    running = await stub.slash("review", carol, stub.channel, table=live)
    assert running.ephemeral and "still being played" in running.text


async def test_a_server_that_made_its_sessions_public(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    """/settings public_reviews on: a member who did not play may review a player they name (issue
    31: "for a session the server has made public, for anyone in the server"); off, they may not."""
    alice, bob, carol, _ = players
    small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await tapis.settle()
    await finish_by_ai(stub, tapis, [alice, bob], table_id)
    private = await stub.slash("review", carol, stub.channel, table=table_id, user=alice)
    assert private.ephemeral and "for its players" in private.text, private.text
    boss = stub.add_user("boss", stub.guild, admin=True)
    answer = await stub.slash("settings set", boss, stub.channel, key="public_reviews", value="on")
    assert "public_reviews" in answer.text, answer.text
    unnamed = await stub.slash("review", carol, stub.channel, table=table_id)
    assert unnamed.ephemeral and "name the player to review with user:" in unnamed.text, unnamed.text
    done = await review(stub, carol, stub.channel, table=table_id, user=alice)
    text = done.original.text if done.original is not None else done.text
    assert "for its players" not in text and "did not play" not in text, text
    assert await reviews.load(tapis.db, table_id, 0) is not None or await reviews.load(tapis.db, table_id, 1)


async def test_moves_the_table_played_for_a_seat_are_not_the_players(stub: DiscordStub, tapis: TapisRun,
                                                                    players: list[User]) -> None:
    """A player who left (or let the clock play) is reviewed on their own moves only: the AI standing
    in for them and the timeout moves are not graded as theirs, nor counted in their accuracy."""
    from bot.store import tables as store

    alice, bob, _, _ = players
    small(tapis)
    table_id, _ = await open_table(stub, alice, [bob], ai=1, game="marias")
    await play_first_moves(tapis, table_id, 3)
    await finish_by_ai(stub, tapis, [alice, bob], table_id)  # the players leave: the AI plays their seats
    table = await tapis.tables.get(table_id)
    log = await tapis.db.run(store.load_actions, table_id)
    assert any(r.actor == "player" for r in log)
    for user in (alice, bob):
        seat = table.seat_of(user.id)
        own = {r.version for r in log if r.seat == seat and r.actor == "player"}
        stood_in = [r for r in log if r.seat == seat and r.actor in ("ai", "timeout")]
        assert stood_in  # the AI played most of this seat's moves
        inter = await review(stub, user, stub.channel, table=table_id)
        stored = await reviews.load(tapis.db, table_id, seat)
        assert stored is not None
        assert {d.version for d in stored.decisions} == own
        assert stored.auto == len(stood_in)
        assert stored.skill + stored.luck == pytest.approx(stored.result)
        word = "move played for this seat" if len(stood_in) == 1 else "moves played for this seat"
        assert f"{len(stood_in)} {word}" in inter.text and "not graded" in inter.text


async def stored_review(stub: DiscordStub, tapis: TapisRun, host: User, guest: User,
                        moves: tuple[dict, dict] | None = None) -> tuple[int, object]:
    """A finished Marias table of ``host``, ``guest`` and an AI, and a review of the host's seat stored
    with one costly decision (at its first move, a move naming a card, or ``moves``: played, better),
    so /review draws it at once."""
    from bot.review import Review
    from bot.review.analysis import DealSplit, Decision
    from bot.store import tables as store

    small(tapis)
    table_id, _ = await open_table(stub, host, [guest], ai=1, game="marias")
    await finish_by_ai(stub, tapis, [host, guest], table_id)
    table = await tapis.tables.get(table_id)
    seat = table.seat_of(host.id)
    log = await tapis.db.run(store.load_actions, table_id)
    first = next(r for r in log if r.seat == seat)
    card = next(r.action for r in log if "card" in r.action)  # a move naming a card (its words, its look)
    played, better = moves or (card, card)
    costly = Decision(1, first.version, played, better, -1.0, 1.0, 2.0, "blunder", 2)
    splits = [DealSplit(1, 1.5, -2.0, 3.5, 1.0), DealSplit(2, -4.0, 0.0, -4.0, 0.0)]
    await reviews.save(tapis.db, table_id=table_id, guild_id=stub.guild.id, user_id=host.id,
                       review=Review("marias", seat, "jetons", 4.0, [costly], splits, 0.0),
                       budget_ms=1.0, now=0.0)
    return table_id, table


async def test_a_decisions_picture_names_the_seats_as_the_table_did(stub: DiscordStub, tapis: TapisRun,
                                                                   players: list[User],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat names drawn on a costly decision's picture are the names as typed (no Markdown
    escapes: a picture is not a message), an AI seat's in the reader's language, as /replay draws them."""
    import bot.render.review as pictures
    from bot.i18n import translator

    alice, bob = players[0], stub.add_user("bob_b*", stub.guild)
    table_id, table = await stored_review(stub, tapis, alice, bob)
    await stub.slash("language", alice, stub.channel, language="fr")
    drawn: list[list[str]] = []
    real = pictures.decision_image

    def spy(game, view, names, *rest):  # type: ignore[no-untyped-def]
        drawn.append(list(names))
        return real(game, view, names, *rest)

    monkeypatch.setattr(pictures, "decision_image", spy)
    inter = await review(stub, alice, stub.channel, table=table_id)
    assert "decision-1.png" in {a.filename for a in inter.last.attachments}
    fr = translator("fr")
    expected = [fr._("AI {n}", n=str(s.name.split()[-1])) if s.ai else s.name for s in table.seats]
    assert "bob_b*" in expected and any(s.ai for s in table.seats)
    assert drawn == [expected]


@pytest.mark.parametrize("lang", ["en", "cs"])
async def test_the_pictures_alt_texts_say_what_they_show(stub: DiscordStub, tapis: TapisRun,
                                                         players: list[User], lang: str) -> None:
    """A screen reader hears the position of a costly decision (the table, and the hand the player
    held, card by card) and each deal's figures of the chart, not only the pictures' titles."""
    from bot.i18n import translator
    from bot.review.points import view_at
    from bot.review.text import value
    from bot.rules.looks import table_look
    from bot.store import tables as store
    from bot.views.alt import cards_text

    alice, bob = players[:2]
    table_id, table = await stored_review(stub, tapis, alice, bob)
    await stub.slash("language", alice, stub.channel, language=lang)
    inter = await review(stub, alice, stub.channel, table=table_id)
    alts = {a.filename: a.description or "" for a in inter.last.attachments}
    tr = translator(lang).dressed(table_look(table.rules.pack_choices, table.options))  # the table's cards
    stored = await reviews.load(tapis.db, table_id, table.seat_of(alice.id))
    [d] = stored.decisions
    log = await tapis.db.run(store.load_actions, table_id)
    view = view_at(table.rules, len(table.seats), table.options, table.seed, log, d.version, stored.seat)
    decision = alts["decision-1.png"]
    played, better = table.rules.label(d.played, tr), table.rules.label(d.best, tr)
    assert decision.startswith(tr._("Deal {deal}: played {played}, better {better}", deal=1, played=played,
                                    better=better))
    assert tr._("Table image of {game}, table #{id}.", game=tr._(table.rules.title), id=table_id) in decision
    held = [c for c in view["hand"]]
    assert held and all(cards_text([c], "marias", tr) in decision for c in held)
    assert len(decision) <= 1024
    chart = alts["skill-luck.png"]
    for split in stored.deals:
        assert all(value(x, tr) in chart for x in (split.result, split.skill, split.luck))


@pytest.mark.parametrize("lang", ["en", "cs"])
async def test_a_review_names_the_cards_as_the_table_showed_them(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User], lang: str) -> None:
    """Marias is played with the Czech pack by default: the review's text names the moves' cards in
    it (as the table, /history, /replay and the decision's picture show them), not in French suits."""
    from bot.i18n import translator
    from bot.rules.looks import table_look

    alice, bob = players[:2]
    table_id, table = await stored_review(stub, tapis, alice, bob)
    await stub.slash("language", alice, stub.channel, language=lang)
    inter = await review(stub, alice, stub.channel, table=table_id)
    [d] = (await reviews.load(tapis.db, table_id, table.seat_of(alice.id))).decisions
    shown = translator(lang).dressed(table_look(table.rules.pack_choices, table.options))
    assert table.rules.label(d.played, shown) != table.rules.label(d.played, translator(lang))
    assert f"**{table.rules.label(d.played, shown)}**" in inter.text
    await stub.slash("cards", alice, stub.channel, pack="french")  # a player's own /cards choice wins
    again = await review(stub, alice, stub.channel, table=table_id)
    assert f"**{table.rules.label(d.played, translator(lang))}**" in again.text


async def test_a_reviewed_move_is_worded_as_its_button_was(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    """A Marias doubling is offered as the level it reaches ("Flek ×2" when nothing was doubled yet):
    the review's line and its picture's alt text word it so (they said the bare "Flek")."""
    alice, bob = players[:2]
    table_id, _ = await stored_review(stub, tapis, alice, bob, ({"type": "flek"}, {"type": "pass"}))
    inter = await review(stub, alice, stub.channel, table=table_id)
    assert "played **Flek ×2**" in inter.text, inter.text
    alts = {a.filename: a.description or "" for a in inter.last.attachments}
    assert alts["decision-1.png"].startswith("Deal 1: played Flek ×2, better Pass"), alts
