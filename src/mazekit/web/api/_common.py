"""What every API route shares: limits, reading JSON into checked values, errors, packed arrays.

A route reads its body with :func:`read_body`, takes each field with one of the
``field_*`` readers (each raises :class:`ApiError` naming the field and what is
wrong), calls the library, and answers with :func:`answer`. Bad input of any
kind becomes a 400 with ``{"error": "one line"}``: :func:`endpoint` turns
:class:`ApiError`, :class:`~mazekit.errors.InputError` and ``ValueError`` into
it. Large arrays travel as :func:`pack` records (base64 of little-endian bytes)
that the page turns into typed arrays without parsing a list per cell.
"""

from __future__ import annotations

import base64
import gzip
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...errors import InputError
from ...grid import Grid, Point, read_grid

__all__ = [
    "ApiError",
    "Limits",
    "answer",
    "check_size",
    "endpoint",
    "field_bool",
    "field_choice",
    "field_float",
    "field_grid",
    "field_int",
    "field_point",
    "field_text",
    "grid_text",
    "pack",
    "read_body",
]

log = logging.getLogger("mazekit.web")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask of the server.

    Attributes
    ----------
    max_body : int
        Largest request body, in bytes.
    max_cells : int
        Largest grid (rows x columns) a search, maze or universal request may carry.
    max_side : int
        Largest number of rows or columns.
    solver_seconds : float
        Time limit of one solver run (Sokoban, universal strings, Minesweeper boards).
    solver_memory_mb : int
        Memory cap of one Sokoban solver run.
    solver_runs : int
        Solver runs (any long job: see :mod:`mazekit.web.jobs`) at once; more wait in a queue
        of ``solver_queue``, let in round-robin by client, then are refused (503).
    solver_queue : int
        Runs that may wait for a free slot.
    client_runs : int
        Runs one client (one browser) may have going or waiting; more are refused (429).
    jobs_kept : int
        Finished jobs whose last progress and result are kept (``GET /api/jobs/{id}``).
    jobs_kept_seconds : float
        How long a finished job is kept.
    """

    max_body: int = 4 * 1024 * 1024
    max_cells: int = 1_000_000
    max_side: int = 2001
    solver_seconds: float = 30.0
    solver_memory_mb: int = 1024
    solver_runs: int = 2
    solver_queue: int = 32
    client_runs: int = 2
    jobs_kept: int = 200
    jobs_kept_seconds: float = 600.0


class ApiError(Exception):
    """Bad input to the API: answered as 400 with ``{"error": message}``."""

    status = 400


def read_body(data: bytes, limits: Limits) -> dict[str, Any]:
    """The JSON object in ``data``, or :class:`ApiError` saying why there is none."""
    if len(data) > limits.max_body:
        raise ApiError(f"request body is {len(data)} bytes; the limit is {limits.max_body}")
    if not data.strip():
        raise ApiError("empty request body: expected a JSON object")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(f"request body is not UTF-8 text (byte {exc.start})") from None
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ApiError(f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ApiError("malformed JSON: nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(f"expected a JSON object, got {_kind(body)}")
    return body


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    for t, name in names.items():
        if type(value) is t:
            return name
    return "a number" if isinstance(value, (int, float)) else type(value).__name__


_MISSING: Any = object()


def _get(body: Mapping[str, Any], key: str, default: Any) -> Any:
    if key in body and body[key] is not None:
        return body[key]
    if default is _MISSING:
        raise ApiError(f"missing field {key!r}")
    return default


def field_int(body: Mapping[str, Any], key: str, default: int = _MISSING, *, lo: int, hi: int) -> int:
    """An integer field in ``[lo, hi]``."""
    value = _get(body, key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ApiError(f"{key!r} must be an integer, got {_kind(value)}")
    if not lo <= value <= hi:
        raise ApiError(f"{key!r} must be between {lo} and {hi}, got {value}")
    return int(value)


def field_float(body: Mapping[str, Any], key: str, default: float = _MISSING, *, lo: float, hi: float) -> float:
    """A number field in ``[lo, hi]``."""
    value = _get(body, key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ApiError(f"{key!r} must be a number, got {_kind(value)}")
    if not lo <= value <= hi:  # also refuses NaN
        raise ApiError(f"{key!r} must be between {lo:g} and {hi:g}, got {value}")
    return float(value)


def field_bool(body: Mapping[str, Any], key: str, default: bool = _MISSING) -> bool:
    """A true/false field."""
    value = _get(body, key, default)
    if not isinstance(value, bool):
        raise ApiError(f"{key!r} must be true or false, got {_kind(value)}")
    return value


def field_choice(body: Mapping[str, Any], key: str, choices: Sequence[T], default: T = _MISSING) -> T:
    """A field whose value is one of ``choices``."""
    value = _get(body, key, default)
    if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
        shown = ", ".join(json.dumps(c) for c in choices)
        raise ApiError(f"{key!r} must be one of {shown}, got {json.dumps(value)[:40]}")
    return value  # type: ignore[no-any-return]


def field_text(body: Mapping[str, Any], key: str, default: str = _MISSING, *, max_len: int = 1_000_000) -> str:
    """A string field of at most ``max_len`` characters."""
    value = _get(body, key, default)
    if not isinstance(value, str):
        raise ApiError(f"{key!r} must be a string, got {_kind(value)}")
    if len(value) > max_len:
        raise ApiError(f"{key!r} is {len(value)} characters long; the limit is {max_len}")
    return value


def field_point(
    body: Mapping[str, Any], key: str, shape: tuple[int, int], default: Point | None = _MISSING
) -> Point | None:
    """A cell ``[r, c]`` (0-based) inside a grid of ``shape``; ``default`` when absent."""
    value = _get(body, key, default)
    if value is None:
        return None
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ApiError(f"{key!r} must be [r, c], two integers, got {json.dumps(value)[:40]}")
    r, c = value
    if not (0 <= r < shape[0] and 0 <= c < shape[1]):
        raise ApiError(f"{key!r} ({r}, {c}) is outside the {shape[0]}x{shape[1]} grid (cells count from 0)")
    return (r, c)


def grid_text(body: Mapping[str, Any], key: str, limits: Limits) -> str:
    """The grid field as text: a list of row strings or one string with newlines."""
    value = _get(body, key, _MISSING)
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(row, str) for row in value):
        if len(value) > limits.max_side + 1:
            raise ApiError(f"{key!r} has {len(value)} rows; the limit is {limits.max_side}")
        text = "\n".join(value)
    else:
        raise ApiError(f"{key!r} must be a list of row strings (or one string), got {_kind(value)}")
    if len(text) > 4 * limits.max_cells + 64:
        raise ApiError(f"{key!r} is {len(text)} characters long; the limit is {4 * limits.max_cells}")
    return text


def field_grid(body: Mapping[str, Any], key: str, limits: Limits) -> Grid:
    """The grid field read as ``mazekit path`` reads a file (0/1, ./#, X/O, marks, header)."""
    text = grid_text(body, key, limits)
    if not text.strip():
        raise ApiError(f"{key!r} is empty: expected rows of a grid")
    try:
        grid = read_grid(text)
    except InputError as exc:
        raise ApiError(f"{key!r}: {exc}") from None
    check_size(grid.shape, limits, key)
    return grid


def check_size(shape: tuple[int, int], limits: Limits, key: str = "grid") -> None:
    """Refuse a grid larger than the limits allow."""
    rows, cols = shape
    if rows > limits.max_side or cols > limits.max_side or rows * cols > limits.max_cells:
        raise ApiError(f"{key!r} is {rows}x{cols}; the limit is {limits.max_side} a side and {limits.max_cells} cells")


def pack(array: NDArray[Any]) -> dict[str, Any]:
    """A compact record of an array: ``{"dtype", "shape", "data"}``, data base64, little-endian.

    >>> pack(np.array([[1, -1]], dtype=np.int32))
    {'dtype': 'int32', 'shape': [1, 2], 'data': 'AQAAAP////8='}
    """
    arr = np.ascontiguousarray(array)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.uint8)
    arr = arr.astype(arr.dtype.newbyteorder("<"), copy=False)
    return {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "data": base64.b64encode(arr.tobytes()).decode("ascii"),
    }


#: Answers of this many bytes or more are sent gzipped by :func:`answer` when asked to and the browser takes it.
GZIP_BYTES = 32_768


def answer(payload: Mapping[str, Any], status: int = 200, *, gzip_for: Request | None = None) -> Response:
    """A JSON response; a NaN or infinite number in an object (not inside a list) is written as null.

    Lists are not walked (a long route would cost more to walk than to encode):
    arrays of floats travel packed. With ``gzip_for`` (the request), a large answer goes
    gzipped (fastest level) if that browser accepts it: for answers that are mostly words
    and small numbers, such as a step-by-step record (a 60x60 one: 1.3 MB, 0.2 MB gzipped,
    in 6 ms). Packed arrays gain too little for the time it costs, so the rest is sent as is.
    """
    response = JSONResponse(_finite(payload), status_code=status)
    accepts = gzip_for is not None and "gzip" in gzip_for.headers.get("accept-encoding", "")
    if accepts and len(response.body) >= GZIP_BYTES:
        response.body = gzip.compress(response.body, compresslevel=1)
        response.headers["content-encoding"] = "gzip"
        response.headers["content-length"] = str(len(response.body))
        response.headers["vary"] = "Accept-Encoding"
    return response


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not np.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


Handler = Callable[[Request], Awaitable[Response]]


def endpoint(fn: Callable[[Request, dict[str, Any]], Awaitable[Response]]) -> Handler:
    """Wrap a POST handler ``fn(request, body)``: read the JSON body, turn bad input into 400."""

    async def handler(request: Request) -> Response:
        limits: Limits = request.app.state.limits
        try:
            size = int(request.headers.get("content-length") or 0)
            if size > limits.max_body:
                raise ApiError(f"request body is {size} bytes; the limit is {limits.max_body}")
            body = read_body(await _read_limited(request, limits.max_body), limits)
            return await fn(request, body)
        except ApiError as exc:
            return answer({"error": str(exc)}, exc.status)
        except (InputError, ValueError) as exc:
            return answer({"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}, 400)
        except Exception as exc:  # a bug: say so in one line, keep the traceback in the log
            log.exception("internal error in %s", request.url.path)
            return answer({"error": f"internal error: {type(exc).__name__}: {exc}".splitlines()[0]}, 500)

    handler.__name__ = fn.__name__
    handler.__doc__ = fn.__doc__
    return handler


async def _read_limited(request: Request, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(f"request body is over {limit} bytes, the limit")
        chunks.append(chunk)
    return b"".join(chunks)
