"""What a game reports to the club (`Played`, built by the game after each of its moves, e.g.
core/games/kegeln/records.py `played`): the club's own words for a game — names, throws, places — so that
the club's records, fines and views never read a game's state."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MemberRecord:
    """One member's line in the club statistics for a finished game."""

    name: str
    team: int | None
    number: int
    place: int
    win: bool
    throws: int
    pins: int
    nines: int
    pumpen: int


@dataclass(frozen=True)
class GameRecord:
    """What the club's records keep of a completed club game (`kegeln_games`)."""

    mode: str  # "high" or "low"
    digits: int
    teams: int
    winner: str
    decided: bool


@dataclass(frozen=True)
class ThrowRecord:
    """One throw of a completed game as the club's throw log keeps it (`name` as written)."""

    name: str
    pins: int
    position: int
    digit: int
    at: float


@dataclass(frozen=True)
class Played:
    """A game as the club sees it after a move: whether it is the club's (else casual: the club takes
    nothing), its members as written, each throw's member (index) and pins, the last place's entries (each
    its members' indexes) once it is completed, and on completion what the records keep."""

    club: bool
    names: tuple[str, ...]
    throws: tuple[tuple[int, int], ...] = ()  # (member index, pins), in order
    void: bool = False  # cancelled or abandoned: it calls for nothing
    done: bool = False  # completed, with a result
    losers: tuple[tuple[int, ...], ...] = ()  # done: the last place's entries (empty when all share first)
    record: GameRecord | None = None  # done and the club's: the game's line
    members: tuple[MemberRecord, ...] = ()  # done and the club's: its members' lines
    log: tuple[ThrowRecord, ...] = ()  # done and the club's: its throw log
    scorer: str = ""  # the scorer's account (who put the names on the roster)

    @property
    def counts(self) -> bool:
        """A completed club game: the club's records, roster and recap take it."""
        return self.club and self.done and bool(self.members)


def schnitt(pins: int, throws: int) -> float | str:
    """The Kegel-Schnitt: raw pins per throw (the renderer shows one decimal in the reader's language)."""
    return pins / throws if throws else "–"
