"""Console adapter: local play without any token."""

from adapters.console.adapter import ConsoleAdapter, parse_command

__all__ = ["ConsoleAdapter", "parse_command"]
