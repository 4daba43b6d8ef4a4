// The long-lived isolated renderer: one per thread and helper, `HELPER
// --isolated-decode serve PARENT_PID`, where HELPER is iconbadge-loader (SVG and
// gdk-pixbuf decodes and recordings; it loads librsvg, gdk-pixbuf, GLib and
// fontconfig's configuration once), the one helper iconbadge runs. Compiled into
// both programs (the loader without the parent side, IB_SERVER_ONLY). It runs job
// after job: exactly the code a child started for one job runs (the same entry and
// arguments, its own memory cap, locale pinning, crash report, parent-death signal
// and answer), with the job's input as its standard input and its standard output
// and error on pipes this thread reads.
//
// Why: a child per job costs an exec and ~20 ms of dynamic loading, and a forked
// child per job still re-faults every library page it touches (measured: half of a
// 48 px SVG render). A batch of small SVG icons ran at 57 to 69 renders/s (issue 23).
//
// What stays as it was, per job: the memory cap (RLIMIT_DATA, raised by what the
// renderer grew by before the job, `ib_server_memory_offset`, so a job is charged
// only its own memory); the time limit (this thread kills the renderer at the
// deadline); a crash, a limit or a malformed answer ends the renderer, fails that one
// job (as it did the child) and the next job starts a new renderer. What changes: a
// job shares its process with the jobs before it on that thread. A renderer retires
// once it has grown by RETIRE_GROWTH, so fragmentation is bounded.
//
// Linux only (memfd_create, PR_SET_PDEATHSIG); elsewhere ib_isolated_run starts a
// child per job as before.
#define _GNU_SOURCE
#include "isolated_server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#include <sys/prctl.h>
#endif

extern char **environ;

uint64_t ib_server_memory_offset = 0;

uint64_t ib_private_memory(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[256];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return 0;
    text[n] = '\0';
    // size resident shared text lib data dt: "data" is VmData, in pages.
    unsigned long long fields[6] = {0};
    if (sscanf(text, "%llu %llu %llu %llu %llu %llu", &fields[0], &fields[1], &fields[2], &fields[3], &fields[4],
               &fields[5]) != 6)
        return 0;
    return (uint64_t)fields[5] * (uint64_t)sysconf(_SC_PAGESIZE);
}

// The wire on the socket between a thread and its renderer (descriptor 3 in the
// renderer), native byte order, both ends being the same binary:
// - request: 'R', argc (u32), argc × (length u32, bytes), input length (u64), input;
// - answer: 'X', the entry's exit status (i32), retiring (u8: 1 when the renderer
//   exits after this job).
// The job's standard output and error go to two pipes the thread reads meanwhile;
// the entry flushes both before 'X' is sent, so that what is in the pipes once 'X'
// has arrived is all of it.
enum { MAX_ARGUMENTS = 16, MAX_ARGUMENT = 4096, SERVER_SOCKET = 3 };
#define MAX_INPUT (4ull << 30)
// A renderer that grew by more than this since it loaded its libraries retires.
#define RETIRE_GROWTH (64ull << 20)

#ifdef __linux__

// The parent side; iconbadge-loader, which only serves, compiles without it
// (IB_SERVER_ONLY, scripts/build-loader.sh).
#ifndef IB_SERVER_ONLY

typedef struct {
    pid_t pid;
    int socket;
    int out; // the read ends of the renderer's standard output and error
    int err;
    char *helper;
    char *environment; // the environment it was started with, joined by '\n'
    size_t environment_size;
} server;

static void set_error_message(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s", message);
}

static pthread_key_t server_key;
static pthread_once_t server_key_once = PTHREAD_ONCE_INIT;

static char *joined_environment(size_t *size) {
    size_t total = 0;
    for (char **entry = environ; entry && *entry; entry++) total += strlen(*entry) + 1;
    char *joined = malloc(total + 1);
    if (joined == NULL) return NULL;
    size_t at = 0;
    for (char **entry = environ; entry && *entry; entry++) {
        size_t length = strlen(*entry);
        memcpy(joined + at, *entry, length);
        joined[at + length] = '\n';
        at += length + 1;
    }
    *size = at;
    return joined;
}

// Ends the renderer (killed if still running) and returns its wait status, or -1.
static int server_stop(server *renderer, int kill_it) {
    if (renderer == NULL) return -1;
    // A renderer that reads the end of its socket exits; one killed stops at once.
    close(renderer->socket);
    if (kill_it) kill(renderer->pid, SIGKILL);
    int status = -1;
    while (waitpid(renderer->pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(renderer->out);
    close(renderer->err);
    free(renderer->helper);
    free(renderer->environment);
    free(renderer);
    return status;
}

static void servers_release(void *servers);

// At a thread's end (pthread key destructor): its renderers go with it.
static void make_key(void) { pthread_key_create(&server_key, servers_release); }

static int cloexec_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

// Starts a renderer for this thread. Its parent-death signal follows this thread,
// which is why every thread has a renderer of its own.
static server *server_start(const char *helper) {
    int pair[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    int null = open("/dev/null", O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (null < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0 || cloexec_pipe(out) != 0 ||
        cloexec_pipe(err) != 0) {
        int fds[] = {null, pair[0], pair[1], out[0], out[1], err[0], err[1]};
        for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++) {
            if (fds[i] >= 0) close(fds[i]);
        }
        return NULL;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, null, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_adddup2(&actions, pair[1], SERVER_SOCKET);
    char parent[32];
    snprintf(parent, sizeof parent, "%lld", (long long)getpid());
    char *argv[] = {(char *)"iconbadge", (char *)"--isolated-decode", (char *)"serve", parent, NULL};
    pid_t pid;
    int spawned = ib_spawn_isolated(helper, argv, &actions, &pid);
    posix_spawn_file_actions_destroy(&actions);
    close(pair[1]);
    close(out[1]);
    close(err[1]);
    close(null);
    server *renderer = spawned == 0 ? calloc(1, sizeof *renderer) : NULL;
    if (renderer == NULL) {
        close(pair[0]);
        close(out[0]);
        close(err[0]);
        if (spawned == 0) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
        }
        return NULL;
    }
    renderer->pid = pid;
    renderer->socket = pair[0];
    renderer->out = out[0];
    renderer->err = err[0];
    fcntl(renderer->out, F_SETFL, O_NONBLOCK);
    fcntl(renderer->err, F_SETFL, O_NONBLOCK);
    renderer->helper = strdup(helper);
    renderer->environment = joined_environment(&renderer->environment_size);
    return renderer;
}

// A thread keeps one renderer per helper, so that alternating jobs do not restart
// either; iconbadge has one helper, the loader (it drew vector outputs in a second,
// itself, until they were drawn in its process).
enum { HELPERS_PER_THREAD = 2 };
typedef struct {
    server *renderers[HELPERS_PER_THREAD];
} thread_servers;

static void servers_release(void *servers) {
    thread_servers *all = servers;
    for (int i = 0; i < HELPERS_PER_THREAD; i++) server_stop(all->renderers[i], 1);
    free(all);
}

static thread_servers *this_thread_servers(void) {
    pthread_once(&server_key_once, make_key);
    thread_servers *all = pthread_getspecific(server_key);
    if (all == NULL && (all = calloc(1, sizeof *all)) != NULL) pthread_setspecific(server_key, all);
    return all;
}

// The slot of `helper` in this thread's renderers: its own, else an empty one, else
// the first (whose renderer is then stopped). -1 when out of memory.
static int slot_for(thread_servers *all, const char *helper) {
    int empty = -1;
    for (int i = 0; i < HELPERS_PER_THREAD; i++) {
        if (all->renderers[i] != NULL && strcmp(all->renderers[i]->helper, helper) == 0) return i;
        if (all->renderers[i] == NULL && empty < 0) empty = i;
    }
    if (empty >= 0) return empty;
    server_stop(all->renderers[0], 1);
    all->renderers[0] = NULL;
    return 0;
}

// This thread's renderer for `helper`, started or replaced as needed: one started
// with another environment (a test that set FONTCONFIG_FILE) is stopped, one that
// has exited is reaped. NULL when none can be started.
static server *server_for(const char *helper, int *fresh, int *slot) {
    thread_servers *all = this_thread_servers();
    *fresh = 0;
    if (all == NULL) return NULL;
    *slot = slot_for(all, helper);
    server *renderer = all->renderers[*slot];
    if (renderer != NULL) {
        size_t size = 0;
        char *environment = joined_environment(&size);
        int same = environment != NULL && renderer->environment != NULL &&
                   size == renderer->environment_size && memcmp(environment, renderer->environment, size) == 0;
        free(environment);
        if (same && waitpid(renderer->pid, NULL, WNOHANG) == 0) return renderer;
        all->renderers[*slot] = NULL;
        server_stop(renderer, 1);
    }
    renderer = server_start(helper);
    if (renderer == NULL) return NULL;
    if (renderer->helper == NULL) {
        server_stop(renderer, 1);
        return NULL;
    }
    all->renderers[*slot] = renderer;
    *fresh = 1;
    return renderer;
}

void ib_server_prestart(const char *helper) {
    int fresh = 0, slot = 0;
    server_for(helper, &fresh, &slot);
}

// Stops this thread's renderer in `slot`; returns its wait status.
static int server_drop(int slot, int kill_it) {
    thread_servers *all = pthread_getspecific(server_key);
    if (all == NULL) return -1;
    server *renderer = all->renderers[slot];
    all->renderers[slot] = NULL;
    return server_stop(renderer, kill_it);
}

// Writes all of `bytes` before `deadline`; 0, -1 (the peer is gone), -2 (timeout).
static int send_all(int fd, const void *bytes, size_t count, double deadline) {
    const uint8_t *at = bytes;
    while (count > 0) {
        ssize_t w = send(fd, at, count, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            at += w;
            count -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return -1;
        double left = deadline - ib_monotonic_seconds();
        if (left <= 0) return -2;
        struct pollfd pfd = {fd, POLLOUT, 0};
        poll(&pfd, 1, (int)(left * 1000) + 1);
    }
    return 0;
}

// Reads exactly `count` bytes before `deadline`; 0, -1 (end or error), -2 (timeout).
static int receive_all(int fd, void *bytes, size_t count, double deadline) {
    uint8_t *at = bytes;
    while (count > 0) {
        ssize_t r = recv(fd, at, count, MSG_DONTWAIT);
        if (r > 0) {
            at += r;
            count -= (size_t)r;
            continue;
        }
        if (r == 0) return -1;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
        double left = deadline - ib_monotonic_seconds();
        if (left <= 0) return -2;
        struct pollfd pfd = {fd, POLLIN, 0};
        poll(&pfd, 1, (int)(left * 1000) + 1);
    }
    return 0;
}

static int send_request(int fd, char *const argv[], const uint8_t *data, size_t size, double deadline) {
    // The header in one piece (a few hundred bytes), then the input.
    uint32_t argc = 0;
    size_t header_size = 1 + 4 + 8;
    while (argv[argc] != NULL) header_size += 4 + strlen(argv[argc++]);
    uint8_t *header = malloc(header_size);
    if (header == NULL) return -1;
    uint8_t *at = header;
    *at++ = 'R';
    memcpy(at, &argc, 4);
    at += 4;
    for (uint32_t i = 0; i < argc; i++) {
        uint32_t length = (uint32_t)strlen(argv[i]);
        memcpy(at, &length, 4);
        memcpy(at + 4, argv[i], length);
        at += 4 + length;
    }
    uint64_t length = size;
    memcpy(at, &length, 8);
    int status = send_all(fd, header, header_size, deadline);
    free(header);
    if (status == 0 && size > 0) status = send_all(fd, data, size, deadline);
    return status;
}

// What a job's standard output collects into: at most `max_output` bytes.
typedef struct {
    uint8_t *bytes;
    size_t size, capacity, max_output;
    int status; // IB_IMAGE_OK, or TOO_LARGE / NO_MEMORY once it failed
} collected;

// Reads what `fd` has now; returns 0 at its end (or an error), 1 while it is open.
static int collect(int fd, collected *into, ib_run_result *result) {
    for (;;) {
        if (into != NULL && into->status != IB_IMAGE_OK) return 0;
        uint8_t chunk[1 << 16];
        uint8_t *target = chunk;
        size_t room = sizeof chunk;
        if (into != NULL) {
            if (into->size == into->capacity) {
                if (into->capacity >= into->max_output) {
                    into->status = IB_IMAGE_TOO_LARGE;
                    return 0;
                }
                size_t grown = into->capacity * 2;
                if (grown > into->max_output) grown = into->max_output;
                uint8_t *bigger = realloc(into->bytes, grown);
                if (bigger == NULL) {
                    into->status = IB_IMAGE_NO_MEMORY;
                    return 0;
                }
                into->bytes = bigger;
                into->capacity = grown;
            }
            target = into->bytes + into->size;
            room = into->capacity - into->size;
        }
        ssize_t r = read(fd, target, room);
        if (r > 0) {
            if (into != NULL) {
                into->size += (size_t)r;
            } else {
                ib_keep_stderr_tail(result, chunk, (size_t)r);
            }
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? 1 : 0;
    }
}

int ib_server_run(const char *helper, char *const argv[], const uint8_t *data, size_t size, double time_limit,
                  size_t max_output, size_t expected_output, ib_run_result *result, char *error, size_t error_size) {
    uint32_t argc = 0;
    while (argv[argc] != NULL) argc++;
    if (argc < 3 || argc > MAX_ARGUMENTS || size > MAX_INPUT) return -1;
    for (uint32_t i = 0; i < argc; i++) {
        if (strlen(argv[i]) > MAX_ARGUMENT) return -1;
    }
    memset(result, 0, sizeof *result);
    double deadline = ib_monotonic_seconds() + (time_limit > 0 ? time_limit : 1e9);
    int fresh = 0, slot = 0;
    server *renderer = server_for(helper, &fresh, &slot);
    if (renderer == NULL) return -1; // the caller starts a child, and reports a failure to start
    // Nothing may be left from a job before (there never is; a renderer that wrote
    // between jobs would have its bytes counted in the next answer).
    collect(renderer->out, NULL, result);
    collect(renderer->err, NULL, result);
    memset(result, 0, sizeof *result);
    int sent = send_request(renderer->socket, argv, data, size, deadline);
    if (sent == -1 && !fresh) {
        // It ended between two jobs (killed from outside): once more with a new one.
        server_drop(slot, 1);
        renderer = server_for(helper, &fresh, &slot);
        if (renderer == NULL) return -1;
        sent = send_request(renderer->socket, argv, data, size, deadline);
    }
    collected output = {malloc(expected_output > (1 << 16) ? expected_output : (1 << 16)), 0, 0, max_output,
                        IB_IMAGE_OK};
    if (output.bytes == NULL) output.status = IB_IMAGE_NO_MEMORY;
    output.capacity = expected_output > (1 << 16) ? expected_output : (1 << 16);
    int answered = 0, retiring = 0, ended = sent == -1, out_open = 1, err_open = 1;
    int32_t code = 0;
    if (sent == -2) result->timed_out = 1;
    // Until the answer, or the renderer's end and both pipes' end (a crash: its
    // report is on standard error), or the deadline.
    while (sent == 0 && output.status == IB_IMAGE_OK && !answered && (!ended || out_open || err_open)) {
        double left = deadline - ib_monotonic_seconds();
        if (left <= 0) {
            result->timed_out = 1;
            break;
        }
        struct pollfd fds[3] = {{ended ? -1 : renderer->socket, POLLIN, 0},
                                {out_open ? renderer->out : -1, POLLIN, 0},
                                {err_open ? renderer->err : -1, POLLIN, 0}};
        if (poll(fds, 3, (int)(left * 1000) + 1) < 0 && errno != EINTR) break;
        if (out_open && fds[1].revents) out_open = collect(renderer->out, &output, result);
        if (err_open && fds[2].revents) err_open = collect(renderer->err, NULL, result);
        if (!ended && fds[0].revents) {
            uint8_t kind = 0;
            int got = receive_all(renderer->socket, &kind, 1, deadline);
            if (got == 0 && kind == 'X') got = receive_all(renderer->socket, &code, sizeof code, deadline);
            uint8_t retire = 0;
            if (got == 0 && kind == 'X') got = receive_all(renderer->socket, &retire, 1, deadline);
            if (got == -2) {
                result->timed_out = 1;
                break;
            }
            if (got == 0 && kind == 'X') {
                answered = 1;
                retiring = retire != 0;
            } else {
                ended = 1; // its end, or not our wire: either way it is done
            }
        }
    }
    if (answered) {
        // Flushed before 'X': all of it is in the pipes now.
        collect(renderer->out, &output, result);
        collect(renderer->err, NULL, result);
        result->exit_code = code;
        if (retiring) server_drop(slot, 0);
    } else {
        // A timeout, an answer over its limit, or a renderer that ended mid-job: it
        // goes, and how it ended is the job's end.
        int status = server_drop(slot, 1);
        if (!result->timed_out && output.status == IB_IMAGE_OK) {
            result->signaled = status >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            result->exit_code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            if (status < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
                // Ended without an answer and without a failure status: a broken wire.
                result->signaled = SIGKILL;
                result->exit_code = -1;
            }
        }
    }
    if (output.status != IB_IMAGE_OK) {
        free(output.bytes);
        set_error_message(error, error_size,
                          output.status == IB_IMAGE_TOO_LARGE ? "the isolated child's answer is over its size limit"
                                                              : "out of memory reading the isolated child's answer");
        return output.status;
    }
    result->output = output.bytes;
    result->output_size = output.size;
    return IB_IMAGE_OK;
}

#endif // IB_SERVER_ONLY

// ------------------------------------------------------------------ renderer side

static int read_exactly(int fd, void *bytes, size_t count) {
    uint8_t *at = bytes;
    while (count > 0) {
        ssize_t r = read(fd, at, count);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        at += r;
        count -= (size_t)r;
    }
    return 0;
}

static int write_exactly(int fd, const void *bytes, size_t count) {
    const uint8_t *at = bytes;
    while (count > 0) {
        ssize_t w = send(fd, at, count, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        at += w;
        count -= (size_t)w;
    }
    return 0;
}

static void free_arguments(char **argv, uint32_t argc) {
    for (uint32_t i = 0; i < argc; i++) free(argv[i]);
}

// Reads one request; its input becomes standard input (a memory file, read as a
// child reads its pipe). Returns argc, 0 at the socket's end, -1 when malformed.
static int read_request(char **argv) {
    uint8_t kind = 0;
    uint32_t argc = 0;
    if (read_exactly(SERVER_SOCKET, &kind, 1) != 0) return 0;
    if (kind != 'R' || read_exactly(SERVER_SOCKET, &argc, sizeof argc) != 0 || argc < 3 || argc > MAX_ARGUMENTS)
        return -1;
    for (uint32_t i = 0; i < argc; i++) {
        uint32_t length = 0;
        if (read_exactly(SERVER_SOCKET, &length, sizeof length) != 0 || length > MAX_ARGUMENT ||
            (argv[i] = malloc(length + 1)) == NULL || read_exactly(SERVER_SOCKET, argv[i], length) != 0) {
            free_arguments(argv, argc);
            return -1;
        }
        argv[i][length] = '\0';
    }
    argv[argc] = NULL;
    uint64_t size = 0;
    int input = -1;
    if (read_exactly(SERVER_SOCKET, &size, sizeof size) != 0 || size > MAX_INPUT ||
        (input = memfd_create("iconbadge-input", MFD_CLOEXEC)) < 0) {
        free_arguments(argv, argc);
        return -1;
    }
    uint8_t copy[1 << 16];
    for (uint64_t left = size; left > 0;) {
        size_t take = left < sizeof copy ? (size_t)left : sizeof copy;
        if (read_exactly(SERVER_SOCKET, copy, take) != 0 || write(input, copy, take) != (ssize_t)take) {
            close(input);
            free_arguments(argv, argc);
            return -1;
        }
        left -= take;
    }
    int ok = lseek(input, 0, SEEK_SET) == 0 && dup2(input, 0) == 0;
    close(input);
    if (!ok) {
        free_arguments(argv, argc);
        return -1;
    }
    return (int)argc;
}

int ib_server_main(const char *parent_pid, ib_child_entry entry, void (*preload)(void)) {
    // Dies with the thread that started it, and stops if that is already gone.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)atoll(parent_pid)) return 70;
    if (fcntl(SERVER_SOCKET, F_GETFD) < 0) return 64;
    fcntl(SERVER_SOCKET, F_SETFD, FD_CLOEXEC);
    ib_child_pin_environment();
    uint64_t before = ib_private_memory();
    if (preload != NULL) preload();
    uint64_t loaded = ib_private_memory();
    struct rlimit unlimited;
    getrlimit(RLIMIT_DATA, &unlimited);
    int null = open("/dev/null", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    for (;;) {
        char *argv[MAX_ARGUMENTS + 1] = {0};
        int argc = read_request(argv);
        if (argc <= 0) return argc == 0 ? 0 : 70;
        // A job is charged what a child of its own would be: not the libraries
        // loaded before it, nor what the jobs before it left.
        uint64_t now = ib_private_memory();
        ib_server_memory_offset = now > before ? now - before : 0;
        int32_t code = entry(argc, argv);
        fflush(stdout);
        fflush(stderr);
        free_arguments(argv, (uint32_t)argc);
        ib_server_memory_offset = 0;
        setrlimit(RLIMIT_DATA, &unlimited);
        if (null >= 0) dup2(null, 0);
#ifdef __GLIBC__
        malloc_trim(0);
#endif
        uint8_t retiring = ib_private_memory() > loaded + RETIRE_GROWTH;
        uint8_t record[1 + sizeof code + 1] = {'X'};
        memcpy(record + 1, &code, sizeof code);
        record[1 + sizeof code] = retiring;
        if (write_exactly(SERVER_SOCKET, record, sizeof record) != 0 || retiring) return 0;
    }
}

#else

int ib_server_run(const char *helper, char *const argv[], const uint8_t *data, size_t size, double time_limit,
                  size_t max_output, size_t expected_output, ib_run_result *result, char *error, size_t error_size) {
    (void)helper, (void)argv, (void)data, (void)size, (void)time_limit, (void)max_output, (void)expected_output,
        (void)result, (void)error, (void)error_size;
    return -1;
}

int ib_server_main(const char *parent_pid, ib_child_entry entry, void (*preload)(void)) {
    (void)parent_pid, (void)entry;
    return 64;
}

void ib_server_prestart(const char *helper) { (void)helper; }

#endif
