"""``python -m bot`` start-up checks: one clear line and exit code 2 on a bad setup."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bot(*args: str, env_extra: dict[str, str] | None = None,
            cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_without_token_one_line_exit_2(tmp_path: Path) -> None:
    proc = run_bot(cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], proc.stderr


def test_bad_config_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("starting_grant = -5\n")
    proc = run_bot("--config", str(bad), env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "starting_grant" in lines[0], proc.stderr
    missing = run_bot("--config", str(tmp_path / "nope.toml"), env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


def _one_line_exit_2(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_unusable_database_one_line_exit_2(tmp_path: Path) -> None:
    """Missing directory, not a database, newer schema: one line, exit 2, no traceback (no Discord)."""
    import sqlite3

    cfg = tmp_path / "c.toml"
    env = {"DISCORD_TOKEN": "x"}
    cfg.write_text(f'database = "{tmp_path / "nowhere" / "t.db"}"\n')
    _one_line_exit_2(run_bot("--config", str(cfg), env_extra=env, cwd=tmp_path), "does not exist")

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is a text file, not SQLite\n" * 200)
    cfg.write_text(f'database = "{junk}"\n')
    _one_line_exit_2(run_bot("--config", str(cfg), env_extra=env, cwd=tmp_path), "junk.db")

    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    cfg.write_text(f'database = "{newer}"\n')
    _one_line_exit_2(run_bot("--config", str(cfg), env_extra=env, cwd=tmp_path), "999", "newer")


def test_bad_game_options_in_config_one_line_exit_2(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[default_options.poker]\nante = 1\n")
    _one_line_exit_2(run_bot("--config", str(cfg), env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path), "poker")
    cfg.write_text("turn_timeout = nan\n")
    _one_line_exit_2(run_bot("--config", str(cfg), env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path),
                     "turn_timeout")


def test_some_shards_need_postgresql_one_line_exit_2(tmp_path: Path) -> None:
    proc = run_bot("--shards", "0-1", "--shard-count", "4", env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "PostgreSQL" in lines[0], proc.stderr
    bad = run_bot("--shards", "2-1", "--shard-count", "4", env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert bad.returncode == 2 and "--shards" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    alone = run_bot("--shards", "0", env_extra={"DISCORD_TOKEN": "x"}, cwd=tmp_path)
    assert alone.returncode == 2 and "--shard-count" in alone.stderr


def test_unreachable_postgresql_one_line_exit_2(tmp_path: Path) -> None:
    """Nothing listens on port 1: one line naming the database (without its password), exit 2."""
    url = "postgresql://tapis:sekret@127.0.0.1:1/tapis"
    proc = run_bot(env_extra={"DISCORD_TOKEN": "x", "DATABASE_URL": url}, cwd=tmp_path)
    _one_line_exit_2(proc, "127.0.0.1:1", "cannot connect")
    assert "sekret" not in proc.stderr


async def test_postgresql_schema_newer_than_the_code_one_line_exit_2(pg: str, tmp_path: Path) -> None:
    """A database migrated by a newer Tapis (schema_version 999) is refused as on SQLite."""
    import asyncio

    import asyncpg

    conn = await asyncpg.connect(pg)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                           "applied_at DOUBLE PRECISION NOT NULL)")
        await conn.execute("INSERT INTO schema_version VALUES (999, '0999_future.sql', 0)")
    finally:
        await conn.close()
    proc = await asyncio.to_thread(run_bot, env_extra={"DISCORD_TOKEN": "x", "DATABASE_URL": pg},
                                   cwd=tmp_path)
    _one_line_exit_2(proc, "999", "newer")


def test_shard_process_without_forwarding_secret_one_line_exit_2(tmp_path: Path) -> None:
    """Shard processes sign forwarded DM clicks: without ``TAPIS_FORWARD_SECRET`` (or with a short
    one) they do not start, before any connection is tried."""
    env = {"DISCORD_TOKEN": "x", "DATABASE_URL": "postgresql://tapis@127.0.0.1:1/tapis"}
    args = ("--shards", "0", "--shard-count", "2")
    base = {k: v for k, v in os.environ.items() if k != "TAPIS_FORWARD_SECRET"}
    for secret in (None, "short"):
        extra = dict(env, **({"TAPIS_FORWARD_SECRET": secret} if secret else {}))
        proc = subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60, env={**base, "PYTHONPATH": str(ROOT), **extra})
        _one_line_exit_2(proc, "TAPIS_FORWARD_SECRET")
    with_secret = run_bot(*args, env_extra={**env, "TAPIS_FORWARD_SECRET": "a-long-enough-secret-value"},
                          cwd=tmp_path)
    _one_line_exit_2(with_secret, "cannot connect")  # past the secret: on to the (unreachable) database


def test_help_names_the_other_commands_and_the_environment(tmp_path: Path) -> None:
    """``python -m bot --help`` is where an operator looks first: it names the subcommands (invite,
    play, admin backup …) and the environment variables, not only the flags of the bot itself."""
    proc = run_bot("--help", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for word in ("invite", "play GAME", "admin backup", "copy-to-postgres", "rebuild-ratings",
                 "DISCORD_TOKEN", "DATABASE_URL", "TAPIS_FORWARD_SECRET"):
        assert word in proc.stdout, word
