"""A server's settings (issue 29) as plain data: the keys, their checks, the effective values.

No Discord types here: the cog (``bot.cogs.settings``) turns mentions into ids and checks that a
channel or role belongs to the server; this module checks everything else and says why a value
is refused (a ``SettingError`` carrying a message id and its parameters, rendered in the reader's
language). A stored value is the JSON of what ``parse`` returned; ``effective`` reads the stored
values over the operator's defaults (``Config``) into a ``ServerSettings``, clamping a value the
operator's bounds no longer allow (the operator's file stays the bound).

Keys: ``language``; ``channels`` (where tables may be opened: channels or categories; empty =
anywhere); ``threads``; ``pace``; the caps ``tables_per_member|channel|guild`` (1 to the
operator's cap); ``options.<game>`` (the game's default options, checked by the game); ``rated``;
``hints`` (whether a host may allow hints); ``ai_levels`` (which of ``bot.ai.LEVELS`` may sit);
``starting_grant``, ``daily_grant``, ``daily_cooldown_hours`` (within ``Config.server_limits``);
``opener_role`` (a role that may open tables; admins always may).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bot.ai import LEVELS
from bot.config import Config
from bot.i18n.languages import LANGUAGES, NATIVE_NAMES
from bot.i18n.lazy import N_, Amount, Msg, msg
from bot.rules import GAMES
from bot.rules.base import PACES, Game, OptionError

#: Reads ``key=value …`` typed for a game into raw options, or raises a refusal (``/table new``'s).
OptionsReader = Callable[[str, Game], dict[str, Any]]

#: The longest value text read at all (a 5,000-character paste is refused before any parsing);
#: ``channels`` takes ``MAX_PLACES_TEXT``.
MAX_VALUE_TEXT = 300
#: Channels or categories a server may list in ``channels``.
MAX_PLACES = 25
#: The longest ``channels`` value: ``MAX_PLACES`` mentions (``<#`` 21 digits ``>``) and separators.
MAX_PLACES_TEXT = MAX_PLACES * 26
CAPS = ("tables_per_member", "tables_per_channel", "tables_per_guild")
GRANTS = ("starting_grant", "daily_grant", "daily_cooldown_hours")
OPTIONS_PREFIX = "options."
#: on and off as an admin may type them in each language of the bot (its words for "on" and "off"
#: in ``/settings show`` included): what they see is what they may type back.
_ON = ("on", "true", "yes", "1", "oui", "activé", "sí", "si", "activado", "bai", "aktibatuta", "ano",
       "zapnuto")
_OFF = ("off", "false", "no", "0", "non", "désactivé", "desactivado", "ez", "desaktibatuta", "ne",
        "vypnuto")
_ID = re.compile(r"<(?:#|@&)?(\d{15,21})>|(\d{15,21})")
_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{1,6})?|\.[0-9]{1,6})")


class SettingError(ValueError):
    """A refused value; ``message`` says why in the reader's language (``message.render(tr)``)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Setting:
    """One key of ``/settings``: its name, what kind of value it takes, and its help (a message id)."""

    key: str
    kind: str  # language | places | bool | pace | cap | grant | hours | options | levels | role
    help: str
    applies: str = ""  # when a change takes effect, a message id (empty: ``NEXT_TABLE``)

    @property
    def when(self) -> str:
        """When a change of this key takes effect (a message id, told with the change)."""
        return self.applies or NEXT_TABLE


#: When a change takes effect, told to the admin with it: most keys are read as a table opens.
NEXT_TABLE = N_("It applies from the next table.")
_AT_SEAT = N_("It applies from the next table opened or seat taken; open tables keep their players.")
_AT_GRANT = N_("It applies from each member's next daily grant.")


def _game_settings() -> tuple[Setting, ...]:
    return tuple(Setting(OPTIONS_PREFIX + name, "options",
                         N_("Default options of this game's tables, as key=value (checked by the game)."))
                 for name in GAMES)


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("language", "language", N_("The language of the server's tables."),
            N_("It applies from the next table, and at once to this server's public leaderboard.")),
    Setting("channels", "places",
            N_("Where tables may be opened: channels or categories (none = anywhere).")),
    Setting("threads", "bool", N_("Whether each table gets its own thread.")),
    Setting("pace", "pace", N_("The default pace of a table.")),
    Setting("tables_per_member", "cap", N_("Open tables a member may sit at."), _AT_SEAT),
    Setting("tables_per_channel", "cap", N_("Open tables a channel may hold."), _AT_SEAT),
    Setting("tables_per_guild", "cap", N_("Open tables the server may hold."), _AT_SEAT),
    *_game_settings(),
    Setting("rated", "bool", N_("Whether sessions are rated and count on the boards.")),
    Setting("hints", "bool", N_("Whether a host may allow hints (/hint) at a table.")),
    Setting("public_reviews", "bool",
            N_("Whether anyone who can see a finished table may /review it (else its players only)."),
            N_("It applies at once, to every finished session of this server.")),
    Setting("ai_levels", "levels", N_("Which AI levels may sit at a table."),
            N_("It applies at once, to new tables and to the AI buttons of open lobbies.")),
    Setting("starting_grant", "grant", N_("Jetons a new player starts with."),
            N_("It applies to the wallets opened from now on; existing wallets keep their jetons.")),
    Setting("daily_grant", "grant", N_("Jetons granted by /daily."), _AT_GRANT),
    Setting("daily_cooldown_hours", "hours", N_("Hours between two /daily."), _AT_GRANT),
    Setting("opener_role", "role", N_("A role that may open tables (none = everyone; admins always may).")),
)}


def setting(key: str) -> Setting:
    """The setting named ``key`` (case and spaces forgiven), or ``SettingError`` naming the keys."""
    found = SETTINGS.get(key.strip().lower()) if len(key) <= 60 else None
    if found is None:
        shown = key if len(key) <= 40 else key[:39] + "…"
        quoted = "`" + shown + "`"
        raise SettingError(msg("There is no setting {key}. Settings: {keys}.", key=quoted,
                               keys=", ".join(SETTINGS)))
    return found


def bounds(key: str, config: Config) -> tuple[float, float]:
    """The range the operator lets a server choose for a number key."""
    if key in CAPS:
        return 1, getattr(config, key)
    return config.server_limits[key]


def parse(key: str, text: str, config: Config, read_options: OptionsReader | None = None) -> Any:
    """``text`` typed for ``key`` as the JSON-able value to store, or ``SettingError``.

    Channels and roles come back as ids; the caller checks they belong to the server. A game's
    options are read by ``read_options(text, game)`` (``/table new``'s reader, given by the cog).
    """
    spec = setting(key)
    limit = MAX_PLACES_TEXT if spec.kind == "places" else MAX_VALUE_TEXT
    if len(text) > limit:
        raise SettingError(msg("The value is too long: at most {limit} characters, not {n}.",
                               limit=Amount(limit), n=Amount(len(text))))
    value = text.strip()
    kind = spec.kind
    if kind == "language":
        code = value.lower()
        by_name = {NATIVE_NAMES[c].lower(): c for c in LANGUAGES}
        if code in LANGUAGES or code in by_name:
            return by_name.get(code, code)
        raise SettingError(msg("Unknown language. Choose one of: {languages}.",
                               languages=", ".join(NATIVE_NAMES[c] for c in LANGUAGES)))
    if kind == "bool":
        if value.lower() in _ON:
            return True
        if value.lower() in _OFF:
            return False
        raise SettingError(msg("{key} must be on or off.", key=spec.key))
    if kind == "pace":
        if value.lower() in PACES:
            return value.lower()
        raise SettingError(msg("{key} must be one of {choices}.", key=spec.key, choices=", ".join(PACES)))
    if kind in ("cap", "grant", "hours"):
        return _number(spec, value, config)
    if kind == "levels":
        names = [n for n in re.split(r"[\s,;]+", value.lower()) if n]
        bad = [n for n in names if n not in LEVELS]
        if bad or not names:
            raise SettingError(msg("{key} must list AI levels among {choices}.", key=spec.key,
                                   choices=", ".join(LEVELS)))
        return [str(lvl) for lvl in LEVELS if lvl in names]  # in the registry's order, once each
    if kind in ("places", "role"):
        if value.lower() in ("", "none", "-"):
            return [] if kind == "places" else None
        ids = _ids(value)
        if ids is None:
            what = msg("channels or categories") if kind == "places" else msg("a role")
            raise SettingError(msg("{key} must be {what} (mentions or ids), or none.", key=spec.key,
                                   what=what))
        if kind == "role":
            if len(ids) != 1:
                raise SettingError(msg("{key} takes one role.", key=spec.key))
            return ids[0]
        if len(ids) > MAX_PLACES:
            raise SettingError(msg("{key} lists at most {limit} channels.", key=spec.key,
                                   limit=Amount(MAX_PLACES)))
        return sorted(set(ids))
    if read_options is None:
        raise TypeError("a game's options need the options reader")
    return game_options(spec.key[len(OPTIONS_PREFIX):], value, config, read_options)


def _number(spec: Setting, value: str, config: Config) -> int | float:
    whole = spec.kind != "hours"
    if not whole and value.count(",") == 1 and "." not in value:
        value = value.replace(",", ".")  # 1,5: the decimal sign of fr, es, eu and cs (shown so too)
    if not _NUMBER.fullmatch(value) or (whole and "." in value):
        what = msg("a whole number") if whole else msg("a number")
        typed = "`" + value[:40] + "`"
        raise SettingError(msg("{key} must be {what}, not {value}.", key=spec.key, what=what, value=typed))
    number: int | float = int(value) if whole else float(value)
    low, high = bounds(spec.key, config)
    if not low <= number <= high:
        shown_low: Any = Amount(int(low)) if whole else f"{low:g}"
        shown_high: Any = Amount(int(high)) if whole else f"{high:g}"
        raise SettingError(msg("{key} must be from {low} to {high} (the bounds this bot's operator set).",
                               key=spec.key, low=shown_low, high=shown_high))
    return number


def _ids(text: str) -> list[int] | None:
    """The ids in ``<#id>``, ``<@&id>`` or bare ids separated by spaces or commas; None if anything else."""
    found = []
    for part in re.split(r"[\s,;]+", text):
        if not part:
            continue
        m = _ID.fullmatch(part)
        if m is None:
            return None
        found.append(int(m.group(1) or m.group(2)))
    return found or None


def game_options(game: str, text: str, config: Config, read_options: OptionsReader) -> dict[str, Any]:
    """A game's default options typed as ``key=value …``, checked by the game as ``options:`` is.

    Only the typed options are stored (the rest keep following the game's and operator's defaults).
    """
    rules = GAMES[game]
    if text.lower() in ("", "none", "-"):
        return {}
    raw = read_options(text, rules)  # refuses in its own words (unknown option, not a number…)
    try:
        rules.validate_options({**config.options_for(game), **raw})
    except OptionError as exc:
        params = {k: str(v)[:100] for k, v in exc.params.items()}
        raise SettingError(Msg(exc.msgid, params)) from None
    except ValueError as exc:
        raise SettingError(msg(str(exc)[:300])) from None
    return raw


def encode(value: Any) -> str:
    """The stored text of a checked value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def decode(text: str | None) -> Any:
    """A stored value (None for none)."""
    return None if text is None else json.loads(text)


@dataclass(frozen=True)
class ServerSettings:
    """What a server's tables and wallets follow now: its choices over the operator's defaults."""

    language: str | None = None
    places: frozenset[int] = frozenset()
    threads: bool | None = None
    pace: str | None = None
    tables_per_member: int = 3
    tables_per_channel: int = 10
    tables_per_guild: int = 50
    game_options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    rated: bool = True
    hints: bool = True
    public_reviews: bool = False
    ai_levels: tuple[str, ...] = tuple(str(lvl) for lvl in LEVELS)
    starting_grant: int = 1000
    daily_grant: int = 100
    daily_cooldown_hours: float = 20
    opener_role: int | None = None

    def options_for(self, game: str) -> dict[str, Any]:
        """The server's default options of ``game`` (only those it set)."""
        return dict(self.game_options.get(game, {}))

    def may_open_in(self, channel_id: int, parents: tuple[int, ...] = ()) -> bool:
        """Whether a table may be opened in ``channel_id`` (its category or, for a thread, its
        channel and that channel's category, in ``parents``)."""
        return not self.places or channel_id in self.places or any(p in self.places for p in parents)

    def caps(self, config: Config) -> Config:
        """``config`` with this server's open-table caps (never above the operator's)."""
        from dataclasses import replace

        return replace(config, **{k: min(getattr(self, k), getattr(config, k)) for k in CAPS})


def effective(stored: Mapping[str, Any], config: Config) -> ServerSettings:
    """The settings a server's stored values give over the operator's defaults (``config``).

    A stored number the operator's bounds no longer allow is clamped into them; a stored game's
    options the game no longer accepts are ignored (its tables use the defaults again).
    """
    out: dict[str, Any] = {k: getattr(config, k) for k in (*CAPS, *GRANTS)}
    games: dict[str, Mapping[str, Any]] = {}
    for key, value in stored.items():
        spec = SETTINGS.get(key)
        if spec is None or value is None:
            continue
        if spec.kind in ("cap", "grant", "hours"):
            low, high = bounds(key, config)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                clamped = min(max(value, low), high)
                out[key] = int(clamped) if spec.kind != "hours" else float(clamped)
        elif spec.kind == "options":
            game = key[len(OPTIONS_PREFIX):]
            try:
                GAMES[game].validate_options({**config.options_for(game), **value})
            except (ValueError, KeyError, TypeError):
                continue
            games[game] = MappingProxyType(dict(value))
        elif key == "channels":
            out["places"] = frozenset(int(v) for v in value)
        elif key == "ai_levels":
            out["ai_levels"] = tuple(str(lvl) for lvl in LEVELS if lvl in value)
        else:
            out[key] = value
    return ServerSettings(game_options=MappingProxyType(games), **out)


def table_pace_default(server: ServerSettings, fallback: str = "normal") -> str:
    """The pace a new table of this server gets when its host names none (``fallback``: the
    operator's ``default_pace``); ``/table new`` writes it into the table's ``pace`` option."""
    return server.pace or fallback


def threads_enabled(server: ServerSettings, fallback: bool = True) -> bool:
    """Whether a new table of this server gets its own thread (where the channel allows one):
    the server's ``/settings threads``, else ``fallback`` (the operator's ``table_threads``)."""
    return fallback if server.threads is None else server.threads
