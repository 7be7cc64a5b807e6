"""The palette shared by every picture, and the heat ramp for visit orders."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import MissingDependency

__all__ = ["COLORS", "heat", "pil"]

#: RGB colours by role.
COLORS: dict[str, tuple[int, int, int]] = {
    "wall": (30, 34, 46),
    "free": (250, 250, 247),
    "route": (255, 128, 0),  # the article's orange
    "start": (40, 170, 80),
    "goal": (214, 48, 49),
    "grid": (200, 204, 212),
    "fresh": (255, 200, 60),  # just carved, in generation animations
}

# Anchors of the heat ramp (early visits dark blue, late ones light yellow).
_RAMP = np.array([(45, 20, 100), (40, 80, 160), (30, 150, 160), (90, 200, 110), (230, 230, 80)], dtype=np.float64)


def heat(t: NDArray[Any]) -> NDArray[np.uint8]:
    """Map values in [0, 1] to RGB along the heat ramp; returns shape ``t.shape + (3,)``.

    >>> heat(np.array([0.0, 1.0])).tolist()
    [[45, 20, 100], [230, 230, 80]]
    """
    t = np.clip(np.asarray(t, dtype=np.float64), 0.0, 1.0) * (len(_RAMP) - 1)
    i = np.minimum(t.astype(np.intp), len(_RAMP) - 2)
    f = (t - i)[..., None]
    rgb = _RAMP[i] * (1 - f) + _RAMP[i + 1] * f
    out: NDArray[np.uint8] = np.rint(rgb).astype(np.uint8)
    return out


def pil() -> Any:
    """The PIL package's Image and ImageDraw modules (Pillow is the ``render`` extra)."""
    try:
        from PIL import Image, ImageDraw
    except ImportError as exc:
        raise MissingDependency("drawing pictures needs Pillow: pip install 'mazekit[render]'") from exc
    return Image, ImageDraw
