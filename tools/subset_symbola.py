"""Rebuild ``bot/render/fonts/Symbola-subset.ttf`` from Symbola: ``python tools/subset_symbola.py [SYMBOLA]``.

``SYMBOLA`` defaults to the Debian package's file (``apt-get download fonts-symbola`` and
``dpkg-deb -x`` it; the package's ``copyright`` is ``bot/render/fonts/LICENSE-Symbola.txt``):
``usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf`` (3.2 MB, Symbola 10.24).

Symbola is the last font of image text's fallback chain (``bot.render.fonts``): it draws the
emoji and symbols that DejaVu Sans, Droid Sans Fallback and NanumSquare lack. The subset keeps
the characters of :data:`BLOCKS` (letterlike signs, arrows, mathematical and technical symbols,
enclosed alphanumerics, box drawing and shapes, miscellaneous symbols, dingbats, the styled
mathematical letters of "𝓜𝓪𝓻𝓲𝓮" names, mahjong, domino and playing cards, every emoji and
pictograph block), less those both DejaVu Sans faces already draw (the chain never asks Symbola
for them), and drops the TrueType hinting (FreeType's autohinter draws the pictographs as well at
text sizes): 3.2 MB become about 1.1 MB. Symbola's licence allows it: "Fonts are free for any
use; they may be opened, edited, modified, regenerated, packaged and redistributed."

Needs fontTools (``pip install -e .[test]``; the bot itself reads the fonts without it).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "bot" / "render" / "fonts"
SOURCE = "/tmp/fontdebs/x/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
TARGET = FONTS / "Symbola-subset.ttf"

#: The Unicode blocks kept, first and last code point.
BLOCKS = [
    (0x2100, 0x214F),  # Letterlike Symbols
    (0x2190, 0x21FF),  # Arrows
    (0x2200, 0x22FF),  # Mathematical Operators
    (0x2300, 0x23FF),  # Miscellaneous Technical (⌚ ⏰ ⏳)
    (0x2460, 0x24FF),  # Enclosed Alphanumerics (ⓜⓐⓡⓘⓔ)
    (0x2500, 0x25FF),  # Box Drawing, Block Elements, Geometric Shapes
    (0x2600, 0x27BF),  # Miscellaneous Symbols, Dingbats
    (0x27C0, 0x27FF),  # Miscellaneous Mathematical Symbols-A, Supplemental Arrows-A
    (0x2900, 0x297F),  # Supplemental Arrows-B
    (0x2B00, 0x2BFF),  # Miscellaneous Symbols and Arrows (⭐ ⬛)
    (0x1D400, 0x1D7FF),  # Mathematical Alphanumeric Symbols (𝐌𝐚𝐫𝐢𝐞, 𝕸𝖆𝖗𝖎𝖊)
    (0x1F000, 0x1FAFF),  # Mahjong, Domino, Playing Cards … Symbols and Pictographs Extended-A
]


def keep(source: TTFont) -> list[int]:
    """The code points of ``source`` in :data:`BLOCKS` that not both DejaVu Sans faces have."""
    dejavu = [set(TTFont(FONTS / name, lazy=True).getBestCmap()) for name in
              ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")]
    both = dejavu[0] & dejavu[1]
    return sorted(u for u in source.getBestCmap()
                  if u not in both and any(a <= u <= b for a, b in BLOCKS))


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    font = TTFont(path)
    unicodes = keep(font)
    options = subset.Options()
    options.hinting = False
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    font.save(TARGET)
    print(f"{TARGET.relative_to(ROOT)}: {len(unicodes)} characters, {TARGET.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
