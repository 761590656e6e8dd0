"""Suit pips drawn as shapes: the Spanish suits (oros, copas, espadas, bastos) and the Czech
pack's German suits (srdce, kule, zelené, žaludy).

Each function draws one pip centred on ``(cx, cy)`` inside a box of height ``h`` (width about
``0.7 h``). French suits use the font's ♠ ♥ ♦ ♣ glyphs instead (see ``cards.py``).
"""

from __future__ import annotations

import math
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


# --------------------------------------------------------------------------- the Czech pack

HEART_RED = (204, 30, 40)
HEART_DARK = (120, 10, 20)
BELL_GOLD = (236, 178, 24)
BELL_DARK = (140, 90, 0)
BELL_BAND = (196, 44, 36)
LEAF_GREEN = (46, 140, 58)
LEAF_DARK = (18, 76, 30)
LEAF_VEIN = (150, 210, 140)
NUT = (214, 148, 60)
NUT_DARK = (110, 62, 20)
CUP = (124, 84, 36)


def _heart_points(cx: float, cy: float, h: float, up: bool = False,
                  steps: int = 40) -> list[tuple[float, float]]:
    """The classic heart curve in a box of height ``h`` (point down; point up if ``up``)."""
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        # the curve spans x in [-16, 16], y in [-17, 12]: scale to the box, centred
        sy = -(y + 2.5) / 29 * h
        pts.append((cx + x / 29 * h, cy + (-sy if up else sy)))
    return pts


def srdce(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """Hearts (srdce): a red heart."""
    w = max(1, round(h * 0.04))
    d.polygon(_heart_points(cx, cy, h * 0.92), fill=HEART_RED, outline=HEART_DARK, width=w)


def kule(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """Bells (kule): a round golden bell with a red band, its slit below and its loop on top."""
    w = max(1, round(h * 0.04))
    r = h * 0.36
    by = cy + h * 0.08
    lr = h * 0.08
    d.ellipse((cx - lr, by - r - lr * 1.7, cx + lr, by - r + lr * 0.3), outline=BELL_DARK, width=w)
    d.ellipse((cx - r, by - r, cx + r, by + r), fill=BELL_GOLD, outline=BELL_DARK, width=w)
    d.chord((cx - r, by - r, cx + r, by + r), 195, 345, fill=BELL_BAND)
    d.ellipse((cx - r, by - r, cx + r, by + r), outline=BELL_DARK, width=w)
    d.line((cx - r * 0.95, by - r * 0.25, cx + r * 0.95, by - r * 0.25), fill=BELL_DARK, width=w)
    sr = r * 0.16
    d.ellipse((cx - sr, by + r * 0.35 - sr, cx + sr, by + r * 0.35 + sr), fill=BELL_DARK)
    d.line((cx, by + r * 0.35, cx, by + r * 0.95), fill=BELL_DARK, width=max(1, round(h * 0.05)))


def zelene(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """Leaves (zelené): a green leaf, point up, with its stem and veins."""
    w = max(1, round(h * 0.04))
    top = cy - h * 0.06
    d.line((cx, top + h * 0.30, cx - h * 0.04, cy + h * 0.48), fill=LEAF_DARK, width=max(1, round(h * 0.07)))
    d.polygon(_heart_points(cx, top, h * 0.80, up=True), fill=LEAF_GREEN, outline=LEAF_DARK, width=w)
    vw = max(1, round(h * 0.03))
    d.line((cx, top - h * 0.30, cx, top + h * 0.30), fill=LEAF_VEIN, width=vw)
    for k in (-1, 1):
        d.line((cx, top, cx + k * h * 0.20, top - h * 0.12), fill=LEAF_VEIN, width=vw)
        d.line((cx, top + h * 0.15, cx + k * h * 0.24, top + h * 0.02), fill=LEAF_VEIN, width=vw)


def zaludy(d: ImageDraw.ImageDraw, cx: float, cy: float, h: float) -> None:
    """Acorns (žaludy): a brown nut under its hatched cup, on a short stalk."""
    w = max(1, round(h * 0.04))
    nw = h * 0.26
    d.ellipse((cx - nw, cy - h * 0.16, cx + nw, cy + h * 0.46), fill=NUT, outline=NUT_DARK, width=w)
    cw = h * 0.32
    d.chord((cx - cw, cy - h * 0.34, cx + cw, cy + h * 0.08), 180, 360, fill=CUP, outline=NUT_DARK, width=w)
    d.rectangle((cx - cw, cy - h * 0.14, cx + cw, cy - h * 0.10), fill=CUP, outline=NUT_DARK, width=w)
    lw = max(1, round(h * 0.02))
    for k in range(-2, 3):
        x = cx + k * cw * 0.38
        d.line((x - cw * 0.18, cy - h * 0.12, x + cw * 0.18, cy - h * 0.26), fill=NUT_DARK, width=lw)
    d.line((cx, cy - h * 0.30, cx + h * 0.05, cy - h * 0.46), fill=NUT_DARK, width=max(1, round(h * 0.06)))


#: The Czech pack's pips for the French codes they stand for: H srdce, D kule, S zelené, C žaludy.
CZECH_PIPS: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float], None]] = {
    "H": srdce, "D": kule, "S": zelene, "C": zaludy,
}

#: Text colour of each Czech suit's index.
CZECH_INK: dict[str, Colour] = {"H": HEART_RED, "D": BELL_DARK, "S": LEAF_DARK, "C": NUT_DARK}

#: Ink of the French suits on four-colour faces: black spades, red hearts, blue diamonds, green clubs.
FOUR_COLOUR_INK: dict[str, Colour] = {"S": (24, 24, 28), "H": (200, 24, 36), "D": (28, 84, 200),
                                      "C": (22, 128, 52)}
