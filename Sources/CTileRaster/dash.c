// Dashes of thin lines (a dense street tile's footpaths: thousands of them) deposited into a
// `HairlineRasterizer`'s cells, in C: `HairlineRasterizer.addDash` and the painter's walk along a
// dashed line, operation for operation as the Swift code they replace (no fused multiply-adds;
// min and max as Swift's), so the pixels are the same. In Swift the dash cost about 490
// instructions, most of them checked conversions of doubles to integers and calls per dash.

#include "CTileRaster.h"

#include <math.h>

#pragma clang fp contract(off)

/// Swift's `min` and `max` on doubles (which operand wins on ties and NaN).
static inline double dmin(double x, double y) { return y < x ? y : x; }
static inline double dmax(double x, double y) { return y >= x ? y : x; }
static inline int imin(int x, int y) { return y < x ? y : x; }
static inline int imax(int x, int y) { return y >= x ? y : x; }

/// ⌊v⌋ for the cells of a raster `n` wide: v is first kept within −8…n + 8 (further out it makes
/// no difference to which cells are drawn), where truncation after adding 8 is a floor.
static inline int cell_floor(double v, int n) { return (int)(dmin(dmax(v, -8), (double)(n + 8)) + 8) - 8; }

/// Adds coverage at a pixel inside the raster and marks its 8-pixel block.
static inline __attribute__((always_inline)) void deposit(ctr_hairline *h, int x, int y, float c) {
    h->cells[(ptrdiff_t)y * h->width + x] += c;
    h->touched[(ptrdiff_t)y * h->words_per_row + (x >> 9)] |= (uint64_t)1 << ((x >> 3) & 63);
}

/// The steps of a dash along its major axis (`x_major`: x, else y), `first…last`, from `from`;
/// a constant `x_major` at each call, so each direction gets its own loop without a branch per
/// deposit.
static inline __attribute__((always_inline)) void steps(ctr_hairline *h, const int x_major, int first, int last,
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
#define DEPOSIT(cell, c) do { if (x_major) deposit(h, a, (cell), (c)); else deposit(h, (cell), a, (c)); } while (0)
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

void ctr_hairline_dash(ctr_hairline *h, double x0, double y0, double x1, double y1, double line_width) {
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
        steps(h, 1, first, last, from, a0, a1, b0, slope, half, across);
    } else {
        steps(h, 0, first, last, from, a0, a1, b0, slope, half, across);
    }
}

void ctr_hairline_dashed_line(ctr_hairline *h, const double *xs, const double *ys, int count, const double *dashes,
                              int dash_count, double line_width) {
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
            if (index % 2 == 0) {
                ctr_hairline_dash(h, ax + ux * t, ay + uy * t, ax + ux * (t + step), ay + uy * (t + step), line_width);
            }
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
