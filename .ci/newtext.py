"""CI's "next version" (.ci/image): one text of a catalog changed — `MARK` appended to the value of
KEY in [TABLE] — to see that an upgraded image serves its own new texts. Fails with one line when the
key is gone (then pick another key shown by `tests/deploy/playall.py kept_after_upgrade`)."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path


def main(path: Path, table: str, key: str, mark: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    current = None
    for i, line in enumerate(lines):
        header = re.fullmatch(r"\[([\w.]+)\]\s*", line)
        if header:
            current = header.group(1)
        elif current == table and (m := re.fullmatch(rf'({re.escape(key)} = ".*)"(\s*)', line)):
            lines[i] = f'{m.group(1)}{mark}"{m.group(2)}'
            path.write_text("".join(lines), encoding="utf-8")
            value = tomllib.loads(path.read_text(encoding="utf-8"))[table][key]
            assert value.endswith(mark), value
            print(f"{path}: [{table}] {key} = {value!r}")
            return 0
    print(f"no one-line text {key} in [{table}] of {path}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), *sys.argv[2:5]))
