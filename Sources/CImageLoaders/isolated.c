#define _GNU_SOURCE
#include "image_loaders.h"
#include "isolated_server.h"

#include <cairo/cairo.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
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
// between the two calls other than through posix_spawn below.
static int cloexec_pipe(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

// ------------------------------------------------------------------ parent side

// The child's standard error is kept only as a tail, to tell an allocation failure
// (Rust's "memory allocation of N bytes failed", GLib's "failed to allocate") from
// another crash; it is never shown.
void ib_keep_stderr_tail(ib_run_result *result, const uint8_t *bytes, size_t count) {
    size_t room = sizeof result->stderr_tail - 1;
    if (count >= room) {
        memcpy(result->stderr_tail, bytes + count - room, room);
        result->stderr_size = room;
    } else {
        if (result->stderr_size + count > room) {
            size_t drop = result->stderr_size + count - room;
            memmove(result->stderr_tail, result->stderr_tail + drop, result->stderr_size - drop);
            result->stderr_size -= drop;
        }
        memcpy(result->stderr_tail + result->stderr_size, bytes, count);
        result->stderr_size += count;
    }
    result->stderr_tail[result->stderr_size] = '\0';
}

int ib_spawn_isolated(const char *helper, char *const argv[], const posix_spawn_file_actions_t *actions, pid_t *pid) {
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
    // The caller's environment, but the Swift runtime's backtracer off: it would
    // start a process of its own at a crash and fill the stderr tail.
    size_t count = 0;
    while (environ && environ[count]) count++;
    char **environment = malloc((count + 2) * sizeof *environment);
    size_t kept = 0;
    if (environment) {
        for (size_t i = 0; i < count; i++) {
            if (strncmp(environ[i], "SWIFT_BACKTRACE=", 16) != 0) environment[kept++] = environ[i];
        }
        environment[kept++] = (char *)"SWIFT_BACKTRACE=enable=no";
        environment[kept] = NULL;
    }
    int spawned = posix_spawn(pid, helper, actions, &attributes, argv, environment ? environment : environ);
    free(environment);
    posix_spawnattr_destroy(&attributes);
    return spawned;
}

int ib_isolated_run(const char *helper, char *const argv[], const uint8_t *data, size_t size, double time_limit,
                    size_t max_output, size_t expected_output, ib_run_result *result, char *error, size_t error_size) {
    // This thread's long-lived renderer when there can be one (Linux), else a child
    // of our own.
    int served =
        ib_server_run(helper, argv, data, size, time_limit, max_output, expected_output, result, error, error_size);
    if (served >= 0) return served;
    memset(result, 0, sizeof *result);
    int in[2], out[2], err[2];
    if (cloexec_pipe(in) != 0) {
        set_error(error, error_size, "cannot create a pipe for the isolated child");
        return IB_IMAGE_NO_MEMORY;
    }
    if (cloexec_pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        set_error(error, error_size, "cannot create a pipe for the isolated child");
        return IB_IMAGE_NO_MEMORY;
    }
    if (cloexec_pipe(err) != 0) {
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        set_error(error, error_size, "cannot create a pipe for the isolated child");
        return IB_IMAGE_NO_MEMORY;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    pid_t pid;
    int spawned = ib_spawn_isolated(helper, argv, &actions, &pid);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (spawned != 0) {
        close(in[1]);
        close(out[0]);
        close(err[0]);
        char message[512];
        snprintf(message, sizeof message, "cannot start the isolated child %s: %s", helper, strerror(spawned));
        set_error(error, error_size, message);
        return IB_IMAGE_UNAVAILABLE;
    }
    // Feed the input and collect both outputs with poll, all bounded by the deadline.
    double deadline = ib_monotonic_seconds() + (time_limit > 0 ? time_limit : 1e9);
    size_t written = 0;
    int in_fd = in[1];
    int err_fd = err[0];
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
    if (size == 0) {
        close(in_fd);
        in_fd = -1;
    }
    size_t capacity = expected_output > (1 << 16) ? expected_output : (1 << 16), received = 0;
    uint8_t *buffer = malloc(capacity);
    int status = buffer ? IB_IMAGE_OK : IB_IMAGE_NO_MEMORY;
    int eof = buffer == NULL;
    while (!eof) {
        double left = deadline - ib_monotonic_seconds();
        if (left <= 0) {
            result->timed_out = 1;
            break;
        }
        struct pollfd fds[3];
        int n = 0;
        fds[n].fd = out[0];
        fds[n].events = POLLIN;
        n++;
        int err_index = -1, in_index = -1;
        if (err_fd >= 0) {
            err_index = n;
            fds[n].fd = err_fd;
            fds[n].events = POLLIN;
            n++;
        }
        if (in_fd >= 0) {
            in_index = n;
            fds[n].fd = in_fd;
            fds[n].events = POLLOUT;
            n++;
        }
        int ready = poll(fds, n, (int)(left * 1000) + 1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (in_index >= 0 && (fds[in_index].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = write(in_fd, data + written, size - written);
            if (w > 0) written += (size_t)w;
            if (w < 0 && errno != EAGAIN && errno != EINTR) written = size; // the child closed its input
            if (written >= size) {
                close(in_fd);
                in_fd = -1;
            }
        }
        if (err_index >= 0 && (fds[err_index].revents & (POLLIN | POLLHUP | POLLERR))) {
            uint8_t chunk[4096];
            ssize_t r = read(err_fd, chunk, sizeof chunk);
            if (r > 0) ib_keep_stderr_tail(result, chunk, (size_t)r);
            if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
                close(err_fd);
                err_fd = -1;
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (received == capacity) {
                if (capacity >= max_output) {
                    status = IB_IMAGE_TOO_LARGE;
                    break;
                }
                size_t grown = capacity * 2;
                if (grown > max_output) grown = max_output;
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
            if (r > 0) received += (size_t)r;
        }
    }
    // What the child wrote on standard error after its standard output closed.
    if (err_fd >= 0 && !result->timed_out) {
        fcntl(err_fd, F_SETFL, O_NONBLOCK);
        uint8_t chunk[4096];
        ssize_t r;
        while ((r = read(err_fd, chunk, sizeof chunk)) > 0) ib_keep_stderr_tail(result, chunk, (size_t)r);
    }
    if (in_fd >= 0) close(in_fd);
    if (err_fd >= 0) close(err_fd);
    close(out[0]);
    if (result->timed_out || status != IB_IMAGE_OK) kill(pid, SIGKILL);
    int child = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &child, 0, &usage) < 0 && errno == EINTR) {
    }
    result->max_rss_kib = usage.ru_maxrss;
    result->signaled = WIFSIGNALED(child) ? WTERMSIG(child) : 0;
    result->exit_code = WIFEXITED(child) ? WEXITSTATUS(child) : -1;
    if (status != IB_IMAGE_OK) {
        free(buffer);
        set_error(error, error_size,
                  status == IB_IMAGE_TOO_LARGE ? "the isolated child's answer is over its size limit"
                                               : "out of memory reading the isolated child's answer");
        return status;
    }
    result->output = buffer;
    result->output_size = received;
    return IB_IMAGE_OK;
}

int ib_run_ran_out_of_memory(const ib_run_result *result) {
    const char *tail = result->stderr_tail;
    if (strstr(tail, "memory allocation of") != NULL || strstr(tail, "failed to allocate") != NULL ||
        strstr(tail, "out of memory") != NULL || strstr(tail, "Out of memory") != NULL ||
        strstr(tail, "Cannot allocate memory") != NULL) {
        return 1;
    }
    // A crash after an allocation failed that nothing reported (Cairo 1.16 crashes
    // on some of its out-of-memory paths): the child's crash handler says how close
    // its address space came to the cap.
    const char *marker = strstr(tail, "iconbadge-child: crashed, peak ");
    unsigned long long peak = 0, cap = 0;
    if (marker && sscanf(marker, "iconbadge-child: crashed, peak %llu of %llu", &peak, &cap) == 2 && cap > 0) {
        unsigned long long margin = cap / 8 > (32ull << 20) ? cap / 8 : (32ull << 20);
        return peak + margin >= cap;
    }
    return 0;
}

int ib_isolated_decode(const char *helper, const char *kind, double scale, int width, int height, int max_side,
                       int64_t max_pixels, int64_t extra_pixels, double time_limit, const uint8_t *data, size_t size,
                       uint8_t **pixels, int *out_width, int *out_height, double *intrinsic_w, double *intrinsic_h,
                       int *has_size, char *error, size_t error_size) {
    *pixels = NULL;
    *has_size = 0;
    char scale_text[64], width_text[32], height_text[32], side_text[32], pixels_text[32], extra_text[32];
    snprintf(scale_text, sizeof scale_text, "%.17g", scale);
    snprintf(width_text, sizeof width_text, "%d", width);
    snprintf(height_text, sizeof height_text, "%d", height);
    snprintf(side_text, sizeof side_text, "%d", max_side);
    snprintf(pixels_text, sizeof pixels_text, "%lld", (long long)max_pixels);
    snprintf(extra_text, sizeof extra_text, "%lld", (long long)extra_pixels);
    char parent_text[32];
    snprintf(parent_text, sizeof parent_text, "%lld", (long long)getpid());
    char *argv[] = {(char *)"iconbadge", (char *)"--isolated-decode", (char *)kind, scale_text, width_text,
                    height_text, side_text, pixels_text, extra_text, parent_text, NULL};
    // The answer is a line and at most max_side² pixels; sized up front when known.
    size_t expected = width > 0 && height > 0 ? (size_t)width * (size_t)height * 4 + 256 : 0;
    size_t max_output = (size_t)max_side * (size_t)max_side * 4 + 256;
    ib_run_result run;
    int status =
        ib_isolated_run(helper, argv, data, size, time_limit, max_output, expected, &run, error, error_size);
    if (status != IB_IMAGE_OK) return status;
    uint8_t *buffer = run.output;
    size_t received = run.output_size;
    const char *what = strcmp(kind, "svg") == 0 ? "SVG (librsvg)" : "image (gdk-pixbuf)";
    if (run.timed_out) {
        free(buffer);
        char message[160];
        snprintf(message, sizeof message, "took more than %g s to decode", time_limit);
        set_error(error, error_size, message);
        return IB_IMAGE_TIMEOUT;
    }
    if (run.signaled) {
        free(buffer);
        char message[200];
        if (ib_run_ran_out_of_memory(&run)) {
            snprintf(message, sizeof message, "OOM");
            set_error(error, error_size, message);
            return IB_IMAGE_NO_MEMORY;
        }
        snprintf(message, sizeof message, "the %s decoder crashed on it (signal %d); the file is refused", what,
                 run.signaled);
        set_error(error, error_size, message);
        return IB_IMAGE_CRASHED;
    }
    uint8_t *newline = received ? memchr(buffer, '\n', received) : NULL;
    if (newline == NULL) {
        free(buffer);
        if (ib_run_ran_out_of_memory(&run)) {
            set_error(error, error_size, "OOM");
            return IB_IMAGE_NO_MEMORY;
        }
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
    int w = 0, h = 0, sized = 0;
    double iw = 0, ih = 0;
    if (strncmp((char *)buffer, "SZ ", 3) == 0) {
        // A probe: the intrinsic size only.
        if (sscanf((char *)buffer, "SZ %lg %lg %d", &iw, &ih, &sized) != 3 || received != (size_t)(newline - buffer) + 1) {
            free(buffer);
            set_error(error, error_size, "the isolated decoder gave a malformed answer");
            return IB_IMAGE_CRASHED;
        }
        free(buffer);
        *intrinsic_w = iw;
        *intrinsic_h = ih;
        *has_size = sized;
        *out_width = 0;
        *out_height = 0;
        return IB_IMAGE_OK;
    }
    if (sscanf((char *)buffer, "OK %d %d %lg %lg", &w, &h, &iw, &ih) != 4 || w <= 0 || h <= 0 || w > max_side ||
        h > max_side || received != (size_t)(newline - buffer) + 1 + (size_t)w * (size_t)h * 4) {
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
    *has_size = iw > 0 && ih > 0;
    return IB_IMAGE_OK;
}

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
    ib_loaders_child_mode();
    return 0;
}

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

// The SVG half of ib_isolated_child_main: probes or renders `handle` (NULL when
// loading failed with `status` and `message`) and answers; returns the exit status.
static int svg_answer(void *handle, int status, char *message, size_t message_size, double iw, double ih,
                      int has_size, double scale, int width, int height, int max_side, long long max_pixels,
                      long long extra_pixels, size_t size) {
    if (handle == NULL) return answer_error(status, message);
    if (width < 0 || height < 0) {
        // A probe: the intrinsic size, no render.
        printf("SZ %.17g %.17g %d\n", has_size ? iw : 0, has_size ? ih : 0, has_size);
        fflush(stdout);
        return 0;
    }
    int pw = 0, ph = 0;
    status = ib_svg_pixel_size(iw, ih, has_size, scale, width, height, max_side, max_pixels, &pw, &ph, message,
                               message_size);
    if (status != IB_IMAGE_OK) return answer_error(status, message);
    ib_set_memory_cap(ib_memory_cap((int64_t)pw * ph + extra_pixels, (int64_t)size));
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        return answer_error(IB_IMAGE_NO_MEMORY, "OOM");
    }
    cairo_t *cr = cairo_create(surface);
    status = ib_svg_render(handle, cr, 0, 0, pw, ph, message, message_size);
    cairo_status_t drawn = cairo_status(cr);
    cairo_destroy(cr);
    int code = 0;
    if (status == IB_IMAGE_OK && drawn == CAIRO_STATUS_NO_MEMORY) {
        code = answer_error(IB_IMAGE_NO_MEMORY, "OOM");
    } else if (status != IB_IMAGE_OK) {
        code = answer_error(status, message);
    } else {
        cairo_surface_flush(surface);
        printf("OK %d %d %.17g %.17g\n", pw, ph, has_size ? iw : 0, has_size ? ih : 0);
        fflush(stdout);
        const uint8_t *bytes = cairo_image_surface_get_data(surface);
        int stride = cairo_image_surface_get_stride(surface);
        if (stride == pw * 4) {
            code = write_all(bytes, (size_t)ph * (size_t)stride) == 0 ? 0 : 74;
        } else {
            for (int y = 0; y < ph && code == 0; y++) {
                if (write_all(bytes + (size_t)y * (size_t)stride, (size_t)pw * 4) != 0) code = 74;
            }
        }
    }
    cairo_surface_destroy(surface);
    return code;
}

int ib_isolated_child_main(int argc, char **argv) {
    if (argc != 10) return 64;
    if (ib_child_begin(argv[9]) != 0) return 70;
    const char *kind = argv[2];
    double scale = atof(argv[3]);
    int width = atoi(argv[4]), height = atoi(argv[5]), max_side = atoi(argv[6]);
    long long max_pixels = atoll(argv[7]);
    long long extra_pixels = atoll(argv[8]);
    int is_svg = strcmp(kind, "svg") == 0;
    // Until the render size is known: the libraries and parsing, plus the document's
    // embedded images (counted by the parent); a raster decoder may use the most
    // the pixel limit allows.
    ib_set_memory_cap(ib_memory_cap(is_svg ? extra_pixels : max_pixels, 0));
    uint8_t *data = NULL;
    size_t size = 0;
    if (ib_read_all_input(&data, &size) != 0) return answer_error(IB_IMAGE_NO_MEMORY, "out of memory");
    if (is_svg) ib_set_memory_cap(ib_memory_cap(extra_pixels, (int64_t)size));
    char message[512] = {0};
    if (!is_svg) {
        uint8_t *pixels = NULL;
        int w = 0, h = 0;
        int status = ib_pixbuf_decode(data, size, kind, max_side, max_pixels, &pixels, &w, &h, message, sizeof message);
        free(data);
        if (status != IB_IMAGE_OK) return answer_error(status, message);
        printf("OK %d %d 0 0\n", w, h);
        fflush(stdout);
        int written = write_all(pixels, (size_t)w * (size_t)h * 4);
        free(pixels);
        return written == 0 ? 0 : 74;
    }
    double iw = 0, ih = 0;
    int has_size = 0, status = 0;
    void *handle = ib_svg_load(data, size, &iw, &ih, &has_size, &status, message, sizeof message);
    // Everything is freed on the way out: a long-lived renderer runs job after job.
    int code = svg_answer(handle, status, message, sizeof message, iw, ih, has_size, scale, width, height, max_side,
                          max_pixels, extra_pixels, size);
    if (handle != NULL) ib_svg_free(handle);
    free(data);
    return code;
}

