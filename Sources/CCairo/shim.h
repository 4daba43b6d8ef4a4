// Cairo core, its FreeType font backend and its vector surfaces.
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>
