"""Suit pips drawn as shapes: the Spanish suits (oros, copas, espadas, bastos).

Each function draws one pip centred on ``(cx, cy)`` inside a box of height ``h`` (width about
``0.7 h``). French suits use the font's ♠ ♥ ♦ ♣ glyphs instead (see ``cards.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

GOLD = (222, 170, 30)
GOLD_DARK = (150, 100, 10)
CUP_RED = (196, 36, 44)
SWORD_BLUE = (38, 84, 170)
SWORD_DARK = (20, 40, 90)
CLUB_BROWN = (150, 92, 40)
CLUB_GREEN = (40, 120, 56)
INK = (30, 30, 30)

Colour = tuple[int, int, int]


def oros(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """A gold coin: ring, inner disc and a centre dot."""
    r = h * 0.40
    w = max(1, round(h * 0.05))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=GOLD_DARK, width=w)
    r2 = r * 0.62
    d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=GOLD_DARK, width=w)
    r3 = r * 0.18
    d.ellipse((cx - r3, cy - r3, cx + r3, cy + r3), fill=GOLD_DARK)


def copas(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """A goblet: a wide bowl, a stem and a foot."""
    w = max(1, round(h * 0.04))
    bw, top = h * 0.34, cy - h * 0.42
    # bowl: lower half of an ellipse plus a rim band
    d.chord((cx - bw, top - h * 0.28, cx + bw, top + h * 0.42), 0, 180, fill=CUP_RED, outline=GOLD_DARK,
            width=w)
    d.rectangle((cx - bw, top + h * 0.05, cx + bw, top + h * 0.10), fill=GOLD, outline=GOLD_DARK, width=w)
    # stem with a knot
    sw = h * 0.06
    d.rectangle((cx - sw, top + h * 0.40, cx + sw, cy + h * 0.30), fill=GOLD, outline=GOLD_DARK, width=w)
    d.ellipse((cx - sw * 2.2, cy + h * 0.02, cx + sw * 2.2, cy + h * 0.14), fill=GOLD, outline=GOLD_DARK,
              width=w)
    # foot
    fw = h * 0.24
    d.chord((cx - fw, cy + h * 0.26, cx + fw, cy + h * 0.50), 180, 360, fill=CUP_RED, outline=GOLD_DARK,
            width=w)
    d.rectangle((cx - fw, cy + h * 0.37, cx + fw, cy + h * 0.42), fill=GOLD, outline=GOLD_DARK, width=w)


def espadas(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """A sword, point up: blade, crossguard, grip and pommel."""
    w = max(1, round(h * 0.03))
    bw = h * 0.07
    tip, guard = cy - h * 0.48, cy + h * 0.18
    d.polygon([(cx, tip), (cx + bw, tip + h * 0.12), (cx + bw, guard), (cx - bw, guard),
               (cx - bw, tip + h * 0.12)], fill=SWORD_BLUE, outline=SWORD_DARK, width=w)
    d.line((cx, tip + h * 0.10, cx, guard - h * 0.02), fill=(200, 215, 240), width=max(1, round(h * 0.025)))
    gw = h * 0.26
    d.rounded_rectangle((cx - gw, guard, cx + gw, guard + h * 0.07), radius=h * 0.03, fill=GOLD,
                        outline=GOLD_DARK, width=w)
    d.rectangle((cx - bw * 0.7, guard + h * 0.07, cx + bw * 0.7, cy + h * 0.40), fill=SWORD_DARK)
    pr = h * 0.07
    py = cy + h * 0.38
    d.ellipse((cx - pr, py, cx + pr, py + 2 * pr), fill=GOLD, outline=GOLD_DARK, width=w)


def bastos(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """A knotty club, thick end up, with green knots."""
    w = max(1, round(h * 0.03))
    top, bot = cy - h * 0.46, cy + h * 0.46
    d.polygon([(cx - h * 0.16, top + h * 0.06), (cx + h * 0.16, top + h * 0.06),
               (cx + h * 0.07, bot), (cx - h * 0.07, bot)], fill=CLUB_BROWN, outline=INK, width=w)
    d.ellipse((cx - h * 0.16, top, cx + h * 0.16, top + h * 0.14), fill=CLUB_BROWN, outline=INK, width=w)
    kr = h * 0.05
    for fy, side in ((0.28, -1), (0.45, 1), (0.62, -1)):
        ky = top + h * fy
        kx = cx + side * h * (0.14 - fy * 0.08)
        d.ellipse((kx - kr, ky - kr, kx + kr, ky + kr), fill=CLUB_GREEN, outline=INK, width=w)


SPANISH_PIPS: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float], None]] = {
    "O": oros, "C": copas, "E": espadas, "B": bastos,
}

#: Text colour of each Spanish suit's index.
SPANISH_INK: dict[str, Colour] = {"O": GOLD_DARK, "C": CUP_RED, "E": SWORD_BLUE, "B": CLUB_GREEN}
