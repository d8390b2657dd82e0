#ifndef CTILERASTER_H
#define CTILERASTER_H

#include <stddef.h>
#include <stdint.h>

/// The colour of one composite, premultiplied (see `CoverageRasterizer.Source`).
typedef struct {
    float alpha;
    int opaque;
    /// Red/blue and alpha/green pairs (two channels per multiply).
    uint32_t rb;
    uint32_t ag;
    /// The pixel of full coverage when opaque.
    uint32_t solid;
} ctr_source;

/// Blends rows `top…last` of a band of accumulated coverage cells over ARGB32 pixels and clears the
/// cells and the touched-block bits (`CoverageRasterizer.compositeBand`'s work, which it calls).
///
/// `cells`: `bandRows` rows of `width + 2` floats; `touched`: `words_per_row` words a row, a bit per
/// 8-cell block written. Pixels are `stride` (in pixels) apart, the surface `sw`×`sh`, the band's
/// (0, 0) at pixel (`origin_x`, `origin_y` + `top`). Uses AVX2 where the processor has it, else
/// SSE2 — the same operations in the same order, so the pixels are identical.
void ctr_composite_band(float *cells, uint64_t *touched, int words_per_row, int width, int top, int last,
                        uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                        const ctr_source *source);

/// Which kernel `ctr_composite_band` uses: 2 = AVX2, 0 = portable (SSE2, x86-64's baseline).
int ctr_simd_level(void);

/// Forces the portable kernel (`portable` ≠ 0) or goes back to the best one; for the test that the
/// two give identical pixels. Not thread-safe: call it when no tile is being painted.
void ctr_force_portable(int portable);

/// An edge as collected by `CoverageRasterizer` (see `CoverageRasterizer.Edge`): its top (`y0`,
/// clipped to the raster, and `x0` there), its bottom, slope and direction (±1), and its first and
/// last rows.
typedef struct {
    float x0;
    float y0;
    float bottom;
    float dxdy;
    float dir;
    int32_t firstRow;
    int32_t lastRow;
} ctr_edge;

/// Accumulates the band of rows `band_top…band_last` of the edges carried from the bands above
/// (`carried`, `carried_count`) and of the band's own (`own`, `own_count`) into the band's `cells`
/// (rows of `width + 2`), setting the bits of the 8-cell blocks written in `touched`
/// (`words_per_row` a row). The edges reaching below the band are kept at the start of `carried`
/// (room for `carried_count + own_count`), in order; returns how many.
int ctr_accumulate_band(ctr_edge *carried, int carried_count, const ctr_edge *own, int own_count, int band_top,
                        int band_last, float *cells, uint64_t *touched, int words_per_row, int width);

/// Blends rows `top…bottom` of a `HairlineRasterizer`'s cells (coverage, `width` a row) in a
/// premultiplied colour (`src_rb`, `src_ag` channel pairs, `alpha`) over ARGB32 pixels, the cells'
/// (0, 0) at pixel (`origin_x`, `origin_y`); visits the 8-cell blocks set in `touched`
/// (`words_per_row` a row) and clears them and their cells. AVX2 where the processor has it, the
/// same pixels either way.
void ctr_hairline_composite(float *cells, uint64_t *touched, int words_per_row, int width, int top, int bottom,
                            uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                            uint32_t src_rb, uint32_t src_ag, float alpha);

/// A `HairlineRasterizer`'s cells (coverage, `width` a row, `height` rows), its touched-block bits
/// (a bit per 8-cell block, `words_per_row` words a row) and the rows written since the last
/// composite (`dirty_top…dirty_bottom`; empty when top > bottom).
typedef struct {
    float *cells;
    uint64_t *touched;
    int words_per_row;
    int width;
    int height;
    int dirty_top;
    int dirty_bottom;
} ctr_hairline;

/// `HairlineRasterizer.addDash`: a short straight piece of `line_width` device pixels from
/// (`x0`, `y0`) to (`x1`, `y1`), its ends cut where they lie.
void ctr_hairline_dash(ctr_hairline *h, double x0, double y0, double x1, double y1, double line_width);

/// The "on" stretches of a dashed polyline of `count` points (`dash_count` ≥ 2 lengths, all
/// positive, alternating on and off, the pattern running on across vertices) as dashes.
void ctr_hairline_dashed_line(ctr_hairline *h, const double *xs, const double *ys, int count, const double *dashes,
                              int dash_count, double line_width);

/// A dash waiting to be deposited: from (`x0`, `y0`) to (`x1`, `y1`), device pixels.
typedef struct {
    double x0;
    double y0;
    double x1;
    double y1;
} ctr_dash_piece;

/// The dashes of one thin dashed rule, collected (`ctr_dash_list_add_dashed_line`) to be deposited
/// band by band (`ctr_hairline_composite_dashes`); and the room that filing takes. Start zeroed;
/// `ctr_dash_list_free` releases it.
typedef struct {
    ctr_dash_piece *pieces;
    int count;
    int room;
    int *order;
    int order_room;
    int *band_start;
    int band_room;
    /// A piece could not be kept (out of memory): the rule is drawn without it.
    int failed;
    /// The ring of rows the pieces are deposited into (`ring_rows` of `ring_width` cells, and their
    /// touched-block bits), kept clear between composites.
    float *ring;
    uint64_t *ring_touched;
    int ring_width;
    int ring_rows;
} ctr_dash_list;

/// As `ctr_hairline_dashed_line`, the same pieces, kept in `list` instead of deposited.
void ctr_dash_list_add_dashed_line(ctr_dash_list *list, const double *xs, const double *ys, int count,
                                   const double *dashes, int dash_count);

/// Deposits the pieces in `list` (`line_width` device pixels wide) as `ctr_hairline_dash` does into
/// a raster of `h`'s size, and composites them as `ctr_hairline_composite` does, a band of 16 rows
/// at a time (each band's pieces, then its rows), through a ring of rows kept in `list` that stays
/// in the cache; empties `list`. (`h` itself is used only when a piece is too long for a ring or
/// memory runs out.) The pixels are those of the pieces deposited in the order added and
/// composited at once, except that a cell's deposits from pieces of different bands are summed
/// in another order (a float's last bit, at most).
void ctr_hairline_composite_dashes(ctr_hairline *h, ctr_dash_list *list, double line_width, uint32_t *pixels,
                                   ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y, uint32_t src_rb,
                                   uint32_t src_ag, float alpha);

/// Releases a list's memory (it is empty and zeroed after).
void ctr_dash_list_free(ctr_dash_list *list);

#endif
