// Cairo core, its FreeType font backend and its vector surfaces. Included by their
// folder: this module has no pkg-config entry, whose -lcairo would load the shared
// library even when Cairo is linked statically (Package.swift).
#include <cairo/cairo.h>
#include <cairo/cairo-ft.h>
#include <cairo/cairo-svg.h>
#include <cairo/cairo-pdf.h>
