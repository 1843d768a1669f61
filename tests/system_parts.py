"""What a test does when a system part it needs (PostgreSQL's binaries, Debian's Chromium) is missing."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def skip_or_fail(reason: str) -> NoReturn:
    """Skip the test — but under `.ci/run`, which installs those parts itself (REQUIRE_SYSTEM_PARTS=1),
    fail it: a green CI run never hides a missing install step."""
    if os.environ.get("REQUIRE_SYSTEM_PARTS") == "1":
        pytest.fail(f"{reason} (required here: REQUIRE_SYSTEM_PARTS=1)", pytrace=False)
    pytest.skip(reason)
