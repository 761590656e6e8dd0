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
