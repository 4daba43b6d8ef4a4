// The child side of an isolated job, compiled into iconbadge-loader (loader/, which
// decodes with the system's librsvg and gdk-pixbuf) and linked into iconbadge, which
// runs no child of its own since SVG and PDF outputs are drawn in its process. The memory cap, the parent-death signal, the
// locale pinning, the crash report, reading the input and the SVG's pixel size.
// It needs glibc alone: the loader is built against Debian 11's (scripts/build-loader.sh).
#define _GNU_SOURCE
#include "image_loaders.h"
#include "isolated_server.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

extern char **environ;


#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define IB_SANITIZED 1
#endif
#endif
#if !defined(IB_SANITIZED) && (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
#define IB_SANITIZED 1
#endif
#ifndef IB_SANITIZED
#define IB_SANITIZED 0
#endif

static void set_error(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    strncpy(error, message ? message : "unknown error", error_size - 1);
    error[error_size - 1] = '\0';
}

double ib_monotonic_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

// ------------------------------------------------------------------ memory cap

uint64_t ib_memory_cap(int64_t pixels, int64_t document_bytes) {
    if (pixels < 0) pixels = 0;
    if (document_bytes < 0) document_bytes = 0;
    return IB_MEMORY_CAP_BASE + (uint64_t)document_bytes * IB_MEMORY_CAP_PER_DOCUMENT_BYTE +
           (uint64_t)pixels * IB_MEMORY_CAP_PER_PIXEL;
}

int ib_memory_cap_enforced(void) { return !IB_SANITIZED; }

void ib_set_memory_cap(uint64_t bytes) {
#if !IB_SANITIZED
    // RLIMIT_DATA, not RLIMIT_AS: since Linux 4.7 it bounds every private writable
    // mapping (malloc's heap and its mmaps, Cairo's surfaces, thread stacks), and not
    // what is mapped from files read-only. Fonts are: an SVG with text in 22 Noto CJK
    // faces maps 830 MB of address space (each face maps its 20-27 MB collection,
    // twice) for 43 MB of data; RLIMIT_AS would refuse it for its fonts.
    // Only the soft limit: it may be raised again later in this process (a size
    // becomes known), never above the hard limit the caller's shell set.
    struct rlimit limit;
    if (getrlimit(RLIMIT_DATA, &limit) != 0) return;
    // In a long-lived renderer, what it held before the job is not the job's.
    rlim_t wanted = (rlim_t)(bytes + ib_server_memory_offset);
    if (limit.rlim_max != RLIM_INFINITY && wanted > limit.rlim_max) wanted = limit.rlim_max;
    limit.rlim_cur = wanted;
    setrlimit(RLIMIT_DATA, &limit);
#else
    // Under AddressSanitizer or ThreadSanitizer (`make test-asan`, `make test-tsan`)
    // their shadow memory alone is terabytes of address space: with a cap the child
    // could not allocate anything ("AddressSanitizer: out of memory: Failed to mmap").
    (void)bytes;
#endif
}

// ------------------------------------------------------------------ quiet stderr

void *ib_stderr_silence(void) {
    // Opened, not created (no O_CREAT), and never through a link: /dev/null is a
    // device node, and a /dev/null replaced by a link is refused rather than written.
    int fd = open("/dev/null", O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return NULL;
    FILE *null = fdopen(fd, "w");
    if (null == NULL) {
        close(fd);
        return NULL;
    }
    FILE *saved = stderr;
    stderr = null;
    return saved;
}

void ib_stderr_restore(void *saved) {
    if (saved == NULL) return;
    FILE *null = stderr;
    stderr = (FILE *)saved;
    fclose(null);
}

// A pipe whose ends are closed on exec. Linux has pipe2; elsewhere (macOS, untested
// here) the flag is set right after, which is safe because this process never execs
// ------------------------------------------------------------------ sizes

int ib_svg_pixel_size(double iw, double ih, int has_size, double scale, int width, int height, int max_side,
                      int64_t max_pixels, int *out_w, int *out_h, char *error, size_t error_size) {
    double w = width, h = height;
    if (width <= 0 || height <= 0) {
        if (!has_size) {
            set_error(error, error_size, "the SVG has neither width and height nor a viewBox; give --size WxH");
            return IB_IMAGE_CORRUPT;
        }
        w = iw * scale;
        h = ih * scale;
    }
    if (w != w || h != h) {
        set_error(error, error_size, "the SVG's size is not a number");
        return IB_IMAGE_CORRUPT;
    }
    if (w < 0.5 || h < 0.5) {
        char text[200];
        snprintf(text, sizeof text,
                 "the SVG renders at %.3g x %.3g px, less than a pixel; give --size WxH or a larger --scale", w, h);
        set_error(error, error_size, text);
        return IB_IMAGE_CORRUPT;
    }
    // Sizes past 2e9 px are clamped there: still far over every limit, and an int.
    int pw = (int)((w > 2e9 ? 2e9 : w) + 0.5), ph = (int)((h > 2e9 ? 2e9 : h) + 0.5);
    *out_w = pw;
    *out_h = ph;
    if (pw > max_side || ph > max_side || (long long)pw * ph > max_pixels) {
        char text[64];
        snprintf(text, sizeof text, "SIZE %d %d", pw, ph);
        set_error(error, error_size, text);
        return IB_IMAGE_TOO_LARGE;
    }
    return IB_IMAGE_OK;
}

// ------------------------------------------------------------------ child side

// Async-signal-safe: writes "iconbadge-child: crashed, peak P of C" (bytes of
// private writable memory: VmData, and the RLIMIT_DATA soft limit) on standard
// error, which the parent reads to tell a crash that followed a failed allocation.
static void write_number(char **out, unsigned long long value) {
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value && n < 24);
    while (n) *(*out)++ = digits[--n];
}

static void report_crash(int signal) {
    unsigned long long peak = 0;
    // Linux only (/proc); elsewhere the peak is reported as 0.
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char status[4096];
        ssize_t n = read(fd, status, sizeof status - 1);
        close(fd);
        if (n > 0) {
            status[n] = '\0';
            char *line = strstr(status, "VmData:");
            if (line) {
                line += 7;
                while (*line == ' ' || *line == '\t') line++;
                while (*line >= '0' && *line <= '9') peak = peak * 10 + (unsigned long long)(*line++ - '0');
                peak *= 1024;
            }
        }
    }
    struct rlimit limit = {0, 0};
    getrlimit(RLIMIT_DATA, &limit);
    unsigned long long cap = limit.rlim_cur == RLIM_INFINITY ? 0 : (unsigned long long)limit.rlim_cur;
    char text[128], *out = text;
    const char *prefix = "\niconbadge-child: crashed, peak ";
    for (const char *p = prefix; *p; p++) *out++ = *p;
    write_number(&out, peak);
    for (const char *p = " of "; *p; p++) *out++ = *p;
    write_number(&out, cap);
    *out++ = '\n';
    ssize_t ignored = write(2, text, (size_t)(out - text));
    (void)ignored;
    raise(signal); // SA_RESETHAND: the default action now, so the parent sees the signal
}

void ib_child_pin_environment(void) {
    // The locale librsvg, GLib, Pango and fontconfig see is pinned, so that output
    // does not depend on the caller's: no LANGUAGE, LANG, LC_* (GLib's
    // g_get_language_names, hence SVG systemLanguage), PANGO_LANGUAGE or FC_LANG
    // (font fallback), then LC_ALL=C. SVG <switch> then sees no user language.
    for (;;) {
        int removed = 0;
        for (char **entry = environ; entry && *entry; entry++) {
            const char *e = *entry;
            if (strncmp(e, "LC_", 3) == 0 || strncmp(e, "LANG=", 5) == 0 || strncmp(e, "LANGUAGE=", 9) == 0 ||
                strncmp(e, "PANGO_LANGUAGE=", 15) == 0 || strncmp(e, "FC_LANG=", 8) == 0) {
                const char *equals = strchr(e, '=');
                if (equals == NULL) continue;
                char name[128];
                size_t length = (size_t)(equals - e);
                if (length >= sizeof name) continue;
                memcpy(name, e, length);
                name[length] = '\0';
                unsetenv(name);
                removed = 1;
                break; // environ changed: walk it again
            }
        }
        if (!removed) break;
    }
    setenv("LC_ALL", "C", 1);
}

int ib_child_begin(const char *parent_pid) {
#ifdef __linux__
    // Dies with the iconbadge that started it: a killed parent must not leave librsvg
    // running on a hostile document. If the parent is already gone, stop now.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)atoll(parent_pid)) return -1;
#else
    (void)parent_pid; // macOS: no parent-death signal; the parent's kill at the deadline remains.
#endif
    ib_child_pin_environment();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = report_crash;
    action.sa_flags = (int)SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    int crashes[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) sigaction(crashes[i], &action, NULL);
#ifdef __GLIBC__
    // One malloc arena: memory freed by one thread is reused by the others, so the
    // cap measures what is live, not what per-thread arenas keep.
    mallopt(M_ARENA_MAX, 1);
#endif
    return 0;
}

int ib_read_all_input(uint8_t **out, size_t *out_size) {
    size_t capacity = 1 << 16, size = 0;
    uint8_t *data = malloc(capacity);
    if (data == NULL) return -1;
    for (;;) {
        if (size == capacity) {
            capacity *= 2;
            uint8_t *bigger = realloc(data, capacity);
            if (bigger == NULL) {
                free(data);
                return -1;
            }
            data = bigger;
        }
        ssize_t r = read(0, data + size, capacity - size);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        size += (size_t)r;
    }
    *out = data;
    *out_size = size;
    return 0;
}
