"""`python -m bot backup PATH` on PostgreSQL: pg_dump through the real command line, restored with pg_restore
into another database; failures say one clear line, and the password never reaches a command line or output."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.app.app import App
from bot.process import ops
from tests import pgserver
from tests.app.harness import Table
from tests.app.test_duel_flow import start_duel

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "S3cret-Pw-4711"
TABLES = ("games", "results", "events", "seats")


def cli(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN") and not k.startswith("PG")}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=url)
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def with_password(url: str, password: str = PASSWORD) -> str:
    return url.replace("://postgres@", f"://postgres:{password}@", 1)


async def rows(url: str) -> dict[str, list[Any]]:
    conn = await asyncpg.connect(url)
    try:
        return {t: [tuple(r) for r in await conn.fetch(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in TABLES}
    finally:
        await conn.close()


async def test_backup_and_restore_with_pg_restore(pg_server: str, pg_url: str, tmp_path: Path) -> None:
    app = await App.open(pg_url, seed=1)
    try:
        t = Table(app)
        await start_duel(t)
        await t.say("bob", "/resign")  # a finished duel: results rows for both
        await start_duel(t)  # and one running
        dump = tmp_path / "bot.dump"
        # the server trusts local connections, so the password is ignored there, but it goes the whole way
        done = await asyncio.to_thread(cli, "backup", str(dump), url=with_password(pg_url))  # while the App runs
    finally:
        await app.close()
    assert done.returncode == 0, done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    assert f"written to {dump}" in done.stdout and dump.read_bytes()[:5] == b"PGDMP"
    assert [p.name for p in tmp_path.iterdir()] == ["bot.dump"]  # no temporary file left beside it

    copy = await pgserver.create_database(pg_server)
    try:
        restored = await asyncio.to_thread(
            subprocess.run, [ops.find_tool("pg_restore"), "--no-owner", "--exit-on-error", "--dbname", copy,
                             str(dump)], capture_output=True, text=True, timeout=120)
        assert restored.returncode == 0, restored.stderr
        original, back = await rows(pg_url), await rows(copy)
        assert len(original["games"]) == 2 and len(original["results"]) == 2
        assert back == original
    finally:
        await pgserver.drop_database(pg_server, copy)

    # restored over the existing database, as docs/deploy.md shows: later changes are gone
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("DELETE FROM results")
    finally:
        await conn.close()
    restored = await asyncio.to_thread(
        subprocess.run, [ops.find_tool("pg_restore"), "--no-owner", "--clean", "--if-exists", "--single-transaction",
                         "--dbname", pg_url, str(dump)], capture_output=True, text=True, timeout=120)
    assert restored.returncode == 0, restored.stderr
    assert await rows(pg_url) == original


@pytest.mark.parametrize("broken", ["no_such_database", "closed_port"])
async def test_a_failed_backup_is_one_clear_line_without_the_password(
        broken: str, pg_url: str, tmp_path: Path) -> None:
    url = with_password(pg_url)
    if broken == "no_such_database":
        url = url.rsplit("/", 1)[0] + "/no_such_database"
    else:
        url = url.replace(f":{url.rsplit(':', 1)[1].split('/')[0]}/", f":{pgserver._free_port()}/")
    dump = tmp_path / "bot.dump"
    done = await asyncio.to_thread(cli, "backup", str(dump), url=url)
    assert done.returncode == 1
    assert PASSWORD not in done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("backup failed: pg_dump failed: "), done.stderr
    assert ("no_such_database" in lines[0]) if broken == "no_such_database" else ("refused" in lines[0])
    assert list(tmp_path.iterdir()) == []  # nothing half-written under PATH, no temporary file


def test_the_password_goes_into_the_environment_not_the_command_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    def fake_run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        seen.update(cmd=cmd, env=kw["env"])
        Path(cmd[cmd.index("--file") + 1]).write_bytes(b"PGDMP...")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr("bot.process.ops.subprocess.run", fake_run)
    for url in (f"postgresql://bot:{PASSWORD}@db.example:5433/chatgames?sslmode=require",
                f"postgres://bot@db.example/chatgames?password={PASSWORD}&sslmode=require"):
        assert ops.backup_postgres(url, tmp_path / "x.dump") == 8
        assert not any(PASSWORD in arg for arg in seen["cmd"]), seen["cmd"]
        assert seen["env"]["PGPASSWORD"] == PASSWORD
        assert "sslmode=require" in seen["cmd"][-1] and "bot@db.example" in seen["cmd"][-1]
        assert PASSWORD not in ops.redact(url)


def test_split_password_decodes_and_leaves_other_urls_alone() -> None:
    assert ops.split_password("postgresql://u:p%40ss@h:5432/d") == ("postgresql://u@h:5432/d", "p@ss")
    assert ops.split_password("postgresql://u@h/d") == ("postgresql://u@h/d", None)
    assert ops.split_password("postgresql:///d?host=/run/postgresql") == ("postgresql:///d?host=/run/postgresql",
                                                                          None)
    assert ops.split_password("postgres://u@h/d?password=a%26b&sslmode=require") == (
        "postgres://u@h/d?sslmode=require", "a&b")
    assert ops.split_password("postgresql://h/d?password=x") == ("postgresql://h/d", "x")


def test_a_failing_pg_dump_never_echoes_the_password(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def fake_run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        Path(cmd[cmd.index("--file") + 1]).write_bytes(b"PGDMP half")
        return subprocess.CompletedProcess(cmd, 1, "", f"pg_dump: error: something about {PASSWORD}\nand more\n")

    monkeypatch.setattr("bot.process.ops.subprocess.run", fake_run)
    with pytest.raises(ops.BackupError) as err:
        ops.backup_postgres(f"postgresql://u:{PASSWORD}@h/d", tmp_path / "x.dump")
    assert str(err.value) == "pg_dump failed: pg_dump: error: something about *** and more"
    assert list(tmp_path.iterdir()) == []
