"""The replay encoders draw and encode one frame at a time (issue 26, item 1): memory does not grow
with the frames, encoding stops at the byte limit, and every decoded frame is the drawn one."""

from __future__ import annotations

import gc
import weakref

import pytest
from PIL import Image, ImageChops, ImageDraw

import bot.render.replay as replay
from bot.render.replay import TooLarge, decode_frames, encode, replay_image
from bot.rules import GAMES
from bot.tables.deals import deal_frames
from bot.tables.replay import SessionLog
from tests.render.test_replay import session_log


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("fmt", ["webp", "gif"])
def test_frames_are_dropped_as_soon_as_encoded(monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """At most the frame being encoded and the one before it are alive at any time."""
    n, options, log = session_log("maitre", seed=5)
    df = deal_frames(SessionLog(GAMES["maitre"], n, options, 5, log), 2, reveal=False)
    assert len(df.views) > 20
    alive: list[weakref.ref[Image.Image]] = []
    peak = [0]
    real = replay.spectator_frame

    def tracked(*args: object, **kwargs: object) -> Image.Image:
        gc.collect()
        peak[0] = max(peak[0], sum(r() is not None for r in alive))
        img = real(*args, **kwargs)  # type: ignore[arg-type]
        alive.append(weakref.ref(img))
        return img

    monkeypatch.setattr(replay, "spectator_frame", tracked)
    gc.collect()
    gc.freeze()  # the collections above then scan only this test's objects, not the whole worker's heap
    try:
        data = replay_image("maitre", df.views, [f"P{i}" for i in range(n)], None, fmt)
    finally:
        gc.unfreeze()
    assert len(alive) == len(df.views) and peak[0] <= 2
    assert len(decode_frames(data)) <= len(df.views)


def pictures(count: int, size: tuple[int, int] = (97, 61)) -> list[Image.Image]:
    """Frames on one palette that change in small rectangles at odd places, with repeats."""
    out = []
    base = Image.new("P", size, 3)
    base.putpalette([v for i in range(256) for v in (i, 255 - i, (i * 7) % 256)])
    for i in range(count):
        if i % 4 != 3:  # every fourth frame repeats the one before
            base = base.copy()
            ImageDraw.Draw(base).rectangle((1 + 3 * i % 80, 1 + 5 * i % 50, 4 + 3 * i % 80, 7 + 5 * i % 50),
                                           fill=(i * 37) % 256)
        out.append(base)
    return out


@pytest.mark.parametrize("fmt", ["webp", "gif"])
def test_every_decoded_frame_is_the_drawn_one(fmt: str) -> None:
    drawn = pictures(13)
    shown = decode_frames(encode(iter(drawn), fmt))
    distinct = [im for i, im in enumerate(drawn) if i == 0 or not same(im, drawn[i - 1])]
    assert len(shown) == len(distinct)  # a repeated frame lasts longer instead
    assert all(same(a, b) for a, b in zip(shown, distinct, strict=True))


@pytest.mark.parametrize("fmt", ["webp", "gif"])
def test_encoding_stops_at_the_byte_limit(fmt: str) -> None:
    full = encode(iter(pictures(40)), fmt)
    drawn = [0]

    def counted():
        for im in pictures(40):
            drawn[0] += 1
            yield im

    with pytest.raises(TooLarge):
        encode(counted(), fmt, limit=len(full) // 3)
    assert drawn[0] < 40  # stopped early, not after drawing everything
    assert encode(iter(pictures(40)), fmt, limit=len(full)) == full
