#include "bidi.h"

#include <fribidi/fribidi.h>
#include <stdlib.h>

int ib_bidi_levels(const uint32_t *text, int length, uint8_t *levels) {
    if (length <= 0) return 0;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    FriBidiLevel *out = malloc(sizeof(FriBidiLevel) * (size_t)length);
    int result = -1;
    if (types && brackets && out) {
        fribidi_get_bidi_types((const FriBidiChar *)text, length, types);
        fribidi_get_bracket_types((const FriBidiChar *)text, length, types, brackets);
        FriBidiParType direction = FRIBIDI_PAR_ON;
        FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, out);
        if (max != 0) {
            for (int i = 0; i < length; i++) levels[i] = (uint8_t)out[i];
            result = FRIBIDI_IS_RTL(direction) ? 1 : 0;
        }
    }
    free(types);
    free(brackets);
    free(out);
    return result;
}

const char *ib_bidi_version(void) { return FRIBIDI_VERSION; }

const void *ib_bidi_library_function(void) { return (const void *)fribidi_get_bidi_type; }
