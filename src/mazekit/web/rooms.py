"""The playground's rooms: one page and one API module each (read by the app and its warm-up)."""

from __future__ import annotations

__all__ = ["API_MODULES", "ROOMS"]

#: Room name -> (title, one line), in the order of the navigation bar.
ROOMS: dict[str, tuple[str, str]] = {
    "search": ("Grid search", "Draw walls and weights, watch BFS, DFS, A*, greedy and Dijkstra explore."),
    "maze": ("Mazes", "Sixteen generators: watch the carving, then solve the maze."),
    "universal": ("Universal escape", "One command string that frees the robot from every cell at once."),
    "mines": ("Minesweeper", "Play, chord, ask for a hint; see the solver's mine probabilities."),
    "sokoban": ("Sokoban", "Play the bundled levels or your own; let the solver finish them."),
}

#: The API modules (relative to the ``mazekit.web`` package), one per room, each with a ``ROUTES`` list.
API_MODULES = tuple(f".api.{room}" for room in ROOMS)
