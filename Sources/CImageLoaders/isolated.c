#define _GNU_SOURCE
#include "image_loaders.h"

#include <cairo/cairo.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
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

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

// ------------------------------------------------------------------ parent side

int ib_isolated_decode(const char *helper, const char *kind, double scale, int width, int height, int max_side,
                       int64_t max_pixels, double time_limit, const uint8_t *data, size_t size, uint8_t **pixels,
                       int *out_width, int *out_height, double *intrinsic_w, double *intrinsic_h, char *error,
                       size_t error_size) {
    *pixels = NULL;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        set_error(error, error_size, "cannot create a pipe for the image decoder");
        return IB_IMAGE_NO_MEMORY;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        set_error(error, error_size, "cannot create a pipe for the image decoder");
        return IB_IMAGE_NO_MEMORY;
    }
    char scale_text[64], width_text[32], height_text[32], side_text[32], pixels_text[32];
    snprintf(scale_text, sizeof scale_text, "%.17g", scale);
    snprintf(width_text, sizeof width_text, "%d", width);
    snprintf(height_text, sizeof height_text, "%d", height);
    snprintf(side_text, sizeof side_text, "%d", max_side);
    snprintf(pixels_text, sizeof pixels_text, "%lld", (long long)max_pixels);
    char parent_text[32];
    snprintf(parent_text, sizeof parent_text, "%lld", (long long)getpid());
    char *argv[] = {(char *)"iconbadge", (char *)"--isolated-decode", (char *)kind, scale_text, width_text,
                    height_text, side_text, pixels_text, parent_text, NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // The child starts with no blocked signals and default actions (the parent blocks
    // SIGINT/SIGTERM for its own handling thread), so a kill reaches it.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int spawned = posix_spawn(&pid, helper, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(in[0]);
    close(out[1]);
    if (spawned != 0) {
        close(in[1]);
        close(out[0]);
        char message[512];
        snprintf(message, sizeof message, "cannot start the isolated decoder %s: %s", helper, strerror(spawned));
        set_error(error, error_size, message);
        return IB_IMAGE_UNAVAILABLE;
    }
    // Feed the input and collect the output with poll, both bounded by the deadline.
    double deadline = now() + (time_limit > 0 ? time_limit : 1e9);
    size_t written = 0;
    int in_fd = in[1];
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
    if (size == 0) {
        close(in_fd);
        in_fd = -1;
    }
    size_t capacity = 1 << 16, received = 0;
    uint8_t *buffer = malloc(capacity);
    int status = IB_IMAGE_OK;
    int timed_out = 0;
    int eof = 0;
    size_t expected = 0; // total bytes once the header is known
    while (!eof) {
        double left = deadline - now();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd fds[2];
        int n = 0;
        fds[n].fd = out[0];
        fds[n].events = POLLIN;
        n++;
        if (in_fd >= 0) {
            fds[n].fd = in_fd;
            fds[n].events = POLLOUT;
            n++;
        }
        int ready = poll(fds, n, (int)(left * 1000) + 1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (in_fd >= 0 && n == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = write(in_fd, data + written, size - written);
            if (w > 0) written += (size_t)w;
            if (w < 0 && errno != EAGAIN && errno != EINTR) written = size; // the child closed its input
            if (written >= size) {
                close(in_fd);
                in_fd = -1;
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (received == capacity) {
                size_t grown = capacity * 2;
                if (expected > grown) grown = expected;
                uint8_t *bigger = realloc(buffer, grown);
                if (bigger == NULL) {
                    status = IB_IMAGE_NO_MEMORY;
                    break;
                }
                buffer = bigger;
                capacity = grown;
            }
            ssize_t r = read(out[0], buffer + received, capacity - received);
            if (r == 0) eof = 1;
            if (r > 0) {
                received += (size_t)r;
                if (expected == 0) {
                    uint8_t *newline = memchr(buffer, '\n', received);
                    int w = 0, h = 0;
                    if (newline && sscanf((char *)buffer, "OK %d %d", &w, &h) == 2 && w > 0 && h > 0 &&
                        w <= max_side && h <= max_side) {
                        expected = (size_t)(newline - buffer) + 1 + (size_t)w * (size_t)h * 4;
                    }
                }
            }
        }
    }
    if (in_fd >= 0) close(in_fd);
    close(out[0]);
    if (timed_out) kill(pid, SIGKILL);
    int child = 0;
    while (waitpid(pid, &child, 0) < 0 && errno == EINTR) {
    }
    if (timed_out) {
        free(buffer);
        char message[128];
        snprintf(message, sizeof message, "took more than %g s to decode (the limit is set with --svg-time-limit)",
                 time_limit);
        set_error(error, error_size, message);
        return IB_IMAGE_TIMEOUT;
    }
    if (status != IB_IMAGE_OK) {
        free(buffer);
        set_error(error, error_size, "out of memory reading the decoder's output");
        return status;
    }
    if (WIFSIGNALED(child)) {
        free(buffer);
        char message[160];
        snprintf(message, sizeof message, "the %s decoder crashed on it (signal %d); the file is refused",
                 strcmp(kind, "svg") == 0 ? "SVG (librsvg)" : "image (gdk-pixbuf)", WTERMSIG(child));
        set_error(error, error_size, message);
        return IB_IMAGE_CRASHED;
    }
    uint8_t *newline = received ? memchr(buffer, '\n', received) : NULL;
    if (newline == NULL) {
        free(buffer);
        set_error(error, error_size, "the isolated decoder ended without an answer");
        return IB_IMAGE_CRASHED;
    }
    *newline = '\0';
    if (strncmp((char *)buffer, "ER ", 3) == 0) {
        int code = IB_IMAGE_CORRUPT;
        int consumed = 0;
        sscanf((char *)buffer + 3, "%d %n", &code, &consumed);
        set_error(error, error_size, (char *)buffer + 3 + consumed);
        free(buffer);
        return code;
    }
    int w = 0, h = 0;
    double iw = 0, ih = 0;
    if (sscanf((char *)buffer, "OK %d %d %lg %lg", &w, &h, &iw, &ih) != 4 || w <= 0 || h <= 0 ||
        received != (size_t)(newline - buffer) + 1 + (size_t)w * (size_t)h * 4) {
        free(buffer);
        set_error(error, error_size, "the isolated decoder gave a malformed answer");
        return IB_IMAGE_CRASHED;
    }
    size_t header = (size_t)(newline - buffer) + 1;
    memmove(buffer, buffer + header, received - header);
    *pixels = buffer;
    *out_width = w;
    *out_height = h;
    *intrinsic_w = iw;
    *intrinsic_h = ih;
    return IB_IMAGE_OK;
}

// ------------------------------------------------------------------ child side

static int answer_error(int status, const char *message) {
    printf("ER %d %s\n", status, message);
    fflush(stdout);
    return 0;
}

static int write_all(const uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t w = write(1, bytes, count);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += w;
        count -= (size_t)w;
    }
    return 0;
}

int ib_isolated_child_main(int argc, char **argv) {
    if (argc != 9) return 64;
#ifdef __linux__
    // Dies with the iconbadge that started it: a killed parent must not leave librsvg
    // running on a hostile document. If the parent is already gone, stop now.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)atoll(argv[8])) return 70;
#endif
    const char *kind = argv[2];
    double scale = atof(argv[3]);
    int width = atoi(argv[4]), height = atoi(argv[5]), max_side = atoi(argv[6]);
    long long max_pixels = atoll(argv[7]);
    // A hostile document cannot take the machine's memory: 1 GiB of address space.
    // Not under AddressSanitizer or ThreadSanitizer (`make test-asan`, `make test-tsan`):
    // their shadow memory alone is terabytes of address space, so with the cap the child
    // could not allocate anything ("AddressSanitizer: out of memory: Failed to mmap") and
    // every SVG, JPEG, GIF, ... was refused with "ended without an answer".
#if !IB_SANITIZED
    struct rlimit limit = {1ull << 30, 1ull << 30};
    setrlimit(RLIMIT_AS, &limit);
#endif
    size_t capacity = 1 << 16, size = 0;
    uint8_t *data = malloc(capacity);
    for (;;) {
        if (size == capacity) {
            capacity *= 2;
            data = realloc(data, capacity);
            if (data == NULL) return answer_error(IB_IMAGE_NO_MEMORY, "out of memory");
        }
        ssize_t r = read(0, data + size, capacity - size);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        size += (size_t)r;
    }
    char message[512] = {0};
    if (strcmp(kind, "svg") != 0) {
        uint8_t *pixels = NULL;
        int w = 0, h = 0;
        int status = ib_pixbuf_decode(data, size, kind, max_side, max_pixels, &pixels, &w, &h, message, sizeof message);
        if (status != IB_IMAGE_OK) return answer_error(status, message);
        printf("OK %d %d 0 0\n", w, h);
        fflush(stdout);
        return write_all(pixels, (size_t)w * (size_t)h * 4) == 0 ? 0 : 74;
    }
    double iw = 0, ih = 0;
    int has_size = 0, status = 0;
    void *handle = ib_svg_load(data, size, &iw, &ih, &has_size, &status, message, sizeof message);
    if (handle == NULL) return answer_error(status, message);
    double w = width, h = height;
    if (width <= 0 || height <= 0) {
        if (!has_size) return answer_error(IB_IMAGE_CORRUPT, "the SVG has neither width and height nor a viewBox; give --size WxH");
        w = iw * scale;
        h = ih * scale;
    }
    if (w != w || h != h) return answer_error(IB_IMAGE_CORRUPT, "the SVG's size is not a number");
    if (w < 0.5 || h < 0.5) {
        char text[200];
        snprintf(text, sizeof text, "the SVG renders at %.3g x %.3g px, less than a pixel; give --size WxH or a larger --scale", w, h);
        return answer_error(IB_IMAGE_CORRUPT, text);
    }
    // Sizes past 2e9 px are clamped there: still far over every limit, and an int.
    int pw = (int)((w > 2e9 ? 2e9 : w) + 0.5), ph = (int)((h > 2e9 ? 2e9 : h) + 0.5);
    if (pw > max_side || ph > max_side || (long long)pw * ph > max_pixels) {
        char text[200];
        snprintf(text, sizeof text, "SIZE %d %d", pw, ph);
        return answer_error(IB_IMAGE_TOO_LARGE, text);
    }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) return answer_error(IB_IMAGE_NO_MEMORY, "out of memory");
    cairo_t *cr = cairo_create(surface);
    status = ib_svg_render(handle, cr, 0, 0, pw, ph, message, sizeof message);
    cairo_destroy(cr);
    if (status != IB_IMAGE_OK) return answer_error(status, message);
    cairo_surface_flush(surface);
    printf("OK %d %d %.17g %.17g\n", pw, ph, has_size ? iw : 0, has_size ? ih : 0);
    fflush(stdout);
    const uint8_t *bytes = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < ph; y++) {
        if (write_all(bytes + (size_t)y * (size_t)stride, (size_t)pw * 4) != 0) return 74;
    }
    return 0;
}
