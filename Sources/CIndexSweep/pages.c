// Page-mapped buffers that grow without a copy (`GrowingBuffer` in ClusterCore).
#define _GNU_SOURCE
#include "CIndexSweep.h"
#include <stddef.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *cis_map(size_t bytes) {
#if defined(__linux__)
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
#else
    (void)bytes;
    return NULL;
#endif
}

void *cis_remap(void *p, size_t oldBytes, size_t newBytes) {
#if defined(__linux__)
    void *q = mremap(p, oldBytes, newBytes, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
#else
    (void)p; (void)oldBytes; (void)newBytes;
    return NULL;
#endif
}

void cis_unmap(void *p, size_t bytes) {
#if defined(__linux__)
    munmap(p, bytes);
#else
    (void)p; (void)bytes;
#endif
}
