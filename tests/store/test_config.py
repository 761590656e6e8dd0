"""Configuration loading: defaults, TOML values, token from the environment, clear errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_missing_default_file_gives_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config(None, env={})
    assert cfg == Config()
    assert cfg.database == "tapis.db" and cfg.starting_grant == 1000 and cfg.token is None


def test_example_file_loads_and_documents_every_key():
    cfg = load_config(str(ROOT / "config.example.toml"), env={"DISCORD_TOKEN": "abc"})
    assert cfg.token == "abc"
    text = (ROOT / "config.example.toml").read_text()
    for name in Config.__dataclass_fields__:
        if name != "token":
            assert name in text, f"config.example.toml does not document {name}"


def test_values_and_default_options(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('database = "x.db"\nturn_timeout = 30\nai_delay = 0\nlog_level = "debug"\n'
                 "dev_guild_id = 42\n[default_options.motz]\nante = 2\n")
    cfg = load_config(str(p), env={})
    assert (cfg.database, cfg.turn_timeout, cfg.ai_delay, cfg.log_level) == ("x.db", 30.0, 0.0, "DEBUG")
    assert cfg.dev_guild_id == 42
    assert cfg.options_for("motz") == {"ante": 2} and cfg.options_for("mus") == {}


@pytest.mark.parametrize(
    "text, words",
    [
        ("starting_grant = -5", "starting_grant"),
        ("turn_timeout = 0", "turn_timeout"),
        ('log_level = "LOUD"', "log_level"),
        ("colour = 3", "unknown key"),
        ('token = "secret"', "DISCORD_TOKEN"),
        ("daily_grant = = 3", "invalid TOML"),
        ("default_options = 3", "default_options"),
    ],
)
def test_bad_values_raise_one_clear_line(tmp_path, text, words):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(str(p), env={})
    assert words in str(info.value) and "\n" not in str(info.value)


def test_missing_explicit_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "nope.toml"), env={})


@pytest.mark.parametrize(
    "text, words",
    [
        ("turn_timeout = nan", "turn_timeout"),
        ("ai_delay = inf", "ai_delay"),
        ("daily_cooldown_hours = -inf", "daily_cooldown_hours"),
        ("lobby_expiry_hours = nan", "lobby_expiry_hours"),
        ("starting_grant = 100000000000000000000", "starting_grant"),
        ("daily_grant = 9223372036854775807", "daily_grant"),
        ("dev_guild_id = 9223372036854775808", "dev_guild_id"),
        ("tables_per_member = 0", "tables_per_member"),
        ("deal_cap = 0", "deal_cap"),
        ("ai_workers = 1000", "ai_workers"),
        ("member_events = 1", "member_events"),
        ('member_events = "yes"', "member_events"),
        ("[default_options.poker]\nante = 1", "unknown game"),
        ("[default_options.motz]\nante = 0", "default_options.motz"),
        ("[default_options.motz]\ncolour = 3", "default_options.motz"),
        ("[default_options.michigan]\nrotations = 99", "default_options.michigan"),
        ("[default_options.mus]\nstake = nan", "default_options.mus"),
    ],
)
def test_out_of_range_values_and_bad_game_options_are_refused(tmp_path, text, words):
    """nan/inf refused, integers bounded, every [default_options.<game>] checked by the game itself."""
    p = tmp_path / "c.toml"
    p.write_text(text + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(str(p), env={})
    assert words in str(info.value) and "\n" not in str(info.value)


def test_valid_game_options_and_new_limits_load(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("tables_per_member = 2\nlobby_expiry_hours = 0.5\ndeal_cap = 40\nai_workers = 2\n"
                 "member_events = true\n"
                 "[default_options.michigan]\nrotations = 0\n[default_options.mus]\nstake = 5\n")
    cfg = load_config(str(p), env={})
    assert (cfg.tables_per_member, cfg.lobby_expiry_hours, cfg.deal_cap, cfg.ai_workers) == (2, 0.5, 40, 2)
    assert cfg.member_events is True and Config().member_events is False
    assert cfg.options_for("michigan") == {"rotations": 0} and cfg.options_for("mus") == {"stake": 5}


def test_database_url_from_the_environment_replaces_the_file_value(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('database = "here.db"\n')
    assert load_config(str(p), env={}).database == "here.db"
    url = "postgresql://tapis:pw@db.example:5432/tapis"
    assert load_config(str(p), env={"DATABASE_URL": url}).database == url
    p.write_text('database = "mysql://x/y"\n')
    with pytest.raises(ConfigError, match="postgresql:// URL"):
        load_config(str(p), env={})
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        load_config(None, env={"DATABASE_URL": "sqlite://nope"})


def test_shards_section(tmp_path):
    from bot.sharding import ShardPlan

    p = tmp_path / "c.toml"
    p.write_text('[shards]\nids = "0-3"\ncount = 16\n')
    plan = load_config(str(p), env={}).shards
    assert plan == ShardPlan((0, 1, 2, 3), 16)
    assert plan.bot_options() == {"shard_ids": [0, 1, 2, 3], "shard_count": 16, "sync_commands": True}
    assert not plan.everything and plan.owns(5 << 22) is False and plan.owns(19 << 22) is True
    p.write_text('[shards]\nids = [2]\ncount = 4\n')
    assert load_config(str(p), env={}).shards.bot_options() == {"shard_id": 2, "shard_count": 4,
                                                                "sync_commands": False}  # shard 0's syncs
    p.write_text("[shards]\ncount = 2\n")
    assert load_config(str(p), env={}).shards.everything
    for text, words in (('[shards]\nids = "3-1"\ncount = 4\n', "end is before"),
                        ('[shards]\nids = "0-4"\ncount = 4\n', "outside 0..3"),
                        ('[shards]\nids = "0"\n', "count"),
                        ('[shards]\nids = "x"\ncount = 2\n', "bad shard range")):
        p.write_text(text)
        with pytest.raises(ConfigError, match=words):
            load_config(str(p), env={})


def test_server_limits_bound_what_a_server_may_choose(tmp_path):
    """Issue 29: ``[server_limits]`` is read, must hold the operator's own value, and is checked."""
    p = tmp_path / "c.toml"
    p.write_text("daily_grant = 50\n[server_limits]\ndaily_grant = [10, 500]\n")
    cfg = load_config(str(p), env={})
    assert cfg.server_limits["daily_grant"] == (10, 500)
    assert cfg.server_limits["starting_grant"] == (0, 100_000)  # the default limit
    p.write_text("daily_grant = 5\n[server_limits]\ndaily_grant = [10, 500]\n")
    bound = r"daily_grant = 5 lies outside server_limits.daily_grant = \[10, 500\]"
    with pytest.raises(ConfigError, match=bound):
        load_config(str(p), env={})
    for bad, words in (("colour = [1, 2]", "unknown key"), ("daily_grant = [5, 1]", "[lowest, highest]"),
                       ("daily_grant = 7", "[lowest, highest]"),
                       ("starting_grant = [0, 1.5]", "whole numbers"),
                       ("daily_cooldown_hours = [0, 99999]", "from 0 to 8784")):
        p.write_text(f"[server_limits]\n{bad}\n")
        with pytest.raises(ConfigError, match=re.escape(words)):
            load_config(str(p), env={})
    p.write_text("daily_cooldown_hours = 0\n")  # an operator's value outside a default limit widens it
    assert load_config(str(p), env={}).server_limits["daily_cooldown_hours"] == (0, 168)


@pytest.mark.parametrize("line", ["dev_guild_id = 123456789012345678", 'log_level = "DEBUG"', "deal_cap = 5"])
@pytest.mark.parametrize("before", ["example", "[default_options.motz]\nante = 1\n", "[server_limits]\n",
                                    "[shards]\ncount = 1\n"])
def test_a_top_level_key_written_after_a_section_is_named_as_such(tmp_path, line, before):
    """The example file ends with [server_limits] and [default_options]: a key appended at its end is
    read by TOML as part of the last section. The error says so and how to fix it, instead of
    calling it an unknown option of the section."""
    p = tmp_path / "c.toml"
    head = (ROOT / "config.example.toml").read_text() if before == "example" else before
    p.write_text(f"{head}\n{line}\n")
    key = line.split()[0]
    with pytest.raises(ConfigError) as info:
        load_config(str(p), env={})
    text = str(info.value)
    assert "\n" not in text and f"move {key} above the first [section]" in text, text
