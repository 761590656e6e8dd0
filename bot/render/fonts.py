"""The fonts shipped with the package, and the fallback chain that draws image text with them.

DejaVu Sans (``fonts/LICENSE-DejaVu.txt``) draws all image text it has glyphs for: Latin, Greek,
Cyrillic, Arabic, Hebrew, the ♠ ♥ ♦ ♣ glyphs that Pillow's default font lacks, some emoji. For
the characters it lacks, people's names above all (Discord display names often carry emoji),
three fallback faces follow, each chosen per character by the fonts' own character maps:

1. Droid Sans Fallback Full (Apache-2.0, ``LICENSE-DroidSansFallback.txt``): Chinese, Japanese
   kana and ideographs, fullwidth forms;
2. NanumSquare (SIL OFL 1.1, ``LICENSE-Nanum.txt``, shipped unmodified): Hangul, which Droid
   Sans Fallback lacks;
3. Symbola (free for any use, ``LICENSE-Symbola.txt``): emoji, pictographs, dingbats, symbols,
   the styled letters of "𝓜𝓪𝓻𝓲𝓮" names, in one colour; a subset (``tools/subset_symbola.py``).

A text is split into runs of one face each (:func:`runs`), measured and drawn run by run
(``bot.render.text``); the Czech pack's suit signs are runs of their own. A text whose every
character DejaVu has (any text in ASCII, every catalogue's words) is one run, measured and drawn
as before, whole.

What no face draws is never drawn as a box (:func:`runs`):

- characters no shipped face has (unassigned ones, scripts none covers) are left out, with the
  marks that belong to them;
- invisible modifiers are left out: variation selectors (the images are in one colour), skin-tone
  modifiers (Symbola would draw them as swatches beside the emoji), tag characters (the letters
  of a subdivision flag) and format characters the run's face does not have;
- a combining mark (or a joiner) stays with its base character's face when that face has it, and
  is left out otherwise;
- a zero-width-joiner emoji sequence (👨‍👩‍👧) is drawn as its first component (👨): the joiner
  and the components it joins are left out, since Symbola has no ligatures for them;
- a flag (two regional indicator letters, 🇫🇷) is drawn as its two capitals in DejaVu (FR), as
  systems without flag glyphs show it (Symbola's dotted boxed letters looked like missing glyphs).

A name with nothing left to draw is shown as :func:`readable` says: the table's "Seat 3", the
leaderboard's "?" (what each image shows for a missing name).

A FreeType face must not be used by two threads at once, so each thread gets its own font objects
(rendering runs in ``asyncio.to_thread``); a fallback face is opened on a thread the first time
that thread draws a character of it, at that size. The character maps are read once per process,
lazily, straight from the files' ``cmap`` tables (:func:`cmap_ranges`: a few ranges per font,
where a parser building glyph names, fontTools', left 10-15 MB more in the process).
"""

from __future__ import annotations

import functools
import mmap
import struct
import threading
import unicodedata
from bisect import bisect_right
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
#: The faces tried after DejaVu, in order (no bold: bold text falls back to the same faces).
FALLBACKS = (FONT_DIR / "DroidSansFallbackFull.ttf", FONT_DIR / "NanumSquareR.ttf",
             FONT_DIR / "Symbola-subset.ttf")

_local = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``size`` pixels, cached per thread."""
    return face(0, size, bold)


def face(index: int, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Face ``index`` of the chain (0: DejaVu Sans or Sans Bold, then :data:`FALLBACKS`) at
    ``size`` pixels, cached per thread."""
    cache: dict[tuple[int, int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (index, size, bold and index == 0)
    f = cache.get(key)
    if f is None:
        path = (BOLD if bold else REGULAR) if index == 0 else FALLBACKS[index - 1]
        f = cache[key] = ImageFont.truetype(str(path), size)
    return f


# ---------------------------------------------------------------------- coverage
class Coverage:
    """The characters a font file has, as sorted ranges of code points."""

    def __init__(self, ranges: list[tuple[int, int]]):
        starts: list[int] = []
        ends: list[int] = []
        for first, last in sorted(ranges):
            if ends and first <= ends[-1] + 1:
                ends[-1] = max(ends[-1], last)
            else:
                starts.append(first)
                ends.append(last)
        self.starts, self.ends = starts, ends

    def __contains__(self, cp: int) -> bool:
        i = bisect_right(self.starts, cp) - 1
        return i >= 0 and cp <= self.ends[i]

    def __len__(self) -> int:
        return sum(last - first + 1 for first, last in zip(self.starts, self.ends, strict=True))


_coverage_lock = threading.Lock()


@functools.cache
def coverage(path: Path) -> Coverage:
    """The characters of the font at ``path`` (its Unicode character map), read once per process."""
    with _coverage_lock, open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return Coverage(cmap_ranges(data))


#: The Unicode subtables of a ``cmap``, best first: (platform, encoding, format).
_SUBTABLES = ((3, 10, 12), (0, 6, 12), (0, 4, 12), (3, 1, 4), (0, 3, 4), (0, 2, 4), (0, 1, 4), (0, 0, 4))


def cmap_ranges(data: bytes | mmap.mmap) -> list[tuple[int, int]]:
    """The code points a TrueType/OpenType font maps to a glyph (not to .notdef), as inclusive
    ranges, from its best Unicode ``cmap`` subtable (format 12, the full range, else format 4,
    the BMP: the two the OpenType specification requires of Unicode fonts)."""
    tables = {data[12 + 16 * i:16 + 16 * i]: struct.unpack_from(">L", data, 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", data, 4)[0])}
    cmap = tables[b"cmap"]
    found: dict[tuple[int, int, int], int] = {}
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * i)
        fmt = struct.unpack_from(">H", data, cmap + offset)[0]
        found.setdefault((platform, encoding, fmt), cmap + offset)
    best = next((found[key] for key in _SUBTABLES if key in found), None)
    if best is None:
        raise ValueError("no Unicode cmap subtable of format 4 or 12")
    if struct.unpack_from(">H", data, best)[0] == 12:
        groups = struct.unpack_from(">L", data, best + 12)[0]
        out = []
        for first, last, glyph in struct.iter_unpack(">LLL", data[best + 16:best + 16 + 12 * groups]):
            if glyph == 0:  # the group's first code point is .notdef's
                first += 1
            if first <= last:
                out.append((first, last))
        return out
    segments = struct.unpack_from(">H", data, best + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, best + 14)
    starts = struct.unpack_from(f">{segments}H", data, best + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, best + 16 + 4 * segments)
    range_offsets_at = best + 16 + 6 * segments
    range_offsets = struct.unpack_from(f">{segments}H", data, range_offsets_at)
    out = []
    for i, (first, last, delta, range_offset) in enumerate(zip(starts, ends, deltas, range_offsets,
                                                               strict=True)):
        last = min(last, 0xFFFE)  # the final 0xFFFF segment maps nothing
        if range_offset == 0:
            out.extend((c, c) for c in range(first, last + 1) if (c + delta) & 0xFFFF)
            continue
        glyphs = struct.unpack_from(f">{last - first + 1}H", data, range_offsets_at + 2 * i + range_offset)
        out.extend((c, c) for c, glyph in zip(range(first, last + 1), glyphs, strict=True) if glyph)
    return out


def _chain(bold: bool) -> tuple[Path, ...]:
    return (BOLD if bold else REGULAR, *FALLBACKS)


@functools.lru_cache(maxsize=65536)
def face_for(ch: str, bold: bool = False) -> int | None:
    """The index of the first face of the chain that has ``ch``; None when none has it."""
    cp = ord(ch)
    for i, path in enumerate(_chain(bold)):
        if cp in coverage(path):
            return i
    return None


# ---------------------------------------------------------------------- runs
#: Private-use characters that image text writes for the Czech pack's suit signs (H D S C), drawn
#: as pips by ``bot.render.text`` (no font has them).
SIGNS = "\ue000\ue001\ue002\ue003"
#: The "face" of a Czech suit sign's run.
SIGN = -1

ZWJ = "\u200d"
_MARKS = {"Mn", "Me", "Mc"}


def _invisible(cp: int) -> bool:
    """Variation selectors, skin-tone modifiers and tag characters: always left out."""
    return (0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x1F3FB <= cp <= 0x1F3FF
            or 0xE0000 <= cp <= 0xE007F)


def runs(text: str, bold: bool = False) -> tuple[tuple[int, str], ...] | None:
    """``text`` as ``(face, string)`` runs in logical order (face :data:`SIGN` for a Czech suit
    sign), with what no face draws left out (see the module's docstring); None when DejaVu has
    every character of ``text`` and it is drawn whole, as it is. Cached."""
    return None if text.isascii() else _runs(text, bold)


@functools.lru_cache(maxsize=8192)
def _runs(text: str, bold: bool) -> tuple[tuple[int, str], ...] | None:
    if not any(ch in SIGNS for ch in text) and all(face_for(ch, bold) == 0 for ch in text):
        return None
    out: list[list[int | str]] = []
    current: int | None = None  # the face of the cluster being built; None when it was left out
    base_symbol = False  # the cluster's base is a symbol (an emoji): a joiner after it joins emoji
    joined = False  # the last character was an emoji's joiner: what follows belongs to its sequence
    for ch in text:
        cp = ord(ch)
        category = unicodedata.category(ch)
        if _invisible(cp):
            continue
        if ch == ZWJ and base_symbol:
            joined = True
            continue
        if category in _MARKS or category == "Cf" or ch == ZWJ:
            if not joined and current is not None and _has(current, cp, bold):
                _append(out, current, ch)
            continue
        if joined:
            joined = False
            if category == "So":  # the next component of a joiner sequence: left out, with its marks
                current = None
                continue
        if category == "Cc":
            current = None
            continue
        if ch in SIGNS:
            out.append([SIGN, ch])
            current, base_symbol = SIGN, False
            continue
        if category == "Zs" and current is not None and _has(current, cp, bold):
            _append(out, current, ch)  # a space stays in the run it is in
            base_symbol = False
            continue
        if 0x1F1E6 <= cp <= 0x1F1FF:  # a regional indicator: its capital letter
            ch, category = chr(cp - 0x1F1E6 + ord("A")), "Lu"
        current = face_for(ch, bold)
        base_symbol = category == "So"
        if current is not None:
            _append(out, current, ch)
    return tuple((int(f), str(s)) for f, s in out)


def _has(index: int, cp: int, bold: bool) -> bool:
    """Whether face ``index`` of the chain has ``cp`` (no for a sign)."""
    return index != SIGN and cp in coverage(_chain(bold)[index])


def _append(out: list[list[int | str]], index: int, ch: str) -> None:
    if out and out[-1][0] == index and index != SIGN:
        out[-1][1] = str(out[-1][1]) + ch
    else:
        out.append([index, ch])


def drawable(text: str, bold: bool = False) -> str:
    """What of ``text`` is drawn: ``text`` less what no face draws (see :func:`runs`)."""
    parts = runs(text, bold)
    return text if parts is None else "".join(s for _, s in parts)


def readable(name: str, fallback: str = "?", bold: bool = False) -> str:
    """``name`` as an image shows it: ``fallback`` when nothing of it would be drawn (a name all in
    characters no shipped face has, or all invisible)."""
    shown = drawable(name, bold)
    visible = any(unicodedata.category(ch)[0] not in "CZM" and not _invisible(ord(ch)) for ch in shown)
    return name if visible else fallback


def rtl(parts: tuple[tuple[int, str], ...]) -> bool:
    """Whether the first strong character of ``parts`` is right-to-left (Unicode's paragraph
    direction): the runs are then laid out right to left, each run shaped by itself."""
    for _, s in parts:
        for ch in s:
            kind = unicodedata.bidirectional(ch)
            if kind == "L":
                return False
            if kind in ("R", "AL"):
                return True
    return False


# ---------------------------------------------------------------------- width and fitting
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn at ``size`` (every face of the chain and the Czech suit
    signs included): the advance of what ``bot.render.text`` draws."""
    parts = runs(text, bold)
    return int(font(size, bold).getlength(text)) if parts is None else runs_width(parts, size, bold)


def runs_width(parts: tuple[tuple[int, str], ...], size: int, bold: bool = False) -> int:
    """Width in pixels of :func:`runs` ``parts`` at ``size``: the sum of their advances."""
    return int(sum(sign_width(size) if i == SIGN else face(i, size, bold).getlength(s) for i, s in parts))


def sign_width(size: int) -> int:
    """Width of a Czech suit sign in text of ``size`` pixels."""
    return round(size * 0.8)


@functools.lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so that it fits in ``width`` pixels (cached)."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"
