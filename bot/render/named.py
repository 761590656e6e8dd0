"""The colours named in ``bot.render`` and its games, which the fixed palette must hold exactly
(``bot.render.palette``). Read by ``tools/build_palette.py`` and the tests only: it imports every
render module, so no render module imports it (an import cycle otherwise)."""

from __future__ import annotations


def named_colours() -> list[tuple[int, int, int]]:
    """Every colour named at module level in ``bot.render`` and its games (FELT, MUTED, RED, a
    ``*_COLOURS`` tuple...): the palette holds each exactly, since text covers too few pixels for a
    use-weighted fit to keep it (it moved the /review skill blue by 59)."""
    import importlib
    import pkgutil

    import bot.render
    import bot.render.games

    out: list[tuple[int, int, int]] = []
    for package in (bot.render, bot.render.games):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, value in vars(module).items():
                if not name.isupper() or name.startswith("_"):
                    continue
                for colour in (value if name.endswith("COLOURS") else (value,)):
                    if (isinstance(colour, tuple) and len(colour) == 3
                            and all(isinstance(v, int) and 0 <= v <= 255 for v in colour)
                            and colour not in out):
                        out.append(colour)
    return out
