#ifndef CSPRITEBLEND_BAND_H
#define CSPRITEBLEND_BAND_H
/* Internal to CSpriteBlend. */

#include "CSpriteBlend.h"

/** Composites `items`, in order, into target rows top..<bottom with `kernel` (one the CPU runs). */
void csb_band(const csb_item *items, size_t count, const csb_target *target, ptrdiff_t top, ptrdiff_t bottom,
              int kernel);

#endif
