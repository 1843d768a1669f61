"""kill -9 of the real bot process during a club game with the cash box on, then a restart on the same
database: what each acknowledged move meant for the club (its fine, its records, its roster) is there
exactly once — written in the move's own transaction (bot/club/games.py `move_job`)."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.test_kill9 import Bot


def restarted(db: Path, seed: int) -> Bot:
    return Bot(db, seed, "--admin", "anna")  # a chat admin: her games are the club's


def test_kill9_after_a_pumpe_and_after_the_last_throw(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    bot = restarted(db, 1)
    try:
        bot.say("anna: /kasse on", r"[Cc]ash box")
        bot.say("anna: /kegeln high 2 Birgit Klaus", r"Throwing order: Birgit, Klaus")
        bot.say("anna: /wurf 0 Z", r"Birgit: .*Pumpe|Birgit: 0")
        bot.kill9()  # the Pumpe acknowledged: its fine is booked with it
    finally:
        if bot.proc.poll() is None:
            bot.kill9()
    bot = restarted(db, 2)
    try:
        bot.say("anna: /kasse", r"Birgit: owes €0\.10")
        bot.say("anna: /wurf 9 Z", r"Klaus: 9 pins → tens")
        bot.say("anna: /wurf 3 E", r"Birgit: 3 pins → ones")
        bot.say("anna: /wurf 1 E", r"Winner: Klaus")
        bot.kill9()  # the game's end acknowledged: its records, roster and last-place fine with it
    finally:
        if bot.proc.poll() is None:
            bot.kill9()
    bot = restarted(db, 3)
    try:
        bot.say("anna: /kasse", r"Birgit: owes €0\.60")  # the Pumpe 0.10 and the last place 0.50, once each
        bot.say("anna: /kegelstats Birgit", r"Birgit: 1 game .* Pumpen: 1")
        bot.say("anna: /verein", r"The club: 2 members")
        assert sum("owes" in line for line in bot.lines) == 1
    finally:
        bot.close()
