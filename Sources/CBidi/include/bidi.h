#ifndef ICONBADGE_BIDI_H
#define ICONBADGE_BIDI_H
#include <stdint.h>

/// Runs the Unicode Bidirectional Algorithm (UAX #9, through GNU FriBidi) over one
/// paragraph of `length` code points, with the base direction taken from the first
/// strong character (rules P2-P3). Writes one embedding level per code point into
/// `levels` (even: left-to-right, odd: right-to-left) and returns the paragraph's
/// base level (0 or 1), or -1 on failure. FriBidi's macros do not import into Swift,
/// hence this C wrapper.
int ib_bidi_levels(const uint32_t *text, int length, uint8_t *levels);

/// FriBidi's version, such as "1.0.8".
const char *ib_bidi_version(void);

/// The address of a FriBidi function, so `--version` can tell whether FriBidi is
/// linked into the executable or loaded as a shared library.
const void *ib_bidi_library_function(void);

#endif
