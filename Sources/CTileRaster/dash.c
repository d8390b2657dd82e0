// Dashes of thin lines (a dense street tile's footpaths: thousands of them) deposited into a
// `HairlineRasterizer`'s cells, in C: `HairlineRasterizer.addDash` and the painter's walk along a
// dashed line, operation for operation as the Swift code they replace (no fused multiply-adds;
// min and max as Swift's), so the pixels are the same. In Swift the dash cost about 490
// instructions, most of them checked conversions of doubles to integers and calls per dash.

#include "CTileRaster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma clang fp contract(off)

/// Swift's `min` and `max` on doubles (which operand wins on ties and NaN).
static inline double dmin(double x, double y) { return y < x ? y : x; }
static inline double dmax(double x, double y) { return y >= x ? y : x; }
static inline int imin(int x, int y) { return y < x ? y : x; }
static inline int imax(int x, int y) { return y >= x ? y : x; }

/// ⌊v⌋ for the cells of a raster `n` wide: v is first kept within −8…n + 8 (further out it makes
/// no difference to which cells are drawn), where truncation after adding 8 is a floor.
static inline int cell_floor(double v, int n) { return (int)(dmin(dmax(v, -8), (double)(n + 8)) + 8) - 8; }

/// Where a dash deposits: a hairline raster (its size is what is clipped to; its rows written are
/// tracked), whose row y is stored at row `y & row_mask` of its cells and bits — all of them for a
/// `HairlineRasterizer` (mask −1), a ring of a few rows for the dashes filed by band.
typedef struct {
    ctr_hairline h;
    int row_mask;
} grid;

/// Adds coverage at a pixel inside the raster and marks its 8-pixel block.
static inline __attribute__((always_inline)) void deposit(grid *g, int x, int y, float c) {
    const ptrdiff_t row = y & g->row_mask;
    g->h.cells[row * g->h.width + x] += c;
    g->h.touched[row * g->h.words_per_row + (x >> 9)] |= (uint64_t)1 << ((x >> 3) & 63);
}

/// The steps of a dash along its major axis (`x_major`: x, else y), `first…last`, from `from`;
/// a constant `x_major` at each call, so each direction gets its own loop without a branch per
/// deposit.
static inline __attribute__((always_inline)) void steps(grid *g, const int x_major, int first, int last,
                                                       double from, double a0, double a1, double b0, double slope,
                                                       double half, int across) {
    for (int a = first; a <= last; a++) {
        const double to = dmin(a1, (double)(a + 1));
        const double along = to - from;
        const double centre = b0 + (0.5 * (from + to) - a0) * slope;
        from = to;
        if (along <= 0) continue;  // a piece ending on a pixel border
        const double lo = centre - half, hi = centre + half;
        const int c_lo = cell_floor(lo, across), c_hi = cell_floor(hi, across);
        // The cross-section lo…hi over cells c_lo…c_hi: the first and last partly, any between
        // wholly (the cells outside the raster left out).
#define DEPOSIT(cell, c) do { if (x_major) deposit(g, a, (cell), (c)); else deposit(g, (cell), a, (c)); } while (0)
        if (c_lo == c_hi) {
            if (c_lo >= 0 && c_lo < across) DEPOSIT(c_lo, (float)((hi - lo) * along));
            continue;
        }
        if (c_lo >= 0 && c_lo < across) DEPOSIT(c_lo, (float)(((double)(c_lo + 1) - lo) * along));
        if (c_hi >= 0 && c_hi < across) DEPOSIT(c_hi, (float)((hi - (double)c_hi) * along));
        const float whole = (float)along;
        const int end = imin(c_hi, across);
        for (int cell = imax(0, c_lo + 1); cell < end; cell++) DEPOSIT(cell, whole);
#undef DEPOSIT
    }
}

/// `ctr_hairline_dash` on a grid.
static inline __attribute__((always_inline)) void dash(grid *g, double x0, double y0, double x1, double y1,
                                                      double line_width) {
    ctr_hairline *h = &g->h;
    if (!isfinite(x0 + y0 + x1 + y1)) return;
    // The walk's set-up (`HairlineRasterizer.walk`): along the major axis from a0 to a1, across
    // it from b0 by `slope` per pixel, the cross-section `span`.
    const double dx = x1 - x0, dy = y1 - y0;
    const double adx = fabs(dx), ady = fabs(dy);
    if (!(adx > 0 || ady > 0)) return;
    const double pad = line_width + 2;
    if (dmax(x0, x1) < -pad || dmin(x0, x1) > (double)h->width + pad || dmax(y0, y1) < -pad ||
        dmin(y0, y1) > (double)h->height + pad)
        return;
    const int x_major = adx >= ady;
    double a0, b0, a1;
    if (x_major) {
        if (dx > 0) { a0 = x0; b0 = y0; a1 = x1; } else { a0 = x1; b0 = y1; a1 = x0; }
    } else {
        if (dy > 0) { a0 = y0; b0 = x0; a1 = y1; } else { a0 = y1; b0 = x1; a1 = y0; }
    }
    const double major = x_major ? adx : ady, minor = x_major ? ady : adx;
    const double slope = x_major ? dy / dx : dx / dy;
    const double span = line_width * sqrt(major * major + minor * minor) / major;
    const int limit = x_major ? h->width : h->height, across = x_major ? h->height : h->width;

    const double half = span / 2;
    // The pixels along the major axis that the piece reaches into.
    const int first = imax(0, cell_floor(a0, limit)), last = imin(limit - 1, cell_floor(a1, limit));
    if (first > last) return;
    const double bA = b0 + (dmax(a0, (double)first) - a0) * slope, bB = b0 + (dmin(a1, (double)(last + 1)) - a0) * slope;
    const int reach_lo = imax(0, cell_floor(dmin(bA, bB) - half, across));
    const int reach_hi = imin(across - 1, cell_floor(dmax(bA, bB) + half, across));
    if (reach_lo > reach_hi) return;
    const int rows_lo = x_major ? reach_lo : first, rows_hi = x_major ? reach_hi : last;
    if (rows_lo < h->dirty_top) h->dirty_top = rows_lo;
    if (rows_hi > h->dirty_bottom) h->dirty_bottom = rows_hi;
    const double from = dmax(a0, (double)first);
    if (x_major) {
        steps(g, 1, first, last, from, a0, a1, b0, slope, half, across);
    } else {
        steps(g, 0, first, last, from, a0, a1, b0, slope, half, across);
    }
}

/// The dash walk along a polyline (`count` points; `dash_count` ≥ 2 positive lengths, on and off
/// in turn, the pattern running on across vertices), calling `emit` with each "on" stretch. Shared
/// by the immediate deposits and the banded ones, so both cut the same pieces.
static inline __attribute__((always_inline)) void walk_dashes(const double *xs, const double *ys, int count,
                                                             const double *dashes, int dash_count,
                                                             void (*emit)(void *, double, double, double, double),
                                                             void *context) {
    if (count < 2) return;
    int index = 0;
    double left = dashes[0];
    for (int i = 1; i < count; i++) {
        const double ax = xs[i - 1], ay = ys[i - 1];
        const double dx = xs[i] - ax, dy = ys[i] - ay;
        const double len = sqrt(dx * dx + dy * dy);
        if (!(len > 0)) continue;
        const double ux = (xs[i] - ax) / len, uy = (ys[i] - ay) / len;
        double t = 0;
        while (t < len) {
            const double step = dmin(left, len - t);
            if (index % 2 == 0) emit(context, ax + ux * t, ay + uy * t, ax + ux * (t + step), ay + uy * (t + step));
            t += step;
            left -= step;
            if (left <= 1e-9) {
                index += 1;
                if (index == dash_count) index = 0;
                left = dashes[index];
            }
        }
    }
}

typedef struct {
    ctr_hairline *h;
    double line_width;
} immediate_target;

static void emit_immediate(void *context, double x0, double y0, double x1, double y1) {
    const immediate_target *t = context;
    ctr_hairline_dash(t->h, x0, y0, x1, y1, t->line_width);
}

void ctr_hairline_dash(ctr_hairline *h, double x0, double y0, double x1, double y1, double line_width) {
    grid g = {*h, -1};
    dash(&g, x0, y0, x1, y1, line_width);
    h->dirty_top = g.h.dirty_top;
    h->dirty_bottom = g.h.dirty_bottom;
}

void ctr_hairline_dashed_line(ctr_hairline *h, const double *xs, const double *ys, int count, const double *dashes,
                              int dash_count, double line_width) {
    immediate_target t = {h, line_width};
    walk_dashes(xs, ys, count, dashes, dash_count, emit_immediate, &t);
}

// MARK: - Dashes filed by band

/// Grows `*buffer` (of `*room` elements of `size` bytes) to hold at least `needed`; 0 when out of memory.
static int grow(void **buffer, int *room, int needed, size_t size) {
    if (needed <= *room) return 1;
    int r = *room > 0 ? *room : 256;
    while (r < needed) r *= 2;
    void *b = realloc(*buffer, (size_t)r * size);
    if (!b) return 0;
    *buffer = b;
    *room = r;
    return 1;
}

static void emit_piece(void *context, double x0, double y0, double x1, double y1) {
    ctr_dash_list *list = context;
    if (list->count == list->room && !grow((void **)&list->pieces, &list->room, list->count + 1, sizeof(ctr_dash_piece))) {
        list->failed = 1;
        return;
    }
    list->pieces[list->count++] = (ctr_dash_piece){x0, y0, x1, y1};
}

void ctr_dash_list_add_dashed_line(ctr_dash_list *list, const double *xs, const double *ys, int count,
                                   const double *dashes, int dash_count) {
    walk_dashes(xs, ys, count, dashes, dash_count, emit_piece, list);
}

void ctr_dash_list_free(ctr_dash_list *list) {
    free(list->ring);
    free(list->ring_touched);
    free(list->pieces);
    free(list->order);
    free(list->band_start);
    *list = (ctr_dash_list){0};
}

/// Rows a dash piece can deposit into: from at least ⌊min(y) − half its cross-section⌋ to at most
/// ⌊max(y) + half of it⌋, where half the cross-section is under the line's width (√2/2 of it at
/// most); one row more either way to spare. Nil when not finite (`dash` skips the piece).
static inline int reach(const ctr_dash_piece *p, double line_width, double *top, double *bottom) {
    if (!isfinite(p->x0 + p->y0 + p->x1 + p->y1)) return 0;
    *top = dmin(p->y0, p->y1) - line_width - 1;
    *bottom = dmax(p->y0, p->y1) + line_width + 1;
    return 1;
}

/// The band (of 2^`BAND_SHIFT` rows) of the highest row a piece can deposit into, or an earlier one;
/// band 0 for a piece that deposits nothing.
#define BAND_SHIFT 4
static inline int top_band(const ctr_dash_piece *p, double line_width, int bands) {
    double top, bottom;
    if (!reach(p, line_width, &top, &bottom) || !(top > 0)) return 0;
    if (top >= (double)(bands << BAND_SHIFT)) return bands - 1;
    return (int)top >> BAND_SHIFT;
}

/// Deposits the pieces in the order added into the whole raster and composites them once.
static void composite_in_order(ctr_hairline *h, ctr_dash_list *list, int n, double line_width, uint32_t *pixels,
                               ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y, uint32_t src_rb,
                               uint32_t src_ag, float alpha) {
    for (int i = 0; i < n; i++) {
        const ctr_dash_piece *p = list->pieces + i;
        ctr_hairline_dash(h, p->x0, p->y0, p->x1, p->y1, line_width);
    }
    if (h->dirty_bottom >= h->dirty_top)
        ctr_hairline_composite(h->cells, h->touched, h->words_per_row, h->width, h->dirty_top, h->dirty_bottom, pixels,
                               stride, sw, sh, origin_x, origin_y, src_rb, src_ag, alpha);
    h->dirty_top = INT32_MAX;
    h->dirty_bottom = -1;
}

void ctr_hairline_composite_dashes(ctr_hairline *h, ctr_dash_list *list, double line_width, uint32_t *pixels,
                                   ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y, uint32_t src_rb,
                                   uint32_t src_ag, float alpha) {
    const int n = list->count, band_rows = 1 << BAND_SHIFT;
    const int bands = (h->height + band_rows - 1) >> BAND_SHIFT;
    list->count = 0;
    if (n == 0) return;
    // Filed by band (a counting sort, in the order added within a band), and how far below its
    // band's top a piece reaches: the ring must hold that many rows.
    int ok = !list->failed && grow((void **)&list->order, &list->order_room, n, sizeof(int)) &&
             grow((void **)&list->band_start, &list->band_room, bands + 1, sizeof(int));
    list->failed = 0;
    int *start = list->band_start, *order = list->order;
    double depth = 0;
    if (ok) {
        memset(start, 0, (size_t)(bands + 1) * sizeof(int));
        for (int i = 0; i < n; i++) {
            const ctr_dash_piece *p = list->pieces + i;
            const int b = top_band(p, line_width, bands);
            start[b + 1]++;
            double top, bottom;
            // (Rows past the raster's last are never written: a piece in the tile's buffer below it
            // doesn't make the ring deeper.)
            if (reach(p, line_width, &top, &bottom))
                depth = dmax(depth, dmin(bottom, (double)h->height) - (double)(b << BAND_SHIFT));
        }
    }
    // A ring of 2^k rows, at least the band and the deepest reach below a band's top.
    int ring_rows = 32;
    while (ok && ring_rows <= depth + 1 && ring_rows < 256) ring_rows *= 2;
    if (ok && ring_rows <= depth + 1) ok = 0;
    const size_t cells = (size_t)ring_rows * (size_t)h->width, words = (size_t)ring_rows * (size_t)h->words_per_row;
    if (ok && (list->ring_width != h->width || list->ring_rows < ring_rows)) {
        free(list->ring);
        free(list->ring_touched);
        list->ring = calloc(cells, sizeof(float));
        list->ring_touched = calloc(words, sizeof(uint64_t));
        list->ring_width = h->width;
        list->ring_rows = ring_rows;
        if (!list->ring || !list->ring_touched) {
            free(list->ring);
            free(list->ring_touched);
            list->ring = NULL;
            list->ring_touched = NULL;
            list->ring_width = list->ring_rows = 0;
            ok = 0;
        }
    }
    if (!ok) {
        // Out of memory, or pieces longer than a ring holds: the same pixels from the whole raster.
        composite_in_order(h, list, n, line_width, pixels, stride, sw, sh, origin_x, origin_y, src_rb, src_ag, alpha);
        return;
    }
    ring_rows = list->ring_rows;
    for (int b = 0; b < bands; b++) start[b + 1] += start[b];
    for (int i = 0; i < n; i++) order[start[top_band(list->pieces + i, line_width, bands)]++] = i;
    // `start[b]` is now the end of band b's pieces (its start is the end of band b − 1).
    // Band by band: its pieces deposited (they reach down into later bands, never up into earlier
    // ones), then its rows composited and cleared: every deposit into them is made by then. Row y
    // lives at ring row y mod `ring_rows`, so the cells written stay in the cache, where the whole
    // raster's megabyte (the pieces in the order added) missed it at most pieces.
    grid g = {{list->ring, list->ring_touched, h->words_per_row, h->width, h->height, INT32_MAX, -1}, ring_rows - 1};
    int from = 0, last_written = -1;
    for (int b = 0; b < bands; b++) {
        const int to = start[b];
        for (int k = from; k < to; k++) {
            const ctr_dash_piece *p = list->pieces + order[k];
            dash(&g, p->x0, p->y0, p->x1, p->y1, line_width);
        }
        from = to;
        if (g.h.dirty_bottom > last_written) last_written = g.h.dirty_bottom;
        const int top = b << BAND_SHIFT;
        if (last_written < top) continue;  // nothing deposited here or below
        const int rows = imin(band_rows, h->height - top), ring_top = top & (ring_rows - 1);
        ctr_hairline_composite(list->ring + (size_t)ring_top * (size_t)h->width,
                               list->ring_touched + (size_t)ring_top * (size_t)h->words_per_row, h->words_per_row,
                               h->width, 0, rows - 1, pixels, stride, sw, sh, origin_x, origin_y + top, src_rb, src_ag,
                               alpha);
    }
}
