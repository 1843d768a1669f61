"""Busy-group benchmark: players in one group guess faster than the platform lets a bot post.

Three players practise 1A2B in one group and together send `--rate` guesses a minute (random
moments, Poisson) for `--seconds`, through the real python-telegram-bot adapter polling the
stand-in Bot API (tests/telegram/standin.py, in this process), which enforces Telegram's flood
limits — 20 messages a minute per group, 30 a second overall, 1 a second per private chat — with
429 and `retry_after`, on the real clock unless `--scale` shrinks every period (the figures are
then printed scaled back to real seconds). App on a SQLite file; nobody ever guesses their code.

Printed per run: guesses, the group's successful sends and 429s, the delay from a guess reaching
the stand-in to the first successful send carrying its answer (p50/p99/max), and the replies lost
(answers that never arrived within `--drain` seconds after the last guess; target 0).

    python -m bench.busy_group [--rates 60,120] [--seconds 120] [--modes before,after]
                               [--scale 1] [--drain 150]

`before`: the adapter as it was — PTB's AIORateLimiter (20 a minute per group as a leaky bucket,
5 retries on 429), every reply its own message. `after`: the adapter's Pacer and group Outbox
(adapters/telegram/outbox.py): sends spread within the limits, replies piling up joined.

`--discord`: the same three players in one Discord channel, through the real discord.py adapter
connected to the stand-in Discord (tests/discord/standin.py, in this process), which enforces
5 messages per channel per 5 s and 50 requests a second with 429, `retry_after` and the
X-RateLimit headers (`--scale` shrinks its windows, as `rate_scale`). `before`: the adapter
unpaced (`paced=False`): discord.py waits out the channel's bucket, every reply its own message.
`after`: the adapter's Pacer and channel Outbox (adapters/discord/pacing.py).

`--forum` (issue 35): a forum supergroup with `--topics` topics (5), two players practising in each,
`--rates` guesses a minute in all (60) at random moments, the topics in turn, through the real adapter and
stand-in as above. The topics share the group's 20 messages a minute, so a reply cannot come sooner
than the group's next send that serves its topic: the *floor* is computed from the very guess times
with an ideal scheduler (a send every 60/20 s × the pacer's margin, each to the topic whose oldest
unanswered guess is oldest, no handling time) and printed beside the measured p50/p99, overall and
per topic. Targets: replies within 1.2 × the floor, the topics' p50 within 20 % of each other, 0 lost,
0 429. The games are started through the App directly (their start messages are not sent), so the
group starts quiet. The load is drawn from `--seed` alone (`forum_load`, bench/busy_floor.py); the
floor's own per-topic spread is printed beside the measured one, and `--floors N` prints only that, for
N seeded loads of `--seconds` (nothing played): on 5 minutes the floor itself misses 20 % in half of
them (docs/benchmarks.md).

`--groups N` (issue 35): N busy groups sharing the bot's 30 messages a second — the real Outbox and
Pacer (adapters/telegram/outbox.py), each send taken from the Pacer as python-telegram-bot takes it
and then recorded instead of sent; every group gets a reply every `--every` seconds. Printed: each
group's fair share of the overall budget (a send every N/30 s), the longest any reply waited and the
longest gap between two sends of one group (target ≤ 1.5 × the fair share), lost (target 0).

This module is the command line; the runs are in bench/busy_single.py (one group or channel),
bench/busy_forum.py (`--forum`; its floor in bench/busy_floor.py) and bench/busy_many.py (`--groups`),
what they share in bench/busy_run.py.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import warnings

from bench.busy_floor import floor_spreads
from bench.busy_forum import play_forum, report_forum
from bench.busy_many import play_many
from bench.busy_run import pct
from bench.busy_single import play, play_discord


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="60,120", help="guesses a minute in the group, comma-separated")
    parser.add_argument("--seconds", type=float, default=120.0, help="guessing time per run (real seconds)")
    parser.add_argument("--modes", default="before,after")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="every period of the limits, the pacing and the timings times this")
    parser.add_argument("--drain", type=float, default=150.0,
                        help="seconds after the last guess before an answer counts as lost")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--discord", action="store_true",
                        help="one Discord channel (5 posts per 5 s) instead of a Telegram group")
    parser.add_argument("--forum", action="store_true", help="a forum supergroup with --topics topics")
    parser.add_argument("--topics", type=int, default=5)
    parser.add_argument("--floors", type=int, default=0,
                        help="--forum: only the floor's own spread over this many seeded loads (nothing played)")
    parser.add_argument("--groups", type=int, default=0, help="this many busy groups sharing 30 messages a second")
    parser.add_argument("--every", type=float, default=5.0, help="--groups: seconds between a group's replies")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    warnings.filterwarnings("ignore")
    if args.groups:
        got = asyncio.run(play_many(args.groups, args.seconds, args.every, args.scale))
        print(f"{args.groups} busy groups (a reply every {args.every:.0f} s each), the bot's 30 messages a second; "
              f"{args.seconds:.0f} s, periods ×{args.scale}, figures in real seconds")
        print(f"fair share: a send every {got['share']:.2f} s per group; replies {got['items']:.0f}, "
              f"sends {got['sends']:.0f}, lost {got['lost']:.0f}")
        print(f"reply wait p50 {got['p50_wait']:.2f} s, max {got['max_wait']:.2f} s; longest gap between a group's "
              f"sends while a reply waited {got['max_gap']:.2f} s = {got['max_gap'] / got['share']:.2f} × its share "
              f"(target <= 1.5)")
        return
    if args.forum:
        for rate in [float(r) for r in args.rates.split(",")]:
            if args.floors:
                spreads = floor_spreads(range(args.seed, args.seed + args.floors), args.seconds, rate, args.topics)
                print(f"The ideal floor's own per-topic p50 spread, {args.topics} topics, {rate:.0f} guesses a minute, "
                      f"{args.seconds:.0f} s, {args.floors} seeded loads: median {pct(spreads, 50) * 100:.0f} %, "
                      f"p90 {pct(spreads, 90) * 100:.0f} %, above 20 % in "
                      f"{sum(x > 0.2 for x in spreads) * 100 / len(spreads):.0f} % of them")
                continue
            print(f"A forum with {args.topics} topics, {rate:.0f} guesses a minute in all; stand-in enforcing "
                  f"20/min per group with 429 (periods ×{args.scale}, figures in real seconds); "
                  f"{args.seconds:.0f} s of guessing")
            report_forum(asyncio.run(play_forum(rate, args.seconds, args.scale, args.drain, args.seed,
                                                args.topics)))
        return
    rates = [float(r) for r in args.rates.split(",")]
    modes = args.modes.split(",")
    clock = "real time" if args.scale == 1 else f"periods ×{args.scale}, figures scaled back to real seconds"
    where = ("One Discord channel, 3 players practising; stand-in enforcing 5 per 5 s per channel"
             if args.discord else
             "One Telegram group, 3 players practising; stand-in enforcing 20/min per group")
    print(f"{where} with 429 ({clock}); {args.seconds:.0f} s of guessing per run")
    play_run = play_discord if args.discord else play
    print(f"{'mode':<7} {'guesses/min':>11} {'guesses':>8} {'sends':>6} {'429s':>5} "
          f"{'p50 s':>7} {'p99 s':>7} {'max s':>7} {'lost':>5}")
    print("-" * 72)
    for rate in rates:
        for mode in modes:
            run = asyncio.run(play_run(mode, rate, args.seconds, args.scale, args.drain, args.seed))
            print(f"{mode:<7} {rate:>11.0f} {len(run.guesses):>8} {run.sends:>6} {run.refused:>5} "
                  f"{pct(run.delays, 50):>7.2f} {pct(run.delays, 99):>7.2f} "
                  f"{max(run.delays, default=float('nan')):>7.2f} {run.lost:>5}", flush=True)
    print("-" * 72)
    print("delay: from the guess reaching the stand-in to the first accepted send carrying its answer; "
          "lost: answers not arrived by --drain s after the last guess (target 0); target p99 <= 3 s")


if __name__ == "__main__":
    main()
