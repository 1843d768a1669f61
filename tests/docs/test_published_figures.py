"""The published figures docs/solver.md compares with are named for what they are (issue 40): Logik's 5.502
(worst 7) comes from a one-step heuristic (the guess that is best one step ahead, chosen again at each
step), not from a search; only the tree of tools/perfect is a search."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "solver.md"


def test_logiks_5502_is_called_a_one_step_heuristic() -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    mentions = [m.start() for m in re.finditer(r"5\.502", text)]
    assert mentions
    for at in mentions:
        said = text[max(0, at - 160):at]
        assert "one-step" in said and "heuristic" in said, said
        assert "search" not in said, said
