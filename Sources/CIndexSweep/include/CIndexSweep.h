#ifndef CINDEXSWEEP_H
#define CINDEXSWEEP_H

#include <stddef.h>
#include <stdint.h>

/// What the forward sweep reads, by cell-order position (see `NeighborGraph.SweepInput`): cell keys
/// (ascending), Float coordinates, the item (a slot, or 0xFFFFFFFF for an entry to skip) and the
/// Double centre.
typedef struct {
    const uint64_t *keys;
    const float *xs;
    const float *ys;
    const uint32_t *item;
    const double *cx;
    const double *cy;
    long entries;
    uint64_t width;
} cis_sweep_input;

/// Where a sweep part stands: the next entry to visit, the first position of the rows below, the
/// candidate pairs looked at so far and the edges written.
typedef struct {
    long a;
    long p;
    long work;
    long count;
} cis_sweep_state;

/// `NeighborGraph.sweepForward`'s loop for entries `state->a ..< to` (the same candidates, test,
/// edges and order; `from` is the part's first entry, for the budget): appends the edges
/// `lower item << 32 | higher item` to `out` (room for `capacity`) from `state->count` on.
/// Returns 0 when done, 1 when `out` may be too small for the next entry (grow it and call again
/// with the same state), −1 past the budget. Branch-free per candidate; AVX2 where the processor
/// has it (runs found and candidates tested four at a time), a portable kernel elsewhere: the same
/// arithmetic, so the same edges.
int cis_sweep_forward(const cis_sweep_input *input, long from, long to, double eps, double r2, long budget,
                      uint64_t *out, long capacity, cis_sweep_state *state);

/// `PairBand`'s sweep for entries `state->a ..< to` of `n` sorted ones (the same candidates, pairs,
/// zooms, order and budget rule): a pair `a << 32 | b` where the larger of the two axis distances is
/// within `eps[0]`, with zoom `lastZoom + z`, z the last index whose `eps[z]` covers it (`eps`
/// decreasing, `epsCount` ≥ 1). `pairs` and `zooms` have room for `capacity`; returns as
/// `cis_sweep_forward` does. Branch-free per candidate.
int cis_sweep_pairs(const uint64_t *keys, const float *xs, const float *ys, long n, uint64_t width, const double *eps,
                    int epsCount, int lastZoom, long from, long to, long budget, uint64_t *pairs, uint8_t *zooms,
                    long capacity, cis_sweep_state *state);

/// Asks for the cache line at `p` ahead of a read (the index build's gathers read items at random).
static inline void cis_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Which kernel `cis_sweep_forward` uses: 2 = AVX2, 0 = portable.
int cis_simd_level(void);

/// Forces the portable kernel (`portable` ≠ 0) or goes back to the best one; for the test that the
/// two give the same edges. Not thread-safe: call it when no index is being built.
void cis_force_portable(int portable);

/// Fresh zeroed pages for `bytes` (a multiple of the page size), NULL when none (or not on Linux).
void *cis_map(size_t bytes);

/// Grows (or shrinks) pages from `cis_map` to `newBytes`, keeping their contents, moving them if
/// needed without copying; NULL when it fails (the old pages are then still valid).
void *cis_remap(void *p, size_t oldBytes, size_t newBytes);

/// Gives pages from `cis_map` back.
void cis_unmap(void *p, size_t bytes);

#endif
