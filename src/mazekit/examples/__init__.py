"""Small example inputs shipped with mazekit (articles' examples, mazes, levels).

>>> from mazekit import examples
>>> examples.read_text("robot.txt").splitlines()[0]
'4 7 1 3 2 6'
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

__all__ = ["names", "read_bytes", "read_text"]


def _root() -> Traversable:
    return resources.files(__name__)


def names() -> list[str]:
    """The example files, as paths relative to this package (``sokoban/x.xsb``)."""
    out: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir():
                if not child.name.startswith("__"):
                    walk(child, prefix + child.name + "/")
            elif not child.name.endswith((".py", ".pyc")):
                out.append(prefix + child.name)

    walk(_root(), "")
    return sorted(out)


def read_bytes(name: str) -> bytes:
    """The bytes of example ``name`` (see :func:`names`)."""
    node = _root()
    for part in name.split("/"):
        node = node / part
    if not node.is_file():
        raise FileNotFoundError(f"no example named {name!r}; examples: {', '.join(names())}")
    return bytes(node.read_bytes())


def read_text(name: str) -> str:
    """The text of example ``name``."""
    return read_bytes(name).decode("utf-8")
