// The parent side of an isolated job (ib_isolated_run, ib_isolated_decode): starts
// the child, feeds it, collects its answer under a deadline and a size limit. The
// child is iconbadge-loader for a decode (loader/) and iconbadge itself for a vector
// render; their shared child side is isolated_child.c.
#define _GNU_SOURCE
#include "image_loaders.h"
#include "isolated_server.h"

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


static void set_error(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    strncpy(error, message ? message : "unknown error", error_size - 1);
    error[error_size - 1] = '\0';
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
        if (spawned == ENOENT && access(helper, X_OK) == 0) {
            // The program is there, so what exec did not find is its program
            // interpreter: iconbadge-loader is linked against glibc, and this system
            // (Alpine's musl, a distroless or FROM scratch image) has none. The static
            // iconbadge itself runs there; only the libraries the loader opens cannot.
            snprintf(message, sizeof message,
                     "%s cannot run here: this system has no glibc; on one with glibc 2.31 or later, install "
                     "librsvg2-2 (librsvg 2.46 or later) and libgdk-pixbuf-2.0-0 for this icon, or convert it to "
                     "PNG, which needs neither",
                     helper);
        } else {
            snprintf(message, sizeof message, "cannot start the isolated child %s: %s", helper, strerror(spawned));
        }
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


int ib_isolated_record(const char *helper, const uint8_t *data, size_t size, const double viewport[4],
                       const double matrix[6], double extent_w, double extent_h, int64_t extra_pixels,
                       size_t max_script, double time_limit, uint8_t **script, size_t *script_size,
                       double replay_matrix[6], char *error, size_t error_size) {
    *script = NULL;
    *script_size = 0;
    char viewport_text[128], matrix_text[192], extent_text[64], extra_text[32], max_text[32], parent_text[32];
    snprintf(viewport_text, sizeof viewport_text, "%.17g,%.17g,%.17g,%.17g", viewport[0], viewport[1], viewport[2],
             viewport[3]);
    snprintf(matrix_text, sizeof matrix_text, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", matrix[0], matrix[1], matrix[2],
             matrix[3], matrix[4], matrix[5]);
    snprintf(extent_text, sizeof extent_text, "%.17g,%.17g", extent_w, extent_h);
    snprintf(extra_text, sizeof extra_text, "%lld", (long long)extra_pixels);
    snprintf(max_text, sizeof max_text, "%zu", max_script);
    snprintf(parent_text, sizeof parent_text, "%lld", (long long)getpid());
    char *argv[] = {(char *)"iconbadge-loader", (char *)"--isolated-decode", (char *)"record", viewport_text,
                    matrix_text, extent_text, extra_text, max_text, parent_text, NULL};
    ib_run_result run;
    int status = ib_isolated_run(helper, argv, data, size, time_limit, max_script + 64, 0, &run, error, error_size);
    if (status != IB_IMAGE_OK) return status;
    uint8_t *buffer = run.output;
    size_t received = run.output_size;
    if (run.timed_out) {
        free(buffer);
        snprintf(error, error_size, "took more than %g s to draw", time_limit);
        return IB_IMAGE_TIMEOUT;
    }
    if (run.signaled || ib_run_ran_out_of_memory(&run)) {
        free(buffer);
        if (ib_run_ran_out_of_memory(&run)) {
            set_error(error, error_size, "OOM");
            return IB_IMAGE_NO_MEMORY;
        }
        snprintf(error, error_size, "the SVG (librsvg) renderer crashed on it (signal %d); the file is refused",
                 run.signaled);
        return IB_IMAGE_CRASHED;
    }
    uint8_t *newline = received ? memchr(buffer, '\n', received < 256 ? received : 256) : NULL;
    if (newline == NULL) {
        free(buffer);
        set_error(error, error_size, "the isolated renderer ended without an answer");
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
    unsigned long long length = 0;
    size_t header = (size_t)(newline - buffer) + 1;
    double *r = replay_matrix;
    if (sscanf((char *)buffer, "SC %llu %lg %lg %lg %lg %lg %lg", &length, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5]) !=
            7 ||
        length != received - header) {
        free(buffer);
        set_error(error, error_size, "the isolated renderer gave a malformed answer");
        return IB_IMAGE_CRASHED;
    }
    memmove(buffer, buffer + header, received - header);
    *script = buffer;
    *script_size = received - header;
    return IB_IMAGE_OK;
}
