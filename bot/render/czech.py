"""The Czech pack's faces: single-headed German-suited cards for Marias (issue 30).

French codes stand for the Czech cards (``docs/rules/marias.md`` 1.1): H srdce (hearts), D kule
(bells), S zelené (leaves), C žaludy (acorns); J spodek (Unter), Q svršek (Ober), K král, A eso.
The suits are drawn as shapes (``suits.CZECH_PIPS``). How a Czech player reads each card:

- 7, 8, 9, 10: the digits in the corners and the signs in two columns, as on the pack;
- spodek and svršek: a full-length figure in a framed panel; the svršek holds his suit sign
  **high** (above his head), the spodek **low** (at his feet), which is how the two are told
  apart at a glance on the real cards; their index (Sp / Sv in Czech, U / O in English) in the
  corners;
- král: a crowned figure with the sign at his chest;
- eso: one large sign under a banner.

Called by ``cards.face`` (which caches the sprite); draws at ``cards.SS``× like the other decks.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import suits
from bot.render.sprite import SS, _blank, _canvas, _corner, _finish, _fitted

#: Signs of the number cards, as fractions of the pip area (x, y): two columns, as on the pack.
_ROWS4 = (0.0, 1 / 3, 2 / 3, 1.0)
_PIPS: dict[int, list[tuple[float, float]]] = {
    7: [(x, y) for y in (0.0, 0.5, 1.0) for x in (0.0, 1.0)] + [(0.5, 0.25)],
    8: [(x, y) for y in _ROWS4 for x in (0.0, 1.0)],
    9: [(x, y) for y in _ROWS4 for x in (0.0, 1.0)] + [(0.5, 0.5)],
    10: [(x, y) for y in _ROWS4 for x in (0.0, 1.0)] + [(0.5, 1 / 6), (0.5, 5 / 6)],
}
SKIN = (246, 214, 180)
HAIR = (96, 60, 30)
PANEL = (250, 244, 226)
CROWN = (232, 182, 30)
#: Coat colours of the figures (one per suit, lighter than the suit's ink).
#: Kept apart from the pips' colours, so the sign a figure holds stands out from his coat.
COAT = {"H": (150, 40, 60), "D": (190, 110, 50), "S": (60, 110, 110), "C": (120, 90, 130)}
FIGURE_LINE = (60, 50, 40)


def draw_czech(code: str, width: int, highlight: bool, word: str = "", large: bool = False) -> Image.Image:
    """The RGBA sprite of Czech card ``code`` ``width`` wide; ``word`` the court index to print."""
    rank, suit = code[:-1], code[-1]
    ink = suits.CZECH_INK[suit]
    pip = suits.CZECH_PIPS[suit]
    img, d, w, h = _canvas(width)
    _blank(d, w, h, highlight)
    pad = w * 0.07 + (w * 0.04 if highlight else 0)
    big = 1.3 if large else 1.0
    text = word or rank

    def index(dd: ImageDraw.ImageDraw) -> None:
        f, tw = _fitted(text, round(w * 0.34 * big), w * (0.44 if large else 0.30))
        x = max(pad - w * 0.02, pad + w * 0.12 * big - tw / 2)
        dd.text((x, pad - w * 0.04), text, font=f, fill=ink)
        pip(dd, pad + w * 0.12 * big, pad + w * 0.46 * big, w * 0.19 * big)

    _corner(img, w, h, index)
    if rank in ("J", "Q", "K"):
        _figure(d, rank, suit, w, h, ink)
    elif rank == "A":
        _ace(d, suit, w, h, ink)
    else:
        x0, x1 = w * 0.39, w * 0.61
        y0, y1 = h * 0.20, h * 0.80
        ph = h * 0.10
        for fx, fy in _PIPS[int(rank)]:
            pip(d, x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy, ph)
    return _finish(img, width)


def _figure(d: ImageDraw.ImageDraw, rank: str, suit: str, w: int, h: int, ink: tuple[int, int, int]) -> None:
    """A figure in its panel: the svršek's sign high, the spodek's low, the král's at his chest."""
    pip = suits.CZECH_PIPS[suit]
    cx = w / 2
    left, right = w * 0.29, w * 0.71
    top, bottom = h * 0.14, h * 0.86
    d.rectangle((left, top, right, bottom), fill=PANEL, outline=ink, width=SS * 2)
    coat = COAT[suit]
    line = max(1, SS)
    # the figure: legs, coat, arms, head (head lower for the spodek, who stands under his sign)
    head_y = top + (bottom - top) * (0.42 if rank == "J" else 0.30)
    hr = w * 0.075
    body_top, body_bottom = head_y + hr, bottom - (bottom - top) * 0.12
    d.rectangle((cx - w * 0.07, body_bottom - w * 0.02, cx - w * 0.02, bottom - SS * 3), fill=(60, 50, 40))
    d.rectangle((cx + w * 0.02, body_bottom - w * 0.02, cx + w * 0.07, bottom - SS * 3), fill=(60, 50, 40))
    d.polygon([(cx - w * 0.08, body_top), (cx + w * 0.08, body_top), (cx + w * 0.12, body_bottom),
               (cx - w * 0.12, body_bottom)], fill=coat, outline=FIGURE_LINE, width=line)
    d.line((cx, body_top, cx, body_bottom), fill=FIGURE_LINE, width=line)
    d.ellipse((cx - hr, head_y - hr, cx + hr, head_y + hr), fill=SKIN, outline=FIGURE_LINE, width=line)
    d.chord((cx - hr, head_y - hr, cx + hr, head_y + hr * 0.2), 180, 360, fill=HAIR)
    arm = max(2, SS * 2)
    if rank == "Q":  # svršek: the sign held high, above his head
        sy = top + (bottom - top) * 0.13
        d.line((cx + w * 0.08, body_top + w * 0.02, cx + w * 0.13, sy + w * 0.08), fill=coat, width=arm * 2)
        pip(d, cx + w * 0.12, sy, w * 0.20)
    elif rank == "J":  # spodek: the sign low, at his feet
        sy = bottom - (bottom - top) * 0.12
        d.line((cx - w * 0.08, body_top + w * 0.02, cx - w * 0.14, sy - w * 0.08), fill=coat, width=arm * 2)
        pip(d, cx - w * 0.15, sy, w * 0.17)
    else:  # král: crowned, the sign at his chest
        cw = hr * 1.1
        cy0 = head_y - hr * 0.8
        d.polygon([(cx - cw, cy0), (cx - cw, cy0 - hr), (cx - cw * 0.5, cy0 - hr * 0.5), (cx, cy0 - hr * 1.2),
                   (cx + cw * 0.5, cy0 - hr * 0.5), (cx + cw, cy0 - hr), (cx + cw, cy0)],
                  fill=CROWN, outline=FIGURE_LINE, width=line)
        pip(d, cx, body_top + (body_bottom - body_top) * 0.40, w * 0.20)


def _ace(d: ImageDraw.ImageDraw, suit: str, w: int, h: int, ink: tuple[int, int, int]) -> None:
    """The eso: one large sign under a banner."""
    cx, cy = w / 2, h / 2
    bw, by = w * 0.20, h * 0.22
    d.polygon([(cx - bw, by), (cx + bw, by), (cx + bw - w * 0.04, by + h * 0.04), (cx + bw, by + h * 0.08),
               (cx - bw, by + h * 0.08), (cx - bw + w * 0.04, by + h * 0.04)], fill=PANEL, outline=ink,
              width=SS * 2)
    suits.CZECH_PIPS[suit](d, cx, cy + h * 0.07, h * 0.46)
