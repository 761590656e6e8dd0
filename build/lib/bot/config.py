"""Configuration: one TOML file plus ``DISCORD_TOKEN`` from the environment -> a frozen ``Config``.

Usage::

    cfg = load_config(None)          # ./config.toml if present, else defaults
    cfg = load_config("prod.toml")   # must exist
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

DEFAULT_PATH = "config.toml"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A configuration problem, described in one line."""


@dataclass(frozen=True)
class Config:
    """Every setting of the bot; see ``config.example.toml`` for what each key means."""

    database: str = "tapis.db"
    starting_grant: int = 1000
    daily_grant: int = 100
    daily_cooldown_hours: float = 20
    turn_timeout: float = 120
    ai_delay: float = 1.0
    default_options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    token: str | None = field(default=None, repr=False)

    def options_for(self, game: str) -> dict[str, Any]:
        """The configured default options of ``game`` (a fresh dict)."""
        return dict(self.default_options.get(game, {}))


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
    token = env.get("DISCORD_TOKEN") or None
    return Config(**values, token=token)


def _check(raw: dict[str, Any], path: str) -> dict[str, Any]:
    known = {f.name for f in fields(Config)} - {"token"}
    unknown = sorted(set(raw) - known)
    if "token" in raw:
        raise ConfigError(f"{path}: the token is read only from the DISCORD_TOKEN environment variable")
    if unknown:
        raise ConfigError(f"{path}: unknown key(s): {', '.join(unknown)}")
    out: dict[str, Any] = {}
    for key, value in raw.items():
        out[key] = _check_value(key, value, path)
    return out


def _check_value(key: str, value: Any, path: str) -> Any:
    def bad(expect: str) -> ConfigError:
        return ConfigError(f"{path}: {key} must be {expect} (got {value!r})")

    if key == "database":
        if not isinstance(value, str) or not value:
            raise bad("a non-empty path")
        return value
    if key in ("starting_grant", "daily_grant"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise bad("a whole number ≥ 0")
        return value
    if key in ("daily_cooldown_hours", "turn_timeout", "ai_delay"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise bad("a number ≥ 0")
        if key == "turn_timeout" and value <= 0:
            raise bad("a number > 0")
        return float(value) if key != "daily_cooldown_hours" else value
    if key == "dev_guild_id":
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise bad("a guild id (a positive whole number)")
        return value
    if key == "log_level":
        if not isinstance(value, str) or value.upper() not in LOG_LEVELS:
            raise bad(f"one of {', '.join(LOG_LEVELS)}")
        return value.upper()
    if key == "default_options":
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            raise bad("a table of tables, e.g. [default_options.motz]")
        return MappingProxyType({g: MappingProxyType(dict(o)) for g, o in value.items()})
    raise ConfigError(f"{path}: unknown key {key}")  # unreachable: checked above
