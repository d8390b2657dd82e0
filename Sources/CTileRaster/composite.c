// The compositing pass of the tile rasteriser (`CoverageRasterizer+Composite.swift`), in C so that
// it can use AVX2 where the processor has it: Swift builds for baseline x86-64 (SSE2), where an
// 8-lane float or 16-lane 16-bit operation is two instructions; this pass was about a third of a
// dense tile's paint.
//
// One body, compiled twice (a portable copy and an AVX2 copy, chosen at run time): the same
// operations in the same order, and no contraction into fused multiply-adds, so both give the
// same pixels — and the same as the Swift code this replaced.

#include "CTileRaster.h"
#include "blend.h"

#include <math.h>
#include <string.h>

#pragma clang fp contract(off)

typedef float f8 __attribute__((ext_vector_type(8)));
typedef uint32_t u8 __attribute__((ext_vector_type(8)));
typedef int32_t i8 __attribute__((ext_vector_type(8)));
typedef uint16_t u16 __attribute__((ext_vector_type(16)));

#define BLOCK_SHIFT 3

/// `blend` for an opaque source, the coverage as a weight 0…256.
static inline __attribute__((always_inline)) uint32_t blend_opaque(uint32_t p, uint32_t k, uint32_t src_rb,
                                                                  uint32_t src_ag) {
    uint32_t inv = 256 - k;
    uint32_t rb = ((p & 0x00FF00FF) * inv + src_rb * k) >> 8;
    uint32_t ag = (((p >> 8) & 0x00FF00FF) * inv + src_ag * k) >> 8;
    return (rb & 0x00FF00FF) | ((ag & 0x00FF00FF) << 8);
}

static inline __attribute__((always_inline)) float min1abs(float v) {
    float m = fabsf(v);
    return m < 1 ? m : 1;
}

/// One block of 8 cells of an opaque colour over 8 pixels, eight lanes at once; clears the cells.
/// The prefix sum is three shifted adds; |coverage| and the clamp are lane operations; the weight
/// is rounded via 2²³ and stepped down where that rounded up (truncation, without a trapping
/// conversion).
static inline __attribute__((always_inline)) void blend_opaque_block(float *cells, uint32_t *pixels, float *acc,
                                                                    uint32_t src_rb, uint32_t src_ag) {
    f8 v, zero = 0;
    memcpy(&v, cells, sizeof v);
    memset(cells, 0, sizeof v);
    v += __builtin_shufflevector(zero, v, 0, 8, 9, 10, 11, 12, 13, 14);
    v += __builtin_shufflevector(zero, v, 0, 1, 8, 9, 10, 11, 12, 13);
    v += __builtin_shufflevector(zero, v, 0, 1, 2, 3, 8, 9, 10, 11);
    v += *acc;
    *acc = v[7];
    f8 c = (f8)((u8)v & 0x7FFFFFFF) * 256;
    u8 over = (u8)(c > 256);
    c = (f8)(((u8)c & ~over) | ((u8)(f8)256 & over));
    u8 k = (u8)(c + 8388608) & 0x1FF;
    f8 back = (f8)(k | 0x4B000000) - 8388608;
    k += (u8)(back > c);  // −1 where rounding went up
    u8 inv = 256 - k;
    // The channel pairs as 16-bit lanes: a channel times a weight fits in 16 bits (≤ 255 · 256, the
    // two products of one channel add up to at most that).
    u16 k16 = (u16)(k | k << 16), inv16 = (u16)(inv | inv << 16);
    u8 p;
    memcpy(&p, pixels, sizeof p);
    u16 prb = (u16)(p & 0x00FF00FF), pag = (u16)((p >> 8) & 0x00FF00FF);
    u16 srb = (u16)((u8)src_rb), sag = (u16)((u8)src_ag);
    u8 rb = (u8)((prb * inv16 + srb * k16) >> 8);
    u8 ag = (u8)((pag * inv16 + sag * k16) >> 8);
    u8 out = rb | ag << 8;
    memcpy(pixels, &out, sizeof out);
}

typedef struct {
    uint32_t *line;
    int visible_row, visible_from, visible_to, origin_x;
    ctr_source s;
} row_target;

/// Cells `from…to` (no edge there) at the running coverage.
static inline __attribute__((always_inline)) void fill_run(const row_target *t, float *acc, int from, int to) {
    float level = min1abs(*acc);
    if (level < 1.0f / 512) {
        *acc = 0;
        return;
    }
    if (!t->visible_row) return;
    if (from < t->visible_from) from = t->visible_from;
    if (to > t->visible_to) to = t->visible_to;
    if (from > to) return;
    uint32_t *px = t->line + t->origin_x;
    if (level > 1 - 1.0f / 512 && t->s.opaque) {
        for (int i = from; i <= to; i++) px[i] = t->s.solid;
    } else {
        for (int i = from; i <= to; i++) px[i] = blend(px[i], level, t->s.rb, t->s.ag, t->s.alpha);
    }
}

static inline __attribute__((always_inline)) void composite_band(float *cells, uint64_t *touched, int words_per_row,
                                                                int width, int top, int last, uint32_t *pixels,
                                                                ptrdiff_t stride, int sw, int sh, int origin_x,
                                                                int origin_y, const ctr_source *source) {
    row_target t;
    t.s = *source;
    t.origin_x = origin_x;
    t.visible_from = origin_x < 0 ? -origin_x : 0;
    t.visible_to = width - 1 < sw - 1 - origin_x ? width - 1 : sw - 1 - origin_x;
    const float alpha = t.s.alpha;
    const int opaque = t.s.opaque;
    const uint32_t solid = t.s.solid, src_rb = t.s.rb, src_ag = t.s.ag;
    for (int row = top; row <= last; row++) {
        int r = row - top;
        uint64_t *words = touched + (ptrdiff_t)r * words_per_row;
        float *a = cells + (ptrdiff_t)r * (width + 2);
        float acc = 0;
        int sy = row + origin_y;
        t.visible_row = sy >= 0 && sy < sh;
        t.line = pixels + (t.visible_row ? (ptrdiff_t)sy : 0) * stride;
        uint32_t *line = t.line;
        uint32_t *px = line + origin_x;
        int x = 0;  // the first cell not yet composited
        for (int w = 0; w < words_per_row; w++) {
            uint64_t bits = words[w];
            if (!bits) continue;
            words[w] = 0;
            while (bits) {
                int start = (w * 64 + __builtin_ctzll(bits)) << BLOCK_SHIFT;
                bits &= bits - 1;
                // No edge since the last block: the coverage there is constant.
                if (start > x) fill_run(&t, &acc, x, start - 1);
                x = start;
                int end = start + (1 << BLOCK_SHIFT) - 1;
                if (end > width + 1) end = width + 1;
                if (t.visible_row && x >= t.visible_from && end <= t.visible_to) {
                    // The whole block on the surface: every pixel blended without branches (full
                    // coverage of an opaque colour gives the colour exactly, under 1/256 leaves it).
                    if (opaque && end - x == 7) {
                        blend_opaque_block(a + x, px + x, &acc, src_rb, src_ag);
                        x = end + 1;
                    } else if (opaque) {
                        for (; x <= end; x++) {
                            acc += a[x];
                            a[x] = 0;
                            px[x] = blend_opaque(px[x], (uint32_t)(min1abs(acc) * 256), src_rb, src_ag);
                        }
                    } else {
                        for (; x <= end; x++) {
                            acc += a[x];
                            a[x] = 0;
                            px[x] = blend(px[x], min1abs(acc), src_rb, src_ag, alpha);
                        }
                    }
                    continue;
                }
                for (; x <= end;) {
                    acc += a[x];
                    a[x] = 0;
                    float c = min1abs(acc);
                    int sx = x + origin_x;
                    x++;
                    if (c < 1.0f / 512) continue;
                    if (!t.visible_row || sx - origin_x >= width || sx < 0 || sx >= sw) continue;
                    line[sx] = c >= 1 && opaque ? solid : blend(line[sx], c, src_rb, src_ag, alpha);
                }
            }
        }
        // Shapes running on past the right border: their edges there were not added, so the run
        // from the last block to the border is filled here.
        if (x < width) fill_run(&t, &acc, x, width - 1);
    }
}

static void composite_band_portable(float *cells, uint64_t *touched, int words_per_row, int width, int top, int last,
                                    uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                                    const ctr_source *source) {
    composite_band(cells, touched, words_per_row, width, top, last, pixels, stride, sw, sh, origin_x, origin_y, source);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void composite_band_avx2(float *cells, uint64_t *touched, int words_per_row, int width, int top, int last,
                                uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                                const ctr_source *source) {
    composite_band(cells, touched, words_per_row, width, top, last, pixels, stride, sw, sh, origin_x, origin_y, source);
}
#endif

static int forced_portable = 0;

int ctr_simd_level(void) {
#if defined(__x86_64__)
    // (Reads a word set when the program starts: cheap enough per band.)
    if (!__atomic_load_n(&forced_portable, __ATOMIC_RELAXED) && __builtin_cpu_supports("avx2")) return 2;
#endif
    return 0;
}

void ctr_force_portable(int portable) { __atomic_store_n(&forced_portable, portable != 0, __ATOMIC_RELAXED); }

void ctr_composite_band(float *cells, uint64_t *touched, int words_per_row, int width, int top, int last,
                        uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                        const ctr_source *source) {
#if defined(__x86_64__)
    if (ctr_simd_level() == 2) {
        composite_band_avx2(cells, touched, words_per_row, width, top, last, pixels, stride, sw, sh, origin_x, origin_y,
                            source);
        return;
    }
#endif
    composite_band_portable(cells, touched, words_per_row, width, top, last, pixels, stride, sw, sh, origin_x, origin_y,
                            source);
}
