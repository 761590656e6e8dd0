"""Catalogue maintenance with Babel: extract the template, update the ``.po`` files, check them.

``python -m bot.i18n extract`` writes ``bot/locales/tapis.pot`` from two sources:

- the Python code under ``bot/`` (Babel's extractor, mapping in ``babel.cfg``, the keywords
  below: ``tr._``, ``tr.n_``, ``tr.p_``, ``tr.np_``, ``N_``, ``NP_``, ``msg``, ``nmsg``);
- each game's title, /rules summary and option help (``GAMES``: plain data of the rules core);
- the slash-command tree (names under msgctxt ``"slash name"``, descriptions, parameter
  descriptions and choice names), read from the cogs the bot loads, so command text needs no
  marking in the cogs.

``python -m bot.i18n update`` merges the template into every language's ``.po`` (new ids
untranslated, changed ones fuzzy), and ``python -m bot.i18n check`` lists what is missing,
fuzzy or inconsistent (Babel's checkers + ``{placeholder}`` consistency); exit code 1 if any.
"""

from __future__ import annotations

import asyncio
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages import checkers
from babel.messages.catalog import Catalog, Message, TranslationError
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalog import DOMAIN, SLASH_NAME, po_path, pot_path
from bot.i18n.languages import LANGUAGES, SOURCE

ROOT = Path(__file__).resolve().parents[2]
#: Extraction keywords: function name -> argument spec (Babel syntax; ``(1, "c")`` is the msgctxt).
KEYWORDS: dict[str, Any] = {
    "_": None,
    "word": None,
    "N_": None,
    "msg": None,
    "n_": (1, 2),
    "nmsg": (1, 2),
    "p_": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
    "np_": ((1, "c"), 2, 3),
}
COMMENT_TAGS = ("translators:",)
HEADER = {"project": "Tapis", "version": "1", "copyright_holder": "Tapis",
          "msgid_bugs_address": "", "charset": "utf-8"}


# ------------------------------------------------------------------------------ extraction


def extract_python() -> Iterator[tuple[str, int, Any, list[str], str | None]]:
    """(file under ``bot/``, line, message, comments, context) for every marked literal."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    yield from extract_from_dir(
        str(ROOT / "bot"), method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    )


async def _command_tree() -> list[Any]:
    import discord
    from discord.ext import commands

    from bot.app import EXTENSIONS

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    return list(bot.tree.get_commands())


def extract_commands() -> Iterator[tuple[str, str | None, str]]:
    """(text, context, where) for every slash-command name, description and choice."""
    from discord import app_commands

    def walk(node: Any, path: str) -> Iterator[tuple[str, str | None, str]]:
        where = f"/{path}{node.name}"
        yield node.name, SLASH_NAME, where
        yield str(node.description), None, where
        if isinstance(node, app_commands.Group):
            for child in node.commands:
                yield from walk(child, f"{path}{node.name} ")
            return
        for param in node.parameters:
            yield param.name, SLASH_NAME, f"{where} {param.name}"
            if param.description and str(param.description) != "…":
                yield str(param.description), None, f"{where} {param.name}"
            for choice in param.choices:
                yield str(choice.name), None, f"{where} {param.name}"

    for node in asyncio.run(_command_tree()):
        yield from walk(node, "")


def extract_games() -> Iterator[tuple[str, str]]:
    """(text, where) for each game's title, /rules summary and the help of its visible options."""
    from bot.rules import GAMES

    for game in GAMES.values():
        yield game.title, f"game:{game.name}"
        if game.summary:
            yield game.summary, f"game:{game.name}:summary"
        for spec in game.options:
            if not spec.hidden:
                yield spec.help, f"game:{game.name}:{spec.name}"


def build_template() -> Catalog:
    """The template catalogue from the code, the games' option specs and the command tree."""
    cat = Catalog(domain=DOMAIN, **HEADER)
    for filename, lineno, message, comments, context in extract_python():
        cat.add(message, None, [(f"bot/{filename}", lineno)], auto_comments=comments, context=context)
    for text, where in extract_games():
        cat.add(text, None, [(where, 0)])
    for text, context, where in extract_commands():
        if text:
            cat.add(text, None, [(f"slash:{where}", 0)], context=context)
    return cat


def write_catalog(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, cat, width=100, sort_output=True, omit_header=False, include_lineno=False)


def extract() -> Catalog:
    """Write the template; left untouched when its messages did not change (no date-only diffs)."""
    cat = build_template()
    if pot_path().exists():
        with pot_path().open("rb") as fh:
            old = read_po(fh, domain=DOMAIN)
        if _signature(old) == _signature(cat):
            return cat
    write_catalog(cat, pot_path())
    return cat


def _signature(cat: Catalog) -> list[tuple[Any, ...]]:
    return sorted((m.context or "", str(m.id), tuple(m.locations), tuple(m.auto_comments))
                  for m in cat if m.id)


def update() -> None:
    """Merge the template into every language's ``.po`` (creating missing ones)."""
    with pot_path().open("rb") as fh:
        template = read_po(fh, domain=DOMAIN)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as fh:
                cat = read_po(fh, locale=lang, domain=DOMAIN)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, **HEADER)
        cat.update(template, no_fuzzy_matching=False)
        cat.obsolete.clear()
        cat.fuzzy = False  # the header: the catalogue itself is in use
        write_catalog(cat, path)


# ------------------------------------------------------------------------------ checking


def fields(text: str) -> set[str]:
    """The ``{placeholder}`` names of a ``str.format`` text (raises ValueError if malformed)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text)
            if name is not None}


def brace_format(catalog: Catalog | None, message: Message) -> None:
    """A Babel checker: every translation uses exactly the message id's ``{placeholders}``.

    For plural messages a form may leave ``{n}`` out (Czech "jedna karta"), nothing else.
    """
    ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
    strs = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    wanted = set().union(*(fields(i) for i in ids))
    for s in strs:
        if not s:
            continue
        try:
            got = fields(s)
        except ValueError as exc:
            raise TranslationError(f"malformed placeholders in {s!r}: {exc}") from None
        missing = wanted - got - ({"n"} if len(ids) > 1 else set())
        extra = got - wanted
        if missing or extra:
            raise TranslationError(
                f"placeholders differ from the source: missing {sorted(missing)}, unknown {sorted(extra)}")


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """Everything wrong with one language's ``.po``: missing, fuzzy, placeholder or plural errors."""
    with po_path(lang).open("rb") as fh:
        cat = read_po(fh, locale=lang, domain=DOMAIN)
    out = []
    if template is not None:
        for m in template:
            if m.id and cat.get(m.id, m.context) is None:
                out.append(f"{lang}: not in the catalogue: {m.context or ''}|{_one(m.id)}")
    for m in cat:
        if not m.id:
            continue
        where = f"{lang}: {m.context + '|' if m.context else ''}{_one(m.id)}"
        if lang != SOURCE:
            strs = m.string if isinstance(m.string, (list, tuple)) else (m.string,)
            if not all(strs):
                out.append(f"{where}: untranslated")
                continue
            if m.fuzzy:
                out.append(f"{where}: fuzzy")
        for check in (checkers.num_plurals, checkers.python_format, brace_format):
            try:
                check(cat, m)
            except TranslationError as exc:
                out.append(f"{where}: {exc}")
    return out


def _one(msgid: Any) -> str:
    return msgid[0] if isinstance(msgid, (list, tuple)) else msgid


def check() -> list[str]:
    template = None
    if pot_path().exists():
        with pot_path().open("rb") as fh:
            template = read_po(fh, domain=DOMAIN)
    return [p for lang in LANGUAGES for p in problems(lang, template)]
