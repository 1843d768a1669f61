"""Slow-update benchmark (issue 35): one slow update in one forum topic must delay no other topic, no
private chat and no button press by more than 0.2 s.

A forum supergroup with two topics, through the real python-telegram-bot adapter (its own pacing and
outboxes, adapters/telegram/ordering.py and outbox.py) polling the stand-in Bot API
(tests/telegram/standin.py, in this process) and the real App on a SQLite file, on the real clock.
Each round, Zeb asks for `/mydata` in topic "Data": his file goes to his private chat as a document,
and the stand-in takes `--upload` seconds to accept it (`StandIn.slow`, a large upload over a slow
link). While that upload is under way, three things happen elsewhere and their answer times are
measured, from the update reaching the stand-in to the bot's answer:

- `/help` in topic "Games" (the answer posted there),
- `/start` in Pia's private chat (the answer posted there),
- Bob pressing the Accept button of Alice's open challenge in topic "Games" (answerCallbackQuery).

The same three are measured once more with no upload under way (the baseline); printed: both, and
the delay the upload added (target ≤ 0.2 s).

Then heavy work in the *same* topic: Ann asks for `/analyse` of her finished 5-digit game (with
repeats, the largest space: the solver thinks for seconds, in its worker processes, bot/solver/thinking.py)
in topic "Games", and Bob's guess in his practice game there follows at once; measured: Bob's answer,
against a guess of his with nothing else asked (the baseline). Twice: first with the solver's
thinking kept in the topic's line (as before: `Thinker.steps_aside` off), then as the
bot runs (the /analyse steps aside, core/lines.py). Target: added ≤ 0.2 s; the /analyse still answered.

The group's flood limit (20 a minute, which the busy-forum benchmark measures: `make bench-busy
ARGS=--forum`) is lifted here in the stand-in and the pacing alike, so that only the ordering path
is measured.

    python -m bench.slow_update [--upload 4] [--rounds 3] [--analyses 3]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
import warnings
from collections.abc import Callable
from itertools import islice, permutations
from pathlib import Path

from adapters.telegram import TelegramAdapter
from adapters.telegram.outbox import Pacing
from bot.app.app import App
from tests.solver.test_app import _set_secret
from tests.telegram import forum
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call, Limits
from tests.telegram.standin_objects import Chat, User

FORUM = Chat(id=-100950, type="supergroup", title="Busy forum", is_forum=True)
ZEB = User(id=8100, first_name="Zeb", language_code="en")
PIA = User(id=8101, first_name="Pia", language_code="en")
PAIRS = [(User(id=8200 + 2 * i, first_name=f"Al{i}", language_code="en"),
          User(id=8201 + 2 * i, first_name=f"Bo{i}", language_code="en")) for i in range(10)]
ANN, BOB = User(id=8300, first_name="Ann", language_code="en"), User(id=8301, first_name="Bob", language_code="en")
ANN_GUESSES = ("11223", "34455", "16789", "90123", "44556")  # then /giveup: a game for /analyse (5 digits, repeats)
UNLIMITED = 10_000  # a group's sends a minute, for this benchmark only (module docstring)
REST = 1.1  # seconds: longer than the period of the bot's overall limit (30 sends a second, which stays)


async def answered(standin: StandIn, after: int, pred: Callable[[Call], bool], timeout: float = 30) -> float:
    (call,) = await standin.wait_for(lambda c: c.ok and pred(c), timeout=timeout, after=after)
    return call.at


async def open_challenge(standin: StandIn, games: int, alice: User) -> tuple[Call, str]:
    """Alice's open challenge in "Games" and its Accept button's data (set up before the clock starts)."""
    mark = standin.mark()
    standin.user_message(FORUM, alice, "/duel", topic=games)

    def accept(c: Call) -> str | None:
        return next((str(b["callback_data"]) for b in c.buttons if ":accept" in str(b.get("callback_data", ""))),
                    None)

    (challenge,) = await standin.wait_for(lambda c: c.ok and c.chat_id == FORUM.id and accept(c) is not None,
                                          timeout=30, after=mark)
    data = accept(challenge)
    assert data is not None
    return challenge, data


async def round_trip(standin: StandIn, games: int, challenge: Call, data: str, bob: User) -> dict[str, float]:
    out: dict[str, float] = {}
    mark = standin.mark()
    t0 = time.monotonic()
    standin.user_message(FORUM, bob, "/help", topic=games)
    standin.user_message(Chat.private(PIA), PIA, "/start")
    query = standin.press(FORUM, bob, challenge.result["message_id"], data)
    help_at = answered(standin, mark, lambda c: c.chat_id == FORUM.id and c.params.get("message_thread_id") == games
                       and c.method == "sendMessage" and "/duel" in c.text)
    start_at = answered(standin, mark, lambda c: c.chat_id == PIA.id and c.method == "sendMessage")
    press_at = answered(standin, mark, lambda c: c.method == "answerCallbackQuery"
                        and c.params.get("callback_query_id") == query)
    out["help in another topic"], out["/start in a private chat"], out["button press"] = [
        t - t0 for t in await asyncio.gather(help_at, start_at, press_at)]
    return out


async def said(standin: StandIn, topic: int, who: User, text: str, expect: str, timeout: float = 60) -> float:
    """`who` writes `text` in `topic`; seconds until the bot's message there holding `expect`."""
    mark = standin.mark()
    t0 = time.monotonic()
    standin.user_message(FORUM, who, text, topic=topic)
    return await answered(standin, mark, lambda c: c.chat_id == FORUM.id and c.method == "sendMessage"
                          and c.params.get("message_thread_id") == topic and expect in c.text, timeout) - t0


async def analysable(standin: StandIn, app: App, topic: int, secret: str) -> None:
    """Ann's finished 5-digit practice game (with repeats) with a known secret, in `topic`."""
    await said(standin, topic, ANN, "/practice 5 repeats", "5")
    (row,) = [r for r in await app.store.seated_games("telegram", str(ANN.id)) if not r.over]
    await app.store.run(_set_secret(row.id, secret))
    for code in ANN_GUESSES:
        await said(standin, topic, ANN, code, code)
    await said(standin, topic, ANN, "/giveup", secret)


def code(n: int) -> str:
    """A 4-digit guess without a repeated digit, a different one for each `n` (< 5040): Bob's guess is a move, not a
    refusal — a refusal is a notice that tries the player's private chat first, paced at one send a second there."""
    return "".join(next(islice(permutations("0123456789", 4), n * 37 % 5040, None)))


async def after_analyse(standin: StandIn, app: App, topic: int, n: int, aside: bool) -> tuple[float, float, float]:
    """Bob's guess answered with nothing else asked, then right after Ann's /analyse; and the /analyse's answer."""
    secret = f"{(n * 7919) % 100_000:05d}"  # a new secret each time: nothing of it computed before
    await analysable(standin, app, topic, secret)
    await asyncio.sleep(REST)  # the set-up's sends spent the bot's 30 a second: the measured answers start afresh
    quiet = await said(standin, topic, BOB, code(n), code(n))
    mark = standin.mark()
    t0 = time.monotonic()
    app.thinker.steps_aside = aside
    standin.user_message(FORUM, ANN, "/analyse", topic=topic)
    guess = await said(standin, topic, BOB, code(n + 1), code(n + 1))
    done = await answered(standin, mark, lambda c: c.chat_id == FORUM.id and "#1 11223" in c.text, 120) - t0
    return quiet, guess, done


async def heavy(standin: StandIn, app: App, topic: int, analyses: int) -> dict[bool, list[tuple[float, float, float]]]:
    """`analyses` rounds of `after_analyse` with the thinking kept in line, then as many stepping aside."""
    await said(standin, topic, BOB, "/practice 4", "4")
    await analysable(standin, app, topic, "00000")  # the workers start and load the space's book
    await said(standin, topic, ANN, "/analyse", "#1 11223", timeout=120)
    out: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    for aside in (False, True):
        for n in range(analyses):
            out[aside].append(await after_analyse(standin, app, topic, 100 * n + (50 if aside else 10), aside))
    return out


async def bench(upload: float, rounds: int, analyses: int) -> tuple[list[tuple[dict[str, float], dict[str, float]]],
                                                                  dict[bool, list[tuple[float, float, float]]]]:
    standin = StandIn(limits=Limits(time_scale=1.0, group_per_minute=UNLIMITED))
    await standin.start()
    tmp = tempfile.TemporaryDirectory()
    app = await App.open(db_path=str(Path(tmp.name) / "slow.sqlite"), seed=35)
    adapter = TelegramAdapter(standin.token, app.handle, app.command_menu(), base_url=standin.base_url,
                              pacing=Pacing(group_limit=UNLIMITED, group_burst=UNLIMITED))
    results = []
    try:
        await adapter.start()
        data_topic = forum.create_topic(standin, FORUM, ZEB, "Data")
        games = forum.create_topic(standin, FORUM, ZEB, "Games")
        for who in (ZEB, PIA):
            mark = standin.mark()
            standin.user_message(Chat.private(who), who, "/start")
            await standin.wait_sent(who.id, timeout=30, after=mark)
        for n in range(rounds):
            alice, bob = PAIRS[2 * n]
            challenge, data = await open_challenge(standin, games, alice)
            await asyncio.sleep(1.1)  # Pia's private chat: one send a second
            quiet = await round_trip(standin, games, challenge, data, bob)
            alice, bob = PAIRS[2 * n + 1]
            challenge, data = await open_challenge(standin, games, alice)
            await asyncio.sleep(1.1)  # Pia's private chat: one send a second
            standin.slow["sendDocument"] = upload
            mark = standin.mark()
            standin.user_message(FORUM, ZEB, "/mydata", topic=data_topic)
            await standin.wait_for(lambda c: c.method == "sendDocument", timeout=30, after=mark)
            await asyncio.sleep(0.05)  # the upload is under way
            busy = await round_trip(standin, games, challenge, data, bob)
            await standin.wait_for(lambda c: c.method == "sendDocument" and c.ok, timeout=upload + 30, after=mark)
            standin.slow.pop("sendDocument")
            results.append((quiet, busy))
            await asyncio.sleep(1.1)
        analysed = await heavy(standin, app, games, analyses)
    finally:
        await adapter.stop()
        await app.close()
        await standin.stop()
        tmp.cleanup()
    return results, analysed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upload", type=float, default=4.0, help="seconds the stand-in takes for the upload")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--analyses", type=int, default=3, help="rounds of a guess right after an /analyse, each way")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    results, analysed = asyncio.run(bench(args.upload, args.rounds, args.analyses))
    print(f"A {args.upload:.1f} s upload (/mydata's file) in one forum topic; answer times in seconds "
          f"(real clock, {args.rounds} rounds)")
    print(f"{'answer':<26} {'quiet':>7} {'upload':>7} {'added':>7}   (target: added <= 0.20)")
    print("-" * 64)
    worst = 0.0
    for what in results[0][0]:
        quiet = max(q[what] for q, _ in results)
        busy = max(b[what] for _, b in results)
        worst = max(worst, busy - quiet)
        print(f"{what:<26} {quiet:>7.3f} {busy:>7.3f} {busy - quiet:>+7.3f}")
    print("-" * 64)
    print(f"worst added delay: {worst:.3f} s — {'met' if worst <= 0.2 else 'MISSED'}")
    print()
    print(f"A guess in the same topic right after a 5-digit /analyse; seconds (real clock, {args.analyses} rounds)")
    print(f"{'the thinking':<22} {'guess alone':>11} {'after':>7} {'added':>7} {'/analyse':>9}"
          "   (target: added <= 0.20)")
    print("-" * 72 + "   (the worst of the rounds; each round's added delay in brackets)")
    for aside, label in ((False, "in the topic's line"), (True, "stepping aside")):
        rows = analysed[aside]
        quiet, after, done = (max(r[i] for r in rows) for i in range(3))
        print(f"{label:<22} {quiet:>11.3f} {after:>7.3f} {after - quiet:>+7.3f} {done:>9.2f}"
              f"   (each: {', '.join(f'{r[1] - r[0]:+.3f}' for r in rows)})")
    print("-" * 72)


if __name__ == "__main__":
    main()
