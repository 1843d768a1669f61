"""Console play: one group chat `#table` and a private chat per player, over stdin/stdout.

Protocol, one line each (for people and for programs driving the bot):
  alice: TEXT        alice posts TEXT in #table
  alice> TEXT        alice sends TEXT to the bot privately
  alice clicks b3    alice presses button b3
Output: `[#table] TEXT` or `[@alice] TEXT`; further lines of a message are
indented by two spaces; buttons follow as `  (b3) Accept  (b4) Decline`.
"""

from __future__ import annotations

import asyncio
import re
import sys
import uuid
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator
from itertools import count
from pathlib import Path
from typing import TextIO

from core.messages import Actor, Chat, Inbound, Outbound, Response

PLATFORM = "console"
GROUP = Chat(PLATFORM, "#table", private=False, title="#table")
LINE = re.compile(r"^\s*(?P<who>[^\s:>]+)\s*(?P<kind>[:>])\s?(?P<text>.*)$")
PICTURE = re.compile(r"board-(\d{1,9})\.png")
CLICK = re.compile(r"^\s*(?P<who>\S+)\s+clicks\s+(?P<button>b\d+)\s*$")
# a command name starts with a letter of any script (localised names such as /итоги_года) or _
COMMAND = re.compile(r"^/(?P<name>[^\W\d][\w]*)(?:@\S+)?(?:\s+(?P<args>.*))?$", re.S)

Handle = Callable[[Inbound], Awaitable[Response]]


def parse_command(text: str) -> tuple[str, tuple[str, ...]] | None:
    """`/duel bob 5` → ("duel", ("bob", "5")); None for plain text."""
    m = COMMAND.match(text.strip())
    if not m:
        return None
    return m.group("name").lower(), tuple((m.group("args") or "").split())


class ConsoleAdapter:
    platform = PLATFORM

    def __init__(self, handle: Handle, out: TextIO | None = None, locale: str | None = None,
                 image_dir: Path | None = None, admins: Collection[str] = ()) -> None:
        self.handle = handle
        self.admins = frozenset(admins)  # the names that are the table's admins (/timezone, /posts)
        self.out = out or sys.stdout
        self.locale = locale
        self.image_dir = image_dir or Path("data/boards")
        self._buttons: dict[str, tuple[str, Chat]] = {}  # number -> (action, the chat it was shown in)
        self._numbers = count(1)
        self._pictures: Iterator[int] | None = None  # picture file numbers, after those in image_dir
        self._events = count(1)
        self._session = uuid.uuid4().hex[:12]  # event ids stay unique across runs on one database

    def actor(self, name: str) -> Actor:
        return Actor(PLATFORM, name, name, self.locale, is_admin=name in self.admins)

    def inbound(self, line: str) -> Inbound | None:
        """One protocol line → an Inbound (None for blank lines, comments and nonsense)."""
        if not line.strip() or line.lstrip().startswith("#"):
            return None
        event_id = f"{self._session}-{next(self._events)}"
        click = CLICK.match(line)
        if click:
            who = click.group("who")
            shown = self._buttons.get(click.group("button"))
            if shown is None:
                self._write(f"[@{who}] ? {click.group('button')}")
                return None
            action, chat = shown  # pressed where it was shown; the App checks that chat
            if chat.private:  # a private chat is the clicker's own
                chat = Chat(PLATFORM, f"@{who}", private=True)
            return Inbound(self.actor(who), chat, action=action, event_id=event_id)
        m = LINE.match(line)
        if not m:
            self._write("? usage: `name: text` (group), `name> text` (private), `name clicks b1`")
            return None
        who, text = m.group("who"), m.group("text")
        chat = GROUP if m.group("kind") == ":" else Chat(PLATFORM, f"@{who}", private=True)
        parsed = parse_command(text)
        if parsed:
            return Inbound(self.actor(who), chat, command=parsed[0], args=parsed[1], event_id=event_id)
        return Inbound(self.actor(who), chat, text=text, event_id=event_id)

    async def feed(self, line: str) -> None:
        inbound = self.inbound(line)
        if inbound is None:
            return
        response = await self.handle(inbound)
        self.show(response, inbound.actor)

    def show(self, response: Response, actor: Actor | None = None) -> None:
        self.print_messages(response.messages)
        if response.notice and actor is not None:
            self._write(f"[@{actor.name}] {response.notice}")

    async def send(self, messages: Iterable[Outbound]) -> None:
        """Announcements that no inbound caused (e.g. a timed-out game)."""
        self.print_messages(messages)

    def print_messages(self, messages: Iterable[Outbound]) -> None:
        for msg in messages:
            where = f"#{msg.to.chat_id.lstrip('#')}" if isinstance(msg.to, Chat) and not msg.to.private \
                else f"@{msg.to.name if isinstance(msg.to, Actor) else msg.to.chat_id.lstrip('@')}"
            lines = msg.text.split("\n")
            if msg.image:
                lines.append(str(self._save_image(msg.image)))
            if msg.file:
                lines.append(str(self._save_file(*msg.file)))
            self._write(f"[{where}] " + "\n".join("  " + x if i else x for i, x in enumerate(lines)))
            shown_in = msg.to if isinstance(msg.to, Chat) else Chat(PLATFORM, f"@{msg.to.user_id}", private=True)
            for row in msg.buttons:
                labels = []
                for b in row:
                    number = f"b{next(self._numbers)}"
                    self._buttons[number] = (b.action, shown_in)
                    labels.append(f"({number}) {b.label}")
                self._write("  " + "  ".join(labels))

    def _save_image(self, data: bytes) -> Path:
        """A picture as `board-N.png`, N after every picture already in the folder: a restart (whose
        numbering of buttons starts again) never overwrites an earlier run's pictures."""
        self.image_dir.mkdir(parents=True, exist_ok=True)
        next(self._numbers)  # a picture still takes its number in the output's numbering, as it always has
        if self._pictures is None:
            taken = [int(m.group(1)) for p in self.image_dir.glob("board-*.png")
                     if (m := PICTURE.fullmatch(p.name))]
            self._pictures = count(max(taken, default=0) + 1)
        path = self.image_dir / f"board-{next(self._pictures)}.png"
        path.write_bytes(data)
        return path.resolve()

    def _save_file(self, name: str, data: bytes) -> Path:
        """An attachment is written under image_dir with its own name (no directories); a second one of
        that name becomes `name-2.ext`, `name-3.ext`, …: a second /mydata never overwrites the first."""
        self.image_dir.mkdir(parents=True, exist_ok=True)
        path = self.image_dir / (Path(name).name or f"file-{next(self._numbers)}")
        stem, suffix, n = path.stem, path.suffix, 1
        while True:
            try:
                with path.open("xb") as f:  # exclusive: never replaces a file, even one written meanwhile
                    f.write(data)
                return path.resolve()
            except FileExistsError:
                n += 1
                path = self.image_dir / f"{stem}-{n}{suffix}"

    def _write(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def run(self, stdin: TextIO | None = None, banner: str | None = None) -> None:
        """Read lines until EOF, handling each before reading the next (deterministic output)."""
        source = stdin or sys.stdin
        if banner:
            self._write(banner)
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, source.readline)
            if not line:
                return
            await self.feed(line.rstrip("\n"))
