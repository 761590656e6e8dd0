"""Host options typed as text: ``options:"ante=2 rotations=3"`` -> a raw options dict.

The rules core validates the result (``Game.validate_options``); this only splits the text,
refuses unknown or hidden names, reads whole numbers strictly (ASCII digits, at most 9 of them)
and maps choice values typed as text onto the real choices. A refusal quotes at most
``texts.ECHO_CHARS`` characters of what was typed; a text over ``MAX_OPTIONS_TEXT`` characters is
refused before it is read, and reading is linear in its length.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.errors import UserError
from bot.i18n import Amount, Msg, msg
from bot.rules import GAMES
from bot.rules.base import Game, OptionError
from bot.views.texts import echo

if TYPE_CHECKING:
    from bot.app import TapisBot

#: ``name = value``. Linear: a name starts only where no name character precedes it (the
#: lookbehind), and the possessive quantifiers never give back what they took, so a long run of
#: letters or spaces without ``=`` is scanned once, not once per starting position (the old
#: pattern was quadratic: about 230 ms for 6,000 letters).
_PAIR = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*+)\s*+=\s*+([^\s,;]++)")
#: The longest ``options:`` text read at all. The longest legitimate one, every visible option of
#: the game with the most (Michigan) at its longest value, is 131 characters; 300 leaves room for
#: spaces around ``=`` and commas. Anything longer is refused before any parsing (Discord itself
#: lets a string option run to 6,000 characters).
MAX_OPTIONS_TEXT = 300
_INT = re.compile(r"[+-]?[0-9]{1,9}")
#: The largest buy-in a table may ask (far above any wallet; keeps every sum well inside 64 bits).
MAX_BUY_IN = 1_000_000_000


def visible_specs(game: Game) -> dict[str, Any]:
    return {s.name: s for s in game.options if not s.hidden}


def parse_options(text: str | None, game: Game) -> dict[str, Any]:
    """``"a=1 b=on"`` -> ``{"a": "1", "b": "on"}`` with choice values matched; ``UserError`` if bad."""
    text = text or ""
    if len(text) > MAX_OPTIONS_TEXT:  # before anything reads it (strip, split or match)
        raise UserError(msg("The options are too long: at most {limit} characters, not {n}.",
                            limit=Amount(MAX_OPTIONS_TEXT), n=Amount(len(text))))
    text = text.strip()
    if not text:
        return {}
    specs = visible_specs(game)
    out: dict[str, Any] = {}
    leftover = _PAIR.sub("", text).replace(",", " ").replace(";", " ").strip()
    if leftover:
        raise UserError(msg("Cannot read {text}: write options as key=value, e.g. `{example}=2`.",
                            text=echo(leftover), example=next(iter(specs), "ante")))
    for name, value in _PAIR.findall(text):
        name = name.lower()
        if name not in specs:
            known = ", ".join(specs) or "—"
            close = difflib.get_close_matches(name, list(specs), n=1)
            if close:  # a typo: name the option meant first
                raise UserError(msg("{game} has no option {name}: did you mean {close}? Options: {known}.",
                                    game=game.title, name=echo(name), close=f"`{close[0]}`", known=known))
            raise UserError(msg("{game} has no option {name}. Options: {known}.", game=game.title,
                                name=echo(name), known=known))
        if name in out:
            raise UserError(msg("Option {name} is given twice.", name=name))
        spec = specs[name]
        if spec.kind == "choice":
            value = next((c for c in spec.choices if str(c).lower() == value.lower()), value)
        elif spec.kind == "int" and spec.default is None and value.lower() in ("none", "-"):
            value = None  # an option whose default is none (Motz's fine_cap: no cap), as suggested
        elif spec.kind in ("int", "seat"):
            value = whole_number(name, value)
        out[name] = value
    return out


def whole_number(name: str, value: str) -> int:
    """``value`` as an int if it is plainly written (``-``, ASCII digits, at most 9), else ``UserError``."""
    if not _INT.fullmatch(value):
        raise UserError(msg("Option {name} must be a whole number of at most 9 digits, not {value}.",
                            name=name, value=echo(value)))
    return int(value)


def check_options(game: Game, defaults: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """Validate ``defaults`` + ``raw`` with the rules core; ``UserError`` with its message."""
    try:
        options = game.validate_options({**defaults, **raw})
    except OptionError as exc:  # the rules core's refusal, as data: translated for the reader
        params = {k: echo_free(str(v), 100) for k, v in exc.params.items()}
        raise UserError(Msg(exc.msgid, params)) from None
    except ValueError as exc:
        raise UserError(echo_free(str(exc))) from None
    buy_in = options.get("buy_in")
    if isinstance(buy_in, int) and buy_in > MAX_BUY_IN:
        raise UserError(msg("The buy-in may be at most {amount} jetons.", amount=Amount(MAX_BUY_IN)))
    return options


def echo_free(message: str, size: int = 300) -> str:
    """A rules-core refusal, cut so that whatever value it quotes cannot make the reply huge."""
    return message if len(message) <= size else message[: size - 1] + "…"


async def options_autocomplete(interaction: discord.Interaction[TapisBot],
                               current: str) -> list[app_commands.Choice[str]]:
    """Suggest the game's options not typed yet, with their defaults and help (none past the limit)."""
    game = GAMES.get(getattr(interaction.namespace, "game", None) or "")
    if game is None or len(current) > MAX_OPTIONS_TEXT:
        return []
    from bot.views.locale import reader

    tr = await reader(interaction.client, interaction)
    head, _, last = current.rpartition(" ")
    typed = {m.group(1).lower() for m in _PAIR.finditer(head)}
    out = []
    so_far: dict[str, Any] = {}
    for spec in game.options:
        default = spec.resolve_default(so_far)
        so_far[spec.name] = default
        if spec.hidden or spec.name in typed or not spec.name.startswith(last.split("=")[0].lower()):
            continue
        value = f"{head} {spec.name}={default}".strip()
        if len(value) > 100:
            continue
        out.append(app_commands.Choice(name=f"{spec.name}={default} — {tr._(spec.help)}"[:100], value=value))
    return out[:25]
