#ifndef ICONBADGE_BUNDLED_FONT_H
#define ICONBADGE_BUNDLED_FONT_H
#include <stddef.h>
#include <stdint.h>

/// Bytes of the bundled DejaVu Sans Bold (TrueType); the length goes to `length`.
const uint8_t *iconbadge_bundled_font_bold(size_t *length);
/// Bytes of the bundled DejaVu Sans (TrueType); the length goes to `length`.
const uint8_t *iconbadge_bundled_font_regular(size_t *length);

#endif
