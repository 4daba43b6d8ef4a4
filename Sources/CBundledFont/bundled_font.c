#include "bundled_font.h"

// Labels defined in bundled_font.S. Swift cannot take the address of an
// incomplete C array, hence these accessors.
extern const uint8_t iconbadge_font_bold_start[];
extern const uint8_t iconbadge_font_bold_end[];
extern const uint8_t iconbadge_font_regular_start[];
extern const uint8_t iconbadge_font_regular_end[];

const uint8_t *iconbadge_bundled_font_bold(size_t *length) {
    *length = (size_t)(iconbadge_font_bold_end - iconbadge_font_bold_start);
    return iconbadge_font_bold_start;
}

const uint8_t *iconbadge_bundled_font_regular(size_t *length) {
    *length = (size_t)(iconbadge_font_regular_end - iconbadge_font_regular_start);
    return iconbadge_font_regular_start;
}
