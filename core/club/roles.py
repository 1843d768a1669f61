"""Who may act for the club: decided by a role, never by games played.

A chat admin is the club's authority (the platform says who is one); a chat admin appoints the club's
scorers; the treasurer is the cash box's (kept there). Anyone can start a game and so keep its score:
that buys nothing here. Pure: the bot hands in what the platform and the club's tables say."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    ADMIN = "admin"  # a chat admin (the platform's word, never stored)
    SCORER = "scorer"  # appointed by a chat admin (/verein scorer NAME)
    TREASURER = "treasurer"  # the cash box's (/kasse treasurer NAME)


class Act(StrEnum):
    """What the club decides, and who may: `MAY[act]`."""

    SCORE = "score"  # keep the score of a club game (a game for the club's records, fines, ratings)
    PLAN = "plan"  # set, move and cancel the club's evening (/termin)
    SEASON = "season"  # move the day the seasons start (/saison MM-DD)
    MERGE = "merge"  # merge two names of one member (/kegelmerge)
    APPOINT = "appoint"  # appoint and remove scorers
    ROSTER = "roster"  # add and remove members, link a member to an account, confirm a member's own link
    SCREEN = "screen"  # make a new link to the club's TV page (/tv new: the old one stops at once)


MAY: dict[Act, frozenset[Role]] = {
    Act.SCORE: frozenset({Role.ADMIN, Role.SCORER}),
    Act.PLAN: frozenset({Role.ADMIN, Role.SCORER, Role.TREASURER}),
    Act.SEASON: frozenset({Role.ADMIN, Role.SCORER}),
    Act.MERGE: frozenset({Role.ADMIN, Role.SCORER}),
    Act.APPOINT: frozenset({Role.ADMIN}),
    Act.ROSTER: frozenset({Role.ADMIN, Role.TREASURER}),
    Act.SCREEN: frozenset({Role.ADMIN, Role.SCORER}),
}


def may(act: Act, roles: frozenset[Role] | set[Role]) -> bool:
    """Whether someone holding `roles` (Role.ADMIN among them for a chat admin) may do `act`."""
    return bool(MAY[act] & set(roles))


def who_may(act: Act) -> tuple[Role, ...]:
    """The roles that may do `act`, in a fixed order (for the refusal's text)."""
    return tuple(r for r in Role if r in MAY[act])
