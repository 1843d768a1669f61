"""The word game's command options: `/words …` parsed into `Options`, and the limits every Options must keep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import GameError
from core.games.words.state import LANGUAGES, LENGTHS, TURN_SECONDS, Mode, Options
from core.lexicon import ALPHABETS
from core.options import Vocabulary, meaning

# The option ids (core/options.py); a catalog names each in its own language.
_KEYWORDS = ("length", "rounds", "points", "limit", "answers", "lang", "time")  # followed by a value
_FLAGS = {"strict": ("strict", True), "free": ("strict", False),
          "classic": ("counts", False), "counts": ("counts", True)}



def check_options(opts: Options) -> None:
    """GameError for options out of the game's limits (a length, language, goal or turn time it has not)."""
    if opts.length not in LENGTHS:
        raise GameError("words.bad_length", given=opts.length, min=LENGTHS[0], max=LENGTHS[-1])
    if opts.lang not in ALPHABETS:
        raise GameError("words.bad_lang", given=opts.lang, languages=", ".join(LANGUAGES))
    if opts.goal < 1 or opts.goal > 100:
        raise GameError("words.bad_goal", given=opts.goal)
    if opts.turn_seconds not in TURN_SECONDS:
        raise GameError("words.bad_time", given=opts.turn_seconds)



def parse_options(args: Sequence[str], lang: str, vocab: Vocabulary | None = None) -> tuple[bool, Options]:
    """`/words [solo] [length N] [rounds N | points N | limit N] [answers classic|counts] [strict|free]
    [lang CODE] [time SECONDS]` → (solo?, options); the option words in any language the vocabulary knows.
    Anything else is a coded error."""
    values: dict[str, Any] = {"lang": lang}
    solo = False
    words = [w.lower() for a in args for w in a.split()]  # a Discord slash option is one string
    i = 0
    while i < len(words):
        w = words[i]
        flag = meaning(w, vocab, _FLAGS)
        keyword = meaning(w, vocab, _KEYWORDS)
        if i == 0 and meaning(w, vocab, ("solo",)):
            solo = True
        elif flag:
            flag_key, flag_value = _FLAGS[flag]
            values[flag_key] = flag_value
        elif keyword and i + 1 < len(words):
            key, val = keyword, words[i + 1]
            i += 1
            if key == "answers":
                answer = meaning(val, vocab, ("classic", "counts"))
                if answer is None:
                    raise GameError("bad_option", option=val[:30])
                values["counts"] = _FLAGS[answer][1]
            elif key == "lang":
                values["lang"] = val
            elif not val.isdecimal():
                raise GameError("bad_option", option=val[:30])
            elif key in ("rounds", "points", "limit"):
                if "mode" in values:
                    raise GameError("words.one_end")
                values["mode"] = {"rounds": Mode.ROUNDS, "points": Mode.POINTS, "limit": Mode.PAIR_LIMIT}[key]
                values["goal"] = int(val)
            elif key == "length":
                values["length"] = int(val)
            else:
                values["turn_seconds"] = int(val)
        else:
            raise GameError("bad_option", option=w[:30])
        i += 1
    if values["lang"] not in ALPHABETS:
        raise GameError("words.bad_lang", given=str(values["lang"])[:10], languages=", ".join(LANGUAGES))
    opts = Options(**values)
    check_options(opts)
    return solo, opts
