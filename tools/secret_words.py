"""Rebuilds bot/data/wordlists/<lang>.txt, the words the bot may pick as a secret or suggest as a hint in the word
games (Бык-корова practice, the daily puzzle, /hint): frequent nouns of the language, never a vulgar word.
The word game's dictionary of accepted guesses stays the whole wordfreq list (bot/solver/dictionary.py).

Reproducible: run `python -m tools.secret_words [LANG …]` in the project's environment (the pinned wordfreq)
with the dev-only tools that tell a noun (neither the bot nor its tests need them):
    pip install pymorphy3==2.0.6 pymorphy3-dicts-ru==2.4.417150.4580142 german-nouns==1.2.5
    apt-get install hunspell-tools hunspell-bg hunspell-sv wordnet-base
A word of wordfreq's most frequent `TOP` of the language (normalised as bot/solver/dictionary.py does, 3–8 letters)
is kept when the language's tool says it is a noun in its base form:
  ru  pymorphy3 (OpenCorpora): a word its dictionary knows, whose most probable parse is a noun, and one
      of whose parses is a common noun (not a name, surname, patronymic, place or abbreviation) in the
      nominative, singular or plural-only;
  bg  hunspell bg_BG (every form, expanded by `unmunch`): the dictionary has its definite form (-ът/-ят,
      -та, -то, plural -те), it has no verb ending (-ш, -х, -м) and is no adjective (добра → добрият,
      добро, добри; хубави → хубава, хубаво; лесно → лесна, лесни);
  sv  hunspell sv_SE (expanded the same way): the dictionary has its definite singular (-en/-et, -n after
      a vowel), no entry of it is marked NOSUGGEST (the dictionary's mark for vulgar and odd words), and it
      is no verb (förena → förenar, postar → posta, rullade → rullar) and no adjective (lös → lösa, löst);
  de  german-nouns (the German Wiktionary's nouns): a lemma, i.e. nominative singular, of a common noun
      (no names, surnames, abbreviations) and no verb's infinitive used as one (das Erwarten: a neuter
      lemma that hunspell de_DE lists in lower case);
  en  WordNet (data.noun): a lower-case lemma of a noun (its proper nouns are capitalised there), not
      also an adjective or adverb there, and no -ing form;
and it is not one of the few pronouns and adverbs those tests let through (`NOT_NOUNS`).
Then every word of bot/data/wordlists/<lang>.blocked (vulgar and offensive words, their forms) is dropped; the App
drops them again when it loads the list, so a word added there is gone without a rebuild.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from core.games.words.state import LENGTHS
from core.lexicon import is_word_of, normalise

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bot" / "data" / "wordlists"  # the shipped lists, in the checkout (bot/process/shipped.py)
TOP = {"ru": 80_000}  # how far down wordfreq's frequency list a noun may be (Russian lists every case form)
DEFAULT_TOP = 30_000
# words the dictionary tests let through that are no nouns (pronouns, adverbs, quantifiers)
NOT_NOUNS: dict[str, set[str]] = {
    "de": {"heute", "unter", "über", "hinter", "neben", "zwischen", "gegen", "ohne", "wider", "ausser", "wieder",
           "immer", "nichts", "etwas"},
    "bg": {"кого", "когото", "някого", "никого", "много", "малко", "нещо", "нищо", "всичко", "някой", "никой", "всеки",
           "тези", "онези", "тия"},
    "sv": {"inget", "ingen", "något", "någon", "allt", "alla", "mycket", "lite", "inte", "genom", "under", "skulle",
           "efter", "över", "mellan", "bakom", "utan", "sedan"},
}
HUNSPELL = Path("/usr/share/hunspell")
WORDNET = Path("/usr/share/wordnet")


def blocked(lang: str) -> set[str]:
    path = OUT / f"{lang}.blocked"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return {normalise(ln, lang) for ln in lines if ln.strip() and not ln.startswith("#")}


def _ru() -> Callable[[str], bool]:
    import pymorphy3  # type: ignore[import-not-found]

    morph = pymorphy3.MorphAnalyzer()
    proper = {"Name", "Surn", "Patr", "Geox", "Orgn", "Abbr", "Init", "Trad"}

    def noun(raw: str) -> bool:
        if not morph.word_is_known(raw):  # its guesses for unknown words (names: орландо, локк) are no help
            return False
        parses = morph.parse(raw)
        if parses[0].tag.POS != "NOUN":  # вверх: an adverb first
            return False
        return any(p.tag.POS == "NOUN" and p.tag.case == "nomn" and not proper & set(p.tag.grammemes)
                   and (p.tag.number == "sing" or "Pltm" in p.tag.grammemes) for p in parses)
    return noun


def _forms(name: str, only: Callable[[str], bool] = lambda entry: True) -> set[str]:
    """Every word form of a hunspell dictionary (Debian's hunspell-tools `unmunch` expands its affixes);
    `only`: the dictionary's entries (word/FLAGS lines) to expand."""
    dic = (HUNSPELL / f"{name}.dic").read_text(encoding="utf-8", errors="replace").splitlines()[1:]
    with tempfile.NamedTemporaryFile("w", suffix=".dic", encoding="utf-8", delete=False) as f:
        kept = [entry for entry in dic if only(entry)]
        f.write(f"{len(kept)}\n" + "\n".join(kept) + "\n")
    done = subprocess.run(["unmunch", f.name, str(HUNSPELL / f"{name}.aff")], capture_output=True, check=True)
    Path(f.name).unlink()
    return {ln.split("/", 1)[0] for ln in done.stdout.decode("utf-8", errors="replace").splitlines() if ln}


def _bg() -> Callable[[str], bool]:
    forms = _forms("bg_BG")

    def noun(w: str) -> bool:
        if w not in forms or w in NOT_NOUNS["bg"]:
            return False
        stem = w[:-1]
        if any(w + end in forms for end in ("ш", "х", "м")):  # влезе → влезеш, хвърли → хвърлих: a verb
            return False
        if w.endswith(("а", "я")):
            if {stem + "ият", stem + "о", stem + "и"} <= forms:  # добра → добрият, добро, добри: an adjective
                return False
            definite = [w + "та"]
        elif w.endswith("и"):
            if {stem + "а", stem + "о"} <= forms:  # хубави → хубава, хубаво: an adjective (or participle)
                return False
            definite = [w + "те"]
        elif w.endswith("о"):
            if {stem + "а", stem + "и"} <= forms:  # лесно → лесна, лесни: an adjective (or participle)
                return False
            definite = [w + "то"]
        elif w.endswith(("е", "у", "ю")):
            definite = [w + "то"]
        else:
            definite = [w + "ът", w + "ят"] + ([stem + "ят"] if w.endswith("й") else [])
        return any(f in forms for f in definite)
    return noun


def _sv() -> Callable[[str], bool]:
    forms = _forms("sv_SE")
    flagged = _forms("sv_SE", lambda entry: "!" in entry.partition("/")[2])  # NOSUGGEST: vulgar and odd words

    def noun(w: str) -> bool:
        if w not in forms or w in flagged or w in NOT_NOUNS["sv"]:
            return False
        if w.endswith("a") and {w + "r", w + "de", w[:-1] + "er"} & forms:  # förena → förenar, smälta → smälter
            return False
        if w.endswith(("ar", "er")) and (w[:-1] in forms or w + "e" in forms):  # postar → posta; murar → murare
            return False
        if w.endswith(("de", "te")) and w[:-2] + "r" in forms:  # rullade → rullar: a past tense
            return False
        if w + "a" in forms and (w + "t" in forms or (w.endswith("st") and w + "e" in forms)):
            return False  # lös → lösa, löst; äldst → äldsta, äldste: an adjective
        definite = [w + "en", w + "et"] + ([w + "n"] if w[-1] in "aeiouyåäö" else [])
        return any(f in forms for f in definite)
    return noun


def _de() -> Callable[[str], bool]:
    """German nouns in the nominative singular: the lemmas of the `german-nouns` list (from the German
    Wiktionary) that are common nouns only — no names, surnames, abbreviations or letters."""
    import csv

    from german_nouns.config import CSV_FILE_PATH  # type: ignore[import-not-found]

    with open(CSV_FILE_PATH, encoding="utf-8") as f:
        rows = [row for row in csv.DictReader(f) if row["pos"] == "Substantiv" and row["lemma"][:1].isupper()]
    dic = (HUNSPELL / "de_DE.dic").read_text(encoding="utf-8").splitlines()[1:]
    verbs = {entry.partition("/")[0] for entry in dic if entry[:1].islower() and entry.partition("/")[0].endswith("en")}
    nouns = {normalise(row["lemma"], "de") for row in rows  # das Erwarten: a verb's infinitive as a noun
             if not (row["genus"] == "n" and row["lemma"].lower() in verbs)} - NOT_NOUNS["de"]
    return lambda w: normalise(w, "de") in nouns


def _en() -> Callable[[str], bool]:
    """A lower-case lemma of WordNet's nouns (its proper nouns are capitalised there: George, Grenada)."""
    def lemmas(pos: str) -> set[str]:
        lines = (WORDNET / f"data.{pos}").read_text(encoding="utf-8").splitlines()
        return {part.split("(")[0] for ln in lines if not ln.startswith(" ")
                for part in ln.split(" ")[4:4 + 2 * int(ln.split(" ")[3], 16):2]}

    nouns = lemmas("noun") - lemmas("adj") - lemmas("adv")
    return lambda w: w in nouns and not w.endswith("ing")


TESTS: dict[str, Callable[[], Callable[[str], bool]]] = {"ru": _ru, "bg": _bg, "sv": _sv, "de": _de, "en": _en}


def secret_words(lang: str, top: int | None = None) -> list[str]:
    from wordfreq import top_n_list

    noun = TESTS[lang]()
    bad = blocked(lang)
    kept: dict[str, None] = {}
    seen: set[str] = set()
    for raw in top_n_list(lang, top or TOP.get(lang, DEFAULT_TOP)):
        w = normalise(raw, lang)
        if len(w) not in LENGTHS or not is_word_of(w, lang) or w in seen:
            continue
        seen.add(w)  # the first (most frequent) spelling decides, as in bot/solver/dictionary.py
        if w not in bad and noun(raw.lower()):
            kept[w] = None
    return sorted(kept)


def write(lang: str, words: Iterable[str]) -> Path:
    path = OUT / f"{lang}.txt"
    path.write_text("".join(f"{w}\n" for w in words), encoding="utf-8")
    return path


def main(argv: list[str]) -> None:
    for lang in argv or sorted(TESTS):
        words = secret_words(lang)
        print(lang, len(words), write(lang, words))


if __name__ == "__main__":
    main(sys.argv[1:])
