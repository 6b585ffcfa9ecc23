// CLinux: the Linux calls Swift's Glibc module does not import: timerfd (its header is not in the
// module), prctl (variadic in C) and the CPU affinity mask (GNU-only). Static inline wrappers only; nothing else goes here.
#pragma once
#include <sys/timerfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int CLinux_timerfd_create(int clockid, int flags) {
    return timerfd_create(clockid, flags);
}

static inline int CLinux_timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    return timerfd_settime(fd, flags, value, old);
}

static inline int CLinux_TFD_TIMER_ABSTIME(void) { return TFD_TIMER_ABSTIME; }

static inline int CLinux_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0UL, 0UL, 0UL);
}

static inline int CLinux_get_timer_slack(void) {
    return prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
}

/// How many CPUs the calling thread may run on (its affinity mask: `taskset -c 0` gives 1), or 1
/// when the kernel does not say.
static inline int CLinux_available_cpus(void) {
    unsigned long mask[64] = {0};
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes <= 0) return 1;
    int count = 0;
    for (long i = 0; i < bytes / (long)sizeof mask[0]; i++) count += __builtin_popcountl(mask[i]);
    return count > 0 ? count : 1;
}
