/* The speed-of-light reference for benchmarks/bench_search.py.
 *
 * Plain, portable C (compiled with `gcc -O3`, no -march): the textbook loops
 * written carefully, so that the ratios of mazekit and its peers to these
 * functions mean something. Every function takes the grid as it comes
 * (R x C bytes, nonzero = passable, row-major) and produces the full answer,
 * so the padding and the copying out are part of the timed work, exactly as
 * they are for every other contestant.
 *
 *   cref_bfs_distances  queue BFS (4-connected) on a padded copy; distances
 *                       to every cell, -1 unreachable.
 *   cref_bfs_path       the same BFS with early exit at the goal, then the
 *                       route read back from the parent directions.
 *   cref_flood_stack    flood fill with an explicit stack (mark on push).
 *   cref_flood_scan     scan-line flood fill (whole runs at a time).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A copy of the grid with a one-cell wall border: no bounds checks in loops. */
static uint8_t *pad_grid(const uint8_t *g, int64_t R, int64_t C) {
    int64_t W = C + 2;
    uint8_t *p = (uint8_t *)calloc((size_t)((R + 2) * W), 1);
    if (!p) return NULL;
    for (int64_t r = 0; r < R; r++) memcpy(p + (r + 1) * W + 1, g + r * C, (size_t)C);
    return p;
}

/* dist: R*C int32 output. Returns the number of cells reached, -1 on failure. */
int64_t cref_bfs_distances(const uint8_t *g, int64_t R, int64_t C, int64_t sr, int64_t sc, int32_t *dist) {
    int64_t W = C + 2, N = (R + 2) * W;
    uint8_t *p = pad_grid(g, R, C);
    int32_t *d = (int32_t *)malloc((size_t)N * sizeof(int32_t));
    int32_t *q = (int32_t *)malloc((size_t)(R * C + 1) * sizeof(int32_t));
    if (!p || !d || !q) { free(p); free(d); free(q); return -1; }
    memset(d, 0xff, (size_t)N * sizeof(int32_t));
    int64_t head = 0, tail = 0;
    int32_t s = (int32_t)((sr + 1) * W + sc + 1);
    if (p[s]) { d[s] = 0; q[tail++] = s; }
    const int32_t w = (int32_t)W;
    while (head < tail) {
        int32_t u = q[head++];
        int32_t du = d[u] + 1, v;
        v = u - w; if (p[v] && d[v] < 0) { d[v] = du; q[tail++] = v; }
        v = u + w; if (p[v] && d[v] < 0) { d[v] = du; q[tail++] = v; }
        v = u - 1; if (p[v] && d[v] < 0) { d[v] = du; q[tail++] = v; }
        v = u + 1; if (p[v] && d[v] < 0) { d[v] = du; q[tail++] = v; }
    }
    for (int64_t r = 0; r < R; r++) memcpy(dist + r * C, d + (r + 1) * W + 1, (size_t)C * sizeof(int32_t));
    free(p); free(d); free(q);
    return tail;
}

/* path: room for R*C pairs (r, c), int64. Returns the number of cells on the
 * route (0 when there is none, -1 on failure). */
int64_t cref_bfs_path(const uint8_t *g, int64_t R, int64_t C, int64_t sr, int64_t sc,
                      int64_t gr, int64_t gc, int64_t *path) {
    int64_t W = C + 2, N = (R + 2) * W;
    uint8_t *p = pad_grid(g, R, C);
    int8_t *dir = (int8_t *)malloc((size_t)N);  /* -1 unseen, 0..3 step that reached it, 4 source */
    int32_t *q = (int32_t *)malloc((size_t)(R * C + 1) * sizeof(int32_t));
    if (!p || !dir || !q) { free(p); free(dir); free(q); return -1; }
    memset(dir, 0xff, (size_t)N);
    const int32_t w = (int32_t)W;
    const int32_t off[4] = {-w, w, -1, 1};
    int32_t s = (int32_t)((sr + 1) * W + sc + 1), t = (int32_t)((gr + 1) * W + gc + 1);
    int64_t head = 0, tail = 0, n = 0;
    int found = 0;
    if (p[s] && p[t]) {
        dir[s] = 4; q[tail++] = s;
        found = (s == t);
        while (head < tail && !found) {
            int32_t u = q[head++];
            for (int k = 0; k < 4; k++) {
                int32_t v = u + off[k];
                if (p[v] && dir[v] < 0) {
                    dir[v] = (int8_t)k; q[tail++] = v;
                    if (v == t) { found = 1; break; }
                }
            }
        }
    }
    if (found) {
        int32_t v = t;
        for (;;) {
            q[n++] = v;  /* reuse the queue for the reversed route */
            int k = dir[v];
            if (k == 4) break;
            v -= off[k];
        }
        for (int64_t i = 0; i < n; i++) {
            int32_t u = q[n - 1 - i];
            path[2 * i] = u / w - 1;
            path[2 * i + 1] = u % w - 1;
        }
    }
    free(p); free(dir); free(q);
    return n;
}

/* out: R*C bytes, set to 1 on the region of (sr, sc), 0 elsewhere.
 * Returns the region's size (-1 on failure). */
int64_t cref_flood_stack(const uint8_t *g, int64_t R, int64_t C, int64_t sr, int64_t sc, uint8_t *out) {
    int64_t W = C + 2, N = (R + 2) * W;
    uint8_t *p = pad_grid(g, R, C);  /* 1 passable, set to 2 once filled */
    int32_t *st = (int32_t *)malloc((size_t)(R * C + 1) * sizeof(int32_t));
    if (!p || !st) { free(p); free(st); return -1; }
    (void)N;
    const int32_t w = (int32_t)W;
    int32_t s = (int32_t)((sr + 1) * W + sc + 1);
    int64_t sp = 0, n = 0;
    if (p[s] == 1) { p[s] = 2; st[sp++] = s; }
    while (sp > 0) {
        int32_t u = st[--sp], v;
        n++;
        v = u - w; if (p[v] == 1) { p[v] = 2; st[sp++] = v; }
        v = u + w; if (p[v] == 1) { p[v] = 2; st[sp++] = v; }
        v = u - 1; if (p[v] == 1) { p[v] = 2; st[sp++] = v; }
        v = u + 1; if (p[v] == 1) { p[v] = 2; st[sp++] = v; }
    }
    for (int64_t r = 0; r < R; r++) {
        const uint8_t *src = p + (r + 1) * W + 1;
        uint8_t *dst = out + r * C;
        for (int64_t c = 0; c < C; c++) dst[c] = src[c] >> 1;
    }
    free(p); free(st);
    return n;
}

/* Scan-line fill: pop a cell, extend its run left and right, push one cell
 * of every unfilled run touching it in the rows above and below. */
int64_t cref_flood_scan(const uint8_t *g, int64_t R, int64_t C, int64_t sr, int64_t sc, uint8_t *out) {
    int64_t W = C + 2;
    uint8_t *p = pad_grid(g, R, C);
    int64_t cap = 1024, sp = 0, n = 0;
    int64_t *st = (int64_t *)malloc((size_t)cap * sizeof(int64_t));
    if (!p || !st) { free(p); free(st); return -1; }
    int64_t s = (sr + 1) * W + sc + 1;
    if (p[s] == 1) st[sp++] = s;
    while (sp > 0) {
        int64_t x = st[--sp];
        if (p[x] != 1) continue;
        int64_t lo = x, hi = x;
        while (p[lo - 1] == 1) lo--;
        while (p[hi + 1] == 1) hi++;
        memset(p + lo, 2, (size_t)(hi - lo + 1));
        n += hi - lo + 1;
        for (int d = -1; d <= 1; d += 2) {
            int64_t i = lo + d * W, end = hi + d * W;
            while (i <= end) {
                if (p[i] == 1) {
                    if (sp == cap) {
                        cap *= 2;
                        int64_t *bigger = (int64_t *)realloc(st, (size_t)cap * sizeof(int64_t));
                        if (!bigger) { free(p); free(st); return -1; }
                        st = bigger;
                    }
                    st[sp++] = i;
                    while (i <= end && p[i] == 1) i++;
                } else {
                    i++;
                }
            }
        }
    }
    for (int64_t r = 0; r < R; r++) {
        const uint8_t *src = p + (r + 1) * W + 1;
        uint8_t *dst = out + r * C;
        for (int64_t c = 0; c < C; c++) dst[c] = src[c] >> 1;
    }
    free(p); free(st);
    return n;
}
