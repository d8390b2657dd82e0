// The compositing pass of `HairlineRasterizer` (thin lines of the base map, dashes of a tile's
// footpaths) in C, with an AVX2 copy like `composite.c`: its cells hold coverage itself (no running
// sum), clamped to 1 and blended over the pixels of every 8-cell block that was written.

#include "CTileRaster.h"
#include "blend.h"

#include <string.h>

#pragma clang fp contract(off)

typedef float f8 __attribute__((ext_vector_type(8)));
typedef uint32_t u8 __attribute__((ext_vector_type(8)));
typedef int32_t i8 __attribute__((ext_vector_type(8)));

/// Eight cells over eight pixels, lane for lane the scalar loop's result: a cell under 1/512 (or
/// 0) gives a weight of 0 and a destination weight of 256, which leaves its pixel as it was.
static inline __attribute__((always_inline)) void blend_block(float *cells, uint32_t *pixels, uint32_t src_rb,
                                                             uint32_t src_ag, float alpha) {
    f8 v;
    memcpy(&v, cells, sizeof v);
    memset(cells, 0, sizeof v);
    i8 over = v < 1;
    f8 c = (f8)(((u8)v & (u8)over) | ((u8)(f8)1 & ~(u8)over));
    u8 k = (u8)__builtin_convertvector(c * 256, i8);
    u8 inv = 256 - (u8)__builtin_convertvector(c * alpha * 256, i8);
    u8 p;
    memcpy(&p, pixels, sizeof p);
    u8 rb = ((p & 0x00FF00FF) * inv + src_rb * k) >> 8;
    u8 ag = (((p >> 8) & 0x00FF00FF) * inv + src_ag * k) >> 8;
    u8 out = (rb & 0x00FF00FF) | ((ag & 0x00FF00FF) << 8);
    memcpy(pixels, &out, sizeof out);
}

static inline __attribute__((always_inline)) void hairline_composite(float *cells, uint64_t *touched, int words_per_row,
                                                                    int width, int top, int bottom, uint32_t *pixels,
                                                                    ptrdiff_t stride, int sw, int sh, int origin_x,
                                                                    int origin_y, uint32_t src_rb, uint32_t src_ag,
                                                                    float alpha) {
    for (int row = top; row <= bottom; row++) {
        int sy = row + origin_y;
        float *line = cells + (ptrdiff_t)row * width;
        int visible = sy >= 0 && sy < sh;
        uint32_t *px = pixels + (visible ? (ptrdiff_t)sy : 0) * stride;
        uint64_t *words = touched + (ptrdiff_t)row * words_per_row;
        for (int w = 0; w < words_per_row; w++) {
            uint64_t bits = words[w];
            if (!bits) continue;
            words[w] = 0;
            while (bits) {
                int b = w << 6 | __builtin_ctzll(bits);
                bits &= bits - 1;
                int x0 = b << 3, x1 = x0 + 8 < width ? x0 + 8 : width;
                if (visible && x1 - x0 == 8 && x0 + origin_x >= 0 && x1 + origin_x <= sw) {
                    blend_block(line + x0, px + x0 + origin_x, src_rb, src_ag, alpha);
                    continue;
                }
                for (int x = x0; x < x1; x++) {
                    float c = line[x] < 1 ? line[x] : 1;
                    if (!(c > 0)) continue;
                    line[x] = 0;
                    int sx = x + origin_x;
                    if (!visible || !(c >= 1.0f / 512) || sx < 0 || sx >= sw) continue;
                    px[sx] = blend(px[sx], c, src_rb, src_ag, alpha);
                }
            }
        }
    }
}

static void hairline_composite_portable(float *cells, uint64_t *touched, int words_per_row, int width, int top,
                                        int bottom, uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x,
                                        int origin_y, uint32_t src_rb, uint32_t src_ag, float alpha) {
    hairline_composite(cells, touched, words_per_row, width, top, bottom, pixels, stride, sw, sh, origin_x, origin_y,
                       src_rb, src_ag, alpha);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void hairline_composite_avx2(float *cells, uint64_t *touched, int words_per_row, int width, int top, int bottom,
                                    uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                                    uint32_t src_rb, uint32_t src_ag, float alpha) {
    hairline_composite(cells, touched, words_per_row, width, top, bottom, pixels, stride, sw, sh, origin_x, origin_y,
                       src_rb, src_ag, alpha);
}
#endif

void ctr_hairline_composite(float *cells, uint64_t *touched, int words_per_row, int width, int top, int bottom,
                            uint32_t *pixels, ptrdiff_t stride, int sw, int sh, int origin_x, int origin_y,
                            uint32_t src_rb, uint32_t src_ag, float alpha) {
#if defined(__x86_64__)
    if (ctr_simd_level() == 2) {
        hairline_composite_avx2(cells, touched, words_per_row, width, top, bottom, pixels, stride, sw, sh, origin_x,
                                origin_y, src_rb, src_ag, alpha);
        return;
    }
#endif
    hairline_composite_portable(cells, touched, words_per_row, width, top, bottom, pixels, stride, sw, sh, origin_x,
                                origin_y, src_rb, src_ag, alpha);
}
