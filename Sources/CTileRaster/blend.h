// Shared by the compositing passes (`composite.c`, `hairline.c`); not part of the module's API.
#ifndef CTILERASTER_BLEND_H
#define CTILERASTER_BLEND_H

#include <stdint.h>

/// `source over destination` for premultiplied pixels with coverage 0…1 (any alpha), in integers,
/// two channels per multiply (the `x·k/256` pairs trick).
static inline __attribute__((always_inline)) uint32_t blend(uint32_t p, float c, uint32_t src_rb, uint32_t src_ag,
                                                           float alpha) {
    uint32_t k = (uint32_t)(c * 256);
    uint32_t inv = 256 - (uint32_t)(c * alpha * 256);
    uint32_t rb = ((p & 0x00FF00FF) * inv + src_rb * k) >> 8;
    uint32_t ag = (((p >> 8) & 0x00FF00FF) * inv + src_ag * k) >> 8;
    return (rb & 0x00FF00FF) | ((ag & 0x00FF00FF) << 8);
}

#endif
