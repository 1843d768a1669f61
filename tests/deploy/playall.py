"""Every game played in the console of an installed bot — a wheel in a fresh venv (tests/deploy/test_wheel.py)
or the image (.ci/image) — through a `Runner` that starts the installed program as a self-hoster would.

`play_everything`: a duel against the perfect bot, Logik against the bot, the word game solo in each
language, Kegeln with the cash box, two /mydata; `upgrade_data`/`kept_after_upgrade`: what a first
version writes and what the next one, on the same state, must still show. Each step fails with a line
that says which game broke and shows the bot's output. Run as a module by the CI script:
`python -m tests.deploy.playall docker IMAGE VOLUME [play|write|check]` or `exec CONTAINER1 CONTAINER2`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Sequence

Runner = Callable[[Sequence[str], str], str]  # (argv: "chatgames …" or "python …", stdin) -> stdout
LANGS = ("en", "de", "ru", "bg", "sv")
SHIPPED = ("from bot.solver.book import load_tree, load_strong_tree; from core.solver.spaces import digits; "
           "import bot.process.shipped as s; "
           "print(sorted(p.name for p in s.LOCALES.iterdir()), sorted(p.name for p in s.WORDS.iterdir())[:2], "
           "load_tree(digits(3, False)) is not None, load_tree(digits(4, False)) is not None, "
           "load_strong_tree(digits(5, False)) is not None, s.DATA); "
           "from bot.texts.i18n import Catalogs; print('owners', sorted(d.parent.name for d in Catalogs().owners))")


class PlayFailed(AssertionError):
    """One game did not play as it should; the message names it and carries the output."""


def expect(what: str, out: str, *needles: str, pattern: str | None = None) -> None:
    missing = [n for n in needles if n not in out]
    if pattern is not None and not re.search(pattern, out):
        missing.append(f"/{pattern}/")
    if missing:
        raise PlayFailed(f"{what}: missing {missing} in the bot's output:\n{out[-4000:]}")


def duel_with_perfect_bot(run: Runner) -> str:
    guesses = ["345", "678", "901", "234", "567", "890", "123", "456", "789", "135", "246"]
    script = "alice: /duel bot perfect 3\nalice> 012\n" + "".join(f"alice: {g}\n" for g in guesses)
    out = run(["chatgames", "--seed", "3"], script)
    expect("duel against the perfect bot", out, "Bot (perfect)", "Bot #1:", "Secret codes:", pattern=r"wins!|draw")
    return out


def logik_with_bot(run: Runner) -> str:
    rows = ["12345", "67812", "34567", "81234", "56781", "23456", "78123", "45678", "11223", "34455", "66778"]
    script = "alice: /logik bot\nalice> random\n" + "".join(f"alice: {r}\n" for r in rows)
    out = run(["chatgames", "--seed", "3"], script)
    expect("Logik against the bot", out, "Secret rows:", pattern=r"wins!|draw")
    expect("Logik's board picture", out, pattern=r"board-\d+\.png")
    return out


def words_solo_in_every_language(run: Runner) -> str:
    script = "".join(f"alice: /words solo lang {lang}\nalice: /giveup\n" for lang in LANGS)
    out = run(["chatgames", "--seed", "3"], script)
    words = re.findall(r"gave up after 0 guesses\. The word was (\w+)\.", out)
    if len(words) != len(LANGS) or "I know no" in out:
        raise PlayFailed(f"the word game solo in {LANGS}: secret words {words} in the bot's output:\n{out}")
    if not all(re.fullmatch("[а-яё]+", w) for w in words[2:4]):
        raise PlayFailed(f"the Russian and Bulgarian secret words are no Cyrillic words: {words}")
    return out


def kegeln_with_cash_box(run: Runner) -> str:
    script = ("alice: /kasse on\nalice: /kegeln high 2 Anna Ben\nalice: /wurf 7 10\nalice: /wurf 3 10\n"
              "alice: /wurf 0\nalice: /wurf 9\nalice: /kasse pay Anna 2,50\nalice: /kasse\n")
    out = run(["chatgames", "--seed", "3", "--admin", "alice"], script)
    expect("Kegeln with the cash box", out, "Anna 70", "Ben  39", pattern=r"Anna\D*2[.,]50")
    return out


def two_mydata(run: Runner) -> str:
    out = run(["chatgames"], "alice> /mydata\nalice> /mydata\n")
    files = re.findall(r"\S*/(mydata(?:-2)?\.json)", out)
    if files != ["mydata.json", "mydata-2.json"]:
        raise PlayFailed(f"two /mydata: files {files}, wanted mydata.json then mydata-2.json:\n{out}")
    return out


def shipped(run: Runner) -> str:
    """The installed package's own data: five catalogs, the word lists, the perfect and strong trees."""
    out = run(["python", "-c", SHIPPED], "")
    expect("the shipped data", out, "['bg.toml', 'de.toml', 'en.toml', 'ru.toml', 'sv.toml']", "True True True",
           "owners ['club', 'daily', 'duel', 'kegeln', 'logik', 'practice', 'words']")  # each game's texts too
    return out


def play_everything(run: Runner) -> None:
    shipped(run)
    duel_with_perfect_bot(run)
    logik_with_bot(run)
    words_solo_in_every_language(run)
    kegeln_with_cash_box(run)
    two_mydata(run)


# What the first version writes; the next one on the same state must still show it (upgrade_data).
HUMAN_DUEL = ("alice: /duel bob 3\nbob: /accept\nalice> 012\nbob> 345\n"
              "alice: 345\nbob: 012\nalice: 345\nbob: 012\n")


def upgrade_data(run: Runner) -> None:
    """A duel between two people (ratings), Kegeln with the cash box (a cash book), a duel against the bot."""
    out = run(["chatgames", "--seed", "5"], HUMAN_DUEL)
    expect("a duel alice against bob", out, "Secret codes:", "Match:")
    kegeln_with_cash_box(run)
    duel_with_perfect_bot(run)


def kept_after_upgrade(run: Runner, new_text: str | None = None) -> str:
    """The games, the ratings and the cash book of `upgrade_data` are there; the new text is served."""
    out = run(["chatgames", "--admin", "alice"], "alice: /top\nalice: /stats\nalice: /kasse\nalice: /kegelstats Anna\n")
    expect("after the upgrade: the ratings (/top)", out, pattern=r"1\. (alice|bob)")
    expect("after the upgrade: the cash book (/kasse)", out, pattern=r"Anna\D*2[.,]40")
    expect("after the upgrade: the games (/stats)", out, pattern=r"1A2B duel: \d")
    if new_text is not None:
        expect("after the upgrade: the new version's text", out, new_text)
    return out


def shared_database(first: Runner, second: Runner) -> str:
    """A duel started in one bot process and finished in another on the same database (compose: two bot
    containers on one PostgreSQL; the wheel test: two processes one after the other on one state folder)."""
    one = first(["chatgames", "--seed", "5"], "alice: /duel bob 3\nbob: /accept\nalice> 012\nbob> 345\n")
    expect("the duel's start in the first bot", one, pattern=r"🔐 bob")
    two = second(["chatgames"], "alice: 345\nbob: 012\nalice: 345\nbob: 012\nalice: /top\n")
    expect("the duel's end in the second bot", two, "Secret codes: alice: 012, bob: 345", pattern=r"1\. (alice|bob)")
    return two


def exec_runner(container: str) -> Runner:
    """Another console process in a running container (`docker exec -i`): its image, settings and state."""

    def run(argv: Sequence[str], stdin: str) -> str:
        cmd = ["docker", "exec", "-i", container, *argv]
        done = subprocess.run(cmd, input=stdin, text=True, capture_output=True, timeout=300)
        if done.returncode != 0 or "Traceback" in done.stderr:
            raise PlayFailed(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-3000:]}\n{done.stdout[-2000:]}")
        return done.stdout

    return run


def docker_runner(image: str, volume: str) -> Runner:
    """The image's console: `docker run -i` on the state volume, no network (the console needs none)."""

    def run(argv: Sequence[str], stdin: str) -> str:
        cmd = ["docker", "run", "--rm", "-i", "--network", "none", "-v", f"{volume}:/var/lib/chatgames", image, *argv]
        done = subprocess.run(cmd, input=stdin, text=True, capture_output=True, timeout=300)
        if done.returncode != 0 or "Traceback" in done.stderr:
            raise PlayFailed(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr[-3000:]}\n{done.stdout[-2000:]}")
        return done.stdout

    return run


def main(argv: Sequence[str]) -> int:
    if len(argv) < 3 or argv[0] not in ("docker", "exec"):
        print("usage: python -m tests.deploy.playall docker IMAGE VOLUME [play|write|check [NEW_TEXT]]\n"
              "       python -m tests.deploy.playall exec CONTAINER1 CONTAINER2", file=sys.stderr)
        return 2
    run = docker_runner(argv[1], argv[2])
    step = "shared" if argv[0] == "exec" else argv[3] if len(argv) > 3 else "play"
    try:
        if step == "shared":
            shared_database(exec_runner(argv[1]), exec_runner(argv[2]))
        elif step == "play":
            play_everything(run)
        elif step == "write":
            upgrade_data(run)
        else:
            kept_after_upgrade(run, argv[4] if len(argv) > 4 else None)
    except PlayFailed as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    print(f"{step}: ok ({argv[1]}, {argv[2]})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
