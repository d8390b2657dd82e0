#ifndef CSPRITEBLEND_H
#define CSPRITEBLEND_H
/* Sprite compositing kernels for MapRender's SpriteBatch: every sprite's rows of runs painted
 * OVER a band of an ARGB32 image (premultiplied; pixman's rounding, so the pixels equal cairo's),
 * with AVX2 and AVX-512 versions checked at run time and a portable one. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One run of a sprite row: source columns x0..<x1, all alpha 255 when `opaque`. */
typedef struct csb_run {
    int32_t x0, x1;
    bool opaque;
} csb_run;

/** A sprite placed in a frame. Runs of source row y are runs[row_start[y] ..< row_start[y + 1]]. */
typedef struct csb_item {
    const uint32_t *pixels;
    const int32_t *row_start;
    const csb_run *runs;
    /** Source row stride in pixels, and the sprite's size in pixels. */
    ptrdiff_t stride, width, height;
    /** Device pixel of the sprite's top-left corner, relative to the target's origin. */
    ptrdiff_t x, y;
    /** Opacity as cairo hands it to pixman (255: a plain paint). */
    uint32_t alpha;
} csb_item;

/** The target image's pixels, where the user-space origin is in them, and the clip rectangle. */
typedef struct csb_target {
    uint32_t *data;
    ptrdiff_t stride;
    ptrdiff_t origin_x, origin_y;
    ptrdiff_t clip_x0, clip_y0, clip_x1, clip_y1;
} csb_target;

/** Kernels (the pixels are the same with each). */
enum {
    CSB_KERNEL_PORTABLE = 0,
    CSB_KERNEL_AVX2 = 1,
    CSB_KERNEL_AVX512 = 2,
};

/** The kernel to use on this CPU: AVX2 where it has it (also where it has AVX-512, which measured
 * slower on the Skylake-SP machines this was tuned on), else the portable one. */
int csb_best_kernel(void);

/** Whether this CPU runs `kernel`. */
bool csb_kernel_supported(int kernel);

/** Composites `items`, in order, into the target rows row0..<row1 (within the clip), `band_rows`
 * rows at a time (each band stays in cache while every sprite over it is painted), with `kernel`
 * (a kernel the CPU doesn't run falls back to the portable one). */
void csb_composite(const csb_item *items, size_t count, const csb_target *target,
                   ptrdiff_t row0, ptrdiff_t row1, ptrdiff_t band_rows, int kernel);

/** Bands 0..<n of a frame's rows, handed out one at a time to two threads (one from the top, one
 * from the bottom) so that each is done once and neither waits for the other while any is left:
 * `*shared` starts as `(uint64_t)n << 32` (see `csb_bands`). Returns the band claimed, or -1 when
 * none is left. */
ptrdiff_t csb_claim_band(uint64_t *shared, bool from_bottom);

/** The initial value of the shared word for `n` bands. */
static inline uint64_t csb_bands(uint32_t n) { return (uint64_t)n << 32; }

/** As `csb_composite`, but only the bands (of `band_rows` rows from row0) this call claims from
 * `shared` (`csb_claim_band`), until none is left; another thread may composite the rest at the
 * same time with the same items and target. Returns the number of bands done here. */
size_t csb_composite_claiming(const csb_item *items, size_t count, const csb_target *target, ptrdiff_t row0,
                              ptrdiff_t row1, ptrdiff_t band_rows, int kernel, uint64_t *shared, bool from_bottom);

/** An opaque tile (RGB24: the alpha byte is ignored and written as 255) copied into target pixels
 * x0..<x1, y0..<y1, scaled, sampled nearest: target pixel (x, y) takes the source pixel whose span
 * (i, i + 1] holds x + 0.5 mapped to (x + 0.5) × scale_x + offset_x (likewise for rows), clamped
 * to the source's edges — pixman's nearest filter with CAIRO_EXTEND_PAD, computed in double
 * precision rather than pixman's 16.16 fixed point (so a sample within ~0.005 pixel of a
 * boundary may fall on the neighbouring source pixel). With scale 1 and a whole-pixel offset it
 * is a plain copy, as pixman's. */
typedef struct csb_nearest_blit {
    const uint32_t *pixels;
    /** Source row stride in pixels, and the source's size in pixels. */
    ptrdiff_t stride, width, height;
    double scale_x, offset_x, scale_y, offset_y;
    /** Target pixels painted (within the target's clip). */
    ptrdiff_t x0, y0, x1, y1;
} csb_nearest_blit;

/** Paints `blit`'s rows row0..<row1 (within its own) into `target` (ARGB32, `target_stride` pixels a row). */
void csb_blit_nearest(const csb_nearest_blit *blit, uint32_t *target, ptrdiff_t target_stride, ptrdiff_t row0,
                      ptrdiff_t row1);

/** The source column of each of `blit`'s target columns x0..<x1 (into `columns`, x1 − x0 of them);
 * returns whether they are consecutive (a straight copy). Work `csb_blit_nearest` does per call,
 * done once for a blit painted a band of rows at a time. */
bool csb_nearest_columns(const csb_nearest_blit *blit, int32_t *columns);

/** `csb_blit_nearest` with the columns (and `straight`) from `csb_nearest_columns`. */
void csb_blit_nearest_columns(const csb_nearest_blit *blit, const int32_t *columns, bool straight, uint32_t *target,
                              ptrdiff_t target_stride, ptrdiff_t row0, ptrdiff_t row1);

/** A frame's tile copies (`csb_nearest_blit`, each with its columns from `csb_nearest_columns`)
 * painted band by band together with the scene's sprites, on two threads (MapRender's
 * `DeferredBase`). The helper thread runs `csb_frame_helper` as soon as the copies are known: it
 * copies bands from the bottom up until the sprites are published. The drawing thread then calls
 * `csb_frame_finish`: it stops those copies and publishes the sprites, and both threads take the
 * bands one at a time (drawing thread from the top, helper from the bottom), each band getting its
 * copies (unless the helper made them already) and then its sprites. Set the fields up to
 * `band_count` and zero the rest before either call. */
typedef struct csb_frame {
    const csb_nearest_blit *blits;
    const int32_t *const *columns;
    const bool *straight;
    size_t blit_count;
    uint32_t *pixels;
    ptrdiff_t stride;
    /** Bands of `band_rows` target rows from row0 up to row1. */
    ptrdiff_t row0, row1, band_rows;
    uint32_t band_count;
    /* Shared by the two threads (atomics). */
    uint64_t early, bands;
    uint32_t based_done, based_from;
    int32_t published;
    /* Published by csb_frame_finish. */
    const csb_item *items;
    size_t count;
    csb_target target;
    int kernel;
} csb_frame;

/** The helper thread's part (see `csb_frame`); gives up waiting for the sprites after
 * `max_wait_ms` (then the drawing thread does the rest alone). Returns the bands it composited. */
size_t csb_frame_helper(csb_frame *frame, double max_wait_ms);

/** The drawing thread's part (see `csb_frame`): `items` (none when count is 0) clipped to
 * `target`, whose clip rows must lie within row0..<row1. Returns when every band is done, except
 * one the helper is still compositing (wait for its job). */
void csb_frame_finish(csb_frame *frame, const csb_item *items, size_t count, const csb_target *target, int kernel);

#endif
