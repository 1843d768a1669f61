"""The Kegel club as a club (docs/club.md): its roles and roster, the games it counts (as the game reports them:
`games.py`, `host.py`), its records, statistics, evenings, seasons, merges, exports, recaps, cash box and its
part of the TV page — one wing with its own tables (`schema.py`); the pure rules in core/club/."""
