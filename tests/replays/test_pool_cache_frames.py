"""The replay pool's admission, the cache's bounds and keys, and which frames a replay keeps."""

from __future__ import annotations

import random

import pytest

from bot.replays.cache import ReplayCache, ReplayKey
from bot.replays.frames import kept_indices, repeated_rounds, replay_frames
from bot.replays.jobs import Busy, ReplayJobs
from bot.rules import GAMES
from bot.store.tables import ActionRow
from bot.tables.deals import deal_frames
from bot.tables.replay import SessionLog


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def reason(jobs: ReplayJobs, member: int) -> str | None:
    try:
        jobs.admit(member)
    except Busy as busy:
        return busy.reason
    return None


def test_admission_one_per_member_bounded_queue_cooldown() -> None:
    clock = Clock()
    jobs = ReplayJobs(workers=1, waiting=2, cooldown=5.0, clock=clock)
    try:
        assert [reason(jobs, m) for m in (1, 1, 2, 3, 4)] == [None, "running", None, None, "full"]
        jobs.release(1)
        assert reason(jobs, 1) == "cooldown" and reason(jobs, 4) is None
        clock.now = 4.0
        with pytest.raises(Busy) as busy:
            jobs.admit(1)
        assert busy.value.retry_after == pytest.approx(1.0)
        clock.now = 5.0
        jobs.release(2)
        assert reason(jobs, 1) is None  # 1's cooldown is over (and forgotten); 2's started at 5
        assert list(jobs.ended) == [2]
    finally:
        jobs.close()


def key(**changes: object) -> ReplayKey:
    base = dict(table=1, deal=1, reveal=False, lang="en", fmt="webp", names=("a", "b"), limit=10,
                version=None)
    base.update(changes)
    return ReplayKey(**base)  # type: ignore[arg-type]


def test_cache_keys_never_mix_and_the_cache_is_bounded() -> None:
    cache: ReplayCache[str] = ReplayCache(entries=3, size=100)
    cache.put(key(), "spectators", 10)
    for other in (key(reveal=True), key(lang="fr"), key(fmt="gif"), key(version=7), key(names=("a", "c")),
                  key(limit=5)):
        assert cache.get(other) is None
    assert cache.get(key()) == "spectators"
    cache.put(key(deal=2), "two", 10)
    cache.put(key(deal=3), "three", 10)
    cache.get(key())  # the first is now the most recently used
    cache.put(key(deal=4), "four", 10)  # past three entries: deal 2 goes
    assert cache.get(key(deal=2)) is None and len(cache) == 3
    cache.put(key(deal=5), "big", 90)  # past 100 bytes: the least recently used go
    assert cache.used <= 100 and cache.get(key(deal=5)) == "big"
    cache.put(key(deal=6), "huge", 101)  # larger than the cache: not kept
    assert cache.get(key(deal=6)) is None


def test_kept_indices_keep_the_first_and_last_moves() -> None:
    assert kept_indices(5, 10, set(), 120) == ([0, 1, 2, 3, 4], 0)
    kept, skipped = kept_indices(300, 0, set(), 10)
    assert kept == [0, 1, 2, 3, 4, 295, 296, 297, 298, 299] and skipped == 290
    # moves 11 and 12 (views 2 and 3 of a deal starting at version 10) are dropped
    assert kept_indices(6, 10, {11, 12}, 120) == ([0, 1, 4, 5], 2)


def mus_log(rounds: int, seed: int = 3) -> tuple[dict, list[ActionRow]]:
    """A Mus session's log whose first deal has ``rounds`` mus rounds, then random play to its end."""
    game = GAMES["mus"]
    options = game.validate_options({})
    state = game.new_table(4, options, seed)
    rng = random.Random(seed)
    log: list[ActionRow] = []
    done = 0
    while state.view(None)["deal"] < 1 and not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        kinds = {a["type"] for a in legal}
        if "mus" in kinds:
            action = next(a for a in legal if a["type"] == ("mus" if done < rounds else "no_mus"))
        elif "discard" in kinds:
            action = next(a for a in legal if len(a["cards"]) == 1)
        else:
            action = rng.choice(legal)
        state.apply(seat, action)
        if action["type"] == "discard" and state.view(None)["phase"] == "mus":
            done += 1
        log.append(ActionRow(len(log), seat, action, "ai", 0.0))
    return options, log


def test_repeated_mus_rounds_collapse_to_the_first_and_last() -> None:
    options, log = mus_log(rounds=12)
    full = deal_frames(SessionLog(GAMES["mus"], 4, options, 3, log), 1, reveal=True)
    rounds = repeated_rounds(GAMES["mus"].repeated_round, log[full.deal.first:full.deal.last + 1])
    assert len(rounds) == 12 and all(len(r) == 8 for r in rounds)  # four mus calls, four discards each
    frames = replay_frames(SessionLog(GAMES["mus"], 4, options, 3, log), 1, reveal=True)
    # rounds 2 to 11 are left out: the first round and the last (the hands then played) are kept
    assert frames is not None and frames.skipped == 8 * 10
    assert len(frames.views) == len(full.views) - 8 * 10
    assert frames.views[0] == full.views[0] and frames.views[-1] == full.views[-1]
    assert frames.views[8] == full.views[8] and frames.views[9] == full.views[9 + 80]
    assert frames.hands == full.hands  # the band still shows every card held in the deal
    capped = replay_frames(SessionLog(GAMES["mus"], 4, options, 3, log), 1, reveal=False, cap=10)
    assert capped is not None and len(capped.views) == 10
    assert capped.views[:5] == full.views[:5] and capped.views[5:] == full.views[-5:]
    assert repeated_rounds(GAMES["motz"].repeated_round, log) == []
