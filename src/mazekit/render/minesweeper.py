"""Pictures of Minesweeper boards: a PNG of what the player sees.

Pillow is imported when a picture is drawn (install the ``render`` extra).
Closed cells are raised tiles, open cells flat with their number in the
classic colours, flags red triangles, mines black discs; the mine that was hit
has a red background.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..grid import Point
from ..minesweeper.board import Board
from ._colors import pil

__all__ = ["MINES_COLOURS", "NUMBER_COLOURS", "draw_minesweeper", "save_minesweeper_png"]

#: The palette (RGB).
MINES_COLOURS: dict[str, tuple[int, int, int]] = {
    "closed": (189, 189, 189),
    "light": (255, 255, 255),
    "shadow": (123, 123, 123),
    "open": (222, 222, 222),
    "line": (160, 160, 160),
    "mine": (20, 20, 20),
    "hit": (230, 40, 40),
    "flag": (220, 30, 30),
    "pole": (20, 20, 20),
    "wrong": (230, 40, 40),
}

#: The colour of each number 1-8 (the classic ones).
NUMBER_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (0, 0, 255),
    2: (0, 128, 0),
    3: (255, 0, 0),
    4: (0, 0, 128),
    5: (128, 0, 0),
    6: (0, 128, 128),
    7: (0, 0, 0),
    8: (128, 128, 128),
}


def _pil() -> Any:
    Image, ImageDraw = pil()
    from PIL import ImageFont

    return Image, ImageDraw, ImageFont


def _font(image_font: Any, size: int) -> Any:
    try:
        return image_font.load_default(size=size)
    except (TypeError, OSError, ImportError):  # pragma: no cover - Pillow without FreeType
        return image_font.load_default()


def draw_minesweeper(
    board: Board,
    opened: ArrayLike | None = None,
    *,
    flags: ArrayLike | None = None,
    hit: Point | None = None,
    reveal: bool = False,
    scale: int = 24,
) -> Any:
    """Draw ``board`` as the player sees it; returns a ``PIL.Image.Image`` (RGB).

    Parameters
    ----------
    board : Board
        The mine layout.
    opened : array_like of bool, shape (R, C), optional
        The open cells (default: none).
    flags : array_like of bool, shape (R, C), optional
        Flagged closed cells.
    hit : (r, c), optional
        The mine that was clicked (drawn open, on red); mines are then shown.
    reveal : bool
        Show every mine (a flag on a safe cell is crossed out).
    scale : int
        Pixels per cell (at least 8).

    Examples
    --------
    >>> b = Board.parse("*..\\n...\\n...")
    >>> img = draw_minesweeper(b, b.open((2, 2)), scale=10)
    >>> img.size, img.getpixel((25, 25))
    ((30, 30), (222, 222, 222))
    """
    if scale < 8:
        raise ValueError(f"scale must be at least 8 pixels, got {scale}")
    rows, cols = board.shape
    op = np.zeros((rows, cols), bool) if opened is None else np.asarray(opened, dtype=bool)
    fl = np.zeros((rows, cols), bool) if flags is None else np.asarray(flags, dtype=bool)
    for name, arr in (("opened", op), ("flags", fl)):
        if arr.shape != (rows, cols):
            raise ValueError(f"{name} must have the board's shape {(rows, cols)}, got {arr.shape}")
    mines = board.mines
    dens = board.density()
    show = reveal or hit is not None
    Image, ImageDraw, ImageFont = _pil()
    img = Image.new("RGB", (cols * scale, rows * scale), MINES_COLOURS["open"])
    draw = ImageDraw.Draw(img)
    font = _font(ImageFont, max(8, int(scale * 0.7)))
    bevel = max(1, scale // 10)
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * scale, r * scale
            x1, y1 = x0 + scale - 1, y0 + scale - 1
            is_open = op[r, c] or (hit is not None and (r, c) == tuple(hit))
            if is_open:
                bg = MINES_COLOURS["hit"] if mines[r, c] else MINES_COLOURS["open"]
                draw.rectangle((x0, y0, x1, y1), fill=bg, outline=MINES_COLOURS["line"])
                if mines[r, c]:
                    _mine(draw, x0, y0, scale)
                elif dens[r, c] > 0:
                    d = int(dens[r, c])
                    draw.text((x0 + scale / 2, y0 + scale / 2), str(d), fill=NUMBER_COLOURS[d], font=font, anchor="mm")
                continue
            draw.rectangle((x0, y0, x1, y1), fill=MINES_COLOURS["closed"])
            for k in range(bevel):
                draw.line((x0, y0 + k, x1 - k, y0 + k), fill=MINES_COLOURS["light"])
                draw.line((x0 + k, y0, x0 + k, y1 - k), fill=MINES_COLOURS["light"])
                draw.line((x0 + k, y1 - k, x1, y1 - k), fill=MINES_COLOURS["shadow"])
                draw.line((x1 - k, y0 + k, x1 - k, y1), fill=MINES_COLOURS["shadow"])
            if fl[r, c]:
                _flag(draw, x0, y0, scale)
                if show and not mines[r, c]:
                    m = scale // 5
                    draw.line((x0 + m, y0 + m, x1 - m, y1 - m), fill=MINES_COLOURS["wrong"], width=max(1, scale // 12))
                    draw.line((x0 + m, y1 - m, x1 - m, y0 + m), fill=MINES_COLOURS["wrong"], width=max(1, scale // 12))
            elif show and mines[r, c]:
                _mine(draw, x0, y0, scale)
    return img


def _mine(draw: Any, x0: int, y0: int, s: int) -> None:
    m = s * 0.27
    draw.ellipse((x0 + m, y0 + m, x0 + s - 1 - m, y0 + s - 1 - m), fill=MINES_COLOURS["mine"])
    cx, cy, arm = x0 + s / 2, y0 + s / 2, s * 0.36
    w = max(1, s // 12)
    draw.line((cx - arm, cy, cx + arm, cy), fill=MINES_COLOURS["mine"], width=w)
    draw.line((cx, cy - arm, cx, cy + arm), fill=MINES_COLOURS["mine"], width=w)
    g = s * 0.1
    draw.rectangle((cx - g - s * 0.06, cy - g - s * 0.06, cx - g + s * 0.02, cy - g + s * 0.02), fill=(255, 255, 255))


def _flag(draw: Any, x0: int, y0: int, s: int) -> None:
    px = x0 + s * 0.55
    draw.polygon([(px, y0 + s * 0.2), (px, y0 + s * 0.52), (x0 + s * 0.25, y0 + s * 0.36)], fill=MINES_COLOURS["flag"])
    draw.line((px, y0 + s * 0.2, px, y0 + s * 0.75), fill=MINES_COLOURS["pole"], width=max(1, s // 12))
    draw.rectangle((x0 + s * 0.3, y0 + s * 0.72, x0 + s * 0.75, y0 + s * 0.8), fill=MINES_COLOURS["pole"])


def save_minesweeper_png(path: str, board: Board, opened: ArrayLike | None = None, **options: Any) -> None:
    """Write :func:`draw_minesweeper`'s picture to ``path`` as PNG (options as there).

    >>> import os, tempfile
    >>> b = Board.parse("*..\\n...")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     save_minesweeper_png(os.path.join(d, "b.png"), b, b.open((1, 2)), scale=8)
    ...     os.path.getsize(os.path.join(d, "b.png")) > 0
    True
    """
    draw_minesweeper(board, opened, **options).save(path, format="PNG")
