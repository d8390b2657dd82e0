/* Nearest-neighbour scaled copies of opaque tiles (see CSpriteBlend.h, csb_blit_nearest).
 *
 * Why C: during a zoom animation the base map is a viewport of tile pixels magnified by up to √2,
 * sampled nearest. cairo hands that to pixman's general path (a fetch of each scanline through an
 * affine nearest iterator into a buffer, then a combine), about 15 instructions a pixel and the
 * largest single cost of such a frame. Here a row's source columns are worked out once per tile
 * (the transform is a plain scale, so they are the same for every row), each target row is a
 * gather through that table, and a row sampling the same source row as the one above it (a
 * magnified tile repeats up to every other row) is a copy of that row. */

#include "CSpriteBlend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The source index sampled for target coordinate c (pixel centre c + 0.5): the source pixel whose
 * span (i, i + 1] holds the position, as pixman's nearest filter takes it (a centre exactly on a
 * boundary samples the pixel before it), clamped to the image's edge (CAIRO_EXTEND_PAD). */
static inline ptrdiff_t sample(ptrdiff_t c, double scale, double offset, ptrdiff_t size) {
    const double s = ((double)c + 0.5) * scale + offset;
    double i = ceil(s) - 1;
    if (i < 0) i = 0;
    if (i > (double)(size - 1)) i = (double)(size - 1);
    return (ptrdiff_t)i;
}

bool csb_nearest_columns(const csb_nearest_blit *b, int32_t *columns) {
    const ptrdiff_t x0 = b->x0, n = b->x1 - b->x0;
    bool straight = true;
    for (ptrdiff_t k = 0; k < n; k++) {
        columns[k] = (int32_t)sample(x0 + k, b->scale_x, b->offset_x, b->width);
        if (k > 0 && columns[k] != columns[k - 1] + 1) straight = false;
    }
    return straight;
}

void csb_blit_nearest_columns(const csb_nearest_blit *b, const int32_t *columns, bool straight, uint32_t *target,
                              ptrdiff_t target_stride, ptrdiff_t row0, ptrdiff_t row1) {
    const ptrdiff_t y0 = b->y0 > row0 ? b->y0 : row0, y1 = b->y1 < row1 ? b->y1 : row1;
    const ptrdiff_t x0 = b->x0, n = b->x1 - b->x0;
    if (y0 >= y1 || n <= 0 || b->width <= 0 || b->height <= 0) return;
    ptrdiff_t previous = -1;
    const uint32_t *above = NULL;
    for (ptrdiff_t y = y0; y < y1; y++) {
        uint32_t *d = target + y * target_stride + x0;
        const ptrdiff_t sy = sample(y, b->scale_y, b->offset_y, b->height);
        if (sy == previous) {
            memcpy(d, above, (size_t)n * 4);
        } else {
            const uint32_t *s = b->pixels + sy * b->stride;
            if (straight) {
                s += columns[0];
                for (ptrdiff_t k = 0; k < n; k++) d[k] = s[k] | 0xFF000000u;
            } else {
                for (ptrdiff_t k = 0; k < n; k++) d[k] = s[columns[k]] | 0xFF000000u;
            }
        }
        previous = sy;
        above = d;
    }
}

void csb_blit_nearest(const csb_nearest_blit *b, uint32_t *target, ptrdiff_t target_stride, ptrdiff_t row0,
                      ptrdiff_t row1) {
    const ptrdiff_t y0 = b->y0 > row0 ? b->y0 : row0, y1 = b->y1 < row1 ? b->y1 : row1;
    const ptrdiff_t n = b->x1 - b->x0;
    if (y0 >= y1 || n <= 0 || b->width <= 0 || b->height <= 0) return;
    int32_t small[2048];
    int32_t *columns = n <= 2048 ? small : malloc((size_t)n * sizeof(int32_t));
    if (!columns) return;
    const bool straight = csb_nearest_columns(b, columns);
    csb_blit_nearest_columns(b, columns, straight, target, target_stride, row0, row1);
    if (columns != small) free(columns);
}
