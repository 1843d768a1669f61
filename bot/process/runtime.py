"""Process-wide runtime settings for a long-running bot."""

from __future__ import annotations

import gc


def tune_gc() -> None:
    """Fewer, cheaper garbage collections: everything loaded at start (modules, catalogs, the
    App) is frozen out of the collector's scans, and young objects are collected less often.
    With thousands of games in flight, a full collection otherwise stalls every reply at once."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
