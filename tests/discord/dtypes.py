"""discord.py's own payload TypedDicts (`discord/types/*.py`), read as source.

The modules only import each other under type checking (importing them at run time is
circular), so their classes are read with `ast`: for each TypedDict its required and
optional keys, following `NotRequired[...]`, `Required[...]`, `total=False` and bases in
the same module. The stand-in checks every component, embed and allowed_mentions payload
it receives against these, so it cannot drift into accepting a shape discord.py (and
Discord) would not produce.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import discord

TYPES_DIR = Path(discord.__file__).parent / "types"


@dataclass(frozen=True)
class Shape:
    """One TypedDict: the keys a payload must have and the keys it may have."""

    name: str
    required: frozenset[str]
    optional: frozenset[str]

    @property
    def allowed(self) -> frozenset[str]:
        return self.required | self.optional


def _qualifier(node: ast.expr) -> str | None:
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and node.value.id in ("NotRequired", "Required")):
        return node.value.id
    return None


@functools.cache
def shapes(module: str) -> dict[str, Shape]:
    """Every TypedDict of `discord/types/<module>.py` by class name."""
    tree = ast.parse((TYPES_DIR / f"{module}.py").read_text(encoding="utf-8"))
    out: dict[str, Shape] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
        if not any(b == "TypedDict" or b in out for b in bases):
            continue
        total = not any(k.arg == "total" and isinstance(k.value, ast.Constant) and k.value.value is False
                        for k in node.keywords)
        required: set[str] = set()
        optional: set[str] = set()
        for base in bases:
            if base in out:
                required |= out[base].required
                optional |= out[base].optional
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                key = item.target.id
                q = _qualifier(item.annotation)
                is_required = q == "Required" or (q is None and total)
                required.discard(key)
                optional.discard(key)
                (required if is_required else optional).add(key)
        out[node.name] = Shape(node.name, frozenset(required), frozenset(optional))
    return out


def shape(module: str, name: str) -> Shape:
    return shapes(module)[name]


# the component types a bot message or modal of ours may carry → their TypedDict
COMPONENT_SHAPES = {
    1: ("components", "ActionRow"),
    2: ("components", "ButtonComponent"),
    3: ("components", "SelectMenu"),  # discord.py sends the union shape (with `required`)
    4: ("components", "TextInput"),
    18: ("components", "LabelComponent"),
}


def shape_errors(payload: object, found: Shape) -> list[str]:
    """Missing required keys and keys the TypedDict does not know."""
    if not isinstance(payload, dict):
        return [f"{found.name}: not an object"]
    errors = [f"{found.name}: missing {k!r}" for k in sorted(found.required - payload.keys())]
    errors += [f"{found.name}: unknown key {k!r}" for k in sorted(payload.keys() - found.allowed)]
    return errors
