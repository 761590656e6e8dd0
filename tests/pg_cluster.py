"""A private PostgreSQL cluster a test can really stop and start (``initdb`` into a temporary
directory, ``pg_ctl start`` / ``stop -m fast`` on a free port of 127.0.0.1).

PostgreSQL refuses to run as root: as root the binaries run as the ``postgres`` user
(``runuser -u postgres``) on a directory owned by it, else as the current user. Without the
binaries (``PG_BIN``, else the newest ``/usr/lib/postgresql/<version>/bin``, else ``pg_ctl`` on the
``PATH``) the test
is skipped with one line, or fails when ``TAPIS_TEST_PG_REQUIRED=1`` (``tests/backends.py``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import REQUIRED_ENV, pg_required

PG_BIN_ENV = "PG_BIN"
DEBIAN = Path("/usr/lib/postgresql")


def pg_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, if they are installed."""
    debian = sorted(DEBIAN.glob("*/bin"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
                    reverse=True) if DEBIAN.is_dir() else []
    for folder in (os.environ.get(PG_BIN_ENV), *debian):
        if folder and (Path(folder) / "pg_ctl").is_file() and (Path(folder) / "initdb").is_file():
            return Path(folder)
    found = shutil.which("pg_ctl")
    if found and (Path(found).parent / "initdb").is_file():
        return Path(found).parent
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateCluster:
    """One throw-away PostgreSQL server: ``url`` (trust auth, user ``tapis``), ``stop()``, ``start()``."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="tapis-pgcluster-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:  # postgres may not run as root: the cluster belongs to the postgres user
            shutil.chown(self.root, "postgres", "postgres")
        self.url = f"postgresql://tapis@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_postgres else []
        proc = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr}\n{log}")

    def init(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "tapis", "--auth=trust",
                  "--no-sync", "-E", "UTF8")

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off "
                   "-c max_connections=40")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
                  "-w", "-t", "60", "start")

    def stop(self) -> None:
        """Stop the server as a restart does (``-m fast``: sessions are ended, not waited for)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except RuntimeError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def pg_cluster() -> Iterator[PrivateCluster]:
    """A started private cluster (skipped without the PostgreSQL binaries, unless required)."""
    bin_dir = pg_bin()
    if bin_dir is None:
        why = f"PostgreSQL binaries not found (set {PG_BIN_ENV} to the folder of initdb and pg_ctl)"
        if pg_required():
            pytest.fail(f"{why}, required by {REQUIRED_ENV}", pytrace=False)
        pytest.skip(why)
    cluster = PrivateCluster(bin_dir)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        cluster.destroy()
