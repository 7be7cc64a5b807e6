"""The playground's HTTP API: one module per room, each with its ``ROUTES``.

Every route takes JSON and answers JSON; bad input is a 400 with
``{"error": "one line"}``. The routes are documented in ``docs/playground-api.md``
and listed, with a line each, by ``GET /api``.
"""

from __future__ import annotations

from ._common import ApiError, Limits

__all__ = ["ApiError", "Limits"]
