"""Card sprites: every face, the jokers and the back, drawn once per size and cached.

Faces are drawn at 3× and downsampled (cheap antialiasing), once per ``(code, deck, width,
highlight)`` and per the words printed on it in the reader's language (:func:`marks`); the
cache is shared by all threads and guarded by a lock. Callers must treat a sprite as read-only
(paste it, never draw on it). Every face a renderer draws goes through :func:`face`, so tests
can check that no hidden card is ever requested.

What a face prints, per deck and language (the catalogue decides, msgctxt in brackets):

- French deck: the corner index and the big centre letter of a court card are the rank index
  of the language [rank index], the same letters as the cards in text: J Q K A in English and
  Spanish, V D R A in French (valet, dame, roi, as), Sp Sv K A in Czech (spodek, svršek, král,
  as Czech Marias players write a hand: "A K Sv Sp X 9"), whatever the game. Number cards
  print their digits in every language.
- Spanish deck (Mus): the numbers 1–7, 10–12 as printed on Spanish cards, in every language;
  the figures' captions [card figure] are the source's SOTA / CABALLO / REY, translated
  (VALET / CAVALIER / ROI in French, SPODEK / JEZDEC / KRÁL in Czech).
- Jokers: a star, and the caption JOKER [card figure] (COMODÍN, ŽOLÍK).
- Czech pack (Marias by default, ``bot.rules.looks``): the single-headed German-suited cards,
  their suits drawn as shapes (``suits.CZECH_PIPS``: srdce, kule, zelené, žaludy for H D S C).
  The index is the Czech pack's [czech rank index]: Sp Sv K A in Czech, U O K A in English;
  7–10 print their digits. The figures stand in a framed panel, each holding its suit sign
  where a Czech player looks for it: the svršek (Ober) high, above his head; the spodek
  (Unter) low, at his feet; the král (King) crowned, at his chest. The eso shows one large
  sign under a banner, as the Czech aces carry theirs.

The faces (``Look.faces``) restyle every pack: ``four_colour`` inks the French suits black,
red, blue and green (the Czech and Spanish packs have a colour per suit already); ``large``
prints the corner index about a third larger.
"""

from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from bot.i18n.lazy import NP_
from bot.render import suits
from bot.render.czech import draw_czech
from bot.render.fonts import font
from bot.render.sprite import (  # noqa: F401 - size_for, SS, RATIO: the card geometry, re-exported
    EDGE,
    HIGHLIGHT,
    PAPER,
    RATIO,
    SS,
    _blank,
    _canvas,
    _corner,
    _finish,
    _fitted,
    size_for,
)
from bot.rules.base import PLAIN, Text
from bot.rules.cards import FRENCH_CODES, JOKERS, SPANISH_CODES, SUIT_SYMBOLS
from bot.rules.looks import CZECH, DEFAULT, FOUR_COLOUR, LARGE, Look, look_of, resolve

RED = (200, 24, 36)
BLACK = (24, 24, 28)
BACK_BLUE = (32, 58, 130)
BACK_LINE = (86, 116, 196)
FACE_TINT = {"J": (230, 238, 252), "Q": (252, 232, 238), "K": (250, 244, 220)}
#: Rank index of a French-deck court card or ace (msgctxt "rank index", as in ``bot.i18n.cards``).
INDEX_CONTEXT = "rank index"
COURT = ("J", "Q", "K", "A")
#: Captions printed on the figures of the Spanish deck and on the jokers (msgctxt "card figure").
SPANISH_FIGURES = {"10": NP_("card figure", "SOTA"), "11": NP_("card figure", "CABALLO"),
                   "12": NP_("card figure", "REY")}
JOKER_CAPTION = NP_("card figure", "JOKER")

_cache: dict[tuple, Image.Image] = {}
_lock = threading.Lock()


def look_for(game: str | None, tr: Text = PLAIN) -> Look:
    """The look cards of ``game`` are drawn with for the reader ``tr``: its pack if ``game`` may be
    shown with it, else the game's own (Czech for Marias); French classic without a game."""
    wish = look_of(tr)
    if game is None:
        return wish or DEFAULT
    from bot.rules import GAMES

    rules = GAMES.get(game)
    packs = rules.pack_choices if rules is not None else ()
    return resolve(packs, wish.pack if wish else None, wish.faces if wish else None)


def undressed(tr: Text) -> Text:
    """``tr`` without its look: the words drawn into images (Pillow's font has no emoji suit signs)."""
    dressed = getattr(tr, "dressed", None)
    return dressed(None) if dressed is not None else tr


def marks(code: str, spanish: bool, tr: Text = PLAIN, look: Look = DEFAULT) -> str:
    """The word printed on a face in ``tr``'s language: a French-deck court card's or ace's rank
    index ("D" for a queen in French; "Sv" in the Czech pack in Czech), a Spanish figure's or a
    joker's caption; else ``""``."""
    if spanish:
        caption = SPANISH_FIGURES.get(code[:-1])
        return tr.p_(*caption) if caption else ""
    if code in JOKERS:
        return tr.p_(*JOKER_CAPTION)
    rank = code[:-1]
    if rank not in COURT:
        return ""
    if look.pack == CZECH:
        from bot.i18n.cards import CZECH_INDEXES

        return tr.p_(*CZECH_INDEXES[rank])
    return tr.p_(INDEX_CONTEXT, rank)


def face(code: str, spanish: bool, width: int, highlight: bool = False, tr: Text = PLAIN,
         look: Look = DEFAULT) -> Image.Image:
    """The RGBA sprite of card ``code`` (French/joker, or Spanish if ``spanish``), its words in
    ``tr``'s language, in ``look``'s pack and faces (the cache key holds the words and the look,
    so no reader sees another's sprite)."""
    word = marks(code, spanish, tr, look)
    key = ("face", code, spanish, width, highlight, word, look)
    sprite = _cache.get(key)
    if sprite is None:
        with _lock:
            sprite = _cache.get(key)
            if sprite is None:
                sprite = _cache[key] = _draw_face(code, spanish, width, highlight, word, look)
    return sprite


def layout_face(code: str, width: int, tr: Text = PLAIN, look: Look = DEFAULT) -> Image.Image:
    """A French face that belongs to the table's layout, not to any hand (Michigan's pay cards).

    Same sprite as :func:`face`; a separate entry so that leak tests can tell them apart.
    """
    return face(code, False, width, tr=tr, look=look)


def back(width: int) -> Image.Image:
    """The RGBA sprite of a card back ``width`` wide."""
    key = ("back", width)
    sprite = _cache.get(key)
    if sprite is None:
        with _lock:
            sprite = _cache.get(key)
            if sprite is None:
                sprite = _cache[key] = _draw_back(width)
    return sprite


def cache_size() -> int:
    """Number of sprites drawn so far (for tests and benchmarks)."""
    return len(_cache)


# --------------------------------------------------------------------------- drawing


def _draw_face(code: str, spanish: bool, width: int, highlight: bool, word: str,
               look: Look = DEFAULT) -> Image.Image:
    large = look.faces == LARGE
    if spanish:
        if code not in SPANISH_CODES:
            raise ValueError(f"not a Spanish card code: {code!r}")
        return _draw_spanish(code, width, highlight, word, large)
    if code not in FRENCH_CODES:
        raise ValueError(f"not a French card code: {code!r}")
    if code in JOKERS:
        return _draw_joker(code, width, highlight, word)
    if look.pack == CZECH:
        return draw_czech(code, width, highlight, word, large)
    return _draw_french(code, width, highlight, word, look.faces)


def _draw_french(code: str, width: int, highlight: bool, word: str = "",
                 faces: str = "classic") -> Image.Image:
    rank, suit = code[:-1], code[-1]
    text = word or rank  # the rank index in the reader's language ("D"), digits for a number card
    ink = suits.FOUR_COLOUR_INK[suit] if faces == FOUR_COLOUR else RED if suit in "HD" else BLACK
    sym = SUIT_SYMBOLS[suit]
    img, d, w, h = _canvas(width)
    _blank(d, w, h, highlight)
    pad = w * 0.07 + (w * 0.04 if highlight else 0)
    wide = len(text) > 1
    big = 1.3 if faces == LARGE else 1.0
    rs = round(w * (0.34 if wide else 0.38) * big)

    def index(dd: ImageDraw.ImageDraw) -> None:
        if big == 1.0 and (text == "10" or not wide):  # the historical layout (digits "10", one letter)
            f = font(rs, bold=True)
            tw = f.getlength(text)
            x = pad + (w * 0.24 - tw) / 2 if text != "10" else pad - w * 0.02
        else:  # two letters ("Sv"), or large: as wide as "10" at most, centred on the symbol's column
            f, tw = _fitted(text, rs, w * (0.44 if big > 1 else 0.30))
            x = max(pad - w * 0.02, pad + w * 0.12 * big - tw / 2)
        dd.text((x, pad - w * 0.04), text, font=f, fill=ink)
        fs = font(round(w * (0.26 if big > 1 else 0.30)))
        dd.text((pad + w * 0.12 * big, pad + w * 0.36 * big), sym, font=fs, fill=ink, anchor="mt")

    _corner(img, w, h, index)
    cx, cy = w / 2, h / 2
    if rank in FACE_TINT:
        fw, fh = w * 0.27, h * 0.23
        d.rectangle((cx - fw, cy - fh, cx + fw, cy + fh), fill=FACE_TINT[rank], outline=ink, width=SS * 2)
        letter = font(round(w * 0.40), bold=True) if not wide else _fitted(text, round(w * 0.34), w * 0.48)[0]
        d.text((cx, cy - h * 0.02), text, font=letter, fill=ink, anchor="ms")
        d.text((cx, cy + h * 0.01), sym, font=font(round(w * 0.34)), fill=ink, anchor="mt")
    else:
        size = round(w * (0.78 if rank == "A" else 0.56) / big ** 2)
        d.text((cx, cy + w * 0.04), sym, font=font(size), fill=ink, anchor="mm")
    return _finish(img, width)


def _draw_joker(code: str, width: int, highlight: bool, word: str = JOKER_CAPTION[1]) -> Image.Image:
    ink = BLACK if code == "X1" else RED
    img, d, w, h = _canvas(width)
    _blank(d, w, h, highlight)
    pad = w * 0.08 + (w * 0.04 if highlight else 0)

    def index(dd: ImageDraw.ImageDraw) -> None:
        dd.text((pad, pad - w * 0.03), "★", font=font(round(w * 0.34)), fill=ink)

    _corner(img, w, h, index)
    cx, cy = w / 2, h / 2
    d.text((cx, cy - h * 0.06), "★", font=font(round(w * 0.62)), fill=ink, anchor="mm")
    caption = _fitted(word, round(w * 0.18), w * 0.84)[0]
    d.text((cx, cy + h * 0.20), word, font=caption, fill=ink, anchor="mm")
    return _finish(img, width)


# Pip centres for Spanish number cards, as fractions of the pip area (x, y).
_PIPS = {
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.15), (0.5, 0.5), (0.5, 0.85)],
    4: [(0.25, 0.2), (0.75, 0.2), (0.25, 0.8), (0.75, 0.8)],
    5: [(0.25, 0.15), (0.75, 0.15), (0.5, 0.5), (0.25, 0.85), (0.75, 0.85)],
    6: [(0.25, 0.15), (0.75, 0.15), (0.25, 0.5), (0.75, 0.5), (0.25, 0.85), (0.75, 0.85)],
    7: [(0.2, 0.1), (0.8, 0.1), (0.5, 0.33), (0.2, 0.56), (0.8, 0.56), (0.2, 0.9), (0.8, 0.9)],
}


def _draw_spanish(code: str, width: int, highlight: bool, word: str = "", large: bool = False) -> Image.Image:
    rank, suit = code[:-1], code[-1]
    ink = suits.SPANISH_INK[suit]
    pip = suits.SPANISH_PIPS[suit]
    img, d, w, h = _canvas(width)
    _blank(d, w, h, highlight)
    pad = w * 0.07 + (w * 0.04 if highlight else 0)
    big = 1.3 if large else 1.0
    rs = round(w * (0.30 if len(rank) == 2 else 0.36) * big)

    def index(dd: ImageDraw.ImageDraw) -> None:
        f = _fitted(rank, rs, w * 0.34)[0] if large else font(rs, bold=True)
        dd.text((pad + w * 0.12 * big, pad - w * 0.03), rank, font=f, fill=ink, anchor="mt")
        pip(dd, pad + w * 0.10 * big, pad + w * 0.46 * big, w * 0.21 * big)

    _corner(img, w, h, index)
    cx, cy = w / 2, h / 2
    n = int(rank)
    if n == 1:
        pip(d, cx, cy, h * 0.50)
    elif n <= 7:
        x0, x1 = w * 0.30, w * 0.70
        y0, y1 = h * 0.20, h * 0.80
        ph = (y1 - y0) / (2.5 if n <= 3 else 2.9 if n <= 5 else 3.6)
        for fx, fy in _PIPS[n]:
            pip(d, x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy, ph)
    else:
        fw, fh = w * 0.25, h * 0.27
        d.rectangle((cx - fw, cy - fh, cx + fw, cy + fh), fill=(250, 240, 215), outline=ink, width=SS * 2)
        pip(d, cx, cy - h * 0.06, h * 0.34)
        label = word or SPANISH_FIGURES[rank][1]
        f = _fitted(label, round(w * (0.11 if len(label) > 4 else 0.15)), w * 0.84)[0]
        d.text((cx, cy + fh - h * 0.03), label, font=f, fill=ink, anchor="ms")
    return _finish(img, width)


def _draw_back(width: int) -> Image.Image:
    img, d, w, h = _canvas(width)
    radius = w * 0.09
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=PAPER, outline=EDGE, width=SS)
    m = max(SS * 2, round(w * 0.07))
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=radius * 0.6, fill=BACK_BLUE)
    step = max(SS * 4, w // 5)
    lw = max(SS, w // 40)
    for x in range(-h, w + h, step):
        d.line((m + x, m, m + x + h, m + h), fill=BACK_LINE, width=lw)
        d.line((m + x, m, m + x - h, m + h), fill=BACK_LINE, width=lw)
    # clear the lattice outside the inner frame
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=radius * 0.6, fill=255)
    frame = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(frame).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=PAPER, outline=EDGE,
                                            width=SS)
    frame.paste(img, (0, 0), mask)
    return _finish(frame, width)
