#include "sweep_common.h"

#include <immintrin.h>
#include <math.h>

// The radius test must round exactly as Swift's `dx * dx + dy * dy <= r2` (two products, one sum):
// no fused multiply-add, in either kernel.
#pragma clang fp contract(off)

static const uint32_t dead = 0xFFFFFFFFu;

// ---------------------------------------------------------------------------------------------
// Portable kernel: branchy run scans, branch-free candidates.

/// One candidate b of entry a: the edge is written, and kept (the count moves on) only when it passes.
#define CIS_CHECK(b)                                                                                   \
    do {                                                                                               \
        const double fxb = xs[b], fyb = ys[b];                                                         \
        const uint32_t ib = item[b];                                                                   \
        const int lower = ia < ib;                                                                     \
        const double px = lower ? fxb : fxa, py = lower ? fyb : fya;                                   \
        const double ox = lower ? cxa : cx[b], oy = lower ? cya : cy[b];                               \
        const double dx = px - ox, dy = py - oy;                                                       \
        const double dd = dx * dx;                                                                     \
        const double ee = dy * dy;                                                                     \
        const int ok = (fabs(fxa - fxb) <= eps) & (fabs(fya - fyb) <= eps) & aAlive & (ib != dead)     \
            & (dd + ee <= r2);                                                                         \
        const uint64_t small = lower ? ia : ib, big = lower ? ib : ia;                                 \
        out[count] = small << 32 | big;                                                                \
        count += ok;                                                                                   \
    } while (0)

static int sweep_portable(const cis_sweep_input *input, long from, long to, double eps, double r2, long budget,
                          uint64_t *out, long capacity, cis_sweep_state *state) {
    const uint64_t *k = input->keys;
    const float *xs = input->xs, *ys = input->ys;
    const uint32_t *item = input->item;
    const double *cx = input->cx, *cy = input->cy;
    const long n = input->entries;
    const uint64_t width = input->width;
    long p = state->p, work = state->work, count = state->count;
    for (long a = state->a; a < to; a++) {
        long bEnd, qEnd;
        const long candidates = cis_candidate_runs(k, n, width, a, &bEnd, &p, &qEnd);
        if (count + candidates > capacity) return cis_stop(state, a, p, work, count, 1);
        const double fxa = xs[a], fya = ys[a], cxa = cx[a], cya = cy[a];
        const uint32_t ia = item[a];
        const int aAlive = ia != dead;
        for (long b = a + 1; b < bEnd; b++) CIS_CHECK(b);
        for (long q = p; q < qEnd; q++) CIS_CHECK(q);
        work += candidates;
        if (work + (a - from + 1) > budget) return cis_stop(state, a + 1, p, work, count, -1);
    }
    return cis_stop(state, to, p, work, count, 0);
}

// ---------------------------------------------------------------------------------------------
// AVX2 kernel: the same candidates, test and edges; runs found four keys at a time, candidates
// tested four at a time and the passing edges packed to the front (no branch per candidate).

/// The first position in `from ..< n` whose key is above `limit` (keys ascending, all below
/// `from`… at most `limit` where it matters).
__attribute__((target("avx2"))) static inline long first_above(const uint64_t *k, long from, long n, uint64_t limit) {
    const __m256i l = _mm256_set1_epi64x((long long)limit);
    long i = from;
    while (i + 4 <= n) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(k + i));
        const int m = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(v, l)));
        if (m) return i + __builtin_ctz((unsigned)m);
        i += 4;
    }
    while (i < n && k[i] <= limit) i++;
    return i;
}

/// Lane permutations packing the 64-bit lanes set in a 4-bit mask to the front (32-bit halves).
static const int32_t pack_lanes[16][8] __attribute__((aligned(32))) = {
    {0, 1, 0, 1, 0, 1, 0, 1},
    {0, 1, 0, 1, 0, 1, 0, 1},
    {2, 3, 0, 1, 0, 1, 0, 1},
    {0, 1, 2, 3, 0, 1, 0, 1},
    {4, 5, 0, 1, 0, 1, 0, 1},
    {0, 1, 4, 5, 0, 1, 0, 1},
    {2, 3, 4, 5, 0, 1, 0, 1},
    {0, 1, 2, 3, 4, 5, 0, 1},
    {6, 7, 0, 1, 0, 1, 0, 1},
    {0, 1, 6, 7, 0, 1, 0, 1},
    {2, 3, 6, 7, 0, 1, 0, 1},
    {0, 1, 2, 3, 6, 7, 0, 1},
    {4, 5, 6, 7, 0, 1, 0, 1},
    {0, 1, 4, 5, 6, 7, 0, 1},
    {2, 3, 4, 5, 6, 7, 0, 1},
    {0, 1, 2, 3, 4, 5, 6, 7},
};

__attribute__((target("avx2"))) static int sweep_avx2(const cis_sweep_input *input, long from, long to, double eps,
                                                      double r2, long budget, uint64_t *out, long capacity,
                                                      cis_sweep_state *state) {
    const uint64_t *k = input->keys;
    const float *xs = input->xs, *ys = input->ys;
    const uint32_t *item = input->item;
    const double *cx = input->cx, *cy = input->cy;
    const long n = input->entries;
    const uint64_t width = input->width;
    long p = state->p, work = state->work, count = state->count;
    const __m256d epsv = _mm256_set1_pd(eps), r2v = _mm256_set1_pd(r2);
    const __m256d absMask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFLL));
    const __m128i signBit = _mm_set1_epi32((int)0x80000000u), deadv = _mm_set1_epi32(-1);
    const __m256i laneIndex = _mm256_setr_epi64x(0, 1, 2, 3);
    for (long a = state->a; a < to; a++) {
        const uint64_t ka = k[a];
        const long bEnd = first_above(k, a + 1, n, ka + 1);
        const uint64_t lo = ka + width - 1, hi = ka + width + 1;
        p = first_above(k, p, n, lo - 1);  // the first key ≥ lo (lo ≥ 1: width ≥ 3)
        const long qEnd = first_above(k, p, n, hi);
        const long candidates = (bEnd - a - 1) + (qEnd - p);
        // Four lanes are stored whatever passes: room for three more than the candidates.
        if (count + candidates + 3 > capacity) return cis_stop(state, a, p, work, count, 1);
        const uint32_t ia = item[a];
        if (ia != dead && candidates > 0) {
            const double fxa = xs[a], fya = ys[a], cxa = cx[a], cya = cy[a];
            const __m256d fxav = _mm256_set1_pd(fxa), fyav = _mm256_set1_pd(fya);
            const __m256d cxav = _mm256_set1_pd(cxa), cyav = _mm256_set1_pd(cya);
            const __m128i iaSigned = _mm_xor_si128(_mm_set1_epi32((int)ia), signBit);
            const __m256i ia64 = _mm256_set1_epi64x((long long)ia);
            for (int run = 0; run < 2; run++) {
                long s = run == 0 ? a + 1 : p;
                const long e = run == 0 ? bEnd : qEnd;
                while (s < e) {
                    if (s + 4 > n) {  // the last few entries: one at a time
                        const int aAlive = 1;
                        for (long b = s; b < e; b++) CIS_CHECK(b);
                        break;
                    }
                    const __m256d fxb = _mm256_cvtps_pd(_mm_loadu_ps(xs + s));
                    const __m256d fyb = _mm256_cvtps_pd(_mm_loadu_ps(ys + s));
                    const __m128i ib = _mm_loadu_si128((const __m128i *)(item + s));
                    // ia < ib (unsigned), as 64-bit lane masks.
                    const __m256i lower = _mm256_cvtepi32_epi64(_mm_cmpgt_epi32(_mm_xor_si128(ib, signBit), iaSigned));
                    const __m256d lowerd = _mm256_castsi256_pd(lower);
                    const __m256d px = _mm256_blendv_pd(fxav, fxb, lowerd), py = _mm256_blendv_pd(fyav, fyb, lowerd);
                    const __m256d ox = _mm256_blendv_pd(_mm256_loadu_pd(cx + s), cxav, lowerd);
                    const __m256d oy = _mm256_blendv_pd(_mm256_loadu_pd(cy + s), cyav, lowerd);
                    const __m256d dx = _mm256_sub_pd(px, ox), dy = _mm256_sub_pd(py, oy);
                    const __m256d dd = _mm256_mul_pd(dx, dx);
                    const __m256d ee = _mm256_mul_pd(dy, dy);
                    const __m256d within = _mm256_cmp_pd(_mm256_add_pd(dd, ee), r2v, _CMP_LE_OQ);
                    const __m256d boxX = _mm256_cmp_pd(_mm256_and_pd(_mm256_sub_pd(fxav, fxb), absMask), epsv, _CMP_LE_OQ);
                    const __m256d boxY = _mm256_cmp_pd(_mm256_and_pd(_mm256_sub_pd(fyav, fyb), absMask), epsv, _CMP_LE_OQ);
                    const __m256i alive = _mm256_cvtepi32_epi64(_mm_andnot_si128(_mm_cmpeq_epi32(ib, deadv), deadv));
                    const __m256i inRun = _mm256_cmpgt_epi64(_mm256_set1_epi64x(e - s), laneIndex);
                    const __m256d ok = _mm256_and_pd(_mm256_and_pd(within, _mm256_and_pd(boxX, boxY)),
                                                     _mm256_castsi256_pd(_mm256_and_si256(alive, inRun)));
                    const int m = _mm256_movemask_pd(ok);
                    const __m256i ib64 = _mm256_cvtepu32_epi64(ib);
                    const __m256i small = _mm256_blendv_epi8(ib64, ia64, lower);
                    const __m256i big = _mm256_blendv_epi8(ia64, ib64, lower);
                    const __m256i edge = _mm256_or_si256(_mm256_slli_epi64(small, 32), big);
                    const __m256i order = _mm256_loadu_si256((const __m256i *)pack_lanes[m]);
                    _mm256_storeu_si256((__m256i *)(out + count), _mm256_permutevar8x32_epi32(edge, order));
                    count += __builtin_popcount((unsigned)m);
                    s += 4;
                }
            }
        }
        work += candidates;
        if (work + (a - from + 1) > budget) return cis_stop(state, a + 1, p, work, count, -1);
    }
    return cis_stop(state, to, p, work, count, 0);
}

// ---------------------------------------------------------------------------------------------

static int forced_portable;

int cis_simd_level(void) {
    if (!__atomic_load_n(&forced_portable, __ATOMIC_RELAXED) && __builtin_cpu_supports("avx2")) return 2;
    return 0;
}

void cis_force_portable(int portable) { __atomic_store_n(&forced_portable, portable != 0, __ATOMIC_RELAXED); }

int cis_sweep_forward(const cis_sweep_input *input, long from, long to, double eps, double r2, long budget,
                      uint64_t *out, long capacity, cis_sweep_state *state) {
    if (cis_simd_level() == 2) {
        return sweep_avx2(input, from, to, eps, r2, budget, out, capacity, state);
    }
    return sweep_portable(input, from, to, eps, r2, budget, out, capacity, state);
}
