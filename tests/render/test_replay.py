"""Animated replays: the no-leak check on every frame, the last frame, both formats, the revealed band."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.render import table_image
from bot.render.replay import decode_frames, frames, hands_band, replay_image
from bot.rules import GAMES
from bot.store.tables import ActionRow
from bot.tables.deals import deal_frames, deals_of
from bot.tables.replay import SessionLog
from tests.render.test_no_leak import Recorder, codes_in

GAME_NAMES = ["motz", "michigan", "mus", "marias", "maitre"]


def session_log(name: str, seed: int) -> tuple[int, dict, list[ActionRow]]:
    """A whole random session of ``name``: seats, options and its action log."""
    game = GAMES[name]
    n = game.default_seats or game.min_seats
    options = game.validate_options({})
    state = game.new_table(n, options, seed)
    rng = random.Random(seed)
    log: list[ActionRow] = []
    while not state.is_over():
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        log.append(ActionRow(len(log), seat, action, "ai", 0.0))
    return n, options, log


@pytest.fixture
def rec(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    """test_no_leak's sprite recorder, images really encoded (the replay decodes its frames)."""
    return Recorder(monkeypatch)


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_spectator_replay_frames_draw_only_public_cards(rec: Recorder, name: str) -> None:
    """test_no_leak's table check on every frame of the first deals, through the replay's own path."""
    n, options, log = session_log(name, seed=21)
    names = [f"P{i}" for i in range(n)]
    deals = deals_of(SessionLog(GAMES[name], n, options, 21, log), str)
    checked = 0
    for number in range(1, min(3, len(deals)) + 1):
        df = deal_frames(SessionLog(GAMES[name], n, options, 21, log), number, reveal=False)
        assert df is not None and df.hands is None
        assert len(df.views) == df.deal.last - df.deal.first + 2  # before the first move, then one per move
        for view in df.views:
            assert "hand" not in view or not view["hand"]  # spectator views only
            rec.reset()
            (image,) = frames(name, [view], names)
            leaked = rec.faces - codes_in(view)
            assert not leaked, f"{name} replay frame drew private cards {sorted(leaked)}"
            assert image.size == (960, 540)
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("name", ["marias", "maitre"])
@pytest.mark.parametrize("fmt", ["webp", "gif"])
def test_last_frame_is_the_table_image_after_the_deal(name: str, fmt: str) -> None:
    n, options, log = session_log(name, seed=5)
    names = [f"P{i}" for i in range(n)]
    df = deal_frames(SessionLog(GAMES[name], n, options, 5, log), 2, reveal=False)
    data = replay_image(name, df.views, names, None, fmt)
    assert len(data) <= 2 * 1024 * 1024
    shown = decode_frames(data)
    assert len(shown) == len(df.views)
    state = GAMES[name].new_table(n, options, 5)
    for row in log[: df.deal.last + 1]:
        state.apply(row.seat, row.action)
    finished = Image.open(io.BytesIO(table_image(name, state.view(None), names)))
    assert same(shown[-1], finished)
    assert same(shown[0], Image.open(io.BytesIO(table_image(name, df.views[0], names))))
    assert not same(shown[0], shown[-1])
    header = data[:12]
    assert (header[:4] == b"RIFF" and header[8:12] == b"WEBP") if fmt == "webp" else header[:3] == b"GIF"


def test_revealed_replay_shows_every_hand_of_the_deal(rec: Recorder) -> None:
    n, options, log = session_log("marias", seed=8)
    names = ["Ann", "Bob", "Cat"]
    df = deal_frames(SessionLog(GAMES["marias"], n, options, 8, log), 1, reveal=True)
    assert df.hands is not None
    # Marias deals 32 cards: 10 each, two to the talon; the soloist takes the talon (12 held).
    assert sorted(len(h) for h in df.hands) == [10, 10, 12]
    assert len({c for h in df.hands for c in h}) == 32
    rec.reset()
    band = hands_band("marias", names, df.hands)
    assert rec.faces == {c for h in df.hands for c in h}  # every held card is drawn, in the band
    (first,) = frames("marias", df.views[:1], names, df.hands)
    assert first.size == (960, 540 + band.height)
    table = Image.open(io.BytesIO(table_image("marias", df.views[0], names)))
    assert same(first.crop((0, 0, 960, 540)), table)
