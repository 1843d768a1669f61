"""Suite-wide guard: no secret reaches a group before its game reveals it; no secret and no bot
token is ever in a log record.

Active in every test (tests/conftest.py). It watches the real App, not a copy of it:
- every game state the App creates or moves to is read for its secrets (the `secret` /
  `secrets` fields of the games' states); a secret becomes public when its game is over or when
  one of the game's own revealing events (a guess that equals it, a give-up, a solved round …)
  carries it;
- every message the App renders (answers and timeout announcements) bound for a group — the
  values shown in its text and buttons, its buttons' ids, its fallback — is searched for every
  secret not yet public (a Logik row also as the digits of its pegs; pictures are not read here —
  tests/games/logik/test_picture.py checks the board picture hides the secrets);
- every log record of the test, at DEBUG and with the library levels the bot sets in production,
  is searched for every secret of the test (public or not: logs never hold texts) and for every
  token an adapter was given. The local stand-ins' own web servers (aiohttp.*) are not the bot.
  Tests that run the real `python -m bot` process hand its DEBUG log to `bot_process`.

A test in which anything leaked fails at teardown with what leaked where.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.__main__ import quiet_libraries
from bot.app.runner import MoveRunner
from bot.games.registry import GAMES
from bot.texts.render import Localiser
from core import serial
from core.messages import Chat, Message, Text

# Events whose params may carry a secret because the game reveals it to the chat at that point.
REVEALING = {"guessed", "gave_up", "timed_out", "solo_gave_up", "abandoned", "solved", "match_over"}
# Hints are computed from the guesses and answers already shown in the chat (the solver is given
# no secret: core/games/practice/solver.hint reads only the attempts), so a hint naming the code is a
# deduction anyone there could make.
DEDUCED = {"solver.hint", "solver.words_hint"}
FOREIGN_LOGGERS = ("aiohttp.access", "aiohttp.server", "aiohttp.web")  # the stand-ins' servers


def secrets_of(state: Any) -> set[str]:
    found = set()
    if isinstance(getattr(state, "secret", None), str) and state.secret:
        found.add(state.secret)
    if isinstance(getattr(state, "secrets", None), dict):
        found.update(v for v in state.secrets.values() if isinstance(v, str) and v)
    return found


def shown_values(value: Any) -> Iterator[str]:
    """Every string a message shows through its parameters; a Logik row of pegs as its digits.
    (The catalog's own words are not searched: an example code in a help text is no leak.)"""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Text):
        if value.key == "logik.pegs":
            yield "".join(str(value.params[f"p{i}"].params["number"]) for i in range(1, len(value.params) + 1))
        for param in value.params.values():
            yield from shown_values(param)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from shown_values(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from shown_values(item)


def pattern(text: str) -> re.Pattern[str]:
    """The text as a whole word (1234 is not found in 12345 or 1234.5 ms, cat not in category)."""
    return re.compile(rf"(?<!\w)(?<!\d\.){re.escape(text)}(?!\w)(?!\.\d)", re.IGNORECASE)


@dataclass
class Ledger:
    """What one test has set and seen."""

    secrets: dict[str, re.Pattern[str]] = field(default_factory=dict)
    public: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    records: list[logging.LogRecord] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)

    def learn(self, state: Any) -> None:
        for secret in secrets_of(state):
            self.secrets.setdefault(secret, pattern(secret))

    def reveal(self, secrets: Iterable[str]) -> None:
        self.public.update(secrets)

    def scan_messages(self, messages: Iterable[Message], where: str) -> None:
        for message in messages:
            if message.fallback is not None:
                self.scan_messages([message.fallback], where)
            if not isinstance(message.to, Chat) or message.to.private or message.text.key in DEDUCED:
                continue
            shown = list(shown_values(message.text))
            for row in message.buttons:
                for button in row:
                    shown += [button.action, *shown_values(button.label), *shown_values(button.prompt)]
            for secret, found in self.secrets.items():
                if secret not in self.public and any(found.search(text) for text in shown if text):
                    self.leaks.append(f"secret {secret!r} shown in group {message.to.chat_id} ({where}): "
                                      f"{message.text.key}")

    def scan_logs(self) -> None:
        formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
        needles = [(f"secret {s!r}", p) for s, p in self.secrets.items()]
        needles += [(f"token {t[:6]}…", re.compile(re.escape(t))) for t in self.tokens]
        for record in self.records:
            try:
                line = formatter.format(record)
            except Exception:  # a malformed record is the logging call's bug, not a leak
                continue
            for what, found in needles:
                if found.search(line):
                    self.leaks.append(f"{what} in a log record of {record.name}: {line[:200]!r}")


LEDGER = Ledger()
PRIVATE_LINE = re.compile(r"^\w+> ?(\S+)\s*$", re.MULTILINE)  # console protocol: `alice> TEXT` is private
SECRET_LIKE = re.compile(r"[0-9]{3,6}|[^\W\d_]{4,12}")
STAMP = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)?\s*")  # a log line's time: 19:10:15,012 is no code
NOT_SECRETS = {"random", "zufall", "zufallscode", "случайно", "случаен", "slump", "help", "start"}


def bot_process(stderr: str, *, script: str = "", tokens: Iterable[str] = ()) -> None:
    """A `python -m bot` process of the test: its log (stderr) is scanned like the test's own log
    records, for the tokens it was given and every code or word its console script sent privately."""
    for line in stderr.splitlines():
        line = STAMP.sub("", line)
        LEDGER.records.append(logging.makeLogRecord({"name": "bot-process", "levelname": "LOG", "msg": line}))
    for text in PRIVATE_LINE.findall(script):
        if SECRET_LIKE.fullmatch(text) and text.lower() not in NOT_SECRETS:
            LEDGER.secrets.setdefault(text, pattern(text))
    LEDGER.tokens.update(t for t in tokens if t)


def process_env(env: dict[str, str]) -> dict[str, str]:
    """A bot process logs everything (DEBUG) to stderr, for `bot_process` to scan."""
    return {**env, "LOG_LEVEL": "DEBUG"}


class _Recorder(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(FOREIGN_LOGGERS):
            LEDGER.records.append(record)


def _watch_apply(mod: Any) -> Any:
    apply = mod.apply

    @functools.wraps(apply)
    def watched(state: Any, action: Any, actor: Any, ctx: Any) -> Any:
        new, events = apply(state, action, actor, ctx)
        LEDGER.learn(new)
        live = secrets_of(state) | secrets_of(new)
        carried = {v for e in events if e.type in REVEALING for v in serial.dump(e).values() if isinstance(v, str)}
        LEDGER.reveal(live & carried)
        if mod.is_over(new) and not getattr(new, "never_revealed", False):  # a daily code: others still play it
            LEDGER.reveal(secrets_of(new))
        return new, events
    return watched


def _patches() -> Iterator[tuple[Any, str, Any]]:
    """(object, attribute, replacement) for every place the guard watches."""
    runner = MoveRunner
    for mod in GAMES.values():
        yield mod, "apply", _watch_apply(mod)

    original_create = runner.create

    async def create(self: Any, turn: Any, kind: str, state: Any, *args: Any, **kwargs: Any) -> None:
        LEDGER.learn(state)
        await original_create(self, turn, kind, state, *args, **kwargs)
    yield runner, "create", create

    original_response = Localiser.response

    async def response(self: Any, inbound: Any, messages: Any, *args: Any, **kwargs: Any) -> Any:
        LEDGER.scan_messages(messages, f"answer to {inbound.command or inbound.action or 'a message'}")
        return await original_response(self, inbound, messages, *args, **kwargs)
    yield Localiser, "response", response

    from adapters.discord import DiscordAdapter
    from adapters.telegram import TelegramAdapter
    for adapter in (TelegramAdapter, DiscordAdapter):
        original_init = adapter.__init__

        def init(self: Any, token: str, *args: Any, _init: Any = original_init, **kwargs: Any) -> None:
            if token:
                LEDGER.tokens.add(token)
                secret_half = token.split(":", 1)[-1]  # a Telegram token is id:secret
                if len(secret_half) >= 8:
                    LEDGER.tokens.add(secret_half)
            _init(self, token, *args, **kwargs)
        yield adapter, "__init__", init


@pytest.fixture(scope="session", autouse=True)
def _leak_guard() -> Iterator[None]:
    """Install the watches and the log recorder for the whole session."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)
    quiet_libraries()  # the bot's production levels for chatty libraries
    recorder = _Recorder(logging.DEBUG)
    root.addHandler(recorder)
    with pytest.MonkeyPatch.context() as mp:
        for obj, name, replacement in _patches():
            mp.setattr(obj, name, replacement)
        yield
    root.removeHandler(recorder)
    root.setLevel(level)


@pytest.fixture(autouse=True)
def _no_leaks(_leak_guard: None) -> Iterator[Ledger]:
    """A fresh ledger per test; the test fails at teardown if anything leaked."""
    global LEDGER
    LEDGER = Ledger()
    yield LEDGER
    LEDGER.scan_logs()
    leaks, LEDGER = LEDGER.leaks, Ledger()
    if leaks:
        pytest.fail("leaked:\n" + "\n".join(dict.fromkeys(leaks)), pytrace=False)
