#ifndef ICONBADGE_IMAGE_LOADERS_H
#define ICONBADGE_IMAGE_LOADERS_H
#include <stddef.h>
#include <stdint.h>

// The isolated children that decode the image formats beyond PNG and draw SVG
// documents, zlib for SVGZ, and the replay of a recorded SVG drawing.
//
// librsvg (SVG) and gdk-pixbuf (GIF, BMP, TIFF, ICO, animated WebP, CMYK JPEG) are
// never loaded into iconbadge, which is static and cannot load a shared library:
// iconbadge-loader (loader/, a small program linked against glibc alone) opens them
// and answers over the protocol of ib_isolated_decode. This header is shared by both
// programs; loader/loader.h declares the loader's own functions.
// All pixels cross in Cairo's ARGB32 layout (premultiplied, native-endian words).

enum {
    IB_IMAGE_OK = 0,
    IB_IMAGE_CORRUPT = 1,     // the loader rejected the data; message says why
    IB_IMAGE_TOO_LARGE = 2,   // over the caller's limits (checked from the header)
    IB_IMAGE_UNAVAILABLE = 3, // the library or the format's loader is not installed
    IB_IMAGE_NO_MEMORY = 4
};

/// Inflates gzip data (SVGZ) into a malloc'd buffer of at most `max_size` bytes.
/// Returns IB_IMAGE_OK, IB_IMAGE_CORRUPT, or IB_IMAGE_TOO_LARGE when the output
/// would exceed `max_size` (a decompression bomb stops there).
int ib_gunzip(const uint8_t *data, size_t size, size_t max_size, uint8_t **out, size_t *out_size, char *error,
              size_t error_size);

/// The memory cap (RLIMIT_DATA, bytes of private writable memory) of an isolated
/// child that parses
/// `document_bytes` of SVG and renders `pixels` pixels in all (its output, the
/// images it decodes, the images an SVG embeds): IB_MEMORY_CAP_BASE
/// + document_bytes × IB_MEMORY_CAP_PER_DOCUMENT_BYTE + pixels ×
/// IB_MEMORY_CAP_PER_PIXEL. The figures behind the constants are in
/// IsolatedLoader.memoryCap (Swift).
uint64_t ib_memory_cap(int64_t pixels, int64_t document_bytes);
#define IB_MEMORY_CAP_BASE (128ull << 20)
#define IB_MEMORY_CAP_PER_DOCUMENT_BYTE 48ull
#define IB_MEMORY_CAP_PER_PIXEL 24ull

/// Sets this process's RLIMIT_DATA soft limit to `bytes` (never above the hard
/// limit): on Linux 4.7 and later every private writable mapping counts (heap,
/// anonymous mmaps, thread stacks), not files mapped read-only (fonts, libraries).
/// (macOS does not enforce RLIMIT_DATA on mmap: there the cap is advisory.) Does
/// nothing under AddressSanitizer or ThreadSanitizer, whose shadow memory is
/// terabytes of such mappings.
void ib_set_memory_cap(uint64_t bytes);

/// 1 when ib_set_memory_cap takes effect (not under a sanitizer).
int ib_memory_cap_enforced(void);

/// What a child run by ib_isolated_run did.
typedef struct {
    uint8_t *output;        // everything it wrote on standard output (malloc'd; free it)
    size_t output_size;
    int exit_code;          // its exit status, or -1 when a signal ended it
    int signaled;           // the signal that ended it, or 0
    int timed_out;          // 1 when it was killed at the time limit
    long max_rss_kib;       // its peak resident memory (ru_maxrss)
    size_t stderr_size;
    char stderr_tail[4096]; // the last bytes of its standard error (never shown)
} ib_run_result;

/// Runs the program at `helper` (iconbadge-loader) with `argv` (NULL-terminated) as an isolated
/// child: `size` bytes of `data` on its standard input, its standard output collected
/// (at most `max_output` bytes; `expected_output` preallocates), its standard error
/// kept as a tail in `result` and never shown, killed at `time_limit` seconds (0: no
/// limit). Returns IB_IMAGE_OK when the child ran (see `result` for how it ended),
/// IB_IMAGE_UNAVAILABLE when it could not start, IB_IMAGE_NO_MEMORY or
/// IB_IMAGE_TOO_LARGE (an answer over `max_output`) otherwise.
int ib_isolated_run(const char *helper, char *const argv[], const uint8_t *data, size_t size, double time_limit,
                    size_t max_output, size_t expected_output, ib_run_result *result, char *error, size_t error_size);

/// 1 when a child's standard error says an allocation failed (Rust's "memory
/// allocation of N bytes failed", GLib's "failed to allocate", "out of memory").
int ib_run_ran_out_of_memory(const ib_run_result *result);

/// Decodes `size` bytes in a child process: iconbadge-loader at `helper`, run as
/// `helper --isolated-decode KIND SCALE WIDTH HEIGHT MAX_SIDE MAX_PIXELS EXTRA_PIXELS
/// PARENT_PID` with the bytes on its standard input (ib_isolated_run). KIND is "svg"
/// or a gdk-pixbuf loader name. librsvg 2.54 aborts the process on some documents
/// (Rust panics) and Cairo can crash under it; a crash, an overrun of `time_limit`
/// seconds (the child is killed), running out of its address space
/// (ib_memory_cap of the render size plus EXTRA_PIXELS, the pixels of the images the
/// SVG embeds) or a library's noise stays in the child. WIDTH and HEIGHT 0 keep the
/// natural size (an SVG's intrinsic size × SCALE); -1 and -1 only probe an SVG:
/// `*has_size` and `*intrinsic_w`, `*intrinsic_h` are set and no pixels come back.
/// On success `*pixels` is a malloc'd ARGB32 buffer, stride w × 4, and
/// `*intrinsic_w`, `*intrinsic_h` the SVG's own size (0 for rasters). On failure: the
/// status, and a reason in `error` ("crashed", "took more than ...", "OOM" for
/// IB_IMAGE_NO_MEMORY, "SIZE w h" for an SVG over the limits, or the decoder's
/// message).
int ib_isolated_decode(const char *helper, const char *kind, double scale, int width, int height, int max_side,
                       int64_t max_pixels, int64_t extra_pixels, double time_limit, const uint8_t *data, size_t size,
                       uint8_t **pixels, int *out_width, int *out_height, double *intrinsic_w, double *intrinsic_h,
                       int *has_size, char *error, size_t error_size);

/// Records an SVG's drawing as a Cairo script in a child, iconbadge-loader at `helper`
/// (`record`, loader/loader.h): the `size` bytes of the document drawn into
/// `viewport` (x, y, w, h in user space) under `matrix` (xx, yx, xy, yy, x0, y0: user
/// to device space) onto a script surface of `extent_w` × `extent_h` device pixels.
/// The child's memory cap is ib_memory_cap of the extent plus `extra_pixels` (the
/// images the SVG embeds) and the document, plus `max_script`; a script over
/// `max_script` bytes is refused (IB_IMAGE_TOO_LARGE). On success `*script` is a
/// malloc'd buffer for ib_script_replay, and `replay_matrix` the matrix from the
/// script's device space to the output's (the identity, or the inverse of the shear
/// the loader recorded under: loader/main.c says why). Failures as ib_isolated_decode's.
int ib_isolated_record(const char *helper, const uint8_t *data, size_t size, const double viewport[4],
                       const double matrix[6], double extent_w, double extent_h, int64_t extra_pixels,
                       size_t max_script, double time_limit, uint8_t **script, size_t *script_size,
                       double replay_matrix[6], char *error, size_t error_size);

/// The pixel size an SVG renders at: `width` × `height` when both are positive, else
/// its intrinsic size (`iw` × `ih`, `has_size` 0 when it has none) × `scale`, rounded
/// half up (sizes past 2e9 clamped there). Returns IB_IMAGE_OK; IB_IMAGE_CORRUPT with a
/// reason (no size, not a number, under half a pixel); or IB_IMAGE_TOO_LARGE with
/// "SIZE w h" when over `max_side` or `max_pixels`. The isolated decoder and a badge
/// image's natural size (`IconLoader.badgeImage`) come from this one function.
int ib_svg_pixel_size(double iw, double ih, int has_size, double scale, int width, int height, int max_side,
                      int64_t max_pixels, int *out_w, int *out_h, char *error, size_t error_size);

/// Starts an isolated child: on Linux, dies with its parent (PR_SET_PDEATHSIG) and
/// returns -1 when `parent_pid` is no longer its parent; pins the locale librsvg,
/// GLib, Pango and fontconfig see (LANGUAGE, LANG, LC_*, PANGO_LANGUAGE, FC_LANG
/// removed, LC_ALL=C); reports a crash with its memory peak on standard error (a pipe
/// the parent reads, to tell an allocation failure). Returns 0.
int ib_child_begin(const char *parent_pid);

/// Sends C's `stderr` stream (not file descriptor 2) to /dev/null and returns the
/// stream it replaced, for ib_stderr_restore (NULL: nothing changed). fontconfig
/// prints its configuration's errors with fprintf(stderr); this process's own
/// messages are written to descriptor 2 and are not affected, on any thread.
void *ib_stderr_silence(void);

/// Puts back the stream ib_stderr_silence replaced.
void ib_stderr_restore(void *saved);

/// Reads all of standard input into a malloc'd buffer; -1 when out of memory.
int ib_read_all_input(uint8_t **out, size_t *out_size);

/// The entry of an isolated job: the iconbadge binary's own `--isolated-decode`
/// handling, with `argv` as a child started for that job would get it.
typedef int (*ib_child_entry)(int argc, char **argv);
/// The long-lived isolated renderer, `HELPER --isolated-decode serve PARENT_PID`
/// (isolated_server.c): dies with the thread that started it, runs `preload` once
/// (the loader opens its libraries; NULL for none), then runs `entry` for each job
/// that thread sends (its arguments, its input on standard input), each job under its
/// own memory cap. Returns the exit status when the thread closes its end or the
/// renderer retires.
int ib_server_main(const char *parent_pid, ib_child_entry entry, void (*preload)(void));
/// Starts this thread's renderer for `helper` if it has none (isolated_server.c). A
/// thread keeps one renderer for each helper (up to two; the loader is the one).
void ib_server_prestart(const char *helper);
/// A decode status that means the child ran over its time limit.
enum { IB_IMAGE_TIMEOUT = 5, IB_IMAGE_CRASHED = 6 };

/// 1 when `function` lies in the executable (iconbadge, or a test binary), between the
/// linker's __executable_start and _end: a library linked statically. 0 when it comes
/// from a shared library.
int ib_is_linked_in(const void *function);

/// zlib's version ("1.2.13"), for --version.
const char *ib_zlib_version(void);

/// A function of zlib, for --version to tell whether it is linked in.
const void *ib_zlib_library_function(void);

/// Replays a Cairo script (`size` bytes from `iconbadge-loader --isolated-decode record`,
/// drawn in the device space of the context it was recorded for, under
/// `replay_matrix`) onto the context `cairo` (a `cairo_t *`), as vectors: the script is
/// run by Cairo's script interpreter into a recording surface, which is painted with
/// `replay_matrix` as the matrix (the context's own set aside; its clip and group apply).
/// The script's compressed strings (images and fonts) may inflate to `max_inflated`
/// bytes in all; the rest of it, its drawing commands, may be `max_commands` bytes, and
/// its gradients `max_stops` colour stops in all (the replay's cost grows with these,
/// not with the document's size). Returns IB_IMAGE_OK, IB_IMAGE_NO_MEMORY,
/// IB_IMAGE_TOO_LARGE with a reason in `error` (over one of the three), or
/// IB_IMAGE_CORRUPT with a reason (a script the interpreter rejects). Takes `script`
/// (malloc'd, as ib_isolated_record gives it) and frees it.
int ib_script_replay(void *cairo, uint8_t *script, size_t size, const double replay_matrix[6], size_t max_inflated,
                     size_t max_commands, size_t max_stops, char *error, size_t error_size);

/// Frees a buffer returned by this module.
void ib_image_free(void *buffer);

#endif
