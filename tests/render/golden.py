"""Golden-image comparison: images are compared at half size with a per-pixel tolerance.

Goldens are stored at half size in a 128-colour palette to keep the repository small.

Regenerate every golden with ``TAPIS_REGEN_GOLDEN=1 .venv/bin/pytest -q tests/render``; a failing
comparison writes the actual image and a diff under ``/tmp/tapis-render-golden/`` to look at.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN_DIR = Path(__file__).with_name("golden")
OUT_DIR = Path(os.environ.get("TAPIS_GOLDEN_OUT", "/tmp/tapis-render-golden"))
REGEN = os.environ.get("TAPIS_REGEN_GOLDEN") == "1"
CHANNEL_TOLERANCE = 40  # a pixel differs when a channel moves more than this
MAX_DIFF_FRACTION = 0.005  # at most 0.5% of the pixels may differ
GOLDEN_COLOURS = 128  # goldens are stored as palette PNGs (quantising costs < 0.2% of the pixels)


def reduce(png: bytes) -> Image.Image:
    """The image at half size, RGB (what the goldens store: small files, robust to hinting)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return img.resize((max(1, img.width // 2), max(1, img.height // 2)), Image.Resampling.BOX)


def check_golden(name: str, png: bytes) -> None:
    """Compare ``png`` with ``golden/<name>.png``; write it instead when regenerating."""
    actual = reduce(png)
    path = GOLDEN_DIR / f"{name}.png"
    if REGEN or not path.exists():
        if not REGEN:
            raise AssertionError(f"golden {path} is missing; create it with TAPIS_REGEN_GOLDEN=1")
        GOLDEN_DIR.mkdir(exist_ok=True)
        small = actual.quantize(colors=GOLDEN_COLOURS, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.NONE)
        small.save(path, optimize=True)
        return
    golden = Image.open(path).convert("RGB")
    if golden.size != actual.size:
        _dump(name, actual, None)
        raise AssertionError(f"{name}: size {actual.size} != golden {golden.size}; if intended, "
                             "regenerate with TAPIS_REGEN_GOLDEN=1")
    diff = ImageChops.difference(golden, actual)
    channels = [c.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0) for c in diff.split()]
    over = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    bad = over.histogram()[255]
    fraction = bad / (actual.width * actual.height)
    if fraction > MAX_DIFF_FRACTION:
        _dump(name, actual, over)
        raise AssertionError(
            f"{name}: {bad} pixels ({fraction:.2%}) differ from {path} (allowed {MAX_DIFF_FRACTION:.1%}). "
            f"Actual and diff written to {OUT_DIR}/; if the change is intended, regenerate with "
            "TAPIS_REGEN_GOLDEN=1 .venv/bin/pytest -q tests/render"
        )


def _dump(name: str, actual: Image.Image, diff: Image.Image | None) -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    actual.save(OUT_DIR / f"{name}.actual.png")
    if diff is not None:
        diff.save(OUT_DIR / f"{name}.diff.png")
