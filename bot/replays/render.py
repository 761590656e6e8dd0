"""One replay drawn and encoded within Discord's upload limit (runs in a replay worker thread).

A GIF that would pass the limit (the interaction's ``attachment_size_limit``) is sent as WebP
instead, far smaller for the same frames; a replay still too large keeps fewer frames (half,
then a quarter… of the cap, always the first and last moves). Encoding stops as soon as the
file passes the limit (``bot.render.replay.TooLarge``), so a refused try costs little.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Translator, english
from bot.render.replay import TooLarge, replay_image
from bot.replays.frames import MAX_FRAMES, replay_frames
from bot.rules import GAMES
from bot.rules.looks import table_look
from bot.store.tables import ActionRow, TableRow
from bot.tables.deals import Deal, deals_of
from bot.tables.replay import SessionLog
from bot.views.display import player_name


@dataclass(frozen=True)
class Replay:
    """A finished replay: the file, its format (WebP when a GIF would pass the limit), the deal,
    the moves left out (mus rounds, the cap) and how many frames were cut to fit the limit."""

    data: bytes
    fmt: str
    deal: Deal
    skipped: int
    fallback: bool = False  # a GIF was asked for, WebP is sent
    trimmed: int = 0  # frames left out to fit the upload limit (counted in ``skipped`` too)

    @property
    def finished(self) -> bool:
        """The deal has ended: its replay never changes again."""
        return self.deal.deltas is not None


def seat_names(row: TableRow, tr: Translator) -> list[str]:
    """The names drawn on the frames: each seat's name (an AI seat's in ``tr``'s language), else
    "seat n" in it."""
    return [player_name(str(s.get("name") or tr._("seat {n}", n=i)), bool(s.get("ai")), tr)
            for i, s in enumerate(row.seats)]


def render(row: TableRow, actions: list[ActionRow], number: int, reveal: bool, fmt: str,
           tr: Translator | None = None, limit: int | None = None, cap: int = MAX_FRAMES) -> Replay | int:
    """The replay of deal ``number``, or the number of deals if there is no such deal."""
    rules = GAMES[row.game]
    options = rules.validate_options(row.options)
    tr = (tr or english()).dressed(table_look(rules.pack_choices, options))  # as the table showed its cards
    names = seat_names(row, tr)
    seed = int(row.seed or 0)
    session = SessionLog(rules, len(row.seats), options, seed, actions)
    first_cap, skipped_at_cap = cap, 0
    while True:
        frames = replay_frames(session, number, reveal, cap)
        if frames is None:
            return len(deals_of(session, str))
        if cap == first_cap:
            skipped_at_cap = frames.skipped
        trimmed = frames.skipped - skipped_at_cap
        for kind in (fmt, "webp") if fmt == "gif" else (fmt,):
            try:
                data = replay_image(row.game, frames.views, names, frames.hands, kind, tr, limit)
            except TooLarge:
                continue
            return Replay(data, kind, frames.deal, frames.skipped, kind != fmt, trimmed)
        if cap <= 2:
            raise TooLarge(f"even two frames pass {limit} bytes")
        cap = max(2, min(cap, len(frames.views)) // 2)


def describe(replay: Replay, tr: Translator) -> list[str]:
    """The lines under a replay's title saying what it leaves out or changed (may be empty)."""
    out: list[str] = []
    if replay.fallback:
        out.append(tr._("A GIF of this deal would pass Discord's upload limit here: it is sent as WebP."))
    if replay.trimmed:
        out.append(tr.n_("{n} more move is left out to fit Discord's upload limit.",
                         "{n} more moves are left out to fit Discord's upload limit.", replay.trimmed))
    if replay.skipped - replay.trimmed:
        out.append(tr.n_("{n} move is not shown (repeated mus rounds, the middle of a long deal).",
                         "{n} moves are not shown (repeated mus rounds, the middle of a long deal).",
                         replay.skipped - replay.trimmed))
    return out
