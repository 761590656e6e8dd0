"""Whole sessions of the real engines through TableService, AI in every seat (all five games)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.rules import GAME_MODULES, GAMES
from bot.store.tables import load_actions
from bot.tables.ai_pool import AiPool
from bot.tables.replay import SessionLog, rebuild
from tests.backends import BACKENDS
from tests.tables.conftest import CH, HOST, G, Harness


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", GAME_MODULES)
async def test_full_session_with_ai_pays_out_and_replays(name, database, clock, config):
    game = GAMES[name]
    cfg = dataclasses.replace(config, starting_grant=100_000)
    h = await Harness(database, clock, cfg, dict(GAMES)).open()
    try:
        t = await h.svc.create(G, CH, HOST, "Ann", name, {})
        while len(t.seats) < t.capacity:
            await h.svc.add_ai(t.id, HOST)
        await h.svc.start(t.id, HOST)
        await h.svc.leave(t.id, HOST)  # the AI plays the host's seat too
        for _ in range(100):
            await h.idle()
            if t.status != "playing":
                break
            if t.to_act_users():  # (only if an AI move was refused and it fell back)
                raise AssertionError(f"a human is to act: {t.to_act_users()}")
        assert t.status == "finished", f"{name} did not finish"
        stacks = list(t.state.stacks)
        assert await h.ledger.balance(G, HOST) == 100_000 - t.buy_in + stacks[0]
        assert await h.escrow(t.id) == 0 and await h.total() == 0
        assert t.version == await h.action_count(t.id) > 0
        log = await h.db.run(load_actions, t.id)
        again = rebuild(SessionLog(game, len(t.seats), t.options, t.seed, log))
        assert json.dumps(again.view(None), sort_keys=True) == json.dumps(t.state.view(None), sort_keys=True)
        # nobody human was left, so the session closed at the end of its first deal: in the
        # history, unrated, not in stats (issue 26: a session closed early does not count)
        stat = await h.db.fetchone("SELECT sessions, net FROM stats WHERE user_id = ? AND game = ?",
                                   (HOST, name))
        assert stat is None
        row = await h.db.fetchone("SELECT rated FROM sessions WHERE table_id = ?", (t.id,))
        assert tuple(row) == (0,)
    finally:
        await h.close()


async def test_strong_ai_seats_search_off_the_event_loop(tmp_path, clock, config, monkeypatch):
    """A strong AI seat searches (with the state, on the AI pool's own thread) and its moves are logged."""
    import threading

    import bot.ai.strong.policy as strong

    searched: list[str] = []
    real_search = strong.search

    def counting_search(*args, **kwargs):
        searched.append(threading.current_thread().name)
        kwargs["budget_ms"] = 5.0
        return real_search(*args, **kwargs)

    monkeypatch.setattr(strong, "search", counting_search)
    cfg = dataclasses.replace(config, starting_grant=100_000)
    pool = AiPool(1, kind="thread")  # threads, so the patched search is the one that runs
    h = await Harness(str(tmp_path / "strong.db"), clock, cfg, dict(GAMES), ai_pool=pool).open()
    try:
        t = await h.svc.create(G, CH, HOST, "Ann", "marias", {})
        await h.svc.add_ai(t.id, HOST, "strong")
        await h.svc.add_ai(t.id, HOST, "strong")
        assert [s.level for s in t.seats[1:]] == ["strong", "strong"]
        await h.svc.start(t.id, HOST)
        await h.idle()  # the AI plays until the host is to act
        await h.svc.act(t.id, HOST, t.version, t.state.legal_actions(t.seat_of(HOST))[0])
        await h.svc.leave(t.id, HOST)
        await h.idle()  # every seat is AI: nobody attends, the session ends with this deal
        assert searched, "the strong seats never searched"
        assert set(searched) == {"tapis-ai_0"}  # the pool's one worker, never the default executor
        assert t.status == "finished" and await h.total() == 0
        log = await h.db.run(load_actions, t.id)
        again = rebuild(SessionLog(GAMES["marias"], 3, t.options, t.seed, log))
        assert json.dumps(again.view(None), sort_keys=True) == json.dumps(t.state.view(None), sort_keys=True)
    finally:
        await h.close()
