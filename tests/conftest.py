"""Session-wide fixtures and hooks: a real PostgreSQL server for the PostgreSQL store tests
(tests/pgserver.py, one per pytest-xdist worker), the leak guard every test runs under
(tests/leakscan.py) with the guard against raw catalog placeholders (tests/textguard.py), and the
`unit`/`e2e` markers every test gets by where it lives and what it uses (README.md "Tests")."""

from __future__ import annotations

import functools
import os
import pickle
import re
import sys
import tomllib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import settings

from tests import pgserver
from tests.leakscan import _leak_guard, _no_leaks  # noqa: F401  (every test: no secret or token leaks)
from tests.system_parts import skip_or_fail
from tests.textguard import _no_raw_texts, _text_guard  # noqa: F401  (every test: no raw placeholder shown)

TESTS = Path(__file__).resolve().parent

# No per-example deadline: beside other workers on shared cores one slow example is no failure (a test
# that wants a deadline still sets its own with @settings).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


class _ParsedOnce:
    """tomllib as bot/texts/i18n.py uses it, with each catalog file parsed once per worker: every App a
    test opens builds its Catalogs from the five TOML files, which took most of `App.open`. Each
    load still gets its own fresh copy (unpickled), so no test sees what another changed."""

    TOMLDecodeError = tomllib.TOMLDecodeError

    def __init__(self) -> None:
        self._parsed: dict[tuple[str, int, int], bytes] = {}

    def load(self, f: IO[bytes], /) -> dict[str, Any]:
        st = os.fstat(f.fileno())
        key = (str(f.name), st.st_mtime_ns, st.st_size)
        if key not in self._parsed:
            self._parsed[key] = pickle.dumps(tomllib.load(f))
        parsed: dict[str, Any] = pickle.loads(self._parsed[key])
        return parsed

    def loads(self, s: str, /) -> dict[str, Any]:
        return tomllib.loads(s)


@pytest.fixture(scope="session", autouse=True)
def _catalogs_parsed_once() -> Iterator[None]:
    import bot.texts.i18n

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bot.texts.i18n, "tomllib", _ParsedOnce())
        yield


@pytest.fixture(scope="session")
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One opening-book cache for the session's Apps (one per worker), never the repository's data/:
    a book is built once per session, not once per test (the Logik book takes seconds to build)."""
    return str(tmp_path_factory.mktemp("solver-cache"))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server with the right to create databases; skips the test if none.
    Under pytest-xdist every worker starts its own (own free port, own temporary data directory)."""
    pgserver.STATUS.requested = True
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        pgserver.STATUS.text = "PostgreSQL tests skipped: asyncpg is not installed"
        skip_or_fail(pgserver.STATUS.text)
    url, cluster, pgserver.STATUS.text = pgserver.start()
    if url is None:
        skip_or_fail(pgserver.STATUS.text)
    pgserver.STATUS.url = url
    try:
        yield url
    finally:
        if cluster is not None:
            cluster.stop()


@pytest.fixture
async def pg_url(pg_server: str) -> AsyncIterator[str]:
    """A fresh, empty database on the test server for one test; dropped afterwards."""
    url = await pgserver.create_database(pg_server)
    yield url
    await pgserver.drop_database(pg_server, url)


# ---------------------------------------------------------------- markers: unit and e2e

# Folders whose every test drives the App, a stand-in server, a database or a bot process.
E2E_FOLDERS = frozenset({"app", "telegram", "discord", "postgres", "reliability", "console"})
# Fixtures that open the App, start a stand-in server or make a database.
E2E_FIXTURES = frozenset({"app", "table", "open_app", "noon_app", "club", "standin", "make_adapter", "busy",
                          "db", "store", "pg_server", "pg_url"})
# What a test module's source shows when its tests do the same without a fixture.
E2E_SOURCE = re.compile(r"from bot\.app import|\bApp\.open\(|\bApp\(|StandIn\b|from tests\.app\.harness import"
                        r"|\bsubprocess\b|create_subprocess_exec|\bSqliteStore\(|\bPostgresStore\(|open_store\("
                        r"|sqlite3\.connect|\bpg_url\b")
TEST_IMPORT = re.compile(r"^\s*(?:from|import) (tests(?:\.\w+)+)", re.M)


@functools.cache
def _module_is_e2e(path: Path, by_folder: bool = True) -> bool:
    """By its folder, its source, or a helper it imports from another test module whose source
    is e2e (a pure helper such as tests/discord/limits.py keeps its importer a unit test)."""
    rel = path.relative_to(TESTS).parts
    if by_folder and rel[0] in E2E_FOLDERS:
        return True
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return False
    if E2E_SOURCE.search(source):
        return True
    for name in TEST_IMPORT.findall(source):
        base = TESTS.parent.joinpath(*name.split("."))
        for helper in (base.with_suffix(".py"), base / "__init__.py"):
            if helper != path and helper.is_file() and _module_is_e2e(helper, by_folder=False):
                return True
    return False


def kind_of(item: pytest.Item) -> str:
    """"unit" (pure: no App, no server, no database, no process) or "e2e"; a test or module that
    carries one of the two markers itself keeps it."""
    own = {m.name for m in item.iter_markers()} & {"unit", "e2e"}
    if len(own) == 1:
        return own.pop()
    if E2E_FIXTURES & set(getattr(item, "fixturenames", ())):
        return "e2e"
    return "e2e" if _module_is_e2e(Path(str(item.path))) else "unit"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        kind = kind_of(item)
        if not item.get_closest_marker(kind):
            item.add_marker(kind)


@pytest.fixture(autouse=True)
def _unit_opens_no_app(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked `unit` that opens the App fails with a clear message: mark it (or its
    module: `pytestmark = pytest.mark.e2e`) e2e, so `-m unit` stays quick and pure."""
    app_module = sys.modules.get("bot.app.app")
    if app_module is None or request.node.get_closest_marker("unit") is None:
        return
    def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{request.node.nodeid} is marked unit but opens the App: mark it e2e")

    monkeypatch.setattr(app_module.App, "__init__", refuse)


# ---------------------------------------------------------------- the PostgreSQL summary line

def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its PostgreSQL status to the controller (pytest_testnodedown)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None and pgserver.STATUS.requested:
        workeroutput["pg_status"] = pgserver.STATUS.text


class _WorkerStatus:
    """In the pytest-xdist controller: gathers each worker's PostgreSQL status."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    @pytest.hookimpl
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        text = getattr(node, "workeroutput", {}).get("pg_status")
        if text and text not in self.texts:
            self.texts.append(text)


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_WorkerStatus(), "pg-worker-status")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Say clearly whether the PostgreSQL tests ran (make test prints this line; under pytest-xdist
    one line per distinct outcome of the workers, each of which had its own server)."""
    gathered = config.pluginmanager.get_plugin("pg-worker-status")
    texts = gathered.texts if isinstance(gathered, _WorkerStatus) else []
    if pgserver.STATUS.requested and pgserver.STATUS.text not in texts:
        texts = [pgserver.STATUS.text, *texts]
    for text in texts:
        skipped = "skipped" in text
        terminalreporter.write_sep("=", text, yellow=skipped, green=not skipped)
