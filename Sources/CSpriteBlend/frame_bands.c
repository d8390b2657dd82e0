/* A frame's tile copies and sprites, band by band on two threads (see csb_frame in CSpriteBlend.h).
 *
 * One helper job per frame: it starts on the copies while the drawing thread is still building the
 * sprite batch, and goes on with the sprites once they are published, so the drawing thread waits
 * for the helper at most once a frame, and only for a band the helper holds (a helper whose core is
 * taken by another process costs the frame its one band, not its whole share). */

#include "CSpriteBlend.h"
#include "band.h"

#include <sched.h>
#include <time.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void copies(const csb_frame *f, ptrdiff_t top, ptrdiff_t bottom) {
    for (size_t i = 0; i < f->blit_count; i++)
        csb_blit_nearest_columns(&f->blits[i], f->columns[i], f->straight[i], f->pixels, f->stride, top, bottom);
}

/* Band b of the second phase: its copies if not made in the first, then the sprites. */
static void band_of_frame(csb_frame *f, ptrdiff_t b, bool helper) {
    const ptrdiff_t top = f->row0 + b * f->band_rows, bottom = MIN(f->row1, top + f->band_rows);
    if (top >= f->row1) return;
    if ((uint32_t)b < f->based_from) {
        copies(f, top, bottom);
    } else if (!helper) {
        /* The helper copied the bands from the bottom up, counting them; this one may be the
         * one it is still on. */
        while ((ptrdiff_t)f->band_count - (ptrdiff_t)__atomic_load_n(&f->based_done, __ATOMIC_ACQUIRE) > b) sched_yield();
    }
    const ptrdiff_t y0 = MAX(top, f->target.clip_y0), y1 = MIN(bottom, f->target.clip_y1);
    if (f->count > 0 && y0 < y1) csb_band(f->items, f->count, &f->target, y0, y1, f->kernel);
}

size_t csb_frame_helper(csb_frame *f, double max_wait_ms) {
    const double t0 = now_ms();
    /* First the copies, from the bottom, until the sprites come. */
    while (!__atomic_load_n(&f->published, __ATOMIC_ACQUIRE)) {
        const ptrdiff_t b = csb_claim_band(&f->early, true);
        if (b < 0) {
            if (now_ms() - t0 > max_wait_ms) return 0;
            sched_yield();
            continue;
        }
        const ptrdiff_t top = f->row0 + b * f->band_rows;
        if (top < f->row1) copies(f, top, MIN(f->row1, top + f->band_rows));
        __atomic_add_fetch(&f->based_done, 1, __ATOMIC_RELEASE);
    }
    size_t done = 0;
    for (ptrdiff_t b; (b = csb_claim_band(&f->bands, true)) >= 0; done++) band_of_frame(f, b, true);
    return done;
}

void csb_frame_finish(csb_frame *f, const csb_item *items, size_t count, const csb_target *target, int kernel) {
    /* No more copies ahead: bands from `based_from` on were claimed by the helper (all done but
     * perhaps the lowest, which `band_of_frame` waits for). */
    uint64_t old = __atomic_load_n(&f->early, __ATOMIC_RELAXED);
    for (;;) {
        const uint32_t hi = (uint32_t)(old >> 32);
        if (__atomic_compare_exchange_n(&f->early, &old, ((uint64_t)hi << 32) | hi, true, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            f->based_from = hi;
            break;
        }
    }
    f->items = items;
    f->count = target ? count : 0;
    if (target) f->target = *target;
    f->kernel = csb_kernel_supported(kernel) ? kernel : CSB_KERNEL_PORTABLE;
    f->bands = csb_bands(f->band_count);
    __atomic_store_n(&f->published, 1, __ATOMIC_RELEASE);
    for (ptrdiff_t b; (b = csb_claim_band(&f->bands, false)) >= 0;) band_of_frame(f, b, false);
}
