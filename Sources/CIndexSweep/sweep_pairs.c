#include "sweep_common.h"

#include <math.h>

int cis_sweep_pairs(const uint64_t *k, const float *xs, const float *ys, long n, uint64_t width, const double *eps,
                    int epsCount, int lastZoom, long from, long to, long budget, uint64_t *pairs, uint8_t *zooms,
                    long capacity, cis_sweep_state *state) {
    const double widest = eps[0];
    long p = state->p, work = state->work, count = state->count;
    for (long a = state->a; a < to; a++) {
        long bEnd, qEnd;
        const long candidates = cis_candidate_runs(k, n, width, a, &bEnd, &p, &qEnd);
        if (count + candidates > capacity) return cis_stop(state, a, p, work, count, 1);
        const double xa = xs[a], ya = ys[a];
        // A candidate's pair is written, and kept only when within the widest search distance; its
        // zoom is `lastZoom` plus the last index whose distance covers it (distances decrease).
#define CIS_PAIR(b)                                                                                    \
        do {                                                                                           \
            const double dx = fabs(xa - (double)xs[b]), dy = fabs(ya - (double)ys[b]);                 \
            const double d = dx < dy ? dy : dx;                                                        \
            int covering = 0;                                                                          \
            for (int z = 0; z < epsCount; z++) covering += eps[z] >= d;                                \
            pairs[count] = (uint64_t)a << 32 | (uint64_t)(b);                                          \
            zooms[count] = (uint8_t)(lastZoom + covering - 1);                                         \
            count += !(d > widest);                                                                    \
        } while (0)
        for (long b = a + 1; b < bEnd; b++) CIS_PAIR(b);
        for (long q = p; q < qEnd; q++) CIS_PAIR(q);
#undef CIS_PAIR
        work += candidates;
        if (work + (a - from + 1) > budget) return cis_stop(state, a + 1, p, work, count, -1);
    }
    return cis_stop(state, to, p, work, count, 0);
}
