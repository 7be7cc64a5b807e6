"""The compiled loops of the Sokoban solver.

Every kernel works on a *padded, flattened* level: the wrapper adds a wall
border, ravels the grid, and passes ``off`` (int64, the four steps up, down,
left, right as flat offsets), so a neighbour of cell ``u`` is ``u + off[d]`` and
no loop checks bounds.

Conventions:

* ``floor``: uint8, 1 for a cell the player can ever stand on (walls and the
  outside are 0); ``goalm``: uint8, 1 on goals; ``dead``: uint8, 1 on floor cells
  from which no box can ever reach a goal (dead squares);
* ``dist``: int32 ``(goals, cells)``, the number of pushes that bring a lone box
  from a cell to a goal, -1 when it never can;
* a search state is the sorted array of box cells plus the *normalised* player:
  the smallest cell index of the region the player can walk to;
* the node pool holds states by index (``pboxes``, ``pplayer``, ``pparent``,
  ``pg`` pushes so far, ``ppush`` = ``cell * 4 + direction`` of the push that made
  the node, ``phash`` its Zobrist key); ``table`` is an open-addressing hash
  table of ``node + 1`` (0 empty); the open list is a binary heap of
  ``(key, node)`` (:mod:`mazekit._heap`, an int64 array of two rows: keys, nodes).

The search kernel is resumable: it runs at most ``budget`` expansions, keeps
all its state in the arrays and in ``ctr``, and returns a status, so the Python
wrapper can check the clock and Ctrl-C between calls.

The modules, by concern: :mod:`.state` (counters, codes and the named groups of
arrays), :mod:`.expand` (the loop: take a node, load it, steer, generate, prune,
store, each a named step), :mod:`.roots`, :mod:`.store` (pool, table,
heaps), :mod:`.bound` (the matching), :mod:`.freeze` and :mod:`.corrals` (deadlock
tests; the frozen boxes, the matching and dead pairs are the engine's,
:mod:`mazekit.sokoban._deadlock_kernels` and :mod:`mazekit.sokoban._pair_kernels`),
:mod:`.features` (FESS's feature cells and novelty), :mod:`.advisors` (the packing
advisor), :mod:`.macros` (tunnel and goal macros), :mod:`.relevance`, :mod:`.packing` (the goal
areas' packing orders, computed once a level). numba compiles
a call into another module's kernel as one within a module: the split costs no speed.
"""

#: The kernels are imported from their modules (``from .kernels.expand import search_kernel``).
__all__: list[str] = []
