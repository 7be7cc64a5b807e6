"""What the search wrappers share: grid preparation and the result type."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point, as_passable, border_mask, check_point
from . import _kernels as K

Connectivity = Literal[4, 8]

# (dr, dc) of the steps, in the order every kernel tries them: U D L R, then UL UR DL DR.
STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def check_connectivity(connectivity: object) -> int:
    if connectivity not in (4, 8):
        raise ValueError(f"connectivity must be 4 or 8, got {connectivity!r}")
    return 4 if connectivity == 4 else 8


class Padded:
    """A grid with a one-cell wall border, flattened, ready for the kernels."""

    __slots__ = ("shape", "width", "size", "grid", "offsets", "connectivity")

    def __init__(self, passable: NDArray[np.bool_], connectivity: int) -> None:
        rows, cols = passable.shape
        self.shape: tuple[int, int] = (int(rows), int(cols))
        self.width = cols + 2
        self.size = (rows + 2) * (cols + 2)
        buf = np.zeros((rows + 2, cols + 2), dtype=np.uint8)
        buf[1:-1, 1:-1] = passable.view(np.uint8)
        self.grid = buf.reshape(-1)
        self.connectivity = connectivity
        w = self.width
        self.offsets = np.array([dr * w + dc for dr, dc in STEPS[:connectivity]], dtype=np.int64)

    @property
    def cells(self) -> int:
        return self.shape[0] * self.shape[1]

    def index(self, point: Point) -> int:
        return int((point[0] + 1) * self.width + point[1] + 1)

    def points(self, idx: NDArray[np.integer[Any]]) -> NDArray[np.intp]:
        """Padded flat indices -> an (n, 2) array of (r, c)."""
        idx = np.asarray(idx, dtype=np.intp)
        out = np.empty((idx.shape[0], 2), dtype=np.intp)
        np.floor_divide(idx, self.width, out=out[:, 0])
        np.remainder(idx, self.width, out=out[:, 1])
        out -= 1
        return out

    def pad_mask(self, mask: NDArray[np.bool_]) -> NDArray[np.uint8]:
        buf = np.zeros((self.shape[0] + 2, self.shape[1] + 2), dtype=np.uint8)
        buf[1:-1, 1:-1] = mask.view(np.uint8)
        return buf.reshape(-1)

    def unpad(self, flat: NDArray[Any]) -> NDArray[Any]:
        """A padded flat array -> a view of shape (R, C)."""
        return flat.reshape(self.shape[0] + 2, self.width)[1:-1, 1:-1]

    def path_from(self, pdir: NDArray[np.int8], end: int) -> NDArray[np.intp]:
        """The (n, 2) path from a source to ``end``, following ``pdir``."""
        out = np.empty(self.cells, dtype=np.int64)
        n = K.walk_back_kernel.pick(self.cells)(pdir, self.offsets, end, out)
        return self.points(out[:n][::-1])

    def tree_depth(self, order: NDArray[np.int32], pdir: NDArray[np.int8]) -> NDArray[np.int32]:
        """Depth of every visited cell in the search tree given by ``order`` and ``pdir``."""
        visited = np.flatnonzero(order >= 0)
        cells = visited[np.argsort(order[visited], kind="stable")]
        depth = np.full(self.size, -1, dtype=np.int32)
        K.tree_depth_kernel.pick(self.cells)(cells, pdir, self.offsets, depth)
        return self.unpad(depth)

    def parents(self, pdir: NDArray[np.int8]) -> NDArray[np.int64]:
        """Per cell, the flat (unpadded) index of its parent; -1 for none."""
        rows, cols = self.shape
        pd = self.unpad(pdir).astype(np.intp)
        steps = np.array(STEPS[: self.connectivity] + ((0, 0),), dtype=np.int64)  # index -1 -> (0, 0)
        rr = np.arange(rows, dtype=np.int64)[:, None] - steps[pd, 0]
        cc = np.arange(cols, dtype=np.int64)[None, :] - steps[pd, 1]
        return np.where(pd >= 0, rr * cols + cc, -1)


def flat_grid(passable: ArrayLike) -> NDArray[np.uint8]:
    """The grid as a C-contiguous (R, C) uint8 array (a view when possible, no padding)."""
    return np.ascontiguousarray(as_passable(passable)).view(np.uint8)


def flat_points(idx: NDArray[np.integer[Any]], cols: int) -> NDArray[np.intp]:
    """Unpadded flat indices ``r * cols + c`` -> an (n, 2) array of (r, c)."""
    idx = np.asarray(idx, dtype=np.intp)
    out = np.empty((idx.shape[0], 2), dtype=np.intp)
    np.divmod(idx, cols, out=(out[:, 0], out[:, 1]))
    return out


def prepare(passable: ArrayLike, connectivity: object) -> Padded:
    return Padded(as_passable(passable), check_connectivity(connectivity))


def sources_of(start: object, shape: tuple[int, int], name: str = "start") -> list[Point]:
    """One point ``(r, c)`` or a sequence of points -> a list of points."""
    arr = np.asarray(start)
    if arr.ndim == 2 and arr.shape[1] == 2:
        if arr.shape[0] == 0:
            raise ValueError(f"{name} must name at least one cell")
        return [check_point(tuple(p), shape, name=name) for p in arr.tolist()]
    return [check_point(start, shape, name=name)]


def target_mask(targets: object, shape: tuple[int, int]) -> NDArray[np.bool_] | None:
    """``None``, ``"border"`` or a bool mask of the grid's shape."""
    if targets is None:
        return None
    if isinstance(targets, str):
        if targets == "border":
            return border_mask(shape)
        raise ValueError(f"targets must be 'border' or a bool mask, got {targets!r}")
    mask = np.asarray(targets)
    if mask.shape != shape:
        raise ValueError(f"targets must have the grid's shape {shape}, got {mask.shape}")
    return mask.astype(bool, copy=False)


_EMPTY_PATH = np.empty((0, 2), dtype=np.intp)
_NO_TARGETS = np.empty(0, dtype=np.uint8)


#: Draws a result for Jupyter (:meth:`SearchResult._repr_png_`). Search draws nothing itself:
#: :mod:`mazekit.render.notebook` sets this when it is imported, which ``import mazekit`` does in an
#: IPython session (the render side hooks in; search never imports render).
picture_hook: Callable[[SearchResult], bytes | None] | None = None


class SearchResult:
    """The answer of a search: the route, its length or cost, and its trace.

    Attributes
    ----------
    path : ndarray of int, shape (n, 2)
        The cells ``(r, c)`` of the route, start first; empty when there is none.
    found : bool
        Whether the goal (or a target) was reached.
    length : int
        Steps along the route (``len(path) - 1``); -1 when not found.
    cost : float
        The route's cost (equal to ``length`` on unit-cost grids); inf when not found.
    visited : int
        How many cells the search visited (closed).
    algorithm : str
        Which search produced it.
    order : ndarray of int32, shape (R, C)
        The step at which each cell was visited, -1 never (computed on first use).
    parent : ndarray of int64, shape (R, C)
        The flat index ``r * C + c`` of the cell each cell was reached from, -1
        for sources and unreached cells (computed on first use).
    distance : ndarray, shape (R, C)
        Steps (int32, -1 unreached) or cost (float64, inf unreached) from the
        source to each cell as far as the search went (computed on first use).
    passable : ndarray of bool, shape (R, C)
        The grid searched.

    In Jupyter a result shows as a picture (``_repr_png_``, with the ``render``
    extra): visited cells by visit order, the route, start and goal.
    """

    __slots__ = ("path", "found", "length", "cost", "visited", "algorithm", "_lazy", "_cache")

    def __init__(
        self,
        *,
        path: NDArray[np.intp],
        found: bool,
        cost: float,
        visited: int,
        algorithm: str,
        lazy: dict[str, Callable[[], NDArray[Any]]],
    ) -> None:
        self.path = path
        self.found = found
        self.length = int(path.shape[0] - 1) if found else -1
        self.cost = float(cost) if found else math.inf
        self.visited = int(visited)
        self.algorithm = algorithm
        self._lazy = lazy
        self._cache: dict[str, NDArray[Any]] = {}

    def _get(self, name: str) -> NDArray[Any]:
        if name not in self._cache:
            self._cache[name] = self._lazy[name]()
        return self._cache[name]

    @property
    def order(self) -> NDArray[np.int32]:
        return self._get("order")

    @property
    def parent(self) -> NDArray[np.int64]:
        return self._get("parent")

    @property
    def distance(self) -> NDArray[Any]:
        return self._get("distance")

    @property
    def passable(self) -> NDArray[np.bool_]:
        """The grid that was searched (True = may enter)."""
        return self._get("passable")

    def _repr_png_(self) -> bytes | None:
        """A picture for Jupyter: the visited cells by visit order, the route, start and goal.

        None (Jupyter then shows the text) when Pillow is not installed.
        """
        hook = picture_hook
        return None if hook is None else hook(self)

    @property
    def goal(self) -> Point | None:
        """The cell reached (the path's last cell), or None."""
        if not self.found:
            return None
        r, c = self.path[-1]
        return (int(r), int(c))

    def __repr__(self) -> str:
        if not self.found:
            return f"SearchResult(algorithm={self.algorithm!r}, found=False, visited={self.visited})"
        return (
            f"SearchResult(algorithm={self.algorithm!r}, found=True, length={self.length}, "
            f"cost={self.cost:g}, visited={self.visited})"
        )


def make_result(
    pg: Padded,
    *,
    end: int,
    pdir: NDArray[np.int8],
    cost: float | None,
    visited: int,
    algorithm: str,
    order: Callable[[], NDArray[Any]],
    distance: Callable[[], NDArray[Any]],
) -> SearchResult:
    """Build a SearchResult; the path is reconstructed now, the trace arrays on demand."""
    if end >= 0:
        path = pg.path_from(pdir, end)
        found = True
    else:
        path = _EMPTY_PATH
        found = False
    return SearchResult(
        path=path,
        found=found,
        cost=float(path.shape[0] - 1) if cost is None else cost,
        visited=visited,
        algorithm=algorithm,
        lazy={
            "order": order,
            "parent": lambda: pg.parents(pdir),
            "distance": distance,
            "passable": lambda: pg.unpad(pg.grid).astype(bool),
        },
    )
