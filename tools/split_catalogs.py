"""Moves each catalog entry to the file of its owner: a game's texts to bot/games/<game>/texts/<lang>.toml, the
club wing's to bot/club/texts/<lang>.toml, the rest stays in (or comes back to) bot/data/locales/<lang>.toml.

Re-runnable: every entry of every catalog file is looked at, and only the misplaced ones move (with the comment
lines right above them, in their order, under the same [table] header, which is made where it is missing).
Run it after merging branches that added keys where they were: `python -m tools.split_catalogs` (`--check`:
only say what would move, exit 1 if anything would; `--after-merge`: first resolve a merge's conflicts in the
catalog files by keeping both sides' lines, so that the tables this split emptied come back with the new keys).
The owners come from the registry (bot/games/registry.py):
a game's keys start with its kind (`duel.…`, `error.duel.…`, `game.duel`, `option.words.duel`), a command's
keys (`cmd.X`, `help.cmd.X`, `opt.X.…`, and `opt.O` of options only one owner's commands have) go where its
handler's module is; the club's tables are named below. The merged catalog of every language is the same
before and after (checked before anything is written).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = ROOT / "bot" / "data" / "locales"
CLUB = "club"
CLUB_DIR = ROOT / "bot" / "club" / "texts"
SHARED = ""
# the club wing's tables (the cash box, club evenings, the roster), by the first parts of their keys
CLUB_PREFIXES = ("cash.", "termin.", "club.", "error.kegeln.cash.", "error.cash.", "error.termin.", "error.club.")
# modules of the club wing still in bot/games/kegeln/ while it moves to bot/club/ (their commands are the club's)
CLUB_MODULES = ("bot.club", "bot.games.kegeln.cash_", "bot.games.kegeln.termin")

HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
KEY = re.compile(r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-]+))*)\s*=""")


def _parts(dotted: str) -> list[str]:
    return [p.strip().strip("\"'") for p in re.findall(r"""\s*(?:"[^"]*"|'[^']*'|[^.]+)""", dotted) if p.strip()]


@dataclass
class Entry:
    key: str  # the full dotted key (table + key), as the catalog loader flattens it
    lines: list[str]  # its comment lines right above it, the key line and any continuation lines


@dataclass
class Section:
    table: str  # "" for the lines before the first header
    lead: list[str] = field(default_factory=list)  # comment lines right above the header
    header: list[str] = field(default_factory=list)
    body: list[Entry | str] = field(default_factory=list)  # entries, and loose lines (blank, comments)

    def entries(self) -> list[Entry]:
        return [e for e in self.body if isinstance(e, Entry)]


def _open_strings(line: str) -> str | None:
    """The multi-line string delimiter a key line leaves open, if any."""
    for quote in ('"""', "'''"):
        if line.count(quote) % 2 == 1:
            return quote
    return None


def parse(text: str) -> list[Section]:
    lines = text.splitlines()
    sections = [Section(SHARED)]
    pending: list[str] = []  # comment lines waiting for what follows them
    i = 0
    while i < len(lines):
        line = lines[i]
        current = sections[-1]
        header = HEADER.match(line)
        if header:
            sections.append(Section(".".join(_parts(header.group(1))), lead=pending, header=[line]))
            pending = []
        elif line.lstrip().startswith("#"):
            pending.append(line)
        elif not line.strip():
            current.body.extend(pending)
            current.body.append(line)
            pending = []
        else:
            key = KEY.match(line)
            if not key:
                raise ValueError(f"cannot read line {i + 1}: {line!r}")
            block = [*pending, line]
            quote = _open_strings(line)
            while quote:
                i += 1
                block.append(lines[i])
                if quote in lines[i]:
                    quote = None
            full = ".".join([*([current.table] if current.table else []), *_parts(key.group(1))])
            current.body.append(Entry(full, block))
            pending = []
        i += 1
    sections[-1].body.extend(pending)
    return sections


def render(sections: list[Section]) -> str:
    out: list[str] = []
    for section in sections:
        out += section.lead + section.header
        for item in section.body:
            out += item.lines if isinstance(item, Entry) else [item]
    return "\n".join(out).rstrip("\n") + "\n"


class Owners:
    """Who owns a key: a game's kind, CLUB, or SHARED; from the registered plugins and commands."""

    def __init__(self, kinds: set[str], command_owner: dict[str, str], option_owner: dict[str, str]) -> None:
        self.kinds, self.command_owner, self.option_owner = kinds, command_owner, option_owner

    @classmethod
    def registered(cls) -> tuple[Owners, dict[str, Path]]:
        sys.path.insert(0, str(ROOT))
        from bot.games.registry import PLUGINS, commands
        from bot.texts.i18n import texts_of

        folders = {kind: Path(str(texts_of(p))) for kind, p in PLUGINS.items()}
        modules = {c.name: getattr(c.handler, "__module__", "") or "" for c in commands()}

        def owner_of_module(module: str) -> str:
            if module.startswith(CLUB_MODULES):
                return CLUB
            parts = module.split(".")
            return parts[2] if parts[:2] == ["bot", "games"] and len(parts) > 2 and parts[2] in PLUGINS else SHARED

        command_owner = {name: owner_of_module(m) for name, m in modules.items()}
        by_option: dict[str, set[str]] = {}
        for c in commands():
            for o in c.options:
                by_option.setdefault(o, set()).add(command_owner[c.name])
        option_owner = {o: owners.pop() for o, owners in by_option.items() if len(owners) == 1}
        return cls(set(PLUGINS), command_owner, option_owner), {**folders, CLUB: CLUB_DIR, SHARED: SHARED_DIR}

    def of(self, key: str) -> str:
        if key.startswith(CLUB_PREFIXES):
            return CLUB
        parts = key.split(".")
        if parts[0] in self.kinds:
            return parts[0]
        if len(parts) > 1 and parts[0] in ("error", "game") and parts[1] in self.kinds:
            return parts[1]
        if parts[:2] == ["option", "words"] and len(parts) == 3 and parts[2] in self.kinds:
            return parts[2]
        if parts[0] == "cmd" and len(parts) == 2:
            return self.command_owner.get(parts[1], SHARED)
        if parts[:2] == ["help", "cmd"] and len(parts) == 3:
            return self.command_owner.get(parts[2], SHARED)
        if parts[0] == "opt" and len(parts) == 3 and parts[1] in self.command_owner:
            return self.command_owner[parts[1]]
        if parts[0] == "opt" and len(parts) == 2:
            return self.option_owner.get(parts[1], SHARED)
        return SHARED


def _preamble(owner: str, lang: str) -> list[Entry | str]:
    what = "the club wing's" if owner == CLUB else f"the game {owner}'s"
    return [f"# {lang}: {what} texts, merged with the shared ones (bot/data/locales/{lang}.toml) by",
            "# bot/texts/i18n.py; tools/split_catalogs.py moves each entry to its owner's file.", ""]


def _section(sections: list[Section], table: str, lead: list[str], header: list[str]) -> Section:
    for s in sections:
        if s.table == table:
            return s
    if sections[-1].body and (not isinstance(sections[-1].body[-1], str) or sections[-1].body[-1].strip()):
        sections[-1].body.append("")
    made = Section(table, lead=list(lead), header=list(header))
    sections.append(made)
    return made


def _place(section: Section, entry: Entry) -> None:
    """An entry of another file into its owner's section: in place of the owner's entry of that key (a branch
    changed a moved text where it used to be: the changed one wins), else after the section's last entry."""
    for i, item in enumerate(section.body):
        if isinstance(item, Entry) and item.key == entry.key:
            section.body[i] = entry
            return
    last = max((i for i, item in enumerate(section.body) if isinstance(item, Entry)), default=-1)
    section.body.insert(last + 1, entry)


def _values(files: dict[Path, list[Section]]) -> dict[str, list[tuple[Path, Any]]]:
    """Every key of these files with its values, by file (a key in two files, after a merge, has two)."""
    out: dict[str, list[tuple[Path, Any]]] = {}
    for path, sections in files.items():
        for key, value in _flatten(tomllib.loads(render(sections))).items():
            out.setdefault(key, []).append((path, value))
    return out


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    from bot.texts.i18n import _flatten as flatten

    return flatten(table, prefix)


def split_language(lang: str, owners: Owners,
                   folders: dict[str, Path]) -> tuple[dict[Path, list[str]], dict[Path, str]]:
    """One language's moves (file → the keys it receives) and its files' new texts (none if nothing moves)."""
    paths = {owner: folder / f"{lang}.toml" for owner, folder in folders.items()}
    files = {p: parse(p.read_text(encoding="utf-8")) if p.exists() else [Section(SHARED, body=_preamble(o, lang))]
             for o, p in paths.items()}
    # what the catalog must read afterwards: each key's value, the misplaced copy's where there are two
    expected = {key: next((v for p, v in found if p != paths[owners.of(key)]), found[0][1])
                for key, found in _values({p: s for p, s in files.items() if p.exists()}).items()}
    moved: dict[Path, list[str]] = {}
    for path, sections in files.items():
        for section in sections:
            for entry in section.entries():
                target = paths[owners.of(entry.key)]
                if target == path:
                    continue
                section.body.remove(entry)
                _place(_section(files[target], section.table, section.lead, section.header), entry)
                moved.setdefault(target, []).append(entry.key)
        for section in [s for s in sections[1:] if not any(str(x).strip() for x in s.body)]:
            sections.remove(section)  # a table left empty goes, with the comment above its header
    if not moved:
        return moved, {}
    kept = {p: s for p, s in files.items() if len(s) > 1 or p.exists()}
    after = _values(kept)
    twice = sorted(k for k, found in after.items() if len(found) > 1)
    if twice or {k: found[0][1] for k, found in after.items()} != expected:
        raise RuntimeError(f"{lang}: the merged catalog would change ({twice or 'values'}); nothing written")
    return moved, {p: render(s) for p, s in kept.items()}


def resolve_merge(root: Path = ROOT) -> list[Path]:
    """After `git merge` of branches that edited the catalogs where they were: each conflicted catalog file
    taken with both sides' lines (`git merge-file --union`: a table this branch moved away comes back with
    the keys another branch added to it); the split that follows moves them again, the added or changed
    copy winning over the moved one."""
    listed = subprocess.run(["git", "ls-files", "-u", "--", "*.toml"], cwd=root, capture_output=True, text=True,
                            check=True).stdout.split("\n")
    done = []
    for name in sorted({line.split("\t", 1)[1] for line in listed if "\t" in line}):
        with tempfile.TemporaryDirectory() as tmp:
            stages = {}
            for stage in (1, 2, 3):
                shown = subprocess.run(["git", "show", f":{stage}:{name}"], cwd=root, capture_output=True)
                stages[stage] = Path(tmp) / str(stage)
                stages[stage].write_bytes(shown.stdout if shown.returncode == 0 else b"")
            merged = subprocess.run(["git", "merge-file", "-p", "--union", str(stages[2]), str(stages[1]),
                                     str(stages[3])], capture_output=True, check=False)
            (root / name).write_bytes(merged.stdout)
        subprocess.run(["git", "add", name], cwd=root, check=True)
        done.append(root / name)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say what would move; exit 1 if anything would")
    parser.add_argument("--after-merge", action="store_true",
                        help="first take each conflicted catalog file with both sides' lines (git merge-file --union)")
    args = parser.parse_args(argv)
    if args.after_merge:
        for path in resolve_merge():
            print(f"merged with both sides' lines: {path.relative_to(ROOT)}")
    owners, folders = Owners.registered()
    langs = sorted(p.stem for p in SHARED_DIR.glob("*.toml"))
    total, changed = 0, {}
    for lang in langs:  # every language is read and checked before any file is written
        moved, texts = split_language(lang, owners, folders)
        changed.update(texts)
        for path, keys in moved.items():
            total += len(keys)
            print(f"{lang}: {len(keys):4} → {path.relative_to(ROOT)}")
    if args.check or not total:
        print(f"{total} entries {'would move' if args.check else 'moved'}")
        return 1 if args.check and total else 0
    for path, text in changed.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    print(f"{total} entries moved")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
