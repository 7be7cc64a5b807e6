"""Pictures of Sokoban levels: a PNG of a position, a GIF of a solution.

Pillow is imported when a picture is drawn (install the ``render`` extra).
The static part (floor, walls, goals) is drawn once per level; each frame
pastes the boxes and the player over it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..sokoban.level import Level, State
from ._colors import pil

__all__ = ["COLOURS", "draw_sokoban", "save_sokoban_gif", "save_sokoban_png"]

#: The palette (RGB).
COLOURS: dict[str, tuple[int, int, int]] = {
    "outside": (32, 34, 40),
    "floor": (232, 224, 200),
    "wall": (110, 82, 62),
    "mortar": (76, 54, 40),
    "goal": (208, 56, 56),
    "decoy": (150, 150, 150),
    "box": (214, 152, 48),
    "box_edge": (128, 84, 20),
    "box_done": (64, 166, 84),
    "box_done_edge": (30, 100, 44),
    "player": (46, 108, 208),
    "player_edge": (20, 50, 110),
}


def _base(level: Level, cell: int) -> Any:
    Image, ImageDraw = pil()
    rows, cols = level.shape
    img = Image.new("RGB", (cols * cell, rows * cell), COLOURS["outside"])
    d = ImageDraw.Draw(img)
    line = max(1, cell // 16)
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * cell, r * cell
            x1, y1 = x0 + cell - 1, y0 + cell - 1
            if level.walls[r, c]:
                d.rectangle((x0, y0, x1, y1), fill=COLOURS["wall"])
                half = cell // 2
                d.line((x0, y0 + half, x1, y0 + half), fill=COLOURS["mortar"], width=line)
                d.line((x0, y1, x1, y1), fill=COLOURS["mortar"], width=line)
                d.line((x0 + half, y0, x0 + half, y0 + half), fill=COLOURS["mortar"], width=line)
                d.line((x0 + cell // 4, y0 + half, x0 + cell // 4, y1), fill=COLOURS["mortar"], width=line)
            elif level.floor[r, c] or level.goals[r, c] or level.decoys[r, c]:
                d.rectangle((x0, y0, x1, y1), fill=COLOURS["floor"])
            if level.goals[r, c] or level.decoys[r, c]:
                m = cell * 3 // 10
                colour = COLOURS["goal"] if level.goals[r, c] else COLOURS["decoy"]
                d.ellipse((x0 + m, y0 + m, x1 - m, y1 - m), outline=colour, width=max(2, cell // 10))
    return img


def _pieces(level: Level, state: State, img: Any, cell: int) -> None:
    _, ImageDraw = pil()
    d = ImageDraw.Draw(img)
    edge = max(1, cell // 12)
    goals = level.goals.ravel()
    for b in state.boxes:
        r, c = level.rc(b)
        x0, y0 = c * cell, r * cell
        m = max(1, cell // 10)
        done = bool(goals[b])
        fill = COLOURS["box_done" if done else "box"]
        line = COLOURS["box_done_edge" if done else "box_edge"]
        box = (x0 + m, y0 + m, x0 + cell - 1 - m, y0 + cell - 1 - m)
        d.rectangle(box, fill=fill, outline=line, width=edge)
        d.line((box[0], box[1], box[2], box[3]), fill=line, width=edge)
        d.line((box[0], box[3], box[2], box[1]), fill=line, width=edge)
    r, c = level.rc(state.player)
    x0, y0 = c * cell, r * cell
    m = max(1, cell // 6)
    d.ellipse(
        (x0 + m, y0 + m, x0 + cell - 1 - m, y0 + cell - 1 - m),
        fill=COLOURS["player"],
        outline=COLOURS["player_edge"],
        width=edge,
    )
    eye = max(1, cell // 14)
    for ex in (x0 + cell * 2 // 5, x0 + cell * 3 // 5):
        ey = y0 + cell * 2 // 5
        d.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill=(255, 255, 255))


def draw_sokoban(level: Level, state: State | None = None, *, cell: int = 32) -> Any:
    """A Pillow image of ``level`` at ``state`` (default its start), ``cell`` pixels a square.

    >>> from mazekit.sokoban import parse_level
    >>> draw_sokoban(parse_level("#####\\n#@$.#\\n#####"), cell=10).size
    (50, 30)
    """
    if cell < 4:
        raise ValueError(f"cell must be at least 4 pixels, got {cell}")
    img = _base(level, cell)
    _pieces(level, level.start if state is None else state, img, cell)
    return img


def save_sokoban_png(path: str, level: Level, state: State | None = None, *, cell: int = 32) -> None:
    """Write a PNG of ``level`` at ``state`` to ``path``."""
    draw_sokoban(level, state, cell=cell).save(path, format="PNG")


def save_sokoban_gif(
    path: str,
    level: Level,
    states: Sequence[State],
    *,
    cell: int = 32,
    frame_ms: int = 120,
    hold_ms: int = 1200,
) -> None:
    """Write an animated GIF, one frame per state; the first and last frames are held longer."""
    if not states:
        raise ValueError("states is empty: nothing to animate")
    if cell < 4:
        raise ValueError(f"cell must be at least 4 pixels, got {cell}")
    Image, _ = pil()
    base = _base(level, cell)
    # one fixed palette (every colour drawn) so that no frame's colours shift
    colours = [*COLOURS.values(), (255, 255, 255)]
    palette = Image.new("P", (1, 1))
    flat = [v for rgb in colours for v in rgb]
    palette.putpalette(flat + flat[:3] * (256 - len(colours)))
    frames: list[Any] = []
    for st in states:
        img = base.copy()
        _pieces(level, st, img, cell)
        frames.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_ms] * len(frames)
    durations[0] = max(frame_ms, hold_ms // 2)
    durations[-1] = hold_ms
    frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, disposal=1)
