"""/mydata and /forgetme on the console: the real App over a real SQLite file, through the console adapter
(whose private chat is `@name` and whose user id is the name)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from adapters.console import ConsoleAdapter
from bot.app.app import App
from tests.yourdata.players import traces


async def test_console_mydata_then_forgetme(tmp_path: Path) -> None:
    db, files = tmp_path / "db.sqlite3", tmp_path / "files"
    app = await App.open(str(db), seed=1)
    out = io.StringIO()
    try:
        console = ConsoleAdapter(app.handle, out=out, image_dir=files)
        for line in ["zebedee> /practice", "zebedee> 1234", "zebedee> /giveup", "zebedee: /practice 3",
                     "zebedee: /giveup", "zebedee> /lang de", "ann: /practice", "ann: /giveup",
                     "zebedee: /mydata"]:
            await console.feed(line)
        text = out.getvalue()
        saved = [Path(ln.strip()) for ln in text.splitlines() if ln.strip().endswith("mydata.json")]
        assert len(saved) == 1 and "[@zebedee] 📦" in text  # privately, also when asked at the table
        data = json.loads(saved[0].read_text(encoding="utf-8"))
        assert data["user_id"] == "zebedee" and len(data["games"]) == 2
        assert await traces(app, str(db), ("zebedee",))
        await console.feed("zebedee: /forgetme")
        (button,) = re.findall(r"\((b\d+)\) 🗑", out.getvalue())
        await console.feed(f"ann clicks {button}")  # not Ann's to press
        await console.feed(f"zebedee clicks {button}")
        assert "Ich habe dich vergessen" in out.getvalue() or "I have forgotten you" in out.getvalue()
        assert await traces(app, str(db), ("zebedee",)) == []
        assert await traces(app, str(db), ("ann",))  # Ann is kept
    finally:
        await app.close()
