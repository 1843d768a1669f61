"""The Kegel club as a club (docs/club.md): its roles (appointed scorers; the treasurer is the cash box's),
its roster of members (names, each optionally linked to a chat account) and which games are the club's.
Its own tables (`storage.SCHEMA`, owner `club`); the pure rules in core/club/."""
