"""The solver for code games: candidate filtering and guess choice for hints, coaching and the
computer opponent. Pure (the opening-book cache on disk is bot/solver_book.py); works on symbol
tuples, so it depends on no game module."""

from core.solver.coach import Analysis, Step, analyse
from core.solver.engine import LOGIK, MASTERMIND, Engine, Spec, digits, engine
from core.solver.perfect import Tree
from core.solver.strategy import EASY, LEVELS, PERFECT, STRONG, Choice, Solver, build_book, choose, play

__all__ = [
           "EASY",
           "LEVELS",
           "LOGIK",
           "MASTERMIND",
           "PERFECT",
           "STRONG",
           "Analysis",
           "Choice",
           "Engine",
           "Solver",
           "Spec",
           "Step",
           "Tree",
           "analyse",
           "build_book",
           "choose",
           "digits",
           "engine",
           "play",
]
