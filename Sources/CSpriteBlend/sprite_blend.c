/* Sprite compositing kernels (see CSpriteBlend.h).
 *
 * Why C: the loops over a band's sprites and their runs are most of a 1,500-item frame, and
 * Swift's SIMD types compile for the x86-64 baseline only (SSE2, four pixels a step). Here the
 * same loops run with AVX2 (eight pixels a step) or AVX-512 (sixteen, masked ends), chosen at run
 * time, and a portable version for other CPUs.
 *
 * Arithmetic (every kernel): premultiplied s OVER d = s + d × (255 − αs) / 255 per channel,
 * rounded as pixman does: t = x × a + 128, (t + (t >> 8)) >> 8 — equal to (t × 257) >> 16 for
 * every 16-bit t (checked for all of them), which is what the SIMD kernels compute with a high
 * multiply. Red and blue, then alpha and green, are done in 16-bit lanes (255 × 255 + 128 <
 * 65536). No saturation is needed: a sprite's pixels are valid premultiplied colours (each channel
 * at most its alpha; scaling by a paint's opacity keeps them so) and d × (255 − αs) / 255 rounds
 * to at most 255 − αs, so no sum passes 255. With αs = 0 the result is d, with αs = 255 it is s,
 * so skipping transparent runs and copying opaque ones is exact too. */

#include "CSpriteBlend.h"
#include "band.h"

#include <string.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* The loops over a band's items, rows and runs, shared by every kernel: COPY(s, d, n) copies
 * n ≥ 1 pixels, BLEND(s, d, n) paints n ≥ 1 pixels OVER, BLEND_ALPHA(s, d, n, a) the same with
 * the source scaled by a first. `opaque_n16` says unclipped opaque runs are ≥ 16 pixels
 * (SpriteRuns folds shorter ones into blended runs), which COPY_LONG may rely on. */
#define BAND_BODY(COPY_LONG, COPY, BLEND, BLEND_ALPHA)                                              \
    for (size_t i = 0; i < count; i++) {                                                           \
        const csb_item *it = &items[i];                                                            \
        const ptrdiff_t top = it->y + t->origin_y, sh = it->height;                                \
        if (top >= row1 || top + sh <= row0) continue;                                             \
        const ptrdiff_t left = it->x + t->origin_x, sw = it->width;                                \
        const ptrdiff_t x0 = MAX(left, t->clip_x0), x1 = MIN(left + sw, t->clip_x1);               \
        if (x0 >= x1) continue;                                                                    \
        const ptrdiff_t y0 = MAX(top, row0), y1 = MIN(top + sh, row1);                             \
        const ptrdiff_t sstride = it->stride, dstride = t->stride;                                 \
        const uint32_t *src = it->pixels + (y0 - top) * sstride;                                   \
        uint32_t *dst = t->data + y0 * dstride + left;                                             \
        const int32_t *rs = it->row_start + (y0 - top);                                            \
        const csb_run *runs = it->runs;                                                            \
        const uint32_t a = it->alpha;                                                              \
        const ptrdiff_t rows = y1 - y0;                                                            \
        if (a == 255 && x0 == left && x1 == left + sw) {                                           \
            /* Most sprites: wholly inside the clip's columns, painted at full opacity. */         \
            int32_t r = rs[0];                                                                     \
            for (ptrdiff_t k = 0; k < rows; k++) {                                                 \
                const int32_t end = rs[k + 1];                                                     \
                for (; r < end; r++) {                                                             \
                    const csb_run run = runs[r];                                                   \
                    const ptrdiff_t n = run.x1 - run.x0;                                           \
                    if (run.opaque) COPY_LONG(src + run.x0, dst + run.x0, n);                      \
                    else BLEND(src + run.x0, dst + run.x0, n);                                     \
                }                                                                                  \
                src += sstride;                                                                    \
                dst += dstride;                                                                    \
            }                                                                                      \
        } else {                                                                                   \
            const int32_t c0 = (int32_t)(x0 - left), c1 = (int32_t)(x1 - left);                    \
            for (ptrdiff_t k = 0; k < rows; k++) {                                                 \
                const int32_t end = rs[k + 1];                                                     \
                for (int32_t r = rs[k]; r < end; r++) {                                            \
                    const csb_run run = runs[r];                                                   \
                    const int32_t r0 = MAX(run.x0, c0), r1 = MIN(run.x1, c1);                      \
                    if (r0 >= r1) continue;                                                        \
                    const ptrdiff_t n = r1 - r0;                                                   \
                    if (a != 255) BLEND_ALPHA(src + r0, dst + r0, n, a);                           \
                    else if (run.opaque) COPY(src + r0, dst + r0, n);                              \
                    else BLEND(src + r0, dst + r0, n);                                             \
                }                                                                                  \
                src += sstride;                                                                    \
                dst += dstride;                                                                    \
            }                                                                                      \
        }                                                                                          \
    }

/* ---- Portable: one pixel at a time, in 32-bit words. ---- */

static inline uint32_t scale1(uint32_t x, uint32_t a) {
    uint32_t t = (x & 0x00FF00FFu) * a + 0x00800080u;
    t = ((t + ((t >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t u = ((x >> 8) & 0x00FF00FFu) * a + 0x00800080u;
    u = (u + ((u >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return t | u;
}

static inline uint32_t over1(uint32_t s, uint32_t d) { return s + scale1(d, 255 - (s >> 24)); }

static inline void copy_portable(const uint32_t *s, uint32_t *d, ptrdiff_t n) { memcpy(d, s, (size_t)n * 4); }

static inline void blend_portable(const uint32_t *s, uint32_t *d, ptrdiff_t n) {
    for (ptrdiff_t k = 0; k < n; k++) d[k] = over1(s[k], d[k]);
}

static inline void blend_alpha_portable(const uint32_t *s, uint32_t *d, ptrdiff_t n, uint32_t a) {
    for (ptrdiff_t k = 0; k < n; k++) d[k] = over1(scale1(s[k], a), d[k]);
}

static void band_portable(const csb_item *items, size_t count, const csb_target *t, ptrdiff_t row0, ptrdiff_t row1) {
    BAND_BODY(copy_portable, copy_portable, blend_portable, blend_alpha_portable)
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* ---- AVX2: eight pixels a step; a run's last eight done at once even where they overlap
 * pixels already done (each result depends only on its own pixel's originals, so the last window
 * is computed first and stored last), runs under eight with masked loads and stores. ---- */

#define AVX2 __attribute__((target("avx2"), always_inline)) static inline

/* Lanes 0..<n of a 32-bit mask are set: the eight words from `mask_words + 8 - n`. */
static const int32_t mask_words[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

AVX2 __m256i scale8(__m256i x, __m256i a) {
    const __m256i m = _mm256_set1_epi32(0x00FF00FF), half = _mm256_set1_epi16(0x80), k257 = _mm256_set1_epi16(0x101);
    __m256i rb = _mm256_and_si256(x, m), ag = _mm256_and_si256(_mm256_srli_epi32(x, 8), m);
    rb = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(rb, a), half), k257);
    ag = _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(ag, a), half), k257);
    return _mm256_or_si256(rb, _mm256_slli_epi32(ag, 8));
}

AVX2 __m256i over8(__m256i s, __m256i d) {
    /* 255 − αs in both 16-bit lanes of each pixel: αs's byte spread by a shuffle, then flipped. */
    const __m256i spread = _mm256_setr_epi8(3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1,
                                            3, -1, 3, -1, 7, -1, 7, -1, 11, -1, 11, -1, 15, -1, 15, -1);
    const __m256i ia = _mm256_xor_si256(_mm256_shuffle_epi8(s, spread), _mm256_set1_epi32(0x00FF00FF));
    return _mm256_add_epi32(scale8(d, ia), s);
}

AVX2 void copy_avx2(const uint32_t *s, uint32_t *d, ptrdiff_t n) {
    if (n >= 8) {
        ptrdiff_t k = 0;
        for (; k + 8 < n; k += 8) _mm256_storeu_si256((__m256i *)(d + k), _mm256_loadu_si256((const __m256i *)(s + k)));
        _mm256_storeu_si256((__m256i *)(d + n - 8), _mm256_loadu_si256((const __m256i *)(s + n - 8)));
    } else {
        const __m256i m = _mm256_loadu_si256((const __m256i *)(mask_words + 8 - n));
        _mm256_maskstore_epi32((int *)d, m, _mm256_maskload_epi32((const int *)s, m));
    }
}

#define BLEND_AVX2_BODY(LOAD_SRC)                                                                  \
    if (n >= 8) {                                                                                  \
        const ptrdiff_t e = n - 8;                                                                 \
        const __m256i last = over8(LOAD_SRC(s + e), _mm256_loadu_si256((const __m256i *)(d + e))); \
        for (ptrdiff_t k = 0; k + 8 <= n; k += 8)                                                  \
            _mm256_storeu_si256((__m256i *)(d + k),                                                \
                                over8(LOAD_SRC(s + k), _mm256_loadu_si256((const __m256i *)(d + k)))); \
        _mm256_storeu_si256((__m256i *)(d + e), last);                                             \
    } else {                                                                                       \
        const __m256i m = _mm256_loadu_si256((const __m256i *)(mask_words + 8 - n));               \
        const __m256i p = _mm256_maskload_epi32((const int *)s, m);                                \
        const __m256i q = _mm256_maskload_epi32((const int *)d, m);                                \
        _mm256_maskstore_epi32((int *)d, m, over8(SCALE_MASKED(p), q));                            \
    }

#define LOAD_PLAIN(p) _mm256_loadu_si256((const __m256i *)(p))
#define SCALE_MASKED(p) (p)
AVX2 void blend_avx2(const uint32_t *s, uint32_t *d, ptrdiff_t n) { BLEND_AVX2_BODY(LOAD_PLAIN) }
#undef SCALE_MASKED

#define LOAD_SCALED(p) scale8(_mm256_loadu_si256((const __m256i *)(p)), av)
#define SCALE_MASKED(p) scale8((p), av)
AVX2 void blend_alpha_avx2(const uint32_t *s, uint32_t *d, ptrdiff_t n, uint32_t a) {
    const __m256i av = _mm256_set1_epi16((short)a);
    BLEND_AVX2_BODY(LOAD_SCALED)
}
#undef SCALE_MASKED

__attribute__((target("avx2"))) static void band_avx2(const csb_item *items, size_t count, const csb_target *t,
                                                      ptrdiff_t row0, ptrdiff_t row1) {
    BAND_BODY(copy_avx2, copy_avx2, blend_avx2, blend_alpha_avx2)
}

/* ---- AVX-512 (F and BW): sixteen pixels a step, a run's end with masked loads and stores. ---- */

#define AVX512 __attribute__((target("avx512f,avx512bw"), always_inline)) static inline

AVX512 __m512i scale16(__m512i x, __m512i a) {
    const __m512i m = _mm512_set1_epi32(0x00FF00FF), half = _mm512_set1_epi16(0x80), k257 = _mm512_set1_epi16(0x101);
    __m512i rb = _mm512_and_si512(x, m), ag = _mm512_and_si512(_mm512_srli_epi32(x, 8), m);
    rb = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi16(rb, a), half), k257);
    ag = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi16(ag, a), half), k257);
    return _mm512_or_si512(rb, _mm512_slli_epi32(ag, 8));
}

AVX512 __m512i over16(__m512i s, __m512i d) {
    const __m512i spread = _mm512_set4_epi32((int)0xFF0FFF0F, (int)0xFF0BFF0B, (int)0xFF07FF07, (int)0xFF03FF03);
    const __m512i ia = _mm512_xor_si512(_mm512_shuffle_epi8(s, spread), _mm512_set1_epi32(0x00FF00FF));
    return _mm512_add_epi32(scale16(d, ia), s);
}

AVX512 __mmask16 first16(ptrdiff_t n) { return (__mmask16)((1u << n) - 1); }

AVX512 void copy_avx512(const uint32_t *s, uint32_t *d, ptrdiff_t n) {
    ptrdiff_t k = 0;
    for (; k + 16 <= n; k += 16) _mm512_storeu_si512(d + k, _mm512_loadu_si512(s + k));
    if (k < n) {
        const __mmask16 m = first16(n - k);
        _mm512_mask_storeu_epi32(d + k, m, _mm512_maskz_loadu_epi32(m, s + k));
    }
}

AVX512 void blend_avx512(const uint32_t *s, uint32_t *d, ptrdiff_t n) {
    ptrdiff_t k = 0;
    for (; k + 16 <= n; k += 16) _mm512_storeu_si512(d + k, over16(_mm512_loadu_si512(s + k), _mm512_loadu_si512(d + k)));
    if (k < n) {
        const __mmask16 m = first16(n - k);
        _mm512_mask_storeu_epi32(d + k, m, over16(_mm512_maskz_loadu_epi32(m, s + k), _mm512_maskz_loadu_epi32(m, d + k)));
    }
}

AVX512 void blend_alpha_avx512(const uint32_t *s, uint32_t *d, ptrdiff_t n, uint32_t a) {
    const __m512i av = _mm512_set1_epi16((short)a);
    ptrdiff_t k = 0;
    for (; k + 16 <= n; k += 16)
        _mm512_storeu_si512(d + k, over16(scale16(_mm512_loadu_si512(s + k), av), _mm512_loadu_si512(d + k)));
    if (k < n) {
        const __mmask16 m = first16(n - k);
        const __m512i p = scale16(_mm512_maskz_loadu_epi32(m, s + k), av);
        _mm512_mask_storeu_epi32(d + k, m, over16(p, _mm512_maskz_loadu_epi32(m, d + k)));
    }
}

__attribute__((target("avx512f,avx512bw"))) static void band_avx512(const csb_item *items, size_t count,
                                                                    const csb_target *t, ptrdiff_t row0, ptrdiff_t row1) {
    BAND_BODY(copy_avx512, copy_avx512, blend_avx512, blend_alpha_avx512)
}

bool csb_kernel_supported(int kernel) {
    __builtin_cpu_init();
    switch (kernel) {
    case CSB_KERNEL_PORTABLE: return true;
    case CSB_KERNEL_AVX2: return __builtin_cpu_supports("avx2");
    case CSB_KERNEL_AVX512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    default: return false;
    }
}
#else
bool csb_kernel_supported(int kernel) { return kernel == CSB_KERNEL_PORTABLE; }
#endif

/* AVX2 wherever the CPU has it, even with AVX-512: on this project's Skylake-SP machines a
 * 1,500-item frame took 5–10 % more CPU with the AVX-512 kernel than with AVX2 (paired runs,
 * session 9; the 512-bit multiplies lower the core's clock, and most runs are short), so AVX-512
 * is there to be chosen explicitly (and measured again on newer CPUs). */
int csb_best_kernel(void) {
    if (csb_kernel_supported(CSB_KERNEL_AVX2)) return CSB_KERNEL_AVX2;
    return CSB_KERNEL_PORTABLE;
}

void csb_band(const csb_item *items, size_t count, const csb_target *target, ptrdiff_t top, ptrdiff_t bottom,
              int kernel) {
    switch (kernel) {
#if defined(__x86_64__) || defined(__i386__)
    case CSB_KERNEL_AVX512: band_avx512(items, count, target, top, bottom); break;
    case CSB_KERNEL_AVX2: band_avx2(items, count, target, top, bottom); break;
#endif
    default: band_portable(items, count, target, top, bottom); break;
    }
}

void csb_composite(const csb_item *items, size_t count, const csb_target *target, ptrdiff_t row0, ptrdiff_t row1,
                   ptrdiff_t band_rows, int kernel) {
    if (!csb_kernel_supported(kernel)) kernel = CSB_KERNEL_PORTABLE;
    if (band_rows < 1) band_rows = row1 - row0;
    for (ptrdiff_t top = row0; top < row1; top += band_rows) csb_band(items, count, target, top, MIN(row1, top + band_rows), kernel);
}

/* The shared word holds the next band from the top (low 32 bits) and one past the next band from
 * the bottom (high 32 bits); a band is claimed by moving one end past it, so each is done once. */
ptrdiff_t csb_claim_band(uint64_t *shared, bool from_bottom) {
    uint64_t old = __atomic_load_n(shared, __ATOMIC_RELAXED);
    for (;;) {
        const uint32_t lo = (uint32_t)old, hi = (uint32_t)(old >> 32);
        if (lo >= hi) return -1;
        const uint64_t claimed = from_bottom ? ((uint64_t)(hi - 1) << 32) | lo : ((uint64_t)hi << 32) | (lo + 1);
        if (__atomic_compare_exchange_n(shared, &old, claimed, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return from_bottom ? (ptrdiff_t)hi - 1 : (ptrdiff_t)lo;
    }
}

size_t csb_composite_claiming(const csb_item *items, size_t count, const csb_target *target, ptrdiff_t row0,
                              ptrdiff_t row1, ptrdiff_t band_rows, int kernel, uint64_t *shared, bool from_bottom) {
    if (!csb_kernel_supported(kernel)) kernel = CSB_KERNEL_PORTABLE;
    if (band_rows < 1) band_rows = row1 - row0;
    size_t done = 0;
    for (ptrdiff_t b; (b = csb_claim_band(shared, from_bottom)) >= 0; done++) {
        const ptrdiff_t top = row0 + b * band_rows;
        if (top < row1) csb_band(items, count, target, top, MIN(row1, top + band_rows), kernel);
    }
    return done;
}

