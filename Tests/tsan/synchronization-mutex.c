// Tells ThreadSanitizer about the Swift toolchain's Synchronization.Mutex on Linux, for
// `make test-tsan`, which preloads this library (LD_PRELOAD) into the test runner and the
// iconbadge processes it starts.
//
// Why: Mutex locks and unlocks with an atomic compare-and-swap inlined into our code
// (instrumented, so ThreadSanitizer sees it), but when the lock is contended it takes a
// slow path in libswiftSynchronization.so: a spin loop and the FUTEX_LOCK_PI and
// FUTEX_UNLOCK_PI system calls, none of which ThreadSanitizer sees (that library is not
// instrumented, and it has no interceptor for futexes). A thread that gets the lock
// there is not ordered after the thread that released it, and every access the Mutex
// protects is then reported as a data race: IconCache's slots, whose lock is held for a
// whole decode while other workers wait, were reported in every batch of jobs sharing
// an icon. A ten-line Swift program with two threads and one Mutex shows the same
// report when the second thread has to wait; with this library it does not, and a
// real race beside the Mutex is still reported.
//
// How: this library defines the slow-path functions itself (the same mangled names, so
// the dynamic linker binds our code's calls here), calls the real ones, and adds the
// ordering with ThreadSanitizer's own annotations: __tsan_release before an unlock,
// __tsan_acquire after a lock, both on the Mutex's address, which is also the address of
// the atomic the fast path uses. Nothing is suppressed. In a process without
// ThreadSanitizer (the weak symbols are then null) the functions only forward.
//
// If a toolchain renames these functions, this library would no longer be called and the
// false reports would come back; the constructor below refuses to run then, saying so.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

// _MutexHandle._lockSlow(_:), _tryLockSlow(), _unlockSlow(): Swift calling convention,
// `self` (the handle's address) in the Swift context register, the thread id in the
// first integer register (Swift 6.0 to 6.3, stdlib/public/Synchronization/Mutex/LinuxImpl.swift).
#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
#define SWIFTCALL __attribute__((swiftcall))
#define SELF __attribute__((swift_context))

typedef SWIFTCALL void (*lock_slow_fn)(uint32_t, void *SELF);
typedef SWIFTCALL bool (*try_lock_slow_fn)(void *SELF);
typedef SWIFTCALL void (*unlock_slow_fn)(void *SELF);

static lock_slow_fn real_lock_slow;
static try_lock_slow_fn real_try_lock_slow;
static unlock_slow_fn real_unlock_slow;

// Runs before main. Only a process that has loaded Synchronization needs the real
// functions (it would call ours through them); anything else (sh, time) forwards nothing.
__attribute__((constructor)) static void find_real_functions(void) {
    real_lock_slow = (lock_slow_fn)dlsym(RTLD_NEXT, LOCK_SLOW);
    real_try_lock_slow = (try_lock_slow_fn)dlsym(RTLD_NEXT, TRY_LOCK_SLOW);
    real_unlock_slow = (unlock_slow_fn)dlsym(RTLD_NEXT, UNLOCK_SLOW);
    bool loaded = dlsym(RTLD_DEFAULT, "$s15Synchronization12_MutexHandleVN") != NULL;
    if (loaded && !(real_lock_slow && real_try_lock_slow && real_unlock_slow)) {
        fprintf(stderr, "synchronization-mutex.c: this toolchain's libswiftSynchronization has no %s, %s or %s; "
                        "update Tests/tsan/synchronization-mutex.c for it\n",
                LOCK_SLOW, TRY_LOCK_SLOW, UNLOCK_SLOW);
        exit(70);
    }
}

SWIFTCALL void lock_slow(uint32_t self_id, void *SELF handle) __asm__(LOCK_SLOW);
SWIFTCALL void lock_slow(uint32_t self_id, void *SELF handle) {
    real_lock_slow(self_id, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFTCALL bool try_lock_slow(void *SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCALL bool try_lock_slow(void *SELF handle) {
    bool locked = real_try_lock_slow(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFTCALL void unlock_slow(void *SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCALL void unlock_slow(void *SELF handle) {
    if (__tsan_release) __tsan_release(handle);
    real_unlock_slow(handle);
}
