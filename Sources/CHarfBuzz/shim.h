// HarfBuzz's API and its OpenType functions (hb-ot; iconbadge does not use hb-ft).
// Included by folder, like Cairo's (see CCairo/shim.h): HarfBuzz too may be linked
// statically (Package.swift).
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
