"""JSON round-trips for game states: plain dataclasses in, plain dicts out.

Driven by type hints, so a state class needs no hand-written codec; supports dataclasses, enums,
lists, tuples, dicts, and unions such as `X | None`. Done by msgspec (compiled, several times
faster than the walker over dataclass fields this replaced, which bench/serial.py keeps as the
reference); the JSON is the walker's, key for key, so stored games load as before.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

_packer = msgspec.msgpack.Encoder()


def dump(obj: Any) -> Any:
    """A JSON-ready value for a dataclass instance (recursively): fields in declaration order,
    enums as their values, dict keys as strings; lists and tuples stay (JSON writes both as lists)."""
    return msgspec.to_builtins(obj, str_keys=True)


def load(tp: Any, data: Any) -> Any:
    """The value of type `tp` that `dump` turned into `data`. A field missing from `data` takes its
    default (states saved before the field existed); keys no field has are ignored; a value of the
    wrong type is converted where that is unambiguous ("3" for an int), else refused."""
    return msgspec.convert(data, tp, strict=False)


_unpackers: dict[type, msgspec.msgpack.Decoder[Any]] = {}  # one per state class, built on first use


def clone(obj: T) -> T:
    """A deep copy of a game state (every move copies the state before changing it, so the old one
    stays untouched): through msgpack bytes, several times faster than pickle or copy.deepcopy."""
    tp = type(obj)
    unpacker = _unpackers.get(tp)
    if unpacker is None:
        unpacker = _unpackers[tp] = msgspec.msgpack.Decoder(tp)
    copy: T = unpacker.decode(_packer.encode(obj))
    return copy
