/* The C reference of `make bench`: the same job as iconbadge's default render, written
 * directly against Cairo and FreeType with the font opened by file, as a careful C
 * programmer would. Usage: ref ICON.png OUT.png FONT.ttf SCALE TEXT X Y W H RADIUS OX OY
 * (the badge rectangle and text origin come from iconbadge --report, so both programs
 * draw exactly the same thing; only the work differs). */
#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 13) return 64;
    double scale = atof(argv[4]);
    double x = atof(argv[6]), y = atof(argv[7]), w = atof(argv[8]), h = atof(argv[9]);
    double r = atof(argv[10]), ox = atof(argv[11]), oy = atof(argv[12]);
    cairo_surface_t *icon = cairo_image_surface_create_from_png(argv[1]);
    if (cairo_surface_status(icon) != CAIRO_STATUS_SUCCESS) return 65;
    cairo_t *cr = cairo_create(icon);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
    cairo_set_source_rgb(cr, 1.0, 59 / 255.0, 48 / 255.0);
    cairo_fill(cr);
    FT_Library library;
    FT_Face face;
    if (FT_Init_FreeType(&library) || FT_New_Face(library, argv[3], 0, &face)) return 69;
    cairo_font_face_t *font = cairo_ft_font_face_create_for_ft_face(face, 0);
    cairo_set_font_face(cr, font);
    cairo_set_font_size(cr, 12 * scale);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_move_to(cr, ox, oy);
    cairo_show_text(cr, argv[5]);
    cairo_destroy(cr);
    if (cairo_surface_write_to_png(icon, argv[2]) != CAIRO_STATUS_SUCCESS) return 74;
    cairo_surface_destroy(icon);
    return 0;
}
