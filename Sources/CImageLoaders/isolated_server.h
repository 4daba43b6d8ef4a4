#ifndef ICONBADGE_ISOLATED_SERVER_H
#define ICONBADGE_ISOLATED_SERVER_H
// The long-lived isolated renderer behind ib_isolated_run (isolated_server.c), and
// the helpers it shares with isolated.c. Private to this module.
#include "image_loaders.h"

#include <spawn.h>

/// Runs one isolated job through this thread's renderer, as ib_isolated_run
/// describes; returns -1 (and touches nothing) when no renderer can be used here,
/// so that the caller starts a child of its own.
int ib_server_run(const char *helper, char *const argv[], const uint8_t *data, size_t size, double time_limit,
                  size_t max_output, size_t expected_output, ib_run_result *result, char *error, size_t error_size);
/// Bytes of private writable memory (VmData) a job in a renderer is not charged:
/// what the renderer grew by before the job began. 0 in a child of its own.
/// ib_set_memory_cap adds it to every cap.
extern uint64_t ib_server_memory_offset;
/// This process's VmData in bytes (0 where /proc is missing).
uint64_t ib_private_memory(void);
/// Starts `helper` with `argv` and `actions` as an isolated child: no blocked
/// signals, default actions, the environment without the Swift backtracer. Returns
/// posix_spawn's status.
int ib_spawn_isolated(const char *helper, char *const argv[], const posix_spawn_file_actions_t *actions, pid_t *pid);
/// Appends `count` bytes of a child's standard error to the tail kept in `result`.
void ib_keep_stderr_tail(ib_run_result *result, const uint8_t *bytes, size_t count);
/// CLOCK_MONOTONIC in seconds.
double ib_monotonic_seconds(void);
/// The environment pinning of ib_child_begin (locale variables removed, LC_ALL=C).
void ib_child_pin_environment(void);

#endif
