// The accumulation pass of the tile rasteriser (`CoverageRasterizer`), in C: the loop
// runs once per edge and row, about half of a dense tile's paint, and clang makes shorter code of
// it than Swift did (no checked conversions or exclusivity checks to prove away). The arithmetic
// is the Swift code's, operation for operation (no fused multiply-adds; min and max as Swift's),
// so the pixels are the same.

#include "CTileRaster.h"

#include <string.h>

#pragma clang fp contract(off)

#define BLOCK_SHIFT 3

/// Swift's `min` and `max` (which operand wins on ties and NaN matters for identical results).
static inline float smin(float x, float y) { return y < x ? y : x; }
static inline float smax(float x, float y) { return y >= x ? y : x; }

static inline uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/// Rows `first_row…last_row` (all in the band starting at `band_top`) of an edge into the cells:
/// the exact area each row's piece of the edge adds to the cells it crosses (signed by direction).
/// All in float, floor and ceiling by the 2²³ trick; every index is inside the band by
/// construction (x is clamped to 0…width, rows to the band).
static inline __attribute__((always_inline)) void accumulate(const ctr_edge *e, int first_row, int last_row,
                                                            int band_top, float *cells, uint64_t *touched,
                                                            int words_per_row, int width) {
    const int row_cells = width + 2, last_cell = width + 1;
    const float w = (float)width;
    const float y0 = e->y0, x0 = e->x0, by = e->bottom, dxdy = e->dxdy, d = e->dir;
    const float magic = 8388608.0f;
    float top = smax(y0, (float)first_row);
    float xa = smin(w, smax(0, x0 + (top - y0) * dxdy));
    float *a = cells + (first_row - band_top) * row_cells;
    uint64_t *words = touched + (first_row - band_top) * words_per_row;
    float row_bottom = (float)(first_row + 1);
    int row = first_row;
    for (;;) {
        float bottom = smin(row_bottom, by);
        float xb = smin(w, smax(0, x0 + (bottom - y0) * dxdy));
        float dd = (bottom - top) * d;
        float lo = smin(xa, xb), hi = smax(xa, xb);
        // lo's column and hi's right border: lo + ½ and hi + ½ rounded to integers (ties to even)
        // give ⌊lo⌋ + 1 and ⌈hi⌉, except that an integer lo or hi may land one further out. The
        // areas below only need lo − li and hi_i − hi in 0…1, which holds either way, and lo == hi
        // always gives hi_i == li + 1 (both round the same). Both sums are at least 2²³ + ½: below
        // 2²³ a float's mantissa would not hold the integer. (lo = 0 rounds to −1: kept at column 0.)
        float lo_r = (lo + 0.5f) + magic;
        float lo_floor = smax(0, lo_r - magic - 1);
        int li = (int)(bits_of(lo_r) & 0x7FFFFF) - 1;
        if (li < 0) li = 0;
        float hi_r = (hi + 0.5f) + magic;
        float hi_ceil = hi_r - magic;
        int hi_i = (int)(bits_of(hi_r) & 0x7FFFFF);
        if (hi_i <= li + 1) {
            float mid = 0.5f * (xa + xb) - lo_floor;
            a[li] += dd - dd * mid;
            a[li + 1] += dd * mid;
        } else {
            float s = 1 / (hi - lo);
            float lof = lo - lo_floor;
            float a0 = 0.5f * s * (1 - lof) * (1 - lof);
            float hif = hi - hi_ceil + 1;
            float am = 0.5f * s * hif * hif;
            a[li] += dd * a0;
            if (hi_i == li + 2) {
                a[li + 1] += dd * (1 - a0 - am);
            } else {
                float a1 = s * (1.5f - lof);
                a[li + 1] += dd * (a1 - a0);
                for (int xi = li + 2; xi < hi_i - 1; xi++) a[xi] += dd * s;
                float a2 = a1 + (float)(hi_i - li - 3) * s;
                a[hi_i - 1] += dd * (1 - a2 - am);
            }
            a[hi_i] += dd * am;
        }
        // Cells li…end were written: set the bits of their blocks.
        int end = hi_i + 1 < last_cell ? hi_i + 1 : last_cell;
        int b0 = li >> BLOCK_SHIFT;
        const int b1 = end >> BLOCK_SHIFT;
        while (b0 >> 6 != b1 >> 6) {
            words[b0 >> 6] |= UINT64_MAX << (b0 & 63);
            b0 = (b0 | 63) + 1;
        }
        words[b0 >> 6] |= (UINT64_MAX >> ((63 - (b1 - b0)) & 63)) << (b0 & 63);
        if (row == last_row) break;
        row++;
        top = bottom;
        xa = xb;
        row_bottom += 1;
        a += row_cells;
        words += words_per_row;
    }
}

int ctr_accumulate_band(ctr_edge *carried, int carried_count, const ctr_edge *own, int own_count, int band_top,
                        int band_last, float *cells, uint64_t *touched, int words_per_row, int width) {
    int kept = 0;
    for (int k = 0; k < carried_count; k++) {
        ctr_edge e = carried[k];
        int last = e.lastRow < band_last ? e.lastRow : band_last;
        accumulate(&e, band_top, last, band_top, cells, touched, words_per_row, width);
        if (e.lastRow > band_last) carried[kept++] = e;
    }
    for (int k = 0; k < own_count; k++) {
        const ctr_edge *e = own + k;
        int last = e->lastRow < band_last ? e->lastRow : band_last;
        accumulate(e, e->firstRow, last, band_top, cells, touched, words_per_row, width);
        if (e->lastRow > band_last) carried[kept++] = *e;
    }
    return kept;
}
