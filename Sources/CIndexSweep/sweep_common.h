#ifndef CINDEXSWEEP_COMMON_H
#define CINDEXSWEEP_COMMON_H

#include "CIndexSweep.h"

/// Saves where a part stands and returns `status` (0 done, 1 out of room, −1 past the budget).
static inline int cis_stop(cis_sweep_state *state, long a, long p, long work, long count, int status) {
    state->a = a;
    state->p = p;
    state->work = work;
    state->count = count;
    return status;
}

/// Entry `a`'s candidates in cell order (keys ascending, `width` cells a row): its own cell and the
/// next one in the row are `a + 1 ..< *bEnd`; the three cells below are `*p ..< *qEnd` (`*p` moves
/// on from the previous entry's). Returns how many there are.
static inline long cis_candidate_runs(const uint64_t *k, long n, uint64_t width, long a, long *bEnd, long *p,
                                      long *qEnd) {
    const uint64_t ka = k[a];
    long b = a + 1;
    while (b < n && k[b] <= ka + 1) b++;
    const uint64_t lo = ka + width - 1, hi = ka + width + 1;
    long q = *p;
    while (q < n && k[q] < lo) q++;
    long e = q;
    while (e < n && k[e] <= hi) e++;
    *bEnd = b;
    *p = q;
    *qEnd = e;
    return (b - a - 1) + (e - q);
}

#endif
