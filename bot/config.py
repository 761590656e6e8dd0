"""Configuration: one TOML file plus ``DISCORD_TOKEN`` from the environment -> a frozen ``Config``.

Usage::

    cfg = load_config(None)          # ./config.toml if present, else defaults
    cfg = load_config("prod.toml")   # must exist

``database`` is a SQLite file (the default) or a ``postgresql://`` URL; ``DATABASE_URL`` in the
environment, when set, replaces it.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from bot.sharding import ShardPlan, parse_shard_ids

DEFAULT_PATH = "config.toml"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Inclusive bounds of the integer keys (jetons stay far below SQLite's 64-bit integers).
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "starting_grant": (0, 10**9),
    "daily_grant": (0, 10**9),
    "tables_per_member": (1, 1000),
    "tables_per_channel": (1, 10_000),
    "tables_per_guild": (1, 100_000),
    "deal_cap": (1, 100_000),
    "ai_workers": (1, 64),
    "correspondence_away_after": (1, 10),
    "review_cap": (1, 10_000_000),
    "review_queue": (1, 10_000),
    "dev_guild_id": (1, 2**63 - 1),
}
#: Inclusive bounds of the number keys (seconds or hours); nan and inf are always refused.
FLOAT_BOUNDS: dict[str, tuple[float, float]] = {
    "daily_cooldown_hours": (0, 24 * 366),
    "turn_timeout": (1, 7 * 24 * 3600),
    "pace_fast": (5, 3600),
    "pace_slow": (10, 7 * 24 * 3600),
    "pace_correspondence_hours": (1, 24 * 30),
    "correspondence_reminder_hours": (0.05, 24 * 29),
    "ai_delay": (0, 3600),
    "lobby_expiry_hours": (0.01, 24 * 366),
    "review_budget": (0.1, 24 * 3600),
}
#: What a server admin may choose with ``/settings`` for these keys, unless ``[server_limits]``
#: says otherwise: ``key = [lowest, highest]`` (the operator's own value must lie within). The
#: open-table caps have no entry: a server may lower them, never raise them past the operator's.
SERVER_LIMITS: dict[str, tuple[float, float]] = {
    "starting_grant": (0, 100_000),
    "daily_grant": (0, 10_000),
    "daily_cooldown_hours": (1, 24 * 7),
}


class ConfigError(Exception):
    """A configuration problem, described in one line."""


@dataclass(frozen=True)
class Config:
    """Every setting of the bot; see ``config.example.toml`` for what each key means."""

    database: str = "tapis.db"
    starting_grant: int = 1000
    daily_grant: int = 100
    daily_cooldown_hours: float = 20
    #: Seconds per move of the "normal" pace (the only timeout before paces existed).
    turn_timeout: float = 120
    #: Seconds per move of the "fast" and "slow" paces; hours per move of "correspondence".
    pace_fast: float = 30
    pace_slow: float = 600
    pace_correspondence_hours: float = 48
    #: A correspondence player to act gets one DM reminder this many hours before their deadline.
    correspondence_reminder_hours: float = 6
    #: Missed deadlines in a row after which the AI takes a correspondence seat (2 at other paces).
    correspondence_away_after: int = 3
    #: The pace of a table whose host chose none (``bot.tables.pace.default_pace``).
    default_pace: str = "normal"
    ai_delay: float = 1.0
    #: Open (lobby or playing) tables a member may sit at, a channel and a guild may hold.
    tables_per_member: int = 3
    tables_per_channel: int = 10
    tables_per_guild: int = 50
    #: A lobby nobody starts is cancelled (every buy-in refunded) this many hours after it opened.
    lobby_expiry_hours: float = 6
    #: Deals after which a session with no natural end (Michigan ``rotations = 0``) closes.
    deal_cap: int = 100
    #: Worker processes for strong-AI search (the global budget of searches running at once).
    ai_workers: int = 1
    #: /review (issue 31): search seconds per reviewed session, shared by its decisions;
    #: determinizations per decision at most (each scores every legal move); reviews queued or
    #: running bot-wide at most.
    review_budget: float = 60.0
    review_cap: int = 400
    review_queue: int = 8
    #: Ask for Discord's privileged GUILD_MEMBERS intent (enable it on the bot's page first): a member
    #: removed from a server is then taken off its tables, as if they had left.
    member_events: bool = False
    #: Each table gets its own thread, started from its lobby message, where the channel allows it
    #: (``bot.outbox.threads.threads_enabled``); the channel keeps one line per table.
    table_threads: bool = True
    default_options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    #: ``[server_limits]``: the range a server's ``/settings`` may choose for each key of
    #: ``SERVER_LIMITS`` (a server's value outside it is refused, the bound named).
    server_limits: Mapping[str, tuple[float, float]] = field(
        default_factory=lambda: MappingProxyType(dict(SERVER_LIMITS)))
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shards: ShardPlan | None = None  # [shards] ids = "0-3", count = 16: this process's shards
    token: str | None = field(default=None, repr=False)

    def options_for(self, game: str) -> dict[str, Any]:
        """The configured default options of ``game`` (a fresh dict); the default pace, if not
        the usual one, comes first (a game's own ``pace`` default wins)."""
        base: dict[str, Any] = {} if self.default_pace == "normal" else {"pace": self.default_pace}
        return {**base, **self.default_options.get(game, {})}


#: The keys of the file's top level (everything of ``Config`` but the token, read from the environment).
TOP_LEVEL_KEYS = frozenset(f.name for f in fields(Config)) - {"token"}


def load_config(path: str | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read the TOML file at ``path`` (default ``config.toml``, optional) and the token from env.

    Raises ``ConfigError`` for a missing explicit file, bad TOML, an unknown key or a bad value.
    """
    env = os.environ if env is None else env
    explicit = path is not None
    path = path or DEFAULT_PATH
    raw: dict[str, Any] = {}
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    values = _check(raw, path)
    if env.get("DATABASE_URL"):  # the usual way platforms hand a PostgreSQL URL to a process
        values["database"] = _check_value("database", env["DATABASE_URL"], "DATABASE_URL")
    token = env.get("DISCORD_TOKEN") or None
    limits = _limits_around(values, raw, path)  # takes server_limits out of values
    return Config(**values, token=token, server_limits=limits)


def _limits_around(values: dict[str, Any], raw: dict[str, Any],
                   path: str) -> Mapping[str, tuple[float, float]]:
    """The server limits, checked to hold the operator's own value of each key: a limit the file
    sets must (else ``ConfigError``); a default one is widened to it."""
    given = raw.get("server_limits", {})
    limits = dict(values.pop("server_limits", SERVER_LIMITS))
    for key, (low, high) in limits.items():
        own = values.get(key, getattr(Config, key))
        if low <= own <= high:
            continue
        if key in given:
            raise ConfigError(f"{path}: {key} = {own:g} lies outside "
                              f"server_limits.{key} = [{low:g}, {high:g}]")
        limits[key] = (min(low, own), max(high, own))
    return MappingProxyType(limits)


def _check(raw: dict[str, Any], path: str) -> dict[str, Any]:
    known = TOP_LEVEL_KEYS
    unknown = sorted(set(raw) - known)
    if "token" in raw:
        raise ConfigError(f"{path}: the token is read only from the DISCORD_TOKEN environment variable")
    if unknown:
        raise ConfigError(f"{path}: unknown key(s): {', '.join(unknown)}")
    _check_misplaced(raw, path)
    out: dict[str, Any] = {}
    for key, value in raw.items():
        out[key] = _check_value(key, value, path)
    return out


def _check_misplaced(raw: dict[str, Any], path: str) -> None:
    """A top-level key written after a ``[section]`` header belongs to that section in TOML (the
    usual slip: a line appended at the end of the example file). Said as such, rather than as an
    unknown option of the section."""
    from bot.rules import GAMES

    sections: list[tuple[str, dict[str, Any], set[str]]] = []
    for name, allowed in (("server_limits", set(SERVER_LIMITS)), ("shards", {"ids", "count"})):
        if isinstance(raw.get(name), dict):
            sections.append((name, raw[name], allowed))
    defaults = raw.get("default_options")
    if isinstance(defaults, dict):
        sections.append(("default_options", defaults, set(GAMES)))
        for game, options in defaults.items():
            if isinstance(options, dict) and game in GAMES:
                sections.append((f"default_options.{game}", options, {o.name for o in GAMES[game].options}))
    for section, table, allowed in sections:
        for key in table:
            if key not in allowed and key in TOP_LEVEL_KEYS:
                raise ConfigError(f"{path}: {key} is read as {section}.{key}: in TOML a key belongs to the "
                                  f"[section] above it; move {key} above the first [section] of the file")


def _check_value(key: str, value: Any, path: str) -> Any:
    def bad(expect: str) -> ConfigError:
        shown = repr(value)
        return ConfigError(f"{path}: {key} must be {expect} (got {shown[:40]})")

    if key == "database":
        if not isinstance(value, str) or not value:
            raise bad("a non-empty path or a postgresql:// URL")
        if "://" in value and not value.startswith(("postgresql://", "postgres://")):
            raise bad("a SQLite file path or a postgresql:// URL")
        return value
    if key in INT_BOUNDS:
        low, high = INT_BOUNDS[key]
        what = "a guild id (a positive whole number)" if key == "dev_guild_id" else "a whole number"
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise bad(f"{what} from {low} to {high}")
        return value
    if key in FLOAT_BOUNDS:
        low_f, high_f = FLOAT_BOUNDS[key]
        if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
                or not low_f <= value <= high_f):
            raise bad(f"a number from {low_f:g} to {high_f:g}")
        return float(value) if key != "daily_cooldown_hours" else value
    if key == "default_pace":
        from bot.rules.base import PACES

        if not isinstance(value, str) or value not in PACES:
            raise bad(f"one of {', '.join(PACES)}")
        return value
    if key in ("member_events", "table_threads"):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if key == "log_level":
        if not isinstance(value, str) or value.upper() not in LOG_LEVELS:
            raise bad(f"one of {', '.join(LOG_LEVELS)}")
        return value.upper()
    if key == "shards":
        if not isinstance(value, dict) or set(value) - {"ids", "count"} or "count" not in value:
            raise bad('a table with count and ids, e.g. [shards] ids = "0-3" and count = 16')
        count = value["count"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ConfigError(f"{path}: shards.count must be a whole number ≥ 1 (got {count!r})")
        ids = value.get("ids", f"0-{count - 1}")
        try:
            parsed = tuple(sorted(ids)) if isinstance(ids, list) and all(
                isinstance(i, int) and not isinstance(i, bool) for i in ids) else parse_shard_ids(str(ids))
            return ShardPlan(parsed, count)
        except ValueError as exc:
            raise ConfigError(f"{path}: shards.ids: {exc}") from None
    if key == "default_options":
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            raise bad("a table of tables, e.g. [default_options.motz]")
        checked = {g: MappingProxyType(_check_game_options(g, o, path)) for g, o in value.items()}
        return MappingProxyType(checked)
    if key == "server_limits":
        return _check_server_limits(value, path)
    raise ConfigError(f"{path}: unknown key {key}")  # unreachable: checked above


def _check_server_limits(value: Any, path: str) -> Mapping[str, tuple[float, float]]:
    """``[server_limits]``: ``key = [lowest, highest]`` for keys of ``SERVER_LIMITS``, inside the
    operator's own bounds of that key (``INT_BOUNDS`` / ``FLOAT_BOUNDS``)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: server_limits must be a table, "
                          "e.g. [server_limits] daily_grant = [0, 500]")
    out = dict(SERVER_LIMITS)
    for key, pair in value.items():
        if key not in SERVER_LIMITS:
            raise ConfigError(f"{path}: server_limits.{key}: unknown key (keys: {', '.join(SERVER_LIMITS)})")
        low_b, high_b = INT_BOUNDS.get(key) or FLOAT_BOUNDS[key]
        whole = key in INT_BOUNDS
        ok = (isinstance(pair, list) and len(pair) == 2
              and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                      and (not whole or isinstance(v, int)) for v in pair))
        if not ok or not low_b <= pair[0] <= pair[1] <= high_b:
            kind = "whole numbers" if whole else "numbers"
            raise ConfigError(f"{path}: server_limits.{key} must be [lowest, highest], {kind} "
                              f"from {low_b:g} to {high_b:g} (got {str(pair)[:40]})")
        out[key] = (pair[0], pair[1])
    return MappingProxyType(out)


def _check_game_options(game: str, options: dict[str, Any], path: str) -> dict[str, Any]:
    """``[default_options.<game>]``: the game must exist and its options pass its own validation."""
    from bot.rules import GAMES

    rules = GAMES.get(game)
    if rules is None:
        raise ConfigError(f"{path}: default_options.{game}: unknown game (games: {', '.join(sorted(GAMES))})")
    for name, value in options.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{path}: default_options.{game}.{name} must be a finite number")
    try:
        rules.validate_options(options)
    except ValueError as exc:
        text = " ".join(str(exc).split())
        raise ConfigError(f"{path}: default_options.{game}: {text[:200]}") from None
    return dict(options)
