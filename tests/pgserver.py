"""A real PostgreSQL server for the tests: PG_TEST_URL if set, else a throw-away cluster started
from the installed binaries (Debian: /usr/lib/postgresql/*/bin), listening on 127.0.0.1 only,
removed at the end of the session. Without either the PostgreSQL tests are skipped, and the
session's summary says so (see tests/conftest.py)."""

from __future__ import annotations

import contextlib
import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SKIP_NO_SERVER = "PostgreSQL tests skipped: no server and no initdb (set PG_TEST_URL or install postgresql)"


@dataclass
class Status:
    requested: bool = False
    url: str | None = None
    text: str = ""


STATUS = Status()


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """initdb into a temporary directory, pg_ctl start on a free loopback port; stop() removes it."""

    def __init__(self, bindir: Path, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable  # tests trade durability for speed; a benchmark must not
        self.dir = Path(tempfile.mkdtemp(prefix="pgtest-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:  # the server refuses to run as root: it runs as the postgres user
            shutil.chown(self.dir, "postgres", "postgres")

    def _run(self, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=timeout, cwd=self.dir)

    def start(self) -> str:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale",
                  "--no-sync")
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c max_connections=200"
        if not self.durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "server.log"), "-w", "-t", "60",
                  "-o", opts, "start")
        self._watchdog()
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _watchdog(self) -> None:
        """Stop and remove the cluster even when the test run is killed (no teardown then)."""
        stop = [str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]
        if self.as_root:
            stop = ["runuser", "-u", "postgres", "--", *stop]
        script = (f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 2; done; "
                  f"{shlex.join(stop)} >/dev/null 2>&1; rm -rf {shlex.quote(str(self.dir))}")
        subprocess.Popen(["sh", "-c", script], start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)


def start() -> tuple[str | None, Cluster | None, str]:
    """(server URL or None, the cluster to stop or None, what happened — for the summary line)."""
    if os.environ.get("PG_TEST_URL"):
        return os.environ["PG_TEST_URL"], None, "PostgreSQL tests ran against PG_TEST_URL"
    bindir = _bindir()
    if bindir is None:
        return None, None, SKIP_NO_SERVER
    cluster = Cluster(bindir)
    try:
        url = cluster.start()
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        cluster.stop()
        return None, None, (f"PostgreSQL tests skipped: could not start a server from {bindir}: {exc} "
                            f"{detail.decode(errors='replace').strip()[:300]}")
    return url, cluster, f"PostgreSQL tests ran against a throw-away server from {bindir} on 127.0.0.1:{cluster.port}"


async def create_database(server: str) -> str:
    """A fresh, empty database on the server; returns its URL."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


async def drop_database(server: str, url: str) -> None:
    import asyncpg

    name = urlsplit(url).path.lstrip("/")
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()
