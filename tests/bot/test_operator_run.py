"""``python -m bot`` as an operator runs it (a real process, its config file, its signals, its logs),
against the stand-in: what the log says at start, a privileged intent Discord refuses, SIGTERM, and
a second bot started on the same SQLite file by mistake."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.discord_stub.stub import GUILD_MEMBERS, DiscordStub

ROOT = Path(__file__).resolve().parents[2]
#: A bot token whose head is the application id 123456789012345678 (base64), as Discord's are.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.stub-secret-part"


async def start_bot(stub: DiscordStub, tmp_path: Path, extra: str = "",
                    database: str | None = None) -> asyncio.subprocess.Process:
    """``python -m bot --config tmp_path/config.toml`` against ``stub`` (on ``tmp_path/tapis.db``
    unless ``database`` is given)."""
    tmp_path.mkdir(exist_ok=True)
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'database = "{database or tmp_path / "tapis.db"}"\nai_delay = 0\n'
                   f'table_threads = false\n{extra}')
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TAPIS_FORWARD_SECRET")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=TOKEN)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.discord_stub.main_process", str(stub.port), "--config", str(cfg),
        cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def read_until(proc: asyncio.subprocess.Process, needle: str, timeout: float = 60) -> list[str]:
    """Lines of ``proc``'s stderr up to the first one holding ``needle``."""
    assert proc.stderr is not None
    lines: list[str] = []

    async def loop() -> list[str]:
        while True:
            raw = await proc.stderr.readline()  # type: ignore[union-attr]
            if not raw:
                raise AssertionError(f"the bot ended before logging {needle!r}:\n" + "".join(lines))
            lines.append(raw.decode())
            if needle in lines[-1]:
                return lines

    return await asyncio.wait_for(loop(), timeout)


async def ended(proc: asyncio.subprocess.Process, timeout: float = 60) -> str:
    """Its remaining stderr once it exited (killed if it does not within ``timeout``)."""
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("the bot did not exit") from None
    return err.decode()


async def test_start_log_names_database_and_guilds(stub: DiscordStub, tmp_path: Path) -> None:
    proc = await start_bot(stub, tmp_path)
    try:
        lines = await read_until(proc, "connected as")
    finally:
        proc.send_signal(signal.SIGTERM)
        await ended(proc)
    text = "".join(lines)
    assert f"config {tmp_path / 'config.toml'}" in text, text
    assert f"database {tmp_path / 'tapis.db'} (sqlite, schema version" in text, text
    assert "Casino" in lines[-1] and str(stub.guild.id) in lines[-1], lines[-1]  # type: ignore[attr-defined]
    assert " WARNING " not in text, text  # no noise to read past (discord.py's voice libraries)


async def test_privileged_intent_refused_says_which_and_where(stub: DiscordStub, tmp_path: Path) -> None:
    """``member_events = true`` without Server Members Intent enabled on the bot's page: Discord closes
    the gateway with 4014. One line naming the intent, the page and the key; no traceback, no token."""
    stub.disallowed_intents = GUILD_MEMBERS
    proc = await start_bot(stub, tmp_path, "member_events = true\n")
    err = await ended(proc)
    assert proc.returncode == 2, err
    assert "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("tapis: "), err
    for word in ("Server Members Intent", "developers/applications/123456789012345678/bot",
                 "member_events = false", "config.toml"):
        assert word in last, last
    assert "stub-secret-part" not in err


async def test_sigterm_stops_cleanly(stub: DiscordStub, tmp_path: Path) -> None:
    """Procfile hosts stop a worker with SIGTERM: the bot closes (exit 0, "stopped") and its database
    is closed cleanly (SQLite folds the WAL back into the file and removes it), not killed midway."""
    proc = await start_bot(stub, tmp_path)
    await read_until(proc, "connected as")
    assert (tmp_path / "tapis.db-wal").exists()
    proc.send_signal(signal.SIGTERM)
    err = await ended(proc, timeout=30)
    assert proc.returncode == 0, err
    assert "stopped" in err and "Traceback" not in err, err
    assert not (tmp_path / "tapis.db-wal").exists()


async def test_sigterm_during_the_start_stops_cleanly(stub: DiscordStub, tmp_path: Path) -> None:
    """A host that stops the worker while it logs in, resumes its tables or syncs its commands: the
    start cut short is no fault to report ("cannot reach Discord" was printed, exit 1)."""
    proc = await start_bot(stub, tmp_path)
    await read_until(proc, "logging in")
    proc.send_signal(signal.SIGTERM)
    err = await ended(proc, timeout=30)
    assert proc.returncode == 0, err
    assert "stopped" in err and "Traceback" not in err and "tapis:" not in err, err
    assert not (tmp_path / "tapis.db-wal").exists()


async def test_second_bot_on_the_same_sqlite_file_is_refused(stub: DiscordStub, tmp_path: Path) -> None:
    first = await start_bot(stub, tmp_path)
    try:
        await read_until(first, "connected as")
        second = await start_bot(stub, tmp_path)
        err = await ended(second, timeout=60)
        assert second.returncode == 2, err
        last = err.strip().splitlines()[-1]
        assert last.startswith("tapis: database ") and "in use" in last and f"pid {first.pid}" in last, err
        assert "Traceback" not in err
    finally:
        first.send_signal(signal.SIGTERM)
        await ended(first)
    assert first.returncode == 0


async def test_a_crashed_bot_leaves_no_lock_behind(stub: DiscordStub, tmp_path: Path) -> None:
    """The lock is the kernel's (flock): a bot killed outright (SIGKILL, OOM) holds nothing after its
    death, and the next one starts on the file without any cleanup."""
    first = await start_bot(stub, tmp_path)
    await read_until(first, "connected as")
    first.kill()
    await ended(first)
    assert (tmp_path / "tapis.db.lock").exists()
    second = await start_bot(stub, tmp_path)
    try:
        await read_until(second, "connected as")
    finally:
        second.send_signal(signal.SIGTERM)
        err = await ended(second)
    assert second.returncode == 0, err


def free_port() -> int:
    """A local port nothing listens on."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_discord_unreachable_is_one_line(tmp_path: Path) -> None:
    """No network (or a DNS failure) at start: one line saying Discord cannot be reached, exit 1 (for a
    supervisor to retry), no traceback."""
    import subprocess

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'database = "{tmp_path / "tapis.db"}"\n')
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=TOKEN)
    proc = subprocess.run([sys.executable, "-m", "tests.discord_stub.main_process", str(free_port()),
                           "--config", str(cfg)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("tapis: cannot reach Discord"), proc.stderr
    assert "stub-secret-part" not in proc.stderr


async def test_dev_guild_the_bot_is_not_in_is_one_line(stub: DiscordStub, tmp_path: Path) -> None:
    """``dev_guild_id`` copied from another server (or the bot added without applications.commands):
    Discord answers the commands' sync 403 Missing Access. One line naming the key, the file and what
    to do; no traceback."""
    stub.fail("PUT", "/applications/{app}/guilds/{gid}/commands", 403, 50001, "Missing Access")
    proc = await start_bot(stub, tmp_path, "dev_guild_id = 123456789\n")
    err = await ended(proc)
    assert proc.returncode == 2, err
    assert "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    for word in ("tapis: dev_guild_id = 123456789", "config.toml", "Missing Access", "python -m bot invite"):
        assert word in last, last


async def test_token_reset_and_sharding_required_are_one_line(stub: DiscordStub, tmp_path: Path) -> None:
    """The gateway closes that discord.py does not retry: a token reset in the Developer Portal (4004)
    and a bot grown past Discord's limit for one shard (4011). One line with what to do each; no
    traceback, no token."""
    for code, words in ((4004, ("4004", "DISCORD_TOKEN")), (4011, ("4011", "--shard-count"))):
        stub.identify_close = code
        proc = await start_bot(stub, tmp_path)
        err = await ended(proc)
        assert proc.returncode == 2, err
        assert "Traceback" not in err and "stub-secret-part" not in err, err
        last = err.strip().splitlines()[-1]
        assert last.startswith("tapis: Discord") and all(w in last for w in words), last


async def test_sigterm_mid_game_leaves_a_table_that_resumes(stub: DiscordStub, tmp_path: Path) -> None:
    """A table being played when the host sends SIGTERM: no ERROR logged, the ledger balanced and the
    file whole after the exit, and the next start resumes the table from its log."""
    import sqlite3

    alice = stub.add_user("alice", stub.guild)  # type: ignore[attr-defined]
    proc = await start_bot(stub, tmp_path)
    try:
        await read_until(proc, "connected as")
        await stub.slash("table new", alice, stub.channel, game="motz", players=3)  # type: ignore[attr-defined]
        lobby = await stub.wait_for(lambda: next(iter(stub.messages(stub.channel)[-1:]), None), 10)  # type: ignore
        for label in ("Add AI", "Add AI", "Start"):
            await stub.click(lobby, alice, label)
        await stub.wait_for(lambda: stub.dms(alice), 20, "alice's hand")
    finally:
        proc.send_signal(signal.SIGTERM)
        err = await ended(proc, timeout=30)
    assert proc.returncode == 0, err
    assert " ERROR " not in err and "Traceback" not in err, err
    conn = sqlite3.connect(tmp_path / "tapis.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT status FROM tables").fetchall() == [("playing",)]
        assert conn.execute("SELECT COALESCE(SUM(balance), 0) FROM accounts").fetchone()[0] == 0
    finally:
        conn.close()
    again = await start_bot(stub, tmp_path)
    try:
        lines = await read_until(again, "connected as")
    finally:
        again.send_signal(signal.SIGTERM)
        err = await ended(again, timeout=30)
    assert "resumed 1 open table(s)" in "".join(lines), "".join(lines)
    assert again.returncode == 0 and " ERROR " not in err, err


async def test_a_refused_token_says_where_to_get_one(stub: DiscordStub, tmp_path: Path) -> None:
    """A wrong DISCORD_TOKEN (the client secret, an old token): one line saying where the bot token is
    found and which variable takes it; the token itself never printed."""
    stub.fail("GET", "/users/@me", 401, 0, "401: Unauthorized")
    proc = await start_bot(stub, tmp_path)
    err = await ended(proc)
    assert proc.returncode == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("tapis: Discord refused the token"), err
    assert "DISCORD_TOKEN" in last and "developers/applications" in last, last
    assert "stub-secret-part" not in err and "Traceback" not in err


async def test_discord_failing_at_start_is_one_line(stub: DiscordStub, tmp_path: Path) -> None:
    """Discord's outage (a 5xx it does not retry) while the bot logs in: one line, exit 1 (for the
    supervisor to try again), no traceback."""
    stub.fail("GET", "/users/@me", 503, 0, "Service Unavailable")
    proc = await start_bot(stub, tmp_path)
    err = await ended(proc)
    assert proc.returncode == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("tapis: Discord is failing (503") and "Traceback" not in err, err


async def test_second_bot_on_the_same_postgresql_database_is_refused(stub: DiscordStub, pg: str,
                                                                     tmp_path: Path) -> None:
    """After the move to PostgreSQL, a second worker started by mistake (no shard plan) is refused in
    one line, as on SQLite, rather than playing every table a second time; the first one plays on."""
    first = await start_bot(stub, tmp_path, database=pg)
    try:
        await read_until(first, "connected as")
        second = await start_bot(stub, tmp_path / "other", database=pg)
        err = await ended(second, timeout=60)
        assert second.returncode == 2, err
        last = err.strip().splitlines()[-1]
        assert last.startswith("tapis: database postgresql://") and "in use by another Tapis bot" in last, err
        assert first.returncode is None  # still serving
    finally:
        first.send_signal(signal.SIGTERM)
        await ended(first)
    assert first.returncode == 0
