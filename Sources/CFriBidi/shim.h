// Included by its folder, like Cairo's (see CCairo/shim.h).
#include <fribidi/fribidi.h>
