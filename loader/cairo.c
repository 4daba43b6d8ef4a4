// Cairo's functions for the loader, found with dlsym in librsvg's dependencies (its
// libcairo.so.2): the loader links nothing but glibc, and a system with gdk-pixbuf
// but no Cairo still decodes its formats.
#include "loader.h"

#include <dlfcn.h>
#include <string.h>

#define FIND(field, name) (*(void **)&cairo->field = dlsym(handle, name)) != NULL

int ib_cairo_resolve(void *handle, ib_cairo_functions *cairo, int *has_script) {
    memset(cairo, 0, sizeof *cairo);
    *has_script = 0;
    int drawing = FIND(version_string, "cairo_version_string") &&
                  FIND(image_surface_create, "cairo_image_surface_create") &&
                  FIND(image_surface_get_data, "cairo_image_surface_get_data") &&
                  FIND(image_surface_get_stride, "cairo_image_surface_get_stride") &&
                  FIND(surface_status, "cairo_surface_status") && FIND(surface_flush, "cairo_surface_flush") &&
                  FIND(surface_finish, "cairo_surface_finish") && FIND(surface_destroy, "cairo_surface_destroy") &&
                  FIND(create, "cairo_create") && FIND(status, "cairo_status") &&
                  FIND(set_matrix, "cairo_set_matrix") && FIND(destroy, "cairo_destroy");
    if (!drawing) return 0;
    *has_script = FIND(script_create_for_stream, "cairo_script_create_for_stream") &&
                  FIND(script_surface_create, "cairo_script_surface_create") &&
                  FIND(device_finish, "cairo_device_finish") && FIND(device_destroy, "cairo_device_destroy") &&
                  FIND(device_status, "cairo_device_status");
    return 1;
}
